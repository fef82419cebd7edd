#!/bin/bash
# trusted-python: every way of getting code from an untrusted file to run,
# each asserting the exact refusal, under check policy 1 (mount) and 3
# (mount and execute permission).  Files on the noexec mount are mode 0755,
# so both policies refuse them for the mount alone.
#
# Under policy 3 Debian's standard library (mode 0644) would be refused too,
# so that half runs with a copy of it made executable and bind-mounted over
# /usr/lib/python3.11 inside the private namespace: what an administrator
# who wants policy 3 has to do (see trusted-for scan).
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# LeakSanitizer would report the interpreter's own allocations kept until exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
enter_private_namespace "$@"
make_mounts || { not_ok "make the exec and noexec mounts"; done_testing; }

PY=$TF_BUILD/interpreters/python/trusted-python
TF=$TF_BUILD/tools/trusted-for
X=$TF_TMP/exec
N=$TF_TMP/noexec
R=("$TF" run --restrict-file --)
D=("$TF" run --deny-interactive --)
RD=("$TF" run --restrict-file --deny-interactive --)
BY=securebits
# Without the exec securebits (Debian 12's 6.1) TRUSTEDFOR_ENFORCE asks the
# same of the launcher, so that every case still runs there.
if kernel_lacks exec-securebits; then
	echo "# $na_why: enforced by TRUSTEDFOR_ENFORCE instead"
	R=(env TRUSTEDFOR_ENFORCE=file)
	D=(env TRUSTEDFOR_ENFORCE=interactive)
	RD=(env TRUSTEDFOR_ENFORCE=file,interactive)
	BY=TRUSTEDFOR_ENFORCE
fi
unset PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT PYTHONSAFEPATH
export PYTHONDONTWRITEBYTECODE=1
export HOME=$X/home
mkdir -p "$HOME"

# t WHAT STATUS STDOUT STDERR COMMAND...: expect, with the command after the four.
t() { expect "$1" "$2" "$3" "$4" -- "${@:5}"; }
refused() { echo "trusted-python: $1: not trusted for execution: $2"; }
notrusted() { echo "NotTrustedError: $1: not trusted for execution: $2"; }
with_fd3() {
	local f=$1
	shift
	"$@" 3<"$f"
}
# on_terminal COMMAND...: COMMAND on a terminal (TERM=xterm, so that 3.13
# runs _pyrepl), typed two lines once it prompts: what it printed of its
# own, the terminal's echo and escapes left out, and its status.
on_terminal() {
	"/usr/bin/$TF_PYTHON" "$TF_SRC/tests/pty-type.py" '>>> ' 'print("typed", "ok")\nraise SystemExit(4)\n' \
		env TERM=xterm "$@" | sed 's/\x1b\[[?0-9;]*[a-zA-Z]//g; s/\x1b[=>]//g' |
		grep -axE 'good ran|good startup ran|evil startup ran|typed ok|trusted-python: .*'
	return "${PIPESTATUS[0]}"
}
compile_pyc() { /usr/bin/$TF_PYTHON -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' "$1" "$2"; }

# --- the files -------------------------------------------------------------
put() { printf '%s\n' "$2" >"$1" && chmod 0755 "$1"; }
put "$N/evil.py" 'print("evil ran")'
put "$X/good.py" 'print("good ran")'
put "$X/try_import.py" 'import sys
args = sys.argv[1:]
if args[0] == "--path":
    sys.path.insert(0, args[1])
    args = args[2:]
if args[0] == "--addsitedir":
    import site
    try:
        site.addsitedir(args[1])
    except ImportError as e:
        print(f"{type(e).__name__}: {e}")
        sys.exit(0)
    args = args[2:]
try:
    __import__(args[0])
except ImportError as e:
    print(f"{type(e).__name__}: {e}")
    sys.exit(0)
print("imported", args[0])'
# An import in a subinterpreter of its own: under 3.13 it has its own GIL
# and allocator (3.12's isolated config), and the checks' state is its own.
put "$X/sub_import.py" 'import sys
try:
    import _interpreters as interpreters  # 3.13
except ImportError:
    import _xxsubinterpreters as interpreters
interp = interpreters.create()
config = getattr(interpreters, "get_config", None)
if config and (config(interp).gil != "own" or config(interp).use_main_obmalloc):
    sys.exit("the subinterpreter shares the main one'"'"'s GIL or allocator")
interpreters.run_string(interp, f"""
import sys, _trustedfor
sys.path.insert(0, {sys.argv[1]!r})
try:
    __import__({sys.argv[2]!r})
except ImportError as e:
    print(f"{{type(e).__name__}}: {{e}}")
    if isinstance(e, _trustedfor.NotTrustedError):
        print("caught as its _trustedfor.NotTrustedError")
else:
    print("imported", {sys.argv[2]!r})
""")
interpreters.destroy(interp)'
ln -s "$N/evil.py" "$X/link.py"
ln "$N/evil.py" "$N/hardlink.py"
# A directory of the exec mount, seen again through a noexec bind mount.
mkdir -p "$X/dir" "$TF_TMP/noexec-view"
put "$X/dir/script.py" 'print("script ran")'
mount --bind "$X/dir" "$TF_TMP/noexec-view" &&
	mount -o remount,bind,noexec "$TF_TMP/noexec-view" ||
	not_ok "make a noexec bind mount"
# Packages, a directory with __main__, zip archives.
mkdir -p "$N/pkg" "$N/app"
put "$N/pkg/__init__.py" 'print("evil package ran")'
put "$N/app/__main__.py" 'print("evil app ran")'
(cd "$N/app" && /usr/bin/$TF_PYTHON -m zipfile -c "$N/app.zip" __main__.py)
(cd "$N" && /usr/bin/$TF_PYTHON -m zipfile -c "$N/mods.zip" evil.py)
chmod 0755 "$N/app.zip" "$N/mods.zip"
# A sourceless .pyc.
put "$N/sourceless_src.py" 'print("evil sourceless ran")'
compile_pyc "$N/sourceless_src.py" "$N/sourceless.pyc" && chmod 0755 "$N/sourceless.pyc"
# A source on the exec mount whose __pycache__ is on the noexec mount.
mkdir -p "$X/cached/__pycache__" "$N/pycache"
put "$X/cached/cmod.py" 'print("cmod ran")'
compile_pyc "$X/cached/cmod.py" "$N/pycache/cmod.$TF_PYTAG.pyc" &&
	chmod 0755 "$N/pycache/cmod.$TF_PYTAG.pyc"
mount --bind "$N/pycache" "$X/cached/__pycache__" || not_ok "bind the noexec __pycache__"
# The same cache under sys.pycache_prefix (PYTHONPYCACHEPREFIX) on the
# noexec mount, where the import system looks for it first.  Run with -S:
# with a prefix every module compiles its source, and Debian's
# sitecustomize.py is a link to /etc, 0644, which policy 3 refuses.
mkdir -p "$N/prefix$X/cached"
compile_pyc "$X/cached/cmod.py" "$N/prefix$X/cached/cmod.$TF_PYTAG.pyc" &&
	chmod 0755 "$N/prefix$X/cached/cmod.$TF_PYTAG.pyc"
# A .pth file in the user site directory of a HOME on the noexec mount.
mkdir -p "$N/home/.local/lib/$TF_PYTHON/site-packages" "$N/site"
put "$N/home/.local/lib/$TF_PYTHON/site-packages/evil.pth" 'import sys; print("evil pth ran")'
put "$N/site/evil.pth" 'import sys; print("evil pth ran")'
put "$N/startup.py" 'print("evil startup ran")'
put "$X/startup.py" 'print("good startup ran")'
# An extension module: checked on its descriptor before the dynamic loader
# maps it (tests/integration/loaders.sh: objects noexec alone does not stop).
cp /usr/lib/$TF_PYTHON/lib-dynload/xxlimited.$TF_PYTAG-x86_64-linux-gnu.so "$N/"

. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"

# --- the cases ------------------------------------------------------------
cases() {
	local p=$1 m='noexec mount'

	t "policy $p: a trusted script runs" 0 "good ran" "" "${R[@]}" "$PY" "$X/good.py"
	t "policy $p: the standard library imports" 0 "ok" "" \
		"${R[@]}" "$PY" -c 'import json, email.mime.text, asyncio, decimal, sqlite3; print("ok")'
	t "policy $p: script on a noexec mount" 126 "" "$(refused "$N/evil.py" "$m")" \
		"${R[@]}" "$PY" "$N/evil.py"
	t "policy $p: symlink on an exec mount into a noexec mount" 126 "" \
		"$(refused "$X/link.py" "$m")" "${R[@]}" "$PY" "$X/link.py"
	t "policy $p: hardlink on a noexec mount" 126 "" \
		"$(refused "$N/hardlink.py" "$m")" "${R[@]}" "$PY" "$N/hardlink.py"
	t "policy $p: noexec bind mount of an exec directory" 126 "" \
		"$(refused "$TF_TMP/noexec-view/script.py" "$m")" \
		"${R[@]}" "$PY" "$TF_TMP/noexec-view/script.py"
	t "policy $p: the same file through the exec mount runs" 0 "script ran" "" \
		"${R[@]}" "$PY" "$X/dir/script.py"
	t "policy $p: /proc/self/fd/N of a noexec file" 126 "" \
		"$(refused /proc/self/fd/3 "$m")" with_fd3 "$N/evil.py" "${R[@]}" "$PY" /proc/self/fd/3
	t "policy $p: module reached through PYTHONPATH" 0 "$(notrusted "$N/evil.py" "$m")" "" \
		env PYTHONPATH="$N" "${R[@]}" "$PY" "$X/try_import.py" evil
	t "policy $p: module reached through a sys.path edit" 0 "$(notrusted "$N/evil.py" "$m")" "" \
		"${R[@]}" "$PY" "$X/try_import.py" --path "$N" evil
	t "policy $p: package reached through a sys.path edit" 0 \
		"$(notrusted "$N/pkg/__init__.py" "$m")" "" \
		"${R[@]}" "$PY" "$X/try_import.py" --path "$N" pkg
	t "policy $p: .pth file in the user site directory" 126 "" \
		"$(refused "$N/home/.local/lib/$TF_PYTHON/site-packages/evil.pth" "$m")" \
		env HOME="$N/home" "${R[@]}" "$PY" "$X/good.py"
	t "policy $p: .pth file through site.addsitedir()" 0 "$(notrusted "$N/site/evil.pth" "$m")" "" \
		"${R[@]}" "$PY" "$X/try_import.py" --addsitedir "$N/site" json
	t "policy $p: zip archive as the script" 126 "" "$(refused "$N/app.zip" "$m")" \
		"${R[@]}" "$PY" "$N/app.zip"
	t "policy $p: directory with __main__.py as the script" 126 "" \
		"$(refused "$N/app/__main__.py" "$m")" "${R[@]}" "$PY" "$N/app"
	# A path hook that cannot open an archive makes that sys.path entry
	# empty; the import fails and the refusal is logged (here to stderr).
	set_policy_file "policy = $p
log = stderr"
	"${R[@]}" "$PY" "$X/try_import.py" --path "$N/mods.zip" evil >"$TF_TMP/out" 2>"$TF_TMP/err"
	status=$?
	if [ "$status" = 125 ] && needed_securebits "$(cat "$TF_TMP/err")"; then
		not_applicable "policy $p: zip archive on sys.path" "$na_why"
	elif [ "$status" = 0 ] &&
		[ "$(cat "$TF_TMP/out")" = "ModuleNotFoundError: No module named 'evil'" ] &&
		grep -qF "trustedfor: refused file=\"$N/mods.zip\" reason=\"noexec mount\" detail=\"$N\" policy=$p enforced-by=\"$BY\" pid=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' "$TF_TMP/err") exe=\"$PY\" path=\"$N/mods.zip\" dev=" "$TF_TMP/err"; then
		ok "policy $p: zip archive on sys.path"
	else
		not_ok "policy $p: zip archive on sys.path"
		sed 's/^/#   /' "$TF_TMP/out" "$TF_TMP/err"
	fi
	set_policy_file "policy = $p
log = none"
	t "policy $p: sourceless .pyc imported" 0 "$(notrusted "$N/sourceless.pyc" "$m")" "" \
		"${R[@]}" "$PY" "$X/try_import.py" --path "$N" sourceless
	t "policy $p: sourceless .pyc as the script" 126 "" "$(refused "$N/sourceless.pyc" "$m")" \
		"${R[@]}" "$PY" "$N/sourceless.pyc"
	# A refused cache file is a cache that cannot be read: the import
	# compiles the checked source instead (see trusted-python(1)).
	t "policy $p: __pycache__ on a noexec mount: the checked source is compiled instead" 0 \
		"cmod ran
imported cmod" "" \
		"${R[@]}" "$PY" "$X/try_import.py" --path "$X/cached" cmod
	t "policy $p: sys.pycache_prefix on a noexec mount: the checked source is compiled instead" 0 \
		"cmod ran
imported cmod" "" \
		env PYTHONPYCACHEPREFIX="$N/prefix" "${R[@]}" "$PY" -S "$X/try_import.py" --path "$X/cached" cmod
	t "policy $p: PYTHONSTARTUP on a noexec mount" 126 "" "$(refused "$N/startup.py" "$m")" \
		env PYTHONSTARTUP="$N/startup.py" "${R[@]}" "$PY" -q -i
	# On a terminal, 3.13's console after -i (_pyrepl) compiles
	# PYTHONSTARTUP itself; 3.11's does not read it.
	if [ "$TF_PYTHON" = python3.11 ]; then
		after="typed ok" status=4
	else
		after=$(refused "$N/startup.py" "$m") status=126
	fi
	t "policy $p: -i after a trusted script on a terminal, PYTHONSTARTUP on a noexec mount" \
		"$status" "good ran
$after" "" on_terminal env PYTHONSTARTUP="$N/startup.py" "${R[@]}" "$PY" -q -i "$X/good.py"
	[ "$TF_PYTHON" = python3.11 ] && after="typed ok" || after="good startup ran
typed ok"
	t "policy $p: -i after a trusted script on a terminal, PYTHONSTARTUP trusted" 4 "good ran
$after" "" on_terminal env PYTHONSTARTUP="$X/startup.py" "${R[@]}" "$PY" -q -i "$X/good.py"
	t "policy $p: -i after a trusted script on a terminal, interactive denied: refused before the script" 126 \
		"trusted-python: <stdin>: interactive code refused: not a regular file: character device" "" \
		on_terminal "${RD[@]}" "$PY" -q -i "$X/good.py"
	# 3.13's console as a program (runners.c's _pyrepl row): a prompt on
	# stdin, however it is reached.  Without the row it ran what the
	# terminal typed, and on a pipe fell back to the basic console.
	if [ "$TF_PYTHON" != python3.11 ]; then
		local how tty="trusted-python: _pyrepl: interactive code refused: not a regular file: character device"
		for how in "-m _pyrepl" "-m runpy _pyrepl" "-m cProfile -m _pyrepl" \
			"-m trace --trace --module _pyrepl" "/usr/lib/$TF_PYTHON/_pyrepl/__main__.py" \
			"-m pydoc /usr/lib/$TF_PYTHON/_pyrepl/__main__.py"; do
			# shellcheck disable=SC2086 # the words are the arguments
			t "policy $p: $how on a terminal, interactive denied" 126 "$tty" "" \
				on_terminal "${D[@]}" "$PY" -q $how
		done
		t "policy $p: -m _pyrepl on a pipe, interactive denied" 126 "" \
			"trusted-python: _pyrepl: interactive code refused: not a regular file: FIFO or pipe" \
			with_pipe 'print("evil typed ran")' "${D[@]}" "$PY" -m _pyrepl
		t "policy $p: -m _pyrepl on a terminal, files enforced only: the console runs" 4 \
			"typed ok" "" on_terminal "${R[@]}" "$PY" -q -m _pyrepl
	fi
	t "policy $p: -m naming a noexec module" 126 "" "$(refused "$N/evil.py" "$m")" \
		env PYTHONPATH="$N" "${R[@]}" "$PY" -m evil
	t "policy $p: python - < noexec file, files enforced only (stdin is interactive)" \
		0 "evil ran" "" with_stdin "$N/evil.py" "${R[@]}" "$PY" -
	t "policy $p: python - < noexec file, interactive denied" 126 "" \
		"trusted-python: <stdin>: interactive code refused: noexec mount: $N" \
		with_stdin "$N/evil.py" "${D[@]}" "$PY" -
	t "policy $p: python - < exec file, interactive denied" 0 "good ran" "" \
		with_stdin "$X/good.py" "${RD[@]}" "$PY" -
	t "policy $p: a pipe named as the script, files enforced" 126 "" \
		"trusted-python: /dev/stdin: not trusted for execution: not a regular file" \
		with_pipe 'print("evil")' "${R[@]}" "$PY" /dev/stdin
	t "policy $p: a pipe named as the script, interactive denied" 126 "" \
		"trusted-python: /dev/stdin: interactive code refused: not a regular file: FIFO or pipe" \
		with_pipe 'print("evil")' "${D[@]}" "$PY" /dev/stdin
	t "policy $p: -c, interactive denied" 126 "" "trusted-python: -c: interactive code refused" \
		"${D[@]}" "$PY" -c 'print("evil")'
	t "policy $p: -i after a trusted script, interactive denied" 126 "" \
		"trusted-python: <stdin>: interactive code refused: not a regular file: character device" \
		with_stdin /dev/null "${D[@]}" "$PY" -i "$X/good.py"
	t "policy $p: extension module on a noexec mount" 0 \
		"$(notrusted "$N/xxlimited.$TF_PYTAG-x86_64-linux-gnu.so" "$m")" "" \
		"${R[@]}" "$PY" "$X/try_import.py" --path "$N" xxlimited
	t "policy $p: a subinterpreter imports a trusted module" 0 "good ran
imported good" "" "${R[@]}" "$PY" "$X/sub_import.py" "$X" good
	t "policy $p: a subinterpreter imports a module on a noexec mount, nothing enforced" 0 \
		"evil ran
imported evil" "" "$PY" "$X/sub_import.py" "$N" evil
	t "policy $p: a subinterpreter imports a module on a noexec mount" 0 \
		"$(notrusted "$N/evil.py" "$m")
caught as its _trustedfor.NotTrustedError" "" "${R[@]}" "$PY" "$X/sub_import.py" "$N" evil
	t "policy $p: a subinterpreter imports a sourceless .pyc on a noexec mount" 0 \
		"$(notrusted "$N/sourceless.pyc" "$m")
caught as its _trustedfor.NotTrustedError" "" "${R[@]}" "$PY" "$X/sub_import.py" "$N" sourceless
	t "policy $p: a subinterpreter imports an extension module on a noexec mount" 0 \
		"$(notrusted "$N/xxlimited.$TF_PYTAG-x86_64-linux-gnu.so" "$m")
caught as its _trustedfor.NotTrustedError" "" \
		"${R[@]}" "$PY" "$X/sub_import.py" "$N" xxlimited
	# The open-code hook cannot be replaced, not even from native code.
	t "policy $p: the open-code hook cannot be replaced" 0 \
		"SystemError: failed to change existing open_code hook
$(notrusted "$N/evil.py" "$m")" "" \
		"${R[@]}" "$PY" -c 'import ctypes, sys
try:
    ctypes.pythonapi.PyFile_SetOpenCodeHook(None, None)
except SystemError as e:
    print(f"SystemError: {e}")
sys.path.insert(0, sys.argv[1])
try:
    import evil
except ImportError as e:
    print(f"{type(e).__name__}: {e}")' "$N"
	if [ "$p" = 3 ]; then
		put "$X/noperm.py" 'print("noperm ran")'
		chmod 0644 "$X/noperm.py"
		t "policy 3: script without execute permission" 126 "" \
			"$(refused "$X/noperm.py" "no execute permission")" "${R[@]}" "$PY" "$X/noperm.py"
		t "policy 3: module without execute permission" 0 \
			"$(notrusted "$X/noperm.py" "no execute permission")" "" \
			"${R[@]}" "$PY" "$X/try_import.py" --path "$X" noperm
		# CPython writes a .pyc with the source's mode less the execute
		# bits: later starts read the source instead of failing.
		mkdir -p "$X/rewritten"
		put "$X/rewritten/rmod.py" 'print("rmod ran")'
		t "policy 3: a module whose .pyc CPython writes at run time" 0 "rmod ran
imported rmod" "" env -u PYTHONDONTWRITEBYTECODE \
			"${R[@]}" "$PY" "$X/try_import.py" --path "$X/rewritten" rmod
		t "policy 3: that .pyc has no execute bit" 0 "-rw-r--r--" "" \
			stat -c %A "$X/rewritten/__pycache__/rmod.$TF_PYTAG.pyc"
		t "policy 3: the next start imports the module from its source" 0 "rmod ran
imported rmod" "" env -u PYTHONDONTWRITEBYTECODE \
			"${R[@]}" "$PY" "$X/try_import.py" --path "$X/rewritten" rmod
	fi
}

# Nothing enforced: the same files run, so the refusals above are real.
set_policy_file "policy = 1
log = none" || not_ok "policy file"
t "not enforced: script on a noexec mount runs" 0 "evil ran" "" "$PY" "$N/evil.py"
t "not enforced: module on a noexec mount imports" 0 "evil ran
imported evil" "" env PYTHONPATH="$N" "$PY" "$X/try_import.py" evil
t "not enforced: sourceless .pyc on a noexec mount imports" 0 "evil sourceless ran
imported sourceless" "" "$PY" "$X/try_import.py" --path "$N" sourceless
t "not enforced: .pth file on a noexec mount runs" 0 "evil pth ran
good ran" "" env HOME="$N/home" "$PY" "$X/good.py"

# With nothing enforced and auditing off the import system's reads skip
# the check (checks.c, nothing_to_decide); what must still hold: auditing
# logs the module that failed, TRUSTEDFOR_ENFORCE refuses it, and so do
# securebits that the program sets itself before the import.
put "$X/restrict_then_import.py" 'import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
bits = libc.prctl(27, 0, 0, 0, 0)
if bits < 0 or libc.prctl(28, bits | 0x100, 0, 0, 0) != 0:
    sys.exit(125)
sys.path.insert(0, sys.argv[1])
try:
    import evil
except ImportError as e:
    print(f"{type(e).__name__}: {e}")'
# A loader's read made while files were not enforced (nothing at all, only
# auditing, or only interactive code) passed no check: once the program
# restricts itself, compiling those bytes checks the file (checks.c,
# compiled_as_read).
put "$X/read_restrict_compile.py" 'import ctypes, importlib.machinery, sys
name = sys.argv[1]
data = importlib.machinery.SourceFileLoader("evil", name).get_data(name)
libc = ctypes.CDLL(None, use_errno=True)
bits = libc.prctl(27, 0, 0, 0, 0)
if bits < 0 or libc.prctl(28, bits | 0x100, 0, 0, 0) != 0:
    sys.exit(125)
try:
    exec(compile(data, name, "exec"))
except ImportError as e:
    print(f"{type(e).__name__}: {e}")'
# The same, with the securebits set by Python code that runs inside the
# loader's get_data(): the __del__ of the name its last read was given.
put "$X/restrict_in_get_data.py" 'import ctypes, importlib.machinery, io, sys
get_data = importlib.machinery.SourceFileLoader.get_data
name = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
class Name(str):
    def __del__(self):
        libc.prctl(28, libc.prctl(27, 0, 0, 0, 0) | 0x100, 0, 0, 0)
        try:
            io.open_code(name)
        except ImportError:
            pass
class Path:
    def __str__(self):
        return Name("/dev/null")
try:
    get_data(None, Path())
except ImportError:
    pass
try:
    exec(compile(get_data(None, name), name, "exec"))
except ImportError as e:
    print(f"{type(e).__name__}: {e}")'
# The loaders read in C: a signal still interrupts a read that waits (a FIFO
# whose writer never writes), as it does python3.11's.
put "$X/signal_in_read.py" 'import importlib.machinery, os, signal, sys
path = sys.argv[1]
os.mkfifo(path)
writer = os.open(path, os.O_RDWR)
def alarm(signum, frame):
    raise RuntimeError("interrupted")
signal.signal(signal.SIGALRM, alarm)
signal.setitimer(signal.ITIMER_REAL, 0.1)
try:
    importlib.machinery.SourceFileLoader("m", path).get_data(path)
except RuntimeError as e:
    print(e)'
set_policy_file "policy = 1
log = none" || not_ok "policy file"
t "a signal interrupts a loader's read that waits" 0 "interrupted" "" \
	timeout 60 "$PY" "$X/signal_in_read.py" "$X/fifo.py"
set_policy_file "policy = 1
audit = on
log = stderr" || not_ok "policy file"
t "not enforced, audited: module on a noexec mount imports" 0 "evil ran
imported evil" "*" env PYTHONPATH="$N" "$PY" "$X/try_import.py" evil
audit_line="trustedfor: audit file=\"$N/evil.py\" reason=\"noexec mount\" detail=\"$N\" policy=1 enforced-by=\"none\" pid=PID exe=\"$PY\" path=\"$N/evil.py\" dev=DEV ino=INO"
# Once: the import's read.  The rule for code compiled under a file's name
# knows the bytes the loader read (runners.c) and does not check it again.
expect_logged "not enforced, audited: ... and the import is logged once" "$audit_line"
set_policy_file "policy = 1
log = none" || not_ok "policy file"
t "not enforced by the file, TRUSTEDFOR_ENFORCE=file: module on a noexec mount" 0 \
	"$(notrusted "$N/evil.py" "noexec mount")" "" \
	env TRUSTEDFOR_ENFORCE=file PYTHONPATH="$N" "$PY" "$X/try_import.py" evil
if kernel_lacks exec-securebits; then
	not_applicable "securebits the program sets itself, then a module on a noexec mount" "$na_why"
else
	t "securebits the program sets itself, then a module on a noexec mount" 0 \
		"$(notrusted "$N/evil.py" "noexec mount")" "" "$PY" "$X/restrict_then_import.py" "$N"
fi
for config in "nothing enforced" "audit = on" "enforce = interactive"; do
	what="a module read while files were not enforced ($config), compiled after the program restricts itself"
	if kernel_lacks exec-securebits; then
		not_applicable "$what" "$na_why"
		continue
	fi
	set_policy_file "policy = 1
log = none
${config/nothing enforced/}" || not_ok "policy file"
	t "$what" 0 "$(notrusted "$N/evil.py" "noexec mount")" "" \
		"$PY" "$X/read_restrict_compile.py" "$N/evil.py"
done
if kernel_lacks exec-securebits; then
	not_applicable "securebits set by code that runs inside the loader's read, then its bytes compiled" "$na_why"
else
	set_policy_file "policy = 1
log = none" || not_ok "policy file"
	t "securebits set by code that runs inside the loader's read, then its bytes compiled" 0 \
		"$(notrusted "$N/evil.py" "noexec mount")" "" "$PY" "$X/restrict_in_get_data.py" "$N/evil.py"
fi

cases 1

# The tamper check: the launcher's guard for sourceless files is a method of
# SourcelessFileLoader; replacing it is trusted code choosing to run
# untrusted bytes, like exec(open(f).read()), and is documented as such.

set_policy_file "policy = 3
log = none" || not_ok "policy file"
# CPython dumps its path configuration when the codecs cannot be imported;
# the launcher holds that back: the refusal is one line.
t "policy 3: Debian's standard library (mode 0644) is refused, in one line" 126 "" \
	"$(refused /usr/lib/$TF_PYTHON/encodings/__init__.py "no execute permission")" \
	"${R[@]}" "$PY" -S -c pass
if trusted_stdlib "$X"; then
	cases 3
else
	not_ok "policy 3: make an executable copy of the standard library"
fi

done_testing
