#!/bin/bash
# trusted-python with nothing enforced behaves as Debian's python3.11: each
# case runs both and compares exit status, stdout and stderr, after writing
# both interpreters' paths as PYTHON.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# LeakSanitizer would report the interpreter's own allocations kept until exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
enter_private_namespace "$@"

PY=$TF_BUILD/interpreters/python/trusted-python
REF=/usr/bin/$TF_PYTHON
W=$TF_TMP/work
mkdir -p "$W"
cd "$W" || exit 1
unset PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT PYTHONSAFEPATH
export PYTHONDONTWRITEBYTECODE=1 HOME=$W
set_policy_file "policy = 3
enforce = none
audit = off
log = none" || not_ok "policy file"

# same WHAT [STDIN-FILE] -- ARGS...: both interpreters, same everything.
same() {
	local what=$1 in=/dev/null
	shift
	if [ "$1" != -- ]; then
		in=$1
		shift
	fi
	shift
	"$REF" "$@" <"$in" >"$TF_TMP/ref.out" 2>"$TF_TMP/ref.err"
	local ref_status=$?
	"$PY" "$@" <"$in" >"$TF_TMP/tp.out" 2>"$TF_TMP/tp.err"
	local tp_status=$?
	local n
	for n in ref tp; do
		sed -e "s|$PY|PYTHON|g" -e "s|$REF|PYTHON|g" \
			-e 's|\btrusted-python\b|PYTHON|g' -e "s|\\b${TF_PYTHON//./\\.}\\b|PYTHON|g" \
			"$TF_TMP/$n.out" "$TF_TMP/$n.err" >"$TF_TMP/$n.all"
	done
	if [ "$ref_status" = "$tp_status" ] && cmp -s "$TF_TMP/ref.all" "$TF_TMP/tp.all"; then
		ok "$what (status $tp_status)"
	else
		not_ok "$what"
		echo "#   $TF_PYTHON status $ref_status, trusted-python status $tp_status"
		diff "$TF_TMP/ref.all" "$TF_TMP/tp.all" | sed 's/^/#   /'
	fi
}

cat >"$W/show.py" <<'EOF'
import sys
print(__name__, __file__, sys.argv, sys.path[0], sys.flags)
print(sys.prefix, sys.base_prefix, sys.exec_prefix, sys.path[1:])
print(sys.orig_argv[1:])
EOF
printf 'import sys\nsys.exit(3)\n' >"$W/exit3.py"
printf 'def f():\n    raise ValueError("boom")\nf()\n' >"$W/raise.py"
printf 'print("unterminated\n' >"$W/syntax.py"
printf 'garbage line for -x\nimport sys; print("x ok", sys.argv)\n' >"$W/dashx.py"
printf 'raise KeyboardInterrupt\n' >"$W/kbd.py"
mkdir -p "$W/app"
printf 'print("main of dir", __file__)\n' >"$W/app/__main__.py"
(cd "$W/app" && "$REF" -m zipfile -c "$W/app.zip" __main__.py)
mkdir -p "$W/nomain"
printf 'print("pyc main", __name__, __file__)\n' >"$W/pycsrc.py"
"$REF" -c 'import py_compile; py_compile.compile("pycsrc.py", cfile="pycmain.pyc", doraise=True)'
cp "$W/pycmain.pyc" "$W/pycmain.bin"
mkdir -p "$W/pkg"
printf 'print("pkg main", __name__)\n' >"$W/pkg/__main__.py"
: >"$W/pkg/__init__.py"
printf 'print("startup ran")\n' >"$W/startup.py"
printf 'import os\nos.environ["PYTHONINSPECT"] = "1"\nprint("set inspect")\n' >"$W/setinspect.py"
printf 'x = 6 * 7\nprint(x)\n' >"$W/stdin.py"

same "script: __file__, argv, sys.path, sys.flags, prefixes" -- show.py a b
same "script by absolute path" -- "$W/show.py"
same "script, -E -s -B -O -W error -X utf8" -- -E -s -B -O -W error -X utf8 show.py
same "script, -I" -- -I show.py
same "script, -S" -- -S show.py
same "script, -P" -- -P show.py
same "script, -u -R -b -d" -- -u -R -b show.py
same "-c: argv and sys.path" -- -c 'import sys; print(sys.argv, repr(sys.path[0]), sys.flags)' x y
same "-m: argv and sys.path" -- -m show a
same "-m package with __main__" -- -m pkg
same "-m json.tool" "$W/stdin.py" -- -c 'import json; print(json.dumps({"a": [1, 2]}))'
same "-m of a missing module" -- -m no_such_module
same "missing script" -- no_such_file.py
same "directory without __main__" -- nomain
same "directory with __main__" -- app
same "zip with __main__" -- app.zip
same ".pyc as the script" -- pycmain.pyc
same ".pyc without the suffix, found by its magic" -- pycmain.bin
same "sys.exit(3)" -- exit3.py
same "uncaught exception" -- raise.py
same "syntax error" -- syntax.py
same "-x skips the first line" -- -x dashx.py q
same "stdin from a file" "$W/stdin.py" --
same "stdin from a file, named -" "$W/stdin.py" -- - arg
same "-i after a script, stdin a file" "$W/stdin.py" -- -i exit3.py
same "PYTHONINSPECT set by the script" "$W/stdin.py" -- setinspect.py
same "-i with PYTHONSTARTUP, stdin a file" "$W/stdin.py" -- -q -i
same "-V" -- -V
same "-VV" -- -VV
same "--help" -- --help
same "unknown option" -- --no-such-option
same "audit events of imports, open events with their paths" -- -c '
import sys
events = []
sys.addaudithook(lambda e, a: events.append((e, a if e in ("open", "import") else None)))
import json.tool, zipfile, email.mime.text
# An extension module is loaded from its checked descriptor, and its
# import event names that: /proc/self/fd/N (see docs/interpreters-security.md).
def shown(e, a):
    if e == "import" and a[1] and (a[1].endswith(".so") or a[1].startswith("/proc/self/fd/")):
        return a[:1]
    return a[:2] if a else ""
for e in events:
    print(e[0], shown(*e))'
same "-c with SystemExit('message')" -- -c 'raise SystemExit("bye")'

# PYTHONSTARTUP is read for an interactive stdin only.
export PYTHONSTARTUP=$W/startup.py
same "PYTHONSTARTUP with -i" "$W/stdin.py" -- -i
same "PYTHONSTARTUP ignored for a script" -- exit3.py
unset PYTHONSTARTUP

# Ctrl-C: both die of SIGINT.
same "unhandled KeyboardInterrupt" -- kbd.py

# The console on a terminal: python3.13 runs _pyrepl (which, on a dumb
# terminal, says it falls back to its own simple console), unless
# PYTHON_BASIC_REPL asks for the basic one; python3.11 has the basic one
# alone.  Typed to once the prompt shows; the terminal's escapes dropped.
# same_on_pty WHAT KEYS [NAME=VALUE...] -- ARGS...: both interpreters, on a
# terminal, with those variables set.
same_on_pty() {
	local what=$1 keys=$2 n py vars=()
	shift 2
	while [ "$1" != -- ]; do
		vars+=("$1")
		shift
	done
	shift
	for n in ref tp; do
		[ "$n" = ref ] && py=$REF || py=$PY
		"/usr/bin/$TF_PYTHON" "$TF_SRC/tests/pty-type.py" '>>> ' "$keys" \
			env TERM=dumb "${vars[@]}" "$py" "$@" 2>&1 |
			sed -e 's/\x1b\[[?0-9;]*[a-zA-Z]//g' -e "s|$PY|PYTHON|g" -e "s|$REF|PYTHON|g" >"$TF_TMP/$n.all"
		echo "status ${PIPESTATUS[0]}" >>"$TF_TMP/$n.all"
	done
	if cmp -s "$TF_TMP/ref.all" "$TF_TMP/tp.all"; then
		ok "$what"
	else
		not_ok "$what"
		diff "$TF_TMP/ref.all" "$TF_TMP/tp.all" | sed 's/^/#   /'
	fi
}
CONSOLE_KEYS='import sys; print("pyrepl:", "_pyrepl.main" in sys.modules, sys.flags.inspect)\nraise SystemExit(4)\n'
[ "$TF_PYTHON" = python3.11 ] && console=False || console=True
for basic in "" 1; do
	[ -n "$basic" ] && b=", PYTHON_BASIC_REPL=1" shown=False || b="" shown=$console
	same_on_pty "the console on a terminal$b" "$CONSOLE_KEYS" ${basic:+PYTHON_BASIC_REPL=1} -- -q
	expect "... trusted-python's console$b is _pyrepl: $shown" 0 "pyrepl: $shown 0" "" -- \
		grep -ax "pyrepl: $shown 0" "$TF_TMP/tp.all"
	same_on_pty "-i after a script, on a terminal$b" "$CONSOLE_KEYS" ${basic:+PYTHON_BASIC_REPL=1} -- \
		-q -i exit3.py
done
same_on_pty "-i after a script, with PYTHONSTARTUP, on a terminal" "$CONSOLE_KEYS" \
	PYTHONSTARTUP="$W/startup.py" -- -q -i exit3.py
same_on_pty "the console with PYTHONSTARTUP, on a terminal" "$CONSOLE_KEYS" \
	PYTHONSTARTUP="$W/startup.py" -- -q

expect "sys.executable is the launcher" 0 "$PY" "" -- "$PY" -c 'import sys; print(sys.executable)'
expect "NotTrustedError is an ImportError" 0 "True" "" -- \
	"$PY" -c 'import _trustedfor; print(issubclass(_trustedfor.NotTrustedError, ImportError))'
expect "the sourceless loader reads through io.open_code" 0 "True" "" -- \
	"$PY" -c 'import importlib.machinery as m; print(m.SourcelessFileLoader.get_data.__module__ == "_trustedfor")'

expect "the sourceless loader is guarded in a subinterpreter too" 0 "_trustedfor" "" -- \
	"$PY" -c 'try:
    import _xxsubinterpreters as s
except ImportError:  # 3.13
    import _interpreters as s
s.run_string(s.create(), "import importlib.machinery as m; print(m.SourcelessFileLoader.get_data.__module__)")'
# 3.13's _interpreters.create() gives the subinterpreter its own allocator
# and GIL: the checks' state must not cross from one interpreter to another.
expect "a subinterpreter imports a module from a file" 0 "ran" "" -- \
	"$PY" -c 'try:
    import _xxsubinterpreters as s
except ImportError:  # 3.13
    import _interpreters as s
s.run_string(s.create(), "import json; print(\"ran\")")'

# Four subinterpreters at once, each (under 3.13) with its own GIL: the
# checks' state of one is never another's.  (sqlite3 and email.mime are
# left out: python3.13 itself crashes importing them so; decimal too:
# python3.11's single-phase _decimal warns or not, as the threads run.)
same "four subinterpreters import at once" -- -c 'import threading
try:
    import _xxsubinterpreters as s
except ImportError:  # 3.13
    import _interpreters as s
def work():
    i = s.create()
    s.run_string(i, "import json, csv, timeit, pdb, doctest, asyncio, zipfile")
    s.destroy(i)
ts = [threading.Thread(target=work) for n in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("done")'

# 3.13's _imp.create_dynamic refuses a NUL in the module's name or file name
# before opening anything (3.11 cuts the name there).
if [ "$TF_PYTHON" != python3.11 ]; then
	for spec in 'name = "a\x00b"; origin = "abc"' 'name = "abc"; origin = "a\x00b"'; do
		same "create_dynamic: a NUL in $spec" -- -c 'import _imp
class Spec: '"$spec"'
try:
    _imp.create_dynamic(Spec())
except Exception as e:
    print(type(e).__name__, e)'
	done
fi

# A venv made by trusted-python runs trusted-python and finds its prefix.
if "$PY" -m venv --without-pip "$W/venv" >"$TF_TMP/out" 2>&1; then
	expect "venv: python is the launcher, prefix is the venv" 0 "True $W/venv /usr" "" -- \
		"$W/venv/bin/python" -c 'import sys, os; print(os.path.realpath(sys.executable) == os.path.realpath("'"$PY"'"), sys.prefix, sys.base_prefix)'
else
	not_ok "venv: create"
	sed 's/^/#   /' "$TF_TMP/out"
fi

done_testing
