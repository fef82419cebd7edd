#!/bin/bash
# The dynamic loader is an interpreter too.  A data-only shared object (no
# executable segment: it maps from a noexec mount) runs code through its
# init array, which points at a function of a library it depends on:
# libpython's Py_BytesMain runs the process's own argv as a python command
# line (N/evil.py), libc's _exit ends the process with status argc.  The
# objects are built here (tests/data-only-object.py).
#
# Every way a launcher maps a shared object, under
# "trusted-for run --restrict-file --deny-interactive --lock" with a policy
# file that enforces file,interactive, as root and as uid 65534, under check
# policy 1 and 3: each is refused with the exact message.  The same commands
# without enforcement run the object's code, so the refusals are real.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }

export LC_ALL=C PYTHONDONTWRITEBYTECODE=1
# In a sanitizer build, ASan insists on coming first among the objects
# mapped, which LD_PRELOAD changes; the interpreter keeps its allocations.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH \
	LUA_CPATH_5_4 PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT \
	PYTHONSAFEPATH LD_PRELOAD LD_AUDIT GCONV_PATH OPENSSL_CONF OPENSSL_CONF_INCLUDE \
	OPENSSL_MODULES OPENSSL_ENGINES
lua=$TF_BUILD/interpreters/lua/trusted-lua
py=$TF_BUILD/interpreters/python/trusted-python
inc=$TF_BUILD/interpreters/inc/inc
tf=$TF_BUILD/tools/trusted-for
shim_lua=$TF_BUILD/bench/trusted-lua-shim
X=$TF_TMP/exec N=$TF_TMP/noexec
export HOME=$X/home
mkdir -p "$HOME"
ENF=("$tf" run --restrict-file --deny-interactive --lock --)
not="not trusted for execution"
pyext=pwn.$TF_PYTAG-x86_64-linux-gnu.so
ldso=$(readlink -f /lib64/ld-linux-x86-64.so.2)
liblua=$(ls /usr/lib/*/liblua5.4.so.0 | head -n 1)
libm=$(ls /usr/lib/*/libm.so.6 | head -n 1)

# --- the objects and the scripts ------------------------------------------
gen() { /usr/bin/$TF_PYTHON "$TF_SRC/tests/data-only-object.py" "$@"; }
gen "$N/pwn.so" lib$TF_PYTHON.so.1.0 Py_BytesMain &&
	cp "$N/pwn.so" "$N/a.so" &&
	cp "$N/pwn.so" "$N/liblua5.4.so.0" &&
	gen "$N/exit.so" libc.so.6 _exit &&
	cp "$N/exit.so" "$N/$pyext" &&
	gen "$N/first.so" lib$TF_PYTHON.so.1.0 Py_BytesMain initfirst &&
	gen "$N/first-exit.so" libc.so.6 _exit initfirst &&
	gen "$N/hidden.so" lib$TF_PYTHON.so.1.0 Py_BytesMain initfirst-hidden &&
	gen "$N/hidden-exit.so" libc.so.6 _exit initfirst-hidden &&
	mkdir "$N/first" && cp "$N/first.so" "$N/first/liblua5.4.so.0" &&
	mkdir "$N/bare" && cp "$N/pwn.so" "$N/hidden.so" "$N/bare" ||
	not_ok "build the data-only objects"
# Where libc's abort() lies from a preloaded object, in trusted-lua: seen
# from a harmless one (its initialiser is getpid()) on the exec mount.  Not
# in a sanitizer build, whose runtime moves the objects of the process it
# starts in.
abort_so=
ldd "$lua" | grep -q libasan || abort_so=$N/abort.so
if [ -n "$abort_so" ]; then
	gen "$X/probe.so" libc.so.6 getpid && chmod 0755 "$X/probe.so" &&
		abort_offset=$(LD_PRELOAD="$X/probe.so" "$lua" -e \
			'io.write(io.open("/proc/self/maps"):read("a"))' | awk -v probe="$X/probe.so" '
			$6 == probe && !p { p = $1 }
			$6 ~ /\/libc\.so\.6$/ && !l { l = $1; file = $6 }
			END { sub(/-.*/, "", p); sub(/-.*/, "", l); print p, l, file }') &&
		read -r probe_at libc_at libc_file <<<"$abort_offset" &&
		abort_at=$(nm -D --defined-only "$libc_file" | awk '$3 ~ /^abort(@|$)/ { print $1; exit }') &&
		[ -n "$abort_at" ] &&
		gen "$abort_so" libc.so.6 getpid \
			"irelative=$((0x$libc_at - 0x$probe_at + 0x$abort_at))" ||
		not_ok "build the object whose relocation calls abort()"
fi
printf 'import os\nos.write(1, b"EVIL RAN\\n")\nos._exit(42)\n' >"$N/evil.py"
# OpenSSL's configuration names a provider module that libcrypto dlopen()s
# itself, when Python's hashlib loads it: exit.so's initialiser runs.
printf 'openssl_conf = i\n[i]\nproviders = p\n[p]\nx = x\ndefault = d\n[d]\nactivate = 1\n[x]\nmodule = %s\nactivate = 1\n' \
	"$N/exit.so" >"$N/openssl.cnf"
chmod 0755 "$N"/* "$N"/first/*
printf 'require("pwn")\nprint("not reached")\n' >"$X/req.lua"
printf 'print(package.loadlib(os.getenv("OBJ"), "*"))\n' >"$X/loadlib.lua"
printf 'print("ok")\n' >"$X/ok.lua"
printf 'print(pcall(require, "pwn"))\n' >"$X/pcall.lua"
printf 'for i = 1, 1000 do assert(package.loadlib(os.getenv("OBJ"), "*")) end\nprint("ok")\n' \
	>"$X/loadlib-loop.lua"
printf 'import _json, math\nprint("ok")\n' >"$X/ok.py"
printf 'import hashlib\nprint("ok")\n' >"$X/hash.py"
printf '%s\n' 'import sys' 'sys.path.insert(0, sys.argv[1])' 'try:' '    import pwn' \
	'except ImportError as e:' '    print(f"{type(e).__name__}: {e}")' '    sys.exit(0)' \
	'print("not reached")' >"$X/imp.py"
# A real shared object, executable and not.
cp "$liblua" "$X/lib.so" && cp "$liblua" "$X/noperm.so"
chmod 0755 "$X"/* && chmod 0644 "$X/noperm.so"

# The shells, where this build has them (a sanitizer build does not).
shells=
for sh in dash bash; do
	[ -x "$TF_BUILD/shells/trusted-$sh" ] && shells="$shells $sh"
done
as_root() { "$@"; }
# The loader's warning for a replaced liblua without symbol versions: it
# maps the object, then the launcher's first code runs.
nover="$lua: $N/liblua5.4.so.0: no version information available (required by $lua)"
# While anything may be enforced (here: a policy file, the securebits, or
# TRUSTEDFOR_ENFORCE), every object from outside root's library
# directories is refused before its flags, symbols or initialisers count
# (interpreters/common/preload_guard.c); nothing enforced and no policy
# file, the guards judge what the object shows.
outside="not trusted for execution: a shared object outside root's library directories, refused while anything may be enforced: it could stand in for the launcher's own functions before any check"
# e WHAT STATUS STDOUT STDERR COMMAND...
e() { expect "$who, policy $p: $1" "$2" "$3" "$4" -- "${@:5}"; }

# The attacks without enforcement: the object's code runs.
controls() {
	local as=as_$who
	e "control: LUA_CPATH -lpwn runs the object" 42 "EVIL RAN" "*" \
		$as env LUA_CPATH="$N/?.so" "$lua" -W -lpwn "$N/evil.py"
	e "control: require 'a.b' (all-in-one searcher) runs it" 42 "EVIL RAN" "*" \
		$as env LUA_CPATH="$N/?.so" "$lua" -W -la.b "$N/evil.py"
	e "control: package.loadlib runs it" 42 "EVIL RAN" "*" \
		with_stdin "$N/evil.py" $as env OBJ="$N/pwn.so" "$lua" -W "$X/loadlib.lua"
	e "control: a trusted script's require runs it" 42 "EVIL RAN" "*" \
		with_stdin "$N/evil.py" $as env LUA_CPATH="$N/?.so" "$lua" -W "$X/req.lua"
	e "control: a python extension module runs it (_exit(argc))" 3 "" "" \
		$as "$py" "$X/imp.py" "$N"
	e "control: LD_PRELOAD into trusted-lua runs it" 42 "EVIL RAN" "" \
		$as env LD_PRELOAD="$N/pwn.so" "$lua" "$N/evil.py"
	e "control: LD_PRELOAD into inc runs it" 42 "EVIL RAN" "" \
		$as env LD_PRELOAD="$N/pwn.so" "$inc" "$N/evil.py"
	for sh in $shells; do
		e "control: LD_PRELOAD into trusted-$sh runs it" 42 "EVIL RAN" "" \
			$as env LD_PRELOAD="$N/pwn.so" "$TF_BUILD/shells/trusted-$sh" "$N/evil.py"
	done
	e "control: LD_PRELOAD into trusted-python runs it (_exit(argc))" 2 "" "" \
		$as env LD_PRELOAD="$N/exit.so" "$py" "$X/ok.py"
	e "control: OPENSSL_CONF into trusted-python runs it (_exit(argc))" 2 "" "" \
		$as env OPENSSL_CONF="$N/openssl.cnf" "$py" "$X/hash.py"
	e "control: LD_LIBRARY_PATH replaces liblua" 42 "EVIL RAN" "$nover" \
		$as env LD_LIBRARY_PATH="$N" "$lua" "$N/evil.py"
	# An object marked to initialise first runs before any preinit array,
	# so the launchers refuse it earlier, and whatever is enforced.
	e "control: an object that initialises first runs in /bin/true" 42 "EVIL RAN" "" \
		$as env LD_PRELOAD="$N/first.so" /bin/true "$N/evil.py"
	e "control: so does one whose mark its relocation rewrote in memory" 42 "EVIL RAN" "" \
		$as env LD_PRELOAD="$N/hidden.so" /bin/true "$N/evil.py"
	# LD_LIBRARY_PATH's empty element is the current directory ($N/bare,
	# which has no liblua): the loader names an object found there as it
	# was asked, without a slash.
	e "control: so does it by a name without a slash" 42 "EVIL RAN" "" \
		$as env -C "$N/bare" LD_LIBRARY_PATH=: LD_PRELOAD=hidden.so /bin/true "$N/evil.py"
	e "control: ld.so --library-path : --preload pwn.so into trusted-lua runs it" 42 "EVIL RAN" "" \
		$as env -C "$N/bare" "$ldso" --library-path : --preload pwn.so "$lua" "$N/evil.py"
	initfirst_cases
}

# Refused in every launcher with nothing enforced, and with everything:
# first.so, and hidden.so, whose relocation rewrites its mark in memory
# after the loader read it (the launchers read the file as well).
initfirst_cases() {
	local as=as_$who
	local why="$not: it asks to be initialised before the program's checks (DF_1_INITFIRST)"
	local enf=() obj

	if [ "$enforced" = yes ]; then
		enf=("${ENF[@]}")
		why=$outside
	fi
	for obj in first hidden; do
		e "enforced $enforced: LD_PRELOAD of $obj.so (initialises first), into trusted-lua" \
			126 "" "trusted-lua: $N/$obj.so: $why" \
			$as "${enf[@]}" env LD_PRELOAD="$N/$obj.so" "$lua" "$N/evil.py"
		e "enforced $enforced: $obj.so into inc" 126 "" "inc: $N/$obj.so: $why" \
			$as "${enf[@]}" env LD_PRELOAD="$N/$obj.so" "$inc" "$N/evil.py"
		for sh in $shells; do
			e "enforced $enforced: $obj.so into trusted-$sh" 126 "" \
				"trusted-$sh: $N/$obj.so: $why" \
				$as "${enf[@]}" env LD_PRELOAD="$N/$obj.so" \
				"$TF_BUILD/shells/trusted-$sh" "$N/evil.py"
		done
		e "enforced $enforced: $obj-exit.so into trusted-python" 126 "" \
			"trusted-python: $N/$obj-exit.so: $why" \
			$as "${enf[@]}" env LD_PRELOAD="$N/$obj-exit.so" "$py" "$X/ok.py"
	done
	# A name without a slash is not the vDSO's: the object is judged too.
	e "enforced $enforced: hidden.so by a name without a slash (LD_LIBRARY_PATH=:)" 126 "" \
		"trusted-lua: hidden.so: $why" \
		$as "${enf[@]}" env -C "$N/bare" LD_LIBRARY_PATH=: LD_PRELOAD=hidden.so "$lua" "$N/evil.py"
	e "enforced $enforced: first.so through ld.so --preload" 126 "" \
		"${ldso##*/}: $N/first.so: $why" \
		$as "${enf[@]}" "$ldso" --preload "$N/first.so" "$lua" "$N/evil.py"
	e "enforced $enforced: first.so as liblua through LD_LIBRARY_PATH" 126 "" \
		"$lua: $N/first/liblua5.4.so.0: no version information available (required by $lua)
trusted-lua: $N/first/liblua5.4.so.0: $why" \
		$as "${enf[@]}" env LD_LIBRARY_PATH="$N/first" "$lua" "$N/evil.py"
}

cases() {
	local as=as_$who
	local lua_no="trusted-lua: $N/pwn.so: $not: noexec mount"
	local var="$not: a loader variable, refused under file enforcement"

	initfirst_cases

	# Lua: the C searcher, the all-in-one searcher, package.loadlib.
	e "LUA_CPATH -lpwn" 126 "" "$lua_no" \
		$as "${ENF[@]}" env LUA_CPATH="$N/?.so" "$lua" -W -lpwn "$N/evil.py"
	e "require 'a.b' through the all-in-one searcher" 126 "" \
		"trusted-lua: $N/a.so: $not: noexec mount" \
		$as "${ENF[@]}" env LUA_CPATH="$N/?.so" "$lua" -W -la.b "$N/evil.py"
	e "package.loadlib" 126 "" "$lua_no" \
		with_stdin "$N/evil.py" $as "${ENF[@]}" env OBJ="$N/pwn.so" "$lua" -W "$X/loadlib.lua"
	e "a trusted script's require" 126 "" "$lua_no" \
		with_stdin "$N/evil.py" $as "${ENF[@]}" env LUA_CPATH="$N/?.so" "$lua" -W "$X/req.lua"
	e "the refusal of a C module is a Lua error" 0 "false	$N/pwn.so: $not: noexec mount" "" \
		$as "${ENF[@]}" env LUA_CPATH="$N/?.so" "$lua" "$X/pcall.lua"
	e "a trusted C module loads" 0 "true" "" \
		$as "${ENF[@]}" env OBJ="$X/lib.so" "$lua" "$X/loadlib.lua"
	e "the same C module loaded again keeps no descriptor" 0 "ok" "" \
		$as "${ENF[@]}" env OBJ="$X/lib.so" prlimit --nofile=64 "$lua" "$X/loadlib-loop.lua"
	# Python: extension modules on every import path.
	e "python extension module on sys.path" 0 \
		"NotTrustedError: $N/$pyext: $not: noexec mount" "" \
		$as "${ENF[@]}" "$py" "$X/imp.py" "$N"
	e "python extension module on PYTHONPATH" 0 \
		"NotTrustedError: $N/$pyext: $not: noexec mount" "" \
		$as "${ENF[@]}" env PYTHONPATH="$N" "$py" "$X/imp.py" "$X"
	e "python's own extension modules load" 0 "ok" "" \
		$as "${ENF[@]}" "$py" "$X/ok.py"
	# The loader's variables, into every launcher.
	e "LD_PRELOAD into trusted-lua" 126 "" "trusted-lua: $N/pwn.so: $outside" \
		$as "${ENF[@]}" env LD_PRELOAD="$N/pwn.so" "$lua" "$N/evil.py"
	e "LD_PRELOAD into inc" 126 "" "inc: $N/pwn.so: $outside" \
		$as "${ENF[@]}" env LD_PRELOAD="$N/pwn.so" "$inc" "$N/evil.py"
	# The guard runs before libc sets environ: TRUSTEDFOR_ENFORCE still
	# counts, with no policy file and no securebits.
	set_policy_file -
	e "LD_PRELOAD into inc, enforced by TRUSTEDFOR_ENFORCE alone" 126 "" \
		"inc: $N/pwn.so: $outside" \
		$as env TRUSTEDFOR_ENFORCE=file LD_PRELOAD="$N/pwn.so" "$inc" "$N/evil.py"
	set_policy_file "policy = $p
enforce = file,interactive" || not_ok "policy file"
	for sh in $shells; do
		e "LD_PRELOAD into trusted-$sh" 126 "" "trusted-$sh: $N/pwn.so: $outside" \
			$as "${ENF[@]}" env LD_PRELOAD="$N/pwn.so" "$TF_BUILD/shells/trusted-$sh" "$N/evil.py"
	done
	e "LD_PRELOAD into trusted-python" 126 "" \
		"trusted-python: $N/exit.so: $outside" \
		$as "${ENF[@]}" env LD_PRELOAD="$N/exit.so" "$py" "$X/ok.py"
	e "ld.so --preload into trusted-lua" 126 "" "${ldso##*/}: $N/pwn.so: $outside" \
		$as "${ENF[@]}" "$ldso" --preload "$N/pwn.so" "$lua" "$N/evil.py"
	e "ld.so --library-path : --preload pwn.so (a name without a slash) into trusted-lua" 126 "" \
		"${ldso##*/}: pwn.so: $outside" \
		$as "${ENF[@]}" env -C "$N/bare" "$ldso" --library-path : --preload pwn.so "$lua" "$N/evil.py"
	e "LD_LIBRARY_PATH into trusted-lua" 126 "" "$nover
trusted-lua: $N/liblua5.4.so.0: $outside" \
		$as "${ENF[@]}" env LD_LIBRARY_PATH="$N" "$lua" "$N/evil.py"
	e "LD_LIBRARY_PATH into inc" 126 "" "inc: LD_LIBRARY_PATH: $var" \
		$as "${ENF[@]}" env LD_LIBRARY_PATH="$N" "$inc" "$N/evil.py"
	e "LD_LIBRARY_PATH into trusted-python" 126 "" "trusted-python: LD_LIBRARY_PATH: $var" \
		$as "${ENF[@]}" env LD_LIBRARY_PATH="$N" "$py" "$X/ok.py"
	e "GCONV_PATH into trusted-lua" 126 "" "trusted-lua: GCONV_PATH: $var" \
		$as "${ENF[@]}" env GCONV_PATH="$N" "$lua" "$X/ok.lua"
	e "OPENSSL_CONF into trusted-python" 126 "" "trusted-python: OPENSSL_CONF: $var" \
		$as "${ENF[@]}" env OPENSSL_CONF="$N/openssl.cnf" "$py" "$X/hash.py"
	for v in OPENSSL_CONF_INCLUDE OPENSSL_MODULES OPENSSL_ENGINES; do
		e "$v into trusted-python" 126 "" "trusted-python: $v: $var" \
			$as "${ENF[@]}" env "$v=$N" "$py" "$X/hash.py"
	done
	e "OPENSSL_CONF into inc" 126 "" "inc: OPENSSL_CONF: $var" \
		$as "${ENF[@]}" env OPENSSL_CONF="$N/openssl.cnf" "$inc" "$X/ok.lua"
	# What still gets through: the loader runs an audit object's
	# initialisers before any code of the program (docs/interpreters-security.md).
	e "known gap: LD_AUDIT runs before the launcher can refuse" 42 "EVIL RAN" "*" \
		$as "${ENF[@]}" env LD_AUDIT="$N/pwn.so" "$lua" "$N/evil.py"
	# Nor can anything come before the loader's relocation of a preloaded
	# object: an IRELATIVE relocation is a call to an address the object
	# chooses, here libc's abort(): the status is SIGABRT's (128 + 6), the
	# only line on stderr the shell's word for it.
	[ -z "$abort_so" ] ||
		e "known gap: a preloaded object's relocation calls abort() first" 134 "" "*" \
			$as "${ENF[@]}" env LD_PRELOAD="$abort_so" "$lua" "$X/ok.lua"
	# The prototype of what would close LD_AUDIT (bench/loaders/ld-shim.c, in
	# PT_INTERP): the audit object never reaches the loader.  Not built in
	# a sanitizer build, whose runtime cannot follow a freestanding start.
	if [ -x "$shim_lua" ]; then
		e "prototype PT_INTERP: LD_AUDIT never reaches the loader" 126 "" \
			"trusted-lua-shim: $N/evil.py: $not: noexec mount" \
			$as "${ENF[@]}" env LD_AUDIT="$N/pwn.so" "$shim_lua" "$N/evil.py"
	fi
	# And any other dynamically linked program, enlightened or not.
	e "known gap: LD_PRELOAD into /bin/true runs the object" 42 "EVIL RAN" "" \
		$as "${ENF[@]}" env LD_PRELOAD="$N/pwn.so" /bin/true "$N/evil.py"
	if [ "$p" = 1 ]; then
		# Debian's libraries are mode 0644: under policy 3 they fail.
		e "LD_PRELOAD of a system library runs" 0 "ok" "" \
			$as "${ENF[@]}" env LD_PRELOAD="$libm" "$lua" "$X/ok.lua"
	fi
	if [ "$p" = 3 ]; then
		e "a C module without execute permission" 126 "" \
			"trusted-lua: $X/noperm.so: $not: no execute permission" \
			$as "${ENF[@]}" env OBJ="$X/noperm.so" "$lua" "$X/loadlib.lua"
	fi
}

. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"
for p in 1 3; do
	if [ "$p" = 3 ] && ! trusted_stdlib "$X"; then
		not_ok "policy 3: make an executable copy of the standard library"
		continue
	fi
	for who in root nobody; do
		set_policy_file - || not_ok "no policy file"
		enforced=no
		controls
		set_policy_file "policy = $p
enforce = file,interactive" || not_ok "policy file"
		enforced=yes
		cases
	done
done
done_testing
