#!/bin/bash
# trusted-python: programs that run files themselves (cProfile, trace, pdb,
# setuptools.launch, a program's own exec(compile(open(f).read(), f))), the
# code files that are not .py (pdb's rc files, doctest's text files), the
# standard library's modules that take code from the command line or a
# prompt, and PYTHONSTARTUP read once; trusted-lua's debug.debug() beside
# them.
#
# The attacker: uid 65534 (and root, for comparison), writing only to N, a
# noexec mount, inside an enforced session (trusted-for run --restrict-file
# --deny-interactive --lock) with the policy file enforcing file and
# interactive too (the policy file alone on a kernel without the exec
# securebits), under check policy 1 and policy 3.  Every case asserts
# the exact refusal and that the attacker's code printed nothing.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# LeakSanitizer would report the interpreter's own allocations kept until exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
enter_private_namespace "$@"
make_mounts || { not_ok "make the exec and noexec mounts"; done_testing; }
. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT \
	PYTHONSAFEPATH PYTHONBREAKPOINT
export PYTHONDONTWRITEBYTECODE=1
PY=$TF_BUILD/interpreters/python/trusted-python
TF=$TF_BUILD/tools/trusted-for
FORGE=$TF_BUILD/tests/forge-answer
X=$TF_TMP/exec
N=$TF_TMP/noexec
SESSION=("$TF" run --restrict-file --deny-interactive --lock --)
# Without the exec securebits (Debian 12's 6.1) no session can be locked:
# the policy file, which enforces the same, is then the whole enforcement,
# and every case still runs and asserts the same refusal.
if kernel_lacks exec-securebits; then
	echo "# $na_why: the policy file alone enforces"
	SESSION=()
fi
NOT="not trusted for execution"

# --- the files -------------------------------------------------------------
put() { printf '%s\n' "$2" >"$1" && chmod 0755 "$1"; }
put "$N/x.py" 'print("evil ran")'
put "$N/x.txt" '>>> print("evil doctest ran")
evil doctest ran'
put "$X/good.py" 'print("good ran")'
put "$X/good.txt" '>>> print("good doctest ran")
good doctest ran'
put "$X/commands" 'continue'
mkdir -p "$N/home" "$N/cwd" "$X/home"
put "$N/home/.pdbrc" '!print("evil rc ran")'
put "$N/cwd/.pdbrc" '!print("evil rc ran")'
put "$X/breakpoint.py" 'breakpoint()
print("after the breakpoint")'
# Where pdb stops: the line after breakpoint() up to 3.12, from 3.13 on
# the line of the call itself.
if [ "$TF_PYTHON" = python3.11 ]; then
	BP_LINE=2 BP_SOURCE='print("after the breakpoint")'
else
	BP_LINE=1 BP_SOURCE='breakpoint()'
fi
put "$X/pdb-runner.py" 'import pdb, sys
pdb.Pdb(readrc=False)._run(pdb._ScriptTarget(sys.argv[1]))'
put "$X/exec-compile.py" 'import sys
f = sys.argv[1]
exec(compile(open(f).read(), f, "exec"))'
# The race: the runner reads a name, the name is swapped to another file,
# then the runner compiles what it read under that name.  The swap happens
# between the two, in the runner itself: no timing involved.
put "$X/swap-runner.py" 'import os, sys
name, other = sys.argv[1], sys.argv[2]
with open(name, "rb") as f:
    source = f.read()
os.unlink(name)
if other != "-":
    os.symlink(other, name)
exec(compile(source, name, "exec"))'
# The import system's loader keeps the bytes it read through the checked
# descriptor, and compile() of those bytes under that name passes without a
# second read (checks.c, compiled_as_read): other bytes under that name must
# still be the file's content.
put "$X/loader-compile.py" 'import importlib.machinery, sys
name, other = sys.argv[1], sys.argv[2]
importlib.machinery.SourceFileLoader("m", name).get_data(name)
with open(other, "rb") as f:
    exec(compile(f.read(), name, "exec"))'
# The loader keeps a copy of its own: the bytes it returned, rewritten in
# place, are other bytes.
put "$X/loader-rewrite.py" 'import ctypes, importlib.machinery, sys
name, other = sys.argv[1], sys.argv[2]
data = importlib.machinery.SourceFileLoader("m", name).get_data(name)
with open(other, "rb") as f:
    evil = f.read()
if len(evil) != len(data):
    sys.exit(125)
ctypes.memmove(id(data) + sys.getsizeof(b"") - 1, evil, len(evil))
exec(compile(data, name, "exec"))'
put "$X/exec-module.py" 'import importlib.util, sys
spec = importlib.util.spec_from_file_location("__main__", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.argv = sys.argv[1:]
spec.loader.exec_module(module)'
# timeit read through a link that is switched to another file between the
# read and the run (runpy's exec()), by a trusted audit hook right after
# the code is made from what was read: no timing involved.
put "$X/switch-runner.py" 'import os, runpy, sys
link, target, module, where = sys.argv[1:5]
armed = False
def switch(event, args):
    global armed
    if event == "open" and args and str(args[0]).startswith(link):
        armed = True
    elif armed and event in ("marshal.loads", "compile"):
        armed = False
        os.unlink(link)
        os.symlink(target, link)
sys.addaudithook(switch)
sys.path.insert(0, where)
sys.argv = [module] + sys.argv[5:]
runpy.run_module(module, run_name="__main__", alter_sys=True)'
# A module imported through a link, the link switched to another file, and
# the same name run again by runpy (a second read).
put "$X/reimport-runner.py" 'import os, runpy, sys
link, target, where, module = sys.argv[1:5]
sys.path.insert(0, where)
__import__(module)
os.unlink(link)
os.symlink(target, link)
sys.argv = [link] + sys.argv[5:]
runpy.run_path(link, run_name="__main__")'
# A "watch and rerun" tool: a file run as __main__, then its link and the
# link of its cache file switched to other files, and run again.  A loader
# names the code after the path it was given, which may be spelled other
# than the name the import system gives its cache file ("DIR//m.py", a
# name without ".py", a relative one under PYTHONPYCACHEPREFIX).
put "$X/rerun-runner.py" 'import importlib.machinery, importlib.util, os, sys
link, target, cache_link, cache_target, name = sys.argv[1:6]
sys.argv = [name] + sys.argv[6:]
def run():
    loader = importlib.machinery.SourceFileLoader("__main__", name)
    spec = importlib.util.spec_from_file_location("__main__", name, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["__main__"] = module
    loader.exec_module(module)
run()
os.unlink(link)
os.symlink(target, link)
os.makedirs(os.path.dirname(cache_link), exist_ok=True)
os.symlink(cache_target, cache_link)
run()'
# Code loaded from a file's cache and held; the file's link and cache
# switched to a benign module, which is then imported under the same name;
# the held code run last.
put "$X/held-runner.py" 'import importlib.machinery, importlib.util, os, sys
link, target, cache_link, name = sys.argv[1:5]
sys.argv = [name] + sys.argv[5:]
code = importlib.machinery.SourceFileLoader("__main__", name).get_code("__main__")
os.unlink(link)
os.symlink(target, link)
os.unlink(cache_link)
loader = importlib.machinery.SourceFileLoader("benign", name)
module = importlib.util.module_from_spec(importlib.util.spec_from_file_location("benign", name, loader=loader))
loader.exec_module(module)
exec(code, {"__name__": "__main__"})'
# Zip archives: zipimport compiles a member's source under ARCHIVE/MEMBER.
mkdir -p "$X/zipsrc"
put "$X/zipsrc/zgood.py" 'print("zip member ran")'
printf 'import zgood\r\nprint("zip app ran")' >"$X/zipsrc/__main__.py"
(cd "$X/zipsrc" && /usr/bin/$TF_PYTHON -m zipfile -c "$X/mods.zip" zgood.py &&
	/usr/bin/$TF_PYTHON -m zipfile -c "$X/app.zip" __main__.py zgood.py) ||
	not_ok "make the zip archives"
cp "$X/mods.zip" "$N/mods.zip"
chmod 0755 "$X/mods.zip" "$X/app.zip" "$N/mods.zip"
put "$X/compile-as.py" 'import sys
exec(compile(open(sys.argv[1]).read(), sys.argv[2], "exec"))'
# A byte-for-byte copy of timeit.py where the attacker cannot write (a
# CPython source tree, a copy taken by someone else).
mkdir -p "$X/copy"
cp /usr/lib/$TF_PYTHON/timeit.py "$X/copy/timeit.py" && chmod 0755 "$X/copy/timeit.py"
mkdir -p "$X/benign"
put "$X/benign/timeit.py" 'print("a module that is not timeit")'
put "$X/big-startup.py" "print(\"head ran\")
$(head -c 9000 /dev/zero | tr '\0' '#')
print(\"tail ran\")"
put "$X/startup.py" 'print("trusted startup ran")'
put "$X/n-startup.py" 'print("evil startup ran")'
/usr/bin/$TF_PYTHON -c 'import py_compile, sys
for src, pyc in zip(sys.argv[1::2], sys.argv[2::2]):
    py_compile.compile(src, cfile=pyc, doraise=True)' \
	"$X/startup.py" "$X/startup.pyc" "$X/n-startup.py" "$N/n-startup.pyc" ||
	not_ok "compile the startup files"
chmod 0755 "$X/startup.pyc" "$N/n-startup.pyc"
# A trusted sitecustomize that swaps the startup link to the untrusted .pyc
# at every open of that name after the first: a launcher that reopened the
# startup file by name would run the untrusted one, deterministically.
mkdir -p "$X/swapper"
put "$X/swapper/sitecustomize.py" 'import os, sys
link, other = os.environ["SWAP_LINK"], os.environ["SWAP_TO"]
opened = 0
def swap(event, args):
    global opened
    if event == "open" and args and args[0] == link:
        opened += 1
        if opened > 1:
            os.unlink(link)
            os.symlink(other, link)
sys.addaudithook(swap)'
put "$X/stdin-code" 'print("stdin ran")'
# Lua's debug.debug(), the same kind of prompt, from a trusted script.
put "$X/debugger.lua" 'debug.debug()
print("after debug.debug")'
# Other names of timeit.py: a symbolic link the attacker owns, and a
# PYTHONHOME whose standard library is links to Debian's, all but timeit's.
ln -s /usr/lib/$TF_PYTHON/timeit.py "$N/tt.py"
mkdir -p "$N/home-without-timeit/lib/$TF_PYTHON"
for f in /usr/lib/$TF_PYTHON/*; do
	[ "${f##*/}" = timeit.py ] || ln -s "$f" "$N/home-without-timeit/lib/$TF_PYTHON/"
done
# Files named as CPython names code that is no file.
mkdir -p "$N/brackets/<d>"
# A working directory the user cannot search (sudo -u from root's home):
# no "<string>" there is a file the process could have read.
mkdir -m 0700 "$X/unsearchable"
put "$X/namedtuple.py" 'import collections
print(collections.namedtuple("P", "a")(1))'
put "$N/brackets/<x>" 'print("evil ran")'
put "$N/brackets/<d>/x.py" 'print("evil ran")'
# Files the attacker owns, as they would.
chown -R 65534:65534 "$N"

# refused WHAT WANT-STDERR-LAST-LINE COMMAND...: exit status 126, the last
# line of stderr exactly as given, and no "evil" anywhere in the output.
refused() {
	local what=$1 want=$2 status last
	shift 2
	"$@" >"$TF_TMP/out" 2>"$TF_TMP/err" </dev/null
	status=$?
	last=$(tail -n 1 "$TF_TMP/err")
	if [ "$status" = 126 ] && [ "$last" = "$want" ] &&
		! grep -q evil "$TF_TMP/out" "$TF_TMP/err"; then
		ok "$what"
	else
		not_ok "$what"
		echo "#   command: $*"
		echo "#   status: want 126, got $status"
		echo "#   stderr: want last line <$want>"
		sed 's/^/#   out: /' "$TF_TMP/out" | head -n 5
		sed 's/^/#   err: /' "$TF_TMP/err" | head -n 5
	fi
}

# t WHAT STATUS STDOUT STDERR COMMAND...: expect, with the command after the four.
t() { expect "$1" "$2" "$3" "$4" -- "${@:5}"; }
from() {
	local file=$1
	shift
	"$@" <"$file"
}
# rerun_dir USER: N/rr, empty, USER's.
rerun_dir() { rm -rf "$N/rr" && mkdir "$N/rr" && chown "$1" "$N/rr"; }
# link NAME TARGET: a symbolic link the attacker owns.
link() { ln -sfn "$2" "$1" && chown -h 65534:65534 "$1"; }

# --- nothing enforced: the attacker's files do run -------------------------
set_policy_file "policy = 1
enforce = none
log = none" || not_ok "policy file"
t "not enforced: -m cProfile runs a noexec file" 0 "evil ran" "" \
	sh -c '"$1" -m cProfile "$2" | sed -n 1p' sh "$PY" "$N/x.py"
t "not enforced: exec(compile(open(f).read(), f)) runs a noexec file" 0 "evil ran" "" \
	"$PY" "$X/exec-compile.py" "$N/x.py"
t "not enforced: -m doctest runs a noexec text file" 0 "" "" "$PY" -m doctest "$N/x.txt"
t "not enforced: -m timeit runs code from the command line" 0 "evil ran" "" \
	sh -c '"$1" -m timeit -n 1 -r 1 -s "$2" pass | sed -n 1p' sh "$PY" 'print("evil ran")'
ln -sfn /usr/lib/$TF_PYTHON "$N/lib"
t "not enforced: timeit's cache read through a link switched before it runs" 0 "evil ran" "" \
	sh -c '"$1" "$2" "$3" "$4" timeit "$3" -n 1 -r 1 -s "$5" pass | sed -n 1p' \
	sh "$PY" "$X/switch-runner.py" "$N/lib" "$X/benign" 'print("evil ran")'
t "not enforced: with the runner modules' files hidden by a filter, a program runs" 0 "good ran" "" \
	"$FORGE" fstatat=ENOENT "$PY" "$X/good.py"
t "not enforced: pdb runs ~/.pdbrc" 0 "evil rc ran" "" \
	sh -c 'HOME=$1 "$2" -m pdb -c quit "$3" </dev/null | grep -o "evil rc ran" | sed -n 1p' \
	sh "$N/home" "$PY" "$X/good.py"

# --- the cases ---------------------------------------------------------------
cases() {
	local p=$1 user=$2 m='noexec mount' w
	w="policy $p, $user:"

	# The families: a runner reads the file with open() and compiles it.
	refused "$w -m cProfile N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m cProfile "$N/x.py"
	refused "$w -m profile N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m profile "$N/x.py"
	refused "$w -m trace --listfuncs N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m trace --listfuncs "$N/x.py"
	refused "$w -m pdb -c continue N/x.py </dev/null (interactive)" \
		"trusted-python: pdb: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" -m pdb -c continue "$N/x.py"
	refused "$w pdb's script runner in a trusted program" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/pdb-runner.py" "$N/x.py"
	refused "$w -m setuptools.launch N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m setuptools.launch "$N/x.py"
	# Variants and nestings.
	refused "$w -m runpy cProfile N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m runpy cProfile "$N/x.py"
	refused "$w -m cProfile -m trace --listfuncs N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m cProfile -m trace --listfuncs "$N/x.py"
	refused "$w -m cProfile -m profile N/x.py" "trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m cProfile -m profile "$N/x.py"
	refused "$w exec(compile(open(f).read(), f)) in a trusted script" \
		"trusted-python: $N/x.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/exec-compile.py" "$N/x.py"
	link "$N/swapped.py" "$N/x.py"
	refused "$w the runner's file swapped for a trusted one after its read" \
		"trusted-python: $N/swapped.py: $NOT: the code compiled under its name is not its content" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/swap-runner.py" "$N/swapped.py" "$X/good.py"
	link "$N/swapped.py" "$X/good.py"
	refused "$w the runner's trusted file swapped for an untrusted one after its read" \
		"trusted-python: $N/swapped.py: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/swap-runner.py" "$N/swapped.py" "$N/x.py"
	link "$N/swapped.py" "$N/x.py"
	refused "$w the runner's file deleted after its read" \
		"trusted-python: $N/swapped.py: $NOT: the code compiled under its name cannot be read: No such file or directory" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/swap-runner.py" "$N/swapped.py" -
	refused "$w a loader's read of a trusted file, then other bytes compiled under its name" \
		"trusted-python: $X/good.py: $NOT: the code compiled under its name is not its content" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/loader-compile.py" "$X/good.py" "$N/x.py"
	refused "$w a loader's read of a trusted file, its bytes rewritten in place, compiled under its name" \
		"trusted-python: $X/good.py: $NOT: the code compiled under its name is not its content" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/loader-rewrite.py" "$X/good.py" "$N/x.py"
	# Code files that are not .py.
	refused "$w HOME=N/home -m pdb -c quit trusted.py (interactive)" \
		"trusted-python: pdb: interactive code refused" \
		as_user "$user" env HOME="$N/home" "${SESSION[@]}" "$PY" -m pdb -c quit "$X/good.py"
	refused "$w ./.pdbrc of a noexec working directory, after breakpoint()" \
		"trusted-python: .pdbrc: $NOT: $m" \
		from "$X/commands" in_dir "$N/cwd" as_user "$user" env HOME="$X/home" \
		"${SESSION[@]}" "$PY" "$X/breakpoint.py"
	refused "$w breakpoint() in a trusted program reads HOME=N/home/.pdbrc" \
		"trusted-python: $N/home/.pdbrc: $NOT: $m" \
		from "$X/commands" as_user "$user" env HOME="$N/home" "${SESSION[@]}" "$PY" "$X/breakpoint.py"
	refused "$w breakpoint() with a pipe on stdin (interactive)" \
		"trusted-python: breakpoint(): interactive code refused: not a regular file: FIFO or pipe" \
		with_pipe continue as_user "$user" env HOME="$X/home" "${SESSION[@]}" "$PY" "$X/breakpoint.py"
	t "$w breakpoint() with a trusted file on stdin runs" 0 \
		"> $X/breakpoint.py($BP_LINE)<module>()
-> $BP_SOURCE
(Pdb) after the breakpoint" "" \
		from "$X/commands" as_user "$user" env HOME="$X/home" "${SESSION[@]}" "$PY" "$X/breakpoint.py"
	refused "$w -m doctest N/x.txt" "trusted-python: $N/x.txt: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" -m doctest "$N/x.txt"
	t "$w -m doctest of a trusted text file runs" 0 "" "" \
		as_user "$user" "${SESSION[@]}" "$PY" -m doctest "$X/good.txt"
	# Code from the command line or a prompt.
	refused "$w -m timeit -s \"\$(cat N/x.py)\" pass" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" -m timeit -s "$(cat "$N/x.py")" pass
	refused "$w -m cProfile -m timeit" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" -m cProfile -m timeit -s "$(cat "$N/x.py")" pass
	refused "$w -m runpy timeit" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" -m runpy timeit -s "$(cat "$N/x.py")" pass
	refused "$w -m trace --module timeit" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" -m trace --listfuncs --module timeit -s "$(cat "$N/x.py")" pass
	refused "$w timeit.py as the script" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" /usr/lib/$TF_PYTHON/timeit.py -s "$(cat "$N/x.py")" pass
	refused "$w timeit.py run by a loader as __main__" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/exec-module.py" /usr/lib/$TF_PYTHON/timeit.py \
		-s "$(cat "$N/x.py")" pass
	# timeit is known by its file, not by the name it was reached by.
	refused "$w -m timeit through PYTHONPATH=/lib/$TF_PYTHON (/lib is /usr/lib)" \
		"trusted-python: timeit: interactive code refused" \
		as_user "$user" env PYTHONPATH=/lib/$TF_PYTHON "${SESSION[@]}" "$PY" -m timeit \
		-s "$(cat "$N/x.py")" pass
	refused "$w -m tt, N/tt.py a link to timeit.py" "trusted-python: timeit: interactive code refused" \
		as_user "$user" env PYTHONPATH="$N" "${SESSION[@]}" "$PY" -m tt -s "$(cat "$N/x.py")" pass
	refused "$w -m timeit, a copy of timeit.py on an exec mount" \
		"trusted-python: timeit: interactive code refused" \
		as_user "$user" env PYTHONPATH="$X/copy" "${SESSION[@]}" "$PY" -m timeit \
		-s "$(cat "$N/x.py")" pass
	refused "$w a copy of timeit.py on an exec mount as the script" \
		"trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/copy/timeit.py" -s "$(cat "$N/x.py")" pass
	# ... and not by the name its code carries when it runs.
	link "$N/lib" /usr/lib/$TF_PYTHON
	refused "$w timeit's cache read through a directory link switched before it runs" \
		"trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/switch-runner.py" "$N/lib" "$X/benign" \
		timeit "$N/lib" -n 1 -r 1 -s "$(cat "$N/x.py")" pass
	link "$N/t2.py" /usr/lib/$TF_PYTHON/timeit.py
	refused "$w timeit's source read through a file link switched before it runs" \
		"trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/switch-runner.py" "$N/t2.py" \
		"$X/benign/timeit.py" t2 "$N" -n 1 -r 1 -s "$(cat "$N/x.py")" pass
	# Code runs as what was read: a benign module whose name becomes
	# timeit's after the read runs as itself; read again, it is timeit.
	link "$N/lib2" "$X/benign"
	t "$w a benign module read through a directory link switched to the library before it runs" \
		0 "a module that is not timeit" "" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/switch-runner.py" "$N/lib2" \
		/usr/lib/$TF_PYTHON timeit "$N/lib2" -n 1 -r 1 -s "$(cat "$N/x.py")" pass
	link "$N/t3.py" "$X/benign/timeit.py"
	t "$w a benign module imported through a link, the link switched to timeit.py, run again" \
		126 "a module that is not timeit" "trusted-python: timeit: interactive code refused" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/reimport-runner.py" "$N/t3.py" \
		/usr/lib/$TF_PYTHON/timeit.py "$N" t3 -n 1 -r 1 -s "$(cat "$N/x.py")" pass
	# ... however the loader spells the name, and when the code is held.
	local L=/usr/lib/$TF_PYTHON R=$N/rr spelling name
	local ev=$(cat "$N/x.py") benign="a module that is not timeit"
	local timeit_refused="trusted-python: timeit: interactive code refused"
	for spelling in "DIR//m.py" "DIR/m.txt"; do
		rerun_dir "$user"
		name=${spelling/DIR/$R}
		ln -s "$X/benign/timeit.py" "$R/${name##*/}" && chown -h "$user" "$R/${name##*/}"
		t "$w a file rerun as $spelling after its link and cache were switched to timeit's" \
			126 "$benign" "$timeit_refused" \
			as_user "$user" "${SESSION[@]}" "$PY" "$X/rerun-runner.py" "$R/${name##*/}" \
			"$L/timeit.py" "$R/__pycache__/m.$TF_PYTAG.pyc" \
			"$L/__pycache__/timeit.$TF_PYTAG.pyc" "$name" -n 1 -r 1 -s "$ev" pass
	done
	# -S: Debian's sitecustomize.py, a link into /etc, has no cache under
	# the prefix, and policy 3 refuses its source (no execute bit).
	rerun_dir "$user"
	ln -s "$X/benign/timeit.py" "$R/m.py" && chown -h "$user" "$R/m.py"
	t "$w a file rerun as m.py from its directory, PYTHONPYCACHEPREFIX, switched to timeit's" \
		126 "$benign" "$timeit_refused" \
		as_user "$user" env -C "$R" PYTHONPYCACHEPREFIX="$R/pfx" "${SESSION[@]}" "$PY" -S \
		"$X/rerun-runner.py" "$R/m.py" "$L/timeit.py" "$R/pfx$R/m.$TF_PYTAG.pyc" \
		"$L/__pycache__/timeit.$TF_PYTAG.pyc" m.py -n 1 -r 1 -s "$ev" pass
	rerun_dir "$user"
	ln -s "$X/benign/timeit.py" "$R/d.py" && chown -h "$user" "$R/d.py"
	t "$w a file rerun as DIR//d.py after its link and cache were switched to doctest's" \
		126 "$benign" "trusted-python: $N/x.txt: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/rerun-runner.py" "$R/d.py" \
		"$L/doctest.py" "$R/__pycache__/d.$TF_PYTAG.pyc" \
		"$L/__pycache__/doctest.$TF_PYTAG.pyc" "$R//d.py" "$N/x.txt"
	rerun_dir "$user"
	mkdir "$R/__pycache__" && chown "$user" "$R/__pycache__" &&
		ln -s "$L/timeit.py" "$R/h.py" &&
		ln -s "$L/__pycache__/timeit.$TF_PYTAG.pyc" "$R/__pycache__/h.$TF_PYTAG.pyc" &&
		chown -h "$user" "$R/h.py" "$R/__pycache__/h.$TF_PYTAG.pyc"
	t "$w timeit's code loaded as DIR//h.py and held, the name then imported as a benign module" \
		126 "$benign" "$timeit_refused" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/held-runner.py" "$R/h.py" \
		"$X/benign/timeit.py" "$R/__pycache__/h.$TF_PYTAG.pyc" "$R//h.py" \
		-n 1 -r 1 -s "$ev" pass
	# A filter of the user's own, installed before the session (a locked
	# session refuses new ones), that hides the rows' files: the launcher
	# must not take them for absent (the kernel's listing shows them).
	t "$w -m timeit, fstatat() of the runner modules' files answered ENOENT" \
		126 "" "trusted-python: the runner modules' files cannot be told: $L/timeit.py: No such file or directory" \
		as_user "$user" "$FORGE" fstatat=ENOENT "${SESSION[@]}" "$PY" -m timeit -n 1 -r 1 -s "$ev" pass
	t "$w -m timeit, fstatat() of the runner modules' files answered 0" \
		126 "" "trusted-python: the runner modules' files cannot be told: $L/timeit.py: Protocol error" \
		as_user "$user" "$FORGE" fstatat=0 "${SESSION[@]}" "$PY" -m timeit -n 1 -r 1 -s "$ev" pass
	refused "$w timeit.py as the script, PYTHONHOME's library without it" \
		"trusted-python: timeit: interactive code refused" \
		as_user "$user" env PYTHONHOME="$N/home-without-timeit" "${SESSION[@]}" "$PY" \
		/usr/lib/$TF_PYTHON/timeit.py -s "$(cat "$N/x.py")" pass
	refused "$w -m doctest through PYTHONPATH=/lib/$TF_PYTHON" "trusted-python: $N/x.txt: $NOT: $m" \
		as_user "$user" env PYTHONPATH=/lib/$TF_PYTHON "${SESSION[@]}" "$PY" -m doctest "$N/x.txt"
	t "$w a trusted script in a directory it cannot search: compile('<string>') is no file's" \
		0 "P(a=1)" "" in_dir "$X/unsearchable" as_user "$user" "${SESSION[@]}" "$PY" "$X/namedtuple.py"
	# A file named like code that is no file ("<string>") is a file.
	refused "$w -m cProfile '<x>'" "trusted-python: <x>: $NOT: $m" \
		in_dir "$N/brackets" as_user "$user" "${SESSION[@]}" "$PY" -m cProfile '<x>'
	refused "$w -m cProfile '<d>/x.py'" "trusted-python: <d>/x.py: $NOT: $m" \
		in_dir "$N/brackets" as_user "$user" "${SESSION[@]}" "$PY" -m cProfile '<d>/x.py'
	refused "$w exec(compile(open(f).read(), f)) with f = '<x>'" \
		"trusted-python: <x>: $NOT: $m" \
		in_dir "$N/brackets" as_user "$user" "${SESSION[@]}" "$PY" "$X/exec-compile.py" '<x>'
	# PYTHONSTARTUP: read once, from the checked descriptor.
	refused "$w PYTHONSTARTUP=N/n-startup.pyc -q -i < trusted file" \
		"trusted-python: $N/n-startup.pyc: $NOT: $m" \
		from "$X/stdin-code" as_user "$user" env PYTHONSTARTUP="$N/n-startup.pyc" \
		"${SESSION[@]}" "$PY" -q -i
	link "$N/startup-link.pyc" "$X/startup.pyc"
	t "$w PYTHONSTARTUP .pyc swapped after its check is not reopened" 0 \
		"trusted startup ran
stdin ran" ">>> >>> " \
		from "$X/stdin-code" as_user "$user" env PYTHONPATH="$X/swapper" SWAP_LINK="$N/startup-link.pyc" \
		SWAP_TO="$N/n-startup.pyc" PYTHONSTARTUP="$N/startup-link.pyc" \
		"${SESSION[@]}" "$PY" -q -i
	refused "$w trusted-lua: debug.debug() reading a pipe (interactive)" \
		"trusted-lua: debug.debug: interactive code refused: not a regular file: FIFO or pipe" \
		with_pipe 'print("evil typed ran")' as_user "$user" "${SESSION[@]}" \
		"$TF_BUILD/interpreters/lua/trusted-lua" "$X/debugger.lua"
	# What the rule must not break.
	t "$w -m cProfile of a trusted file runs" 0 "good ran" "" \
		as_user "$user" "${SESSION[@]}" sh -c '"$1" -m cProfile "$2" | sed -n 1p' sh "$PY" "$X/good.py"
	t "$w -m trace of a trusted file runs" 0 "good ran" "" \
		as_user "$user" "${SESSION[@]}" sh -c '"$1" -m trace --listfuncs "$2" | sed -n 1p' sh "$PY" "$X/good.py"
	t "$w -m setuptools.launch of a trusted file runs" 0 "good ran" "" \
		as_user "$user" "${SESSION[@]}" "$PY" -m setuptools.launch "$X/good.py"
	t "$w exec(compile(open(f).read(), f)) of a trusted file runs" 0 "good ran" "" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/exec-compile.py" "$X/good.py"
	t "$w a PYTHONSTARTUP file larger than 8 KiB runs whole" 0 "head ran
tail ran
stdin ran" ">>> >>> " \
		from "$X/stdin-code" as_user "$user" env PYTHONSTARTUP="$X/big-startup.py" \
		"${SESSION[@]}" "$PY" -q -i
	t "$w imports that compile their sources run" 0 "good ran" "" \
		as_user "$user" "${SESSION[@]}" env PYTHONPATH="$X" "$PY" -B -m good
	t "$w a source imported from a trusted zip archive runs" 0 "zip member ran" "" \
		as_user "$user" "${SESSION[@]}" env PYTHONPATH="$X/mods.zip" "$PY" -B -m zgood
	t "$w a trusted zip archive as the script runs (CRLF line endings)" 0 "zip member ran
zip app ran" "" \
		as_user "$user" "${SESSION[@]}" "$PY" -B "$X/app.zip"
	# ... and what it must not let through under a member's name.
	refused "$w code compiled under a trusted zip member's name is its content" \
		"trusted-python: $X/mods.zip/zgood.py: $NOT: the code compiled under its name is not its content" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/compile-as.py" "$N/x.py" "$X/mods.zip/zgood.py"
	refused "$w code compiled under the name of a member of a noexec zip archive" \
		"trusted-python: $N/mods.zip: $NOT: $m" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/compile-as.py" "$N/x.py" "$N/mods.zip/zgood.py"
	refused "$w code compiled under a name inside a file that is no zip archive" \
		"trusted-python: $X/good.py/x.py: $NOT: the code compiled under its name cannot be read: no such file, nor a member of a zip archive" \
		as_user "$user" "${SESSION[@]}" "$PY" "$X/compile-as.py" "$N/x.py" "$X/good.py/x.py"
}

# The standard library's programs: the table in trusted-python(1) is the
# data.  Every row with an example is run in the session.
table_rows() {
	awk '/^module +class +example$/ { on = 1; next }
		on && /^```/ { exit }
		on && $3 != "-" { print }' "$TF_SRC/man/trusted-python.1.scd"
}

table() {
	local p=$1 user=$2 module class example want file rows=0
	while read -r module class example; do
		rows=$((rows + 1))
		example=${example//N\//$N/}
		example=${example//CODE/$(cat "$N/x.py")}
		case $class in
		argv) want="trusted-python: ${module%%(*}: interactive code refused" ;;
		prompt) want="trusted-python: ${module%%(*}: interactive code refused: not a regular file: FIFO or pipe" ;;
		*)
			file=$N/x.py
			[[ $example == *x.txt* ]] && file=$N/x.txt
			want="trusted-python: $file: $NOT: noexec mount"
			;;
		esac
		# The example's words are its arguments; CODE is one of them.
		local -a args
		if [[ $class == argv && $module == timeit ]]; then
			args=(-m timeit -s "$(cat "$N/x.py")" pass)
		else
			read -r -a args <<<"$example"
		fi
		refused "policy $p, $user: table: $module ($class): ${example//$TF_TMP/}" "$want" \
			with_pipe 'print("evil typed ran")' as_user "$user" env PYTHONPATH="$N" \
			"${SESSION[@]}" "$PY" "${args[@]}"
	done < <(table_rows)
	[ "$rows" -gt 10 ] || not_ok "policy $p: the table in trusted-python(1) has rows ($rows)"
}

for p in 1 3; do
	if [ "$p" = 3 ]; then
		trusted_stdlib "$X" setuptools pkg_resources _distutils_hack ||
			{ not_ok "policy 3: make an executable copy of the standard library"; break; }
	fi
	set_policy_file "policy = $p
enforce = file,interactive
log = none" || not_ok "policy file"
	for user in root nobody; do
		cases "$p" "$user"
		table "$p" "$user"
	done
done

done_testing
