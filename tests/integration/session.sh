#!/bin/bash
# The enforced session against the attacks that walk around it
# (docs/semantics.md section 7), run for real: a new user namespace (unshare
# -U, and unshare -Urm with a tmpfs over the policy file's directory), a
# tracer that fakes the check (strace injecting execveat's answer under
# policy 3, strace poking fstatfs's answer under policy 1, gdb returning 0
# from trusted_for_allow_file), and a process of the same user writing an
# interpreter's memory through /proc/PID/mem.
#
# Every attack runs under
#   trusted-for run --restrict-file --deny-interactive --lock
# with the policy file enforcing "file, interactive", as root and as uid
# 65534, under check policy 1 and 3, against trusted-lua, trusted-python and
# inc, and must end in the exact refusal.  Each has a control: the same
# attack with the locked bits but without the confinement (--no-confine)
# runs the noexec file, so that this test fails if an attack stops working
# for some other reason.  A third run has the policy file alone, neither
# securebits nor confinement: what a system-wide policy file can promise.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"
enter_private_namespace "$@"
make_mounts || { not_ok "make the exec and noexec mounts"; done_testing; }
if kernel_lacks exec-securebits; then
	# trusted-for run cannot start a session on this kernel.
	not_applicable "$(basename "$0")" "$na_why"
	done_testing
fi
export LC_ALL=C
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4
unset PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT
export PYTHONDONTWRITEBYTECODE=1
# LeakSanitizer (the ASan build) stops the world with ptrace, which a
# confined session refuses, and fails the process at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

TF=$TF_BUILD/tools/trusted-for
X=$TF_TMP/exec N=$TF_TMP/noexec
chmod 0777 "$X" "$N"
export HOME=$X

# The attacker's files, all on the noexec mount.
printf 'print("EVIL RAN")\n' >"$N/evil.lua"
printf 'print("EVIL RAN")\n' >"$N/evil.py"
printf '+\n' >"$N/evil.inc" # prints 1
# gdb makes every trusted_for_allow_file() return 0, after it ran (a
# "return" at its entry would skip the epilogue, which ASan's frames need).
cat >"$N/return0.gdb" <<'EOF'
set breakpoint pending on
python
class Forged(gdb.FinishBreakpoint):
    def stop(self):
        gdb.execute("set $rax = 0")
        return False
class Check(gdb.Breakpoint):
    def stop(self):
        Forged(gdb.newest_frame(), internal=True)
        return False
Check("trusted_for_allow_file")
end
run
EOF
chmod 0755 "$N"/*
declare -A launcher=(
	[lua]=$TF_BUILD/interpreters/lua/trusted-lua
	[python]=$TF_BUILD/interpreters/python/trusted-python
	[inc]=$TF_BUILD/interpreters/inc/inc
)
declare -A evil=([lua]=$N/evil.lua [python]=$N/evil.py [inc]=$N/evil.inc)
declare -A name=([lua]=trusted-lua [python]=trusted-python [inc]=inc)
declare -A ran=([lua]="EVIL RAN" [python]="EVIL RAN" [inc]=1)

# struct statfs as fstatfs() would fill it for a tmpfs without noexec:
# f_type TMPFS_MAGIC, then ten zero words up to and including f_flags.
POKE=94190201$(printf '0%.0s' {1..168})

confined=("$TF" run --restrict-file --deny-interactive --lock --)
unconfined=("$TF" run --restrict-file --deny-interactive --lock --no-confine --)
declare -A as=([root]="" [nobody]="setpriv --reuid 65534 --regid 65534 --clear-groups --")

# attack NAME: the attack's command, before the launcher and its file, in A.
attack() {
	case $1 in
	unshare_U) A=(unshare -U) ;;
	unshare_Urm) A=(unshare -Urm sh -c 'mount -t tmpfs none /etc && exec "$@"' sh) ;;
	strace) if [ "$policy" = 3 ]; then
			# A blind 0 to every AT_EXECVE_CHECK is caught at the
			# library's probe, and a 0 alone by its confirmation
			# (fstat, fstatfs; tests/integration/forged.sh): a
			# tracer skips the probe and fills fstatfs's buffer too.
			A=(strace -f -o /dev/null -e inject=execveat:retval=0:when=2+
				-e "inject=fstatfs:poke_exit=@arg2=$POKE")
		else
			# The first fstatfs() is the library's own check that
			# /proc is a procfs (lib/procfs.c); the poke fakes
			# the ones after it, the script's among them.
			A=(strace -f -o /dev/null -e "inject=fstatfs:poke_exit=@arg2=$POKE:when=2+")
		fi ;;
	gdb) A=(gdb -nx -batch -q -x "$N/return0.gdb" --args) ;;
	esac
}

# The lines that tell what happened: the evil output, the launcher's
# refusal, and the tools' own refusals (their other lines hold pids and
# addresses).
outcome() {
	"$@" 2>&1 | grep -E '^(EVIL RAN|1|trusted-(lua|python): .*|inc: .*|unshare: .*|strace: ptrace\(PTRACE_TRACEME, .*|warning: ptrace: .*)$'
	return "${PIPESTATUS[0]}"
}

declare -A refusal=(
	[unshare_U]="unshare: unshare failed: Operation not permitted"
	[unshare_Urm]="unshare: unshare failed: Operation not permitted"
	[strace]="strace: ptrace(PTRACE_TRACEME, ...): Operation not permitted"
	[gdb]="warning: ptrace: Operation not permitted"
)
attacks=(unshare_U unshare_Urm strace gdb)
for tool in strace gdb; do
	command -v "$tool" >/dev/null || not_ok "$tool is installed (scripts/install-deps.sh)"
done

enforcing="enforce = file,interactive"
for policy in 1 3; do
	set_policy_file "policy = $policy
$enforcing" || { not_ok "policy file"; done_testing; }
	if [ "$policy" = 3 ] && [ -z "${stdlib_done:-}" ]; then
		# Debian's standard library is mode 0644: policy 3 refuses it.
		trusted_stdlib "$X/py" || not_ok "an executable standard library"
		stdlib_done=1
	fi
	for user in root nobody; do
		for l in lua python inc; do
			for a in "${attacks[@]}"; do
				what="policy $policy, $user, $l, $a"
				attack "$a"
				# shellcheck disable=SC2086 # the prefix is words
				expect "$what: refused in the confined session" 1 "${refusal[$a]}" "" -- \
					outcome ${as[$user]} "${confined[@]}" "${A[@]}" "${launcher[$l]}" "${evil[$l]}"
				# The policy file alone, no securebits, no confinement:
				# a tracer gets through (SECURITY.md); in a user
				# namespace the file, root's seen through the map or
				# the user's own over a hidden /etc, fails closed.
				# Root's own "unshare -Urm" maps root of the initial
				# namespace to its root: there /etc is root's to
				# hide, and the file's absence is the defaults.
				alone_status=0 alone_out=${ran[$l]}
				roots_own=
				[ "$a$user" = unshare_Urmroot ] && roots_own=1
				if [ -z "$roots_own" ] && { [ "$a" = unshare_U ] || [ "$a" = unshare_Urm ]; }; then
					alone_status=126
					alone_out="${name[$l]}: ${evil[$l]}: not trusted for execution: noexec mount"
					[ "$l$policy" = python1 ] &&
						alone_out="trusted-python: /usr/lib/$TF_PYTHON/encodings/__init__.py: not trusted for execution: no execute permission"
				fi
				[ "$a$user" = stracenobody ] &&
					alone_status=126 alone_out="${name[$l]}: ${evil[$l]}: not trusted for execution: noexec mount"
				# shellcheck disable=SC2086
				expect "$what: the policy file alone" "$alone_status" "$alone_out" "" -- \
					outcome ${as[$user]} "${A[@]}" "${launcher[$l]}" "${evil[$l]}"
				# In a new user namespace without a mapping, root's
				# policy file is owned by the overflow uid and fails
				# closed: unshare -U alone escapes the securebits only,
				# so its control has no policy file.
				[ "$a" = unshare_U ] && set_policy_file -
				if [ "$a$user" = stracenobody ]; then
					# Under both policies the tracer must fill
					# fstatfs's buffer (policy 3: the library
					# confirms the check's 0 with it).
					# strace pokes the buffer with process_vm_writev,
					# then PTRACE_POKEDATA: both refused (EPERM, EIO)
					# once the launcher is non-dumpable, to a tracer
					# without CAP_SYS_PTRACE.  Registers stay open
					# to it: see the gdb rows.
					# shellcheck disable=SC2086
					expect "$what: without the confinement, non-dumpable stops the poke" 126 \
						"${name[$l]}: ${evil[$l]}: not trusted for execution: noexec mount" "" -- \
						outcome ${as[$user]} "${unconfined[@]}" "${A[@]}" "${launcher[$l]}" "${evil[$l]}"
					continue
				fi
				if [ -n "$roots_own" ]; then
					# shellcheck disable=SC2086
					expect "$what: without the confinement, root's own namespace is root's" 0 \
						"${ran[$l]}" "" -- \
						outcome ${as[$user]} "${unconfined[@]}" "${A[@]}" "${launcher[$l]}" "${evil[$l]}"
					continue
				fi
				if [ "$a" = unshare_U ] || [ "$a" = unshare_Urm ]; then
					# In a user namespace that does not map root of
					# the initial one to its root the policy file,
					# present or not, fails closed
					# (trustedfor.conf(5)): the library refuses even
					# where the securebits are gone.  Failing closed
					# is policy 3, which refuses Debian's standard
					# library (mode 0644) before the script.
					why="${evil[$l]}: not trusted for execution: noexec mount"
					[ "$l$policy" = python1 ] &&
						why="/usr/lib/$TF_PYTHON/encodings/__init__.py: not trusted for execution: no execute permission"
					# shellcheck disable=SC2086
					expect "$what: without the confinement, the library fails closed in the namespace" 126 \
						"${name[$l]}: $why" "" -- \
						outcome ${as[$user]} "${unconfined[@]}" "${A[@]}" "${launcher[$l]}" "${evil[$l]}"
					[ "$a" = unshare_U ] && set_policy_file "policy = $policy
$enforcing"
					continue
				fi
				# shellcheck disable=SC2086
				expect "$what: control, runs without the confinement" 0 "${ran[$l]}" "" -- \
					outcome ${as[$user]} "${unconfined[@]}" "${A[@]}" "${launcher[$l]}" "${evil[$l]}"
				[ "$a" = unshare_U ] && set_policy_file "policy = $policy
$enforcing"
			done
		done
	done
done

# A tracer outside the session, started by the user around the session's
# starter: the filter binds the tracees' own calls, not the tracer, which
# rewrites answers as it likes.  Only Yama's ptrace_scope 2 or 3 stops it
# (SECURITY.md); a session started by a login is no user's tracee.
set_policy_file "policy = 3
$enforcing"
# As uid 65534 the enforced launcher is non-dumpable and strace cannot
# poke the buffer that confirms the faked check (registers stay open: gdb).
# The pokes start at the third fstatfs(): the first two are trusted-for's
# own, reading its status file before and after its filter, which a
# forged answer there turns into a refusal (status 125).
declare -A around=([root]="0|EVIL RAN|gets through"
	[nobody]="126|${name[lua]}: ${evil[lua]}: not trusted for execution: noexec mount|cannot poke the confirming buffer")
for user in root nobody; do
	IFS='|' read -r st out how <<<"${around[$user]}"
	# shellcheck disable=SC2086
	expect "policy 3, $user, lua: a tracer around the confined session's starter $how" "$st" \
		"$out" "" -- outcome ${as[$user]} strace -f -o /dev/null -e inject=execveat:retval=0:when=2+ \
		-e "inject=fstatfs:poke_exit=@arg2=$POKE:when=3+" \
		"${confined[@]}" "${launcher[lua]}" "${evil[lua]}"
done

# /proc/PID/mem: another process of the same user opens an enforced
# launcher's memory for writing, while the launcher waits on its
# standard input after its first check.  inc runs its whole file in one
# read and cannot be made to wait.
printf 'print("ready")\nio.stdout:flush()\nio.read()\n' >"$X/wait.lua"
printf 'print("ready", flush=True)\ninput()\n' >"$X/wait.py"
chmod 0755 "$X"/wait.*
# mem_open PID PREFIX...: can PREFIX python3 open /proc/PID/mem for writing?
mem_open() {
	local pid=$1
	shift
	"$@" /usr/bin/$TF_PYTHON -c '
import os, sys
try:
    os.close(os.open(f"/proc/{sys.argv[1]}/mem", os.O_RDWR))
    print("opened")
except OSError as e:
    print(os.strerror(e.errno))' "$pid"
}
# mem_try USER SIBLING COMMAND...: what the sibling's mem_open says while the
# launcher COMMAND of USER waits.  SIBLING: "confined" runs it in a confined
# session of its own, "plain" does not.
mem_try() {
	local user=$1 sibling=$2 pid line answer
	shift 2
	# shellcheck disable=SC2086 # the prefix is words
	coproc W { exec ${as[$user]} "$@"; }
	pid=$W_PID
	read -r line <&"${W[0]}"
	if [ "$line" != ready ]; then
		answer="launcher said <$line>"
	elif [ "$sibling" = confined ]; then
		# shellcheck disable=SC2086
		answer=$(mem_open "$pid" ${as[$user]} "${confined[@]}")
	else
		# shellcheck disable=SC2086
		answer=$(mem_open "$pid" ${as[$user]})
	fi
	echo >&"${W[1]}"
	wait "$pid"
	echo "$answer"
}
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
for policy in 1 3; do
	for l in lua python; do
		script=$X/wait.${l/python/py}
		what="policy $policy, $l"
		if [ "$scope" != 0 ]; then
			not_run "$what: /proc/PID/mem" "Yama ptrace_scope $scope refuses the control too"
			continue
		fi
		set_policy_file "policy = $policy
$enforcing"
		expect "$what: nobody's /proc/PID/mem of an enforced launcher is refused" 0 \
			"Permission denied" "" -- mem_try nobody plain "${confined[@]}" "${launcher[$l]}" "$script"
		# Root has CAP_SYS_PTRACE, which the confined session takes away.
		expect "$what: root's, from a confined session, is refused" 0 \
			"Permission denied" "" -- mem_try root confined "${confined[@]}" "${launcher[$l]}" "$script"
		expect "$what: root's, from outside the session, opens it (root is not the attacker)" 0 \
			"opened" "" -- mem_try root plain "${confined[@]}" "${launcher[$l]}" "$script"
		set_policy_file "policy = $policy"
		expect "$what: control, nothing enforced: nobody opens it" 0 "opened" "" -- \
			mem_try nobody plain "${launcher[$l]}" "$script"
	done
done

# Before main(): a launcher started with enforcement in its securebits or
# its environment is non-dumpable from its library's constructor on, so the
# window after execve() ends before any of its own code runs.  gdb stops it
# at main and asks prctl(PR_GET_DUMPABLE) in it.
printf 'break main\nrun\nprint (int)prctl(3, 0, 0, 0, 0)\nkill\n' >"$X/dumpable.gdb"
dumpable_at_main() {
	"$@" 2>&1 | grep -E '^\$1 = '
}
set_policy_file "policy = 3"
for l in lua python inc; do
	what="nobody, $l"
	expect "$what: not dumpable at main under the securebits" 0 '$1 = 0' "" -- \
		dumpable_at_main setpriv --reuid 65534 --regid 65534 --clear-groups -- \
		"$TF" run --restrict-file -- gdb -nx -batch -q -x "$X/dumpable.gdb" --args "${launcher[$l]}" /dev/null
	expect "$what: not dumpable at main with TRUSTEDFOR_ENFORCE" 0 '$1 = 0' "" -- \
		dumpable_at_main setpriv --reuid 65534 --regid 65534 --clear-groups -- \
		env TRUSTEDFOR_ENFORCE=interactive gdb -nx -batch -q -x "$X/dumpable.gdb" --args "${launcher[$l]}" /dev/null
	expect "$what: control, dumpable at main when nothing is enforced" 0 '$1 = 1' "" -- \
		dumpable_at_main setpriv --reuid 65534 --regid 65534 --clear-groups -- \
		env TRUSTEDFOR_ENFORCE=none gdb -nx -batch -q -x "$X/dumpable.gdb" --args "${launcher[$l]}" /dev/null
done
# A session started inside a confined one (a login's, a root run's) keeps
# the confinement it inherits: the filter refuses a second filter, and run
# takes the session for confined instead of failing, where that is proven
# (no filter of the user's own can be there: session/state.c).  A user's
# own run --lock sets no_new_privs, so a run inside it cannot tell its
# filter from one of the user's that only answers as it does, and fails.
set_policy_file -
STATUS_SESSION='"$1" status | grep "^session:"'
UNPROVEN="session: not proven confined: a seccomp filter refuses user namespaces, ptrace and new filters, but it was installed without privileges (no_new_privs), as a filter of the user's own would be"
NOT_PROVEN_RUN="trusted-for: run: cannot confine the session: a seccomp filter refuses a new one, and it is not proven to be the confinement (it was installed without privileges, under no_new_privs); start the session outside it"
expect "root: run --lock inside a confined session starts, still confined" 0 \
	"session: confined: no user namespaces, no ptrace, no new seccomp filters (seccomp filter)" "" -- \
	"$TF" run --restrict-file --lock -- "$TF" run --deny-interactive --lock -- \
	sh -c "$STATUS_SESSION" sh "$TF"
expect "root: ... and refuses the noexec file" 126 "" \
	"inc: $N/evil.inc: not trusted for execution: noexec mount" -- \
	"$TF" run --restrict-file --lock -- "$TF" run --deny-interactive --lock -- \
	"${launcher[inc]}" "$N/evil.inc"
expect "root: ... and still refuses a new user namespace" 1 "" \
	"unshare: unshare failed: Operation not permitted" -- \
	"$TF" run --restrict-file --lock -- "$TF" run --deny-interactive --lock -- \
	unshare -U true
expect "nobody: status in the user's own run --lock: not proven confined" 0 "$UNPROVEN" "" -- \
	as_nobody "$TF" run --restrict-file --lock -- sh -c "$STATUS_SESSION" sh "$TF"
expect "nobody: run --lock inside the user's own run --lock: refused, 125" 125 "" "$NOT_PROVEN_RUN" -- \
	as_nobody "$TF" run --restrict-file --lock -- "$TF" run --deny-interactive --lock -- true
for who in root nobody; do
	runas=
	[ "$who" = nobody ] && runas=as_nobody
	# Bits the session holds already: the kernel refuses to set them again
	# without CAP_SETPCAP, and run does not ask it to.
	expect "$who: run asking for the bits the session holds starts" 0 \
		"securebits: 0xf00, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE on (locked)" "" -- \
		$runas "$TF" run --restrict-file --deny-interactive --lock -- \
		"$TF" run --restrict-file --deny-interactive --lock --no-confine -- \
		sh -c '"$1" status | grep "^securebits:"' sh "$TF"
	expect "$who: ... and unlocked bits asked for again" 0 \
		"securebits: 0x100, EXEC_RESTRICT_FILE on, EXEC_DENY_INTERACTIVE off" "" -- \
		$runas "$TF" run --restrict-file -- "$TF" run --restrict-file -- \
		sh -c '"$1" status | grep "^securebits:"' sh "$TF"
done

# A filter of the user's own that answers the three probes of the
# confinement exactly (tests/helpers/forge-answer.c, confined=EPERM) and
# confines nothing.  run --lock once took that for the confinement and ran
# the command with no filter of its own: a new user namespace, and with it
# every way around the bits, stayed open, while status said "confined".
forge=$TF_BUILD/tests/forge-answer
expect "nobody, the forged probes alone: status does not say confined" 0 "$UNPROVEN" "" -- \
	as_nobody "$forge" confined=EPERM sh -c "$STATUS_SESSION" sh "$TF"
expect "nobody, the forged probes alone (control): a user namespace is created" 0 "" "" -- \
	as_nobody "$forge" confined=EPERM unshare -U true
expect "nobody, the forged probes: run --lock installs its own filter, no user namespace" 1 "" \
	"unshare: unshare failed: Operation not permitted" -- \
	as_nobody "$forge" confined=EPERM "$TF" run --restrict-file --lock -- unshare -U true
expect "nobody, the forged probes: ... and no tracer" 1 "" \
	"unshare: unshare failed: Operation not permitted" -- \
	as_nobody "$forge" confined=EPERM "$TF" run --restrict-file --lock -- \
	sh -c 'strace -o /dev/null true 2>/dev/null || unshare -U true'
expect "nobody, seccomp() answered 0 with no filter loaded: run --lock fails, 125" 125 "" \
	"trusted-for: run: cannot confine the session: Operation not supported" -- \
	as_nobody "$forge" loadfilter=0 "$TF" run --restrict-file --lock -- true
expect "nobody, every seccomp() refused: run --lock fails, 125" 125 "" \
	"trusted-for: run: cannot confine the session: Operation not supported" -- \
	as_nobody "$forge" seccomp=EPERM "$TF" run --restrict-file --lock -- true
done_testing
