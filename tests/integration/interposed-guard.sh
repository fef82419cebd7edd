#!/bin/bash
# The loader guard's own calls, interposed.  A data-only object on a
# noexec mount, preloaded, comes before libc in the loader's global scope:
# its definitions of libc's names take every call the launcher makes to
# them through its PLT, the loader guard's included, and it needs no code of
# its own to do so (tests/helpers/interposer-object.py): each name is an
# offset from the object into libc, the same in every run (the loader
# maps them one below the other; the launcher's own loader prints where,
# LD_TRACE_LOADED_OBJECTS).  dl_iterate_phdr() and prctl() answered by
# libc's sched_yield() (0, and nothing done): the guard judges no object,
# and PR_GET_SECUREBITS reads 0, so nothing is enforced in a session whose
# bits are set and locked.  In trusted-python (not position independent),
# realpath() of the script's name is PyRun_SimpleString(): the name is
# run as python, under the policy file alone too.  inc, which links
# libtrustedfor.so, takes trusted_for_allow_file() itself from the object.
#
# As uid 65534, under "trusted-for run --restrict-file --deny-interactive
# --lock" (policy file "policy = 1") and under a policy file enforcing
# file,interactive, each object is refused before the launcher calls
# anything through its PLT (interpreters/common/preload_guard.c): it lies
# outside root's library directories and defines symbols.  The control,
# nothing enforced and no policy file, shows the object loads and the
# noexec script runs; an object that defines no symbol is still judged by
# the loader guard, on its mount; one that defines symbols on an exec
# mount is refused as well, since a check made through the calls it
# replaces would prove nothing.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE LD_PRELOAD LD_AUDIT LD_LIBRARY_PATH PYTHONPATH LUA_INIT LUA_INIT_5_4
if [ "$(id -u)" != 0 ]; then
	not_run "interposed loader guard" "needs root (uid 65534 and a policy file)"
	done_testing
fi
if ! make_mounts || ! set_policy_file "policy = 1"; then
	not_ok "mount the test tmpfs and show a policy file"
	done_testing
fi
# In a sanitizer build, ASan insists on coming first among the objects,
# which LD_PRELOAD changes, and its runtime moves the objects: the cases
# that place names by offset into libc run in the normal build only.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0
placed=1
ldd "$TF_BUILD/interpreters/lua/trusted-lua" | grep -q libasan && placed=
X=$TF_TMP/exec N=$TF_TMP/noexec
chmod 0755 "$TF_TMP" "$X"
chmod 1777 "$N"
gen() { /usr/bin/$TF_PYTHON "$TF_SRC/tests/helpers/interposer-object.py" "$@"; }
ENF=("$TF_BUILD/tools/trusted-for" run --restrict-file --deny-interactive --lock --)
libc=$(ls /usr/lib/*/libc.so.6 | head -n 1)
yield=$((0x$(nm -D --defined-only "$libc" | awk '$3 ~ /^sched_yield@@/ { print $1; exit }')))
printf 'print("EVIL RAN")\n' >"$N/evil.lua"
printf 'print("EVIL RAN")\n' >"$N/evil.py"
printf 'echo "EVIL RAN"\n' >"$N/evil.sh"
# The probe has names of the same lengths, used by no one: the same pages.
gen "$N/probe.so" tf_probe_unused=0 tf_pr=0 || not_ok "build the probe object"
gen "$X/probe.so" tf_probe_unused=0 tf_pr=0 || not_ok "build the probe object (exec)"
# No symbol at all: nothing to interpose.
gen "$N/plain.so" || not_ok "build the object without symbols"
chmod 0644 "$N"/* "$X"/*
# Each launcher, its path in the build and its script.
launchers="trusted-lua interpreters/lua/trusted-lua evil.lua
trusted-python interpreters/python/trusted-python evil.py
trusted-dash shells/trusted-dash evil.sh
trusted-bash shells/trusted-bash evil.sh"
stand_in="not trusted for execution: a shared object outside root's library directories, refused while anything may be enforced: it could stand in for the launcher's own functions before any check"

# The distance from a preloaded object to libc, in NAME's process.
delta() {
	as_nobody "${ENF[@]}" env LD_PRELOAD="$N/probe.so" LD_TRACE_LOADED_OBJECTS=1 "$1" |
		awk -v probe="$N/probe.so" '$1 == probe { p = $2 } $1 ~ /^libc\.so/ { l = $4 }
			END { gsub(/[()]/, "", p); gsub(/[()]/, "", l); print p, l }' |
		{ read -r p l && [ -n "$p" ] && [ -n "$l" ] && echo $((l - p)); }
}

# runs_unenforced WHAT OBJECT: with nothing enforced and no policy file,
# OBJECT preloaded loads and the noexec script runs (the control).
runs_unenforced() {
	set_policy_file -
	expect "$name, control: nothing enforced, $1 loads and the script runs" 0 "EVIL RAN" "" -- \
		as_nobody env LD_PRELOAD="$2" "$launcher" "$N/$script"
	set_policy_file "policy = 1"
}
# refused_locked WHAT OBJECT: in the locked session OBJECT is refused.
refused_locked() {
	expect "$name, locked session: $1" 126 "" "$name: $2: $stand_in" -- \
		as_nobody "${ENF[@]}" env LD_PRELOAD="$2" "$launcher" "$N/$script"
}

while read -r name path script; do
	launcher=$TF_BUILD/$path
	[ -x "$launcher" ] || continue
	runs_unenforced "the probe" "$N/probe.so"
	refused_locked "the object without the interposed names, on a noexec mount" "$N/probe.so"
	refused_locked "the same on an exec mount" "$X/probe.so"
	refused_locked "an object without symbols, refused as well" "$N/plain.so"
	[ -n "$placed" ] || continue
	d=$(delta "$launcher")
	if [ -z "$d" ] || ! gen "$N/i-$name.so" dl_iterate_phdr=$((d + yield)) prctl=$((d + yield)); then
		not_ok "$name: build the interposing object"
		continue
	fi
	chmod 0644 "$N/i-$name.so"
	runs_unenforced "the object" "$N/i-$name.so"
	refused_locked "dl_iterate_phdr and prctl interposed, the noexec script is refused" "$N/i-$name.so"
done <<<"$launchers"

# refused_both WHAT OBJECT COMMAND...: COMMAND with OBJECT preloaded must
# be refused, with nothing on standard output, under the policy file
# alone and in the locked session.  The refusal's words are the fix's.
refused_both() {
	local what=$1 object=$2
	shift 2
	local refusal="${1##*/}: $object: $stand_in"
	set_policy_file "enforce = file,interactive
policy = 1"
	expect "$what, policy file alone" 126 "" "$refusal" -- as_nobody env LD_PRELOAD="$object" "$@"
	set_policy_file "policy = 1"
	expect "$what, locked session" 126 "" "$refusal" -- \
		as_nobody "${ENF[@]}" env LD_PRELOAD="$object" "$@"
	# Each fact alone, with no policy file: the securebits, the variable.
	set_policy_file -
	expect "$what, locked session without a policy file" 126 "" "$refusal" -- \
		as_nobody "${ENF[@]}" env LD_PRELOAD="$object" "$@"
	expect "$what, TRUSTEDFOR_ENFORCE=file alone" 126 "" "$refusal" -- \
		as_nobody env TRUSTEDFOR_ENFORCE=file LD_PRELOAD="$object" "$@"
	set_policy_file "policy = 1"
}

# inc calls libtrustedfor.so's trusted_for_allow_file() through its PLT,
# the guard too: interposed, it answers 0 for the object and the script.
inc=$TF_BUILD/interpreters/inc/inc
printf '+\n' >"$N/evil.inc"
chmod 0644 "$N/evil.inc"
d=$(delta "$inc")
if [ -z "$placed" ]; then
	:
elif [ -n "$d" ] && gen "$N/i-inc.so" trusted_for_allow_file=$((d + yield)); then
	chmod 0644 "$N/i-inc.so"
	set_policy_file -
	expect "inc, control: nothing enforced, the object loads and the script runs" 0 "1" "" -- \
		as_nobody env LD_PRELOAD="$N/i-inc.so" "$inc" "$N/evil.inc"
	refused_both "inc: trusted_for_allow_file interposed, the noexec script is refused" \
		"$N/i-inc.so" "$inc" "$N/evil.inc"
else
	not_ok "inc: build the interposing object"
fi

# trusted-python is not position independent: realpath(), which it calls
# with the script's name once the interpreter runs, is PyRun_SimpleString.
py=$TF_BUILD/interpreters/python/trusted-python
if [ -n "$placed" ] && [ "$(readelf -h "$py" | awk '/Type:/ { print $2 }')" = EXEC ]; then
	run=$(nm "$py" | awk '$3 == "PyRun_SimpleString" { print $1; exit }')
	gen "$N/i-realpath.so" dl_iterate_phdr=abs:0x$(nm "$py" | awk '$3 == "_fini" { print $1; exit }') \
		realpath=abs:0x$run && chmod 0644 "$N/i-realpath.so" ||
		not_ok "build the realpath object"
	code="exec(open('$N/evil.py').read())"
	set_policy_file -
	expect "trusted-python, control: the script's name runs as python" 2 "EVIL RAN" "*" -- \
		as_nobody env LD_PRELOAD="$N/i-realpath.so" "$py" "$code"
	refused_both "trusted-python: realpath interposed, the name is not run" \
		"$N/i-realpath.so" "$py" "$code"
fi

# Root's own libraries under /usr/local (Debian's loader searches its lib
# directories first; one that stands in for a launcher's dependency must
# not lock root out) load while everything is enforced: a tmpfs over
# /usr/local in this test's namespace, an object root put there.
case "$TF_SRC/ $TF_BUILD/" in
*/usr/local/*) not_ok "root's /usr/local: the checkout or its build is under /usr/local" ;;
*)
	if mount -t tmpfs -o mode=0755 tmpfs /usr/local && mkdir /usr/local/lib &&
		gen /usr/local/lib/probe.so tf_probe_unused=0 tf_pr=0 &&
		printf 'print("ok")\n' >"$X/ok.lua" && chmod 0644 "$X/ok.lua"; then
		expect "root's /usr/local/lib: its object loads in the locked session" 0 "ok" "" -- \
			as_nobody "${ENF[@]}" env LD_PRELOAD=/usr/local/lib/probe.so \
			"$TF_BUILD/interpreters/lua/trusted-lua" "$X/ok.lua"
		cp /usr/local/lib/probe.so "$X/probe-copy.so"
		expect "root's /usr/local/lib: the same object elsewhere is refused" 126 "" \
			"trusted-lua: $X/probe-copy.so: $stand_in" -- \
			as_nobody "${ENF[@]}" env LD_PRELOAD="$X/probe-copy.so" \
			"$TF_BUILD/interpreters/lua/trusted-lua" "$X/ok.lua"
	else
		not_ok "root's /usr/local: a tmpfs over it, and an object in it"
	fi
	;;
esac

# A directory root registers elsewhere (/opt/vendor/lib in ld.so.conf.d)
# is root's when every directory on the way, and the file, is root's and
# writable by no one else, with no symbolic link: a tmpfs over /opt here.
lua_ok() {
	expect "$1" "$2" "$3" "$4" -- as_nobody "${ENF[@]}" env LD_PRELOAD="$5" \
		"$TF_BUILD/interpreters/lua/trusted-lua" "$X/ok.lua"
}
case "$TF_SRC/ $TF_BUILD/" in
*/opt/*) not_ok "root's /opt: the checkout or its build is under /opt" ;;
*)
	if [ -d /opt ] && mount -t tmpfs -o mode=0755 tmpfs /opt && mkdir -p /opt/vendor/lib &&
		gen /opt/vendor/lib/probe.so tf_probe_unused=0 tf_pr=0 &&
		ln -s vendor /opt/link; then
		lua_ok "root's /opt/vendor/lib, root's all the way: its object loads" 0 "ok" "" \
			/opt/vendor/lib/probe.so
		lua_ok "root's /opt: through a symbolic link, refused" 126 "" \
			"trusted-lua: /opt/link/lib/probe.so: $stand_in" /opt/link/lib/probe.so
		chmod g+w /opt/vendor
		lua_ok "root's /opt: a directory its group may write, refused" 126 "" \
			"trusted-lua: /opt/vendor/lib/probe.so: $stand_in" /opt/vendor/lib/probe.so
		chmod g-w /opt/vendor
		chown 65534 /opt/vendor/lib/probe.so
		lua_ok "root's /opt: a file another user owns, refused" 126 "" \
			"trusted-lua: /opt/vendor/lib/probe.so: $stand_in" /opt/vendor/lib/probe.so
	else
		not_ok "root's /opt: a tmpfs over it, and an object in it"
	fi
	;;
esac

# Ways past the preload guard for the same objects (dl_iterate_phdr and
# prctl as sched_yield, or trusted-python's realpath as
# PyRun_SimpleString), each with its control: nothing enforced, the same
# object runs the script.
#
# 1. The object's own relocations rewrite its mapped dynamic section: an
#    R_X86_64_RELATIVE entry on the tags of DT_SYMTAB and DT_GNU_HASH.
#    The loader read the section as it mapped the object and keeps the
#    hash table's address and a pointer to each entry (the value, not the
#    tag, is what it reads again); the guard walks the section as it is
#    after relocation, finds no symbol table, and lets the object pass.
# 2. The object's addresses start at minus the distance from where it is
#    mapped to the loader (which is the same in every run): the loader's
#    l_addr for it is then the loader's own base, AT_BASE, and the guard
#    takes it for the dynamic loader.
# 3. LD_LIBRARY_PATH with an empty element (":"), the current directory
#    to the loader, and the object preloaded by a name without a slash
#    (part one's object, unchanged): the loader names it as it was asked,
#    with no directory, and the guard takes a name without a slash for
#    the vDSO's.  (The loader guard's refusal of LD_LIBRARY_PATH is a
#    decision of the library's, made with prctl interposed.)
# 4. Under the policy file alone, a seccomp filter of the user's own
#    answers faccessat(F_OK) with ENOENT: the guard's one question about
#    the policy file, so it reads "nothing may be enforced" and judges no
#    object (forge-answer's faccessat rule).
#
# crafted-object.py writes the objects byte by byte (--clobber, --vaddr).
[ -n "$placed" ] || done_testing
crafted() { /usr/bin/$TF_PYTHON "$TF_SRC/tests/helpers/crafted-object.py" "$@"; }
crafted "$N/crafted-probe.so" tf_probe_unused=0 tf_pr=0 && chmod 0644 "$N/crafted-probe.so" ||
	not_ok "build the crafted probe object"

# Where the loader maps the probe, libc and itself in LAUNCHER's process,
# in a locked session: "PROBE LIBC LOADER" (ldd's start addresses).
placement() {
	as_nobody "${ENF[@]}" env LD_PRELOAD="$N/crafted-probe.so" LD_TRACE_LOADED_OBJECTS=1 "$1" |
		awk -v probe="$N/crafted-probe.so" '$1 == probe { p = $2 } $1 ~ /^libc\.so/ { l = $4 }
			$1 ~ /^\/.*ld-linux/ { d = $2 }
			END { gsub(/[()]/, "", p); gsub(/[()]/, "", l); gsub(/[()]/, "", d); print p, l, d }'
}

while read -r name path script; do
	launcher=$TF_BUILD/$path
	[ -x "$launcher" ] || continue
	read -r p l d < <(placement "$launcher")
	if [ -z "$p" ] || [ -z "$l" ] || [ -z "$d" ]; then
		not_ok "$name: where the loader maps the objects"
		continue
	fi
	p=$((p)) l=$((l)) d=$((d))
	# 1: the names relative to the object, its tags rewritten.
	crafted "$N/clobbered-$name.so" --clobber SYMTAB,GNU_HASH \
		dl_iterate_phdr=$((l - p + yield)) prctl=$((l - p + yield)) ||
		not_ok "$name: build the object that rewrites its dynamic section"
	# 2: l_addr = (AT_BASE - (d - p)) - (p - d) = AT_BASE.
	crafted "$N/at-base-$name.so" --vaddr $((p - d)) \
		dl_iterate_phdr=$((l - d + yield)) prctl=$((l - d + yield)) ||
		not_ok "$name: build the object placed at the loader's base"
	chmod 0644 "$N"/*.so
	for object in clobbered at-base; do
		set_policy_file -
		expect "$name, control: nothing enforced, the $object object loads and the script runs" \
			0 "EVIL RAN" "" -- \
			as_nobody env LD_PRELOAD="$N/$object-$name.so" "$launcher" "$N/$script"
		set_policy_file "policy = 1"
		expect "$name, locked session: the $object object is refused" 126 "" \
			"$name: $N/$object-$name.so: $stand_in" -- \
			as_nobody "${ENF[@]}" env LD_PRELOAD="$N/$object-$name.so" "$launcher" "$N/$script"
	done
	[ -r "$N/i-$name.so" ] || continue
	set_policy_file -
	expect "$name, control: nothing enforced, the object by a name without a slash runs the script" \
		0 "EVIL RAN" "" -- \
		as_nobody env -C "$N" LD_LIBRARY_PATH=: LD_PRELOAD="i-$name.so" "$launcher" "$N/$script"
	set_policy_file "policy = 1"
	expect "$name, locked session: the object by a name without a slash is refused" 126 "" \
		"$name: i-$name.so: $stand_in" -- \
		as_nobody "${ENF[@]}" env -C "$N" LD_LIBRARY_PATH=: LD_PRELOAD="i-$name.so" "$launcher" "$N/$script"
done <<<"$launchers"

# trusted-python, not position independent: realpath() of the script's
# name is PyRun_SimpleString, under the policy file alone.
py=$TF_BUILD/interpreters/python/trusted-python
if [ "$(readelf -h "$py" | awk '/Type:/ { print $2 }')" = EXEC ]; then
	fini=0x$(nm "$py" | awk '$3 == "_fini" { print $1; exit }')
	run=0x$(nm "$py" | awk '$3 == "PyRun_SimpleString" { print $1; exit }')
	crafted "$N/clobbered-realpath.so" --clobber SYMTAB,GNU_HASH \
		dl_iterate_phdr=abs:$fini realpath=abs:$run &&
		gen "$N/realpath.so" dl_iterate_phdr=abs:$fini realpath=abs:$run &&
		chmod 0644 "$N"/*.so || not_ok "build the realpath objects"
	code="exec(open('$N/evil.py').read())"
	set_policy_file -
	expect "trusted-python, control: the rewriting object runs the script's name as python" \
		2 "EVIL RAN" "*" -- as_nobody env LD_PRELOAD="$N/clobbered-realpath.so" "$py" "$code"
	set_policy_file "enforce = file,interactive
policy = 1"
	expect "trusted-python, policy file alone: the rewriting object is refused" 126 "" \
		"trusted-python: $N/clobbered-realpath.so: $stand_in" -- \
		as_nobody env LD_PRELOAD="$N/clobbered-realpath.so" "$py" "$code"
	# 4: without the filter, the same object is refused.
	forge=$TF_BUILD/tests/forge-answer
	expect "trusted-python, policy file alone: without the filter the object is refused" 126 "" \
		"trusted-python: $N/realpath.so: $stand_in" -- \
		as_nobody env LD_PRELOAD="$N/realpath.so" "$py" "$code"
	expect "trusted-python, policy file alone: faccessat forged to ENOENT, the object is still refused" \
		126 "" "trusted-python: $N/realpath.so: $stand_in" -- \
		as_nobody "$forge" faccessat=ENOENT env LD_PRELOAD="$N/realpath.so" "$py" "$code"
	set_policy_file "policy = 1"
fi

done_testing
