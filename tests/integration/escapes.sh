#!/bin/bash
# trusted-for status and check --explain name the machine's ways around
# enforcement (user namespaces, an overflow uid of 0, ptrace, launchers
# dumpable from their start, executable memfds), whether the session is
# confined, and what the enforcement in force depends on.  The sysctls are shown through files bind-mounted over
# /proc/sys inside the test's private mount namespace, so every expectation
# is exact whatever the host says; a knob this kernel lacks is tested as
# absent.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"
TF=$TF_BUILD/tools/trusted-for
# LeakSanitizer (the ASan build) stops the world with ptrace, which a
# confined session refuses, and fails the process at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
make_mounts && set_policy_file - || { not_ok "mounts and the /etc overlay"; done_testing; }
if kernel_lacks exec-securebits; then
	# trusted-for run cannot start a session on this kernel.
	not_applicable "$(basename "$0")" "$na_why"
	done_testing
fi

# Lines of trusted-for status that start with WORD.
status_lines() {
	local word=$1
	shift
	"$@" "$TF" status | grep "^$word" || true
}
none() { "$@"; }
enforced() { "$TF" run --restrict-file -- "$@"; }
locked() { "$TF" run --restrict-file --lock -- "$@"; }
unconfined() { "$TF" run --restrict-file --lock --no-confine -- "$@"; }

expect "status: a session not confined" 0 "session: not confined" "" -- status_lines session: none
expect "status: run --lock confines it" 0 \
	"session: confined: no user namespaces, no ptrace, no new seccomp filters (seccomp filter)" "" -- status_lines session: locked
expect "status: run --lock --no-confine does not" 0 "session: not confined" "" -- \
	status_lines session: unconfined

# User namespaces.
fake_sysctl user.max_user_namespaces 5 || not_ok "user.max_user_namespaces exists"
if fake_sysctl kernel.unprivileged_userns_clone 1; then clone="= 1"; else clone=absent; fi
fake_sysctl kernel.apparmor_restrict_unprivileged_userns 0
userns="warning: unprivileged user namespaces are allowed (user.max_user_namespaces = 5, kernel.unprivileged_userns_clone $clone): in one the kernel clears the securebits and a user can mount over the policy file"
expect "user namespaces, nothing enforced" 0 "$userns; nothing is enforced here" "" -- \
	status_lines "warning: unprivileged user" none
expect "user namespaces, enforced by the securebits" 0 "$userns; the enforcement here depends on it" "" -- \
	status_lines "warning: unprivileged user" enforced
expect "user namespaces, locked bits, not confined" 0 "$userns; the enforcement here depends on it" "" -- \
	status_lines "warning: unprivileged user" unconfined
expect "user namespaces, a confined session" 0 "$userns; this session is confined against it" "" -- \
	status_lines "warning: unprivileged user" locked
set_policy_file "policy = 1
enforce = file"
expect "user namespaces, enforced by the policy file" 0 "$userns; the enforcement here depends on it" "" -- \
	status_lines "warning: unprivileged user" none
set_policy_file -
fake_sysctl user.max_user_namespaces 0
expect "user.max_user_namespaces = 0: no warning" 0 "" "" -- status_lines "warning: unprivileged user" enforced
fake_sysctl user.max_user_namespaces 5
if [ "$clone" = "= 1" ]; then
	fake_sysctl kernel.unprivileged_userns_clone 0
	expect "kernel.unprivileged_userns_clone = 0: no warning" 0 "" "" -- \
		status_lines "warning: unprivileged user" enforced
	# Back to allowed: check --explain below expects the warning (Debian's
	# kernels have this knob, the host's may not).
	fake_sysctl kernel.unprivileged_userns_clone 1
else
	ok "kernel.unprivileged_userns_clone: not in this kernel, so only user.max_user_namespaces counts"
fi

# ptrace.
ptrace="warning: ptrace is not restricted"
if fake_sysctl kernel.yama.ptrace_scope 1; then
	expect "Yama scope 1" 0 \
		"$ptrace (kernel.yama.ptrace_scope = 1): a tracer started by a user rewrites an interpreter's answers; the enforcement here depends on it (a tracer outside this session)" "" \
		-- status_lines "$ptrace" locked
	fake_sysctl kernel.yama.ptrace_scope 2
	expect "Yama scope 2: no warning" 0 "" "" -- status_lines "$ptrace" locked
else
	expect "no Yama, enforced, not confined" 0 \
		"$ptrace (no Yama): a tracer started by a user rewrites an interpreter's answers; the enforcement here depends on it" "" \
		-- status_lines "$ptrace" enforced
	expect "no Yama, a confined session" 0 \
		"$ptrace (no Yama): a tracer started by a user rewrites an interpreter's answers; the enforcement here depends on it (a tracer outside this session)" "" \
		-- status_lines "$ptrace" locked
fi

# memfds.
memfd="warning: a user can make an executable memfd"
if fake_sysctl vm.memfd_noexec 0; then
	expect "vm.memfd_noexec = 0, policy 3" 0 \
		"$memfd (vm.memfd_noexec = 0), which passes the execute-permission check; the enforcement here depends on it (every policy judges a memfd by its mode)" "" \
		-- status_lines "$memfd" enforced
	set_policy_file "policy = 1"
	expect "vm.memfd_noexec = 0, policy 1" 0 \
		"$memfd (vm.memfd_noexec = 0), which passes the execute-permission check; the enforcement here depends on it (every policy judges a memfd by its mode)" "" \
		-- status_lines "$memfd" enforced
	set_policy_file -
	fake_sysctl vm.memfd_noexec 2
	expect "vm.memfd_noexec = 2: no warning" 0 "" "" -- status_lines "$memfd" enforced
else
	not_ok "vm.memfd_noexec exists (Linux 6.3 and later)"
fi

# The launchers' memory from their execve(): mode 0711 makes a launcher
# non-dumpable there only where fs.suid_dumpable is 0 or 2, the value the
# kernel then gives; under 1 it stays dumpable, and its user stops its
# loader (a FIFO in LD_PRELOAD) and writes over its checks through
# /proc/PID/mem, which a confined session does not close (the attacker
# review showed it in the 6.1 guest).  A value that cannot be read counts
# as 1.  Yama refuses that write: scope 3 always, scope 2 where the user
# cannot run the launcher in a user namespace of their own.
dump="warning: the launchers' memory is open to their user"
dumpable="mode 0711 leaves them dumpable from their start, so a user who stalls their loader writes over their checks"
fake_sysctl kernel.yama.ptrace_scope 1
if fake_sysctl fs.suid_dumpable 1; then
	expect "fs.suid_dumpable = 1, nothing enforced" 0 \
		"$dump (fs.suid_dumpable = 1): $dumpable; nothing is enforced here" "" \
		-- status_lines "$dump" none
	expect "fs.suid_dumpable = 1, a confined session too" 0 \
		"$dump (fs.suid_dumpable = 1): $dumpable; the enforcement here depends on it" "" \
		-- status_lines "$dump" locked
	fake_sysctl fs.suid_dumpable ""
	expect "fs.suid_dumpable unreadable: taken as 1" 0 \
		"$dump (fs.suid_dumpable unreadable, taken as 1): $dumpable; the enforcement here depends on it" "" \
		-- status_lines "$dump" enforced
	fake_sysctl fs.suid_dumpable 1
	if fake_sysctl kernel.yama.ptrace_scope 3; then
		expect "fs.suid_dumpable = 1, Yama scope 3" 0 \
			"$dump (fs.suid_dumpable = 1): $dumpable; kernel.yama.ptrace_scope = 3 closes it" "" \
			-- status_lines "$dump" enforced
		fake_sysctl kernel.yama.ptrace_scope 2
		expect "fs.suid_dumpable = 1, Yama scope 2, user namespaces open" 0 \
			"$dump (fs.suid_dumpable = 1): $dumpable; the enforcement here depends on it" "" \
			-- status_lines "$dump" enforced
		expect "fs.suid_dumpable = 1, Yama scope 2, a confined session" 0 \
			"$dump (fs.suid_dumpable = 1): $dumpable; kernel.yama.ptrace_scope = 2 closes it" "" \
			-- status_lines "$dump" locked
		fake_sysctl user.max_user_namespaces 0
		expect "fs.suid_dumpable = 1, Yama scope 2, no user namespaces" 0 \
			"$dump (fs.suid_dumpable = 1): $dumpable; kernel.yama.ptrace_scope = 2 closes it" "" \
			-- status_lines "$dump" enforced
		fake_sysctl user.max_user_namespaces 5
		fake_sysctl kernel.yama.ptrace_scope 1
	fi
	fake_sysctl fs.suid_dumpable 2
	expect "fs.suid_dumpable = 2: no warning" 0 "" "" -- status_lines "$dump" locked
	fake_sysctl fs.suid_dumpable 0
	expect "fs.suid_dumpable = 0: no warning" 0 "" "" -- status_lines "$dump" locked
else
	not_ok "fs.suid_dumpable exists"
fi

# The overflow uid: an unmapped owner shows as it, and the library tells
# root of the initial namespace by procfs's "self" link showing as 0.
overflow="warning: kernel.overflowuid = 0: in a user namespace of their own, root's files and a user's own both show as uid 0, so a policy file the user mounts there counts as root's"
fake_sysctl kernel.overflowuid 0 || not_ok "kernel.overflowuid exists"
expect "kernel.overflowuid = 0, nothing enforced" 0 "$overflow; nothing is enforced here" "" -- \
	status_lines "warning: kernel.overflowuid" none
expect "kernel.overflowuid = 0, enforced, not confined" 0 "$overflow; the enforcement here depends on it" "" -- \
	status_lines "warning: kernel.overflowuid" unconfined
expect "kernel.overflowuid = 0, a confined session" 0 "$overflow; this session is confined against it" "" -- \
	status_lines "warning: kernel.overflowuid" locked
fake_sysctl kernel.overflowuid 65534
expect "kernel.overflowuid = 65534: no warning" 0 "" "" -- status_lines "warning: kernel.overflowuid" enforced

# check --explain warns only where a verdict is enforced.
fake_sysctl user.max_user_namespaces 0
fake_sysctl vm.memfd_noexec 2
fake_sysctl kernel.yama.ptrace_scope 3
printf '+\n' >"$TF_TMP/exec/x" && chmod 0755 "$TF_TMP/exec/x"
verdict="$TF_TMP/exec/x: trusted for execution (policy 3, execveat(AT_EXECVE_CHECK))"
if [ -e /proc/sys/kernel/yama/ptrace_scope ]; then
	expect "check --explain, enforced, nothing open: no warning" 0 "$verdict" "" -- \
		enforced "$TF" check --explain "$TF_TMP/exec/x"
else
	expect "check --explain, enforced, no Yama" 0 "$verdict" \
		"trusted-for: $ptrace (no Yama): a tracer started by a user rewrites an interpreter's answers; the enforcement here depends on it" \
		-- enforced "$TF" check --explain "$TF_TMP/exec/x"
fi
fake_sysctl user.max_user_namespaces 5
expect "check --explain, nothing enforced: no warning" 0 "$verdict" "" -- \
	"$TF" check --explain "$TF_TMP/exec/x"
expect "check --explain, enforced: the warning on stderr" 0 "$verdict" "*" -- \
	enforced "$TF" check --explain "$TF_TMP/exec/x"
cp "$TF_TMP/err" "$TF_TMP/explain-err"
expect "... naming user namespaces" 0 \
	"trusted-for: $userns; the enforcement here depends on it" "" \
	-- grep "user namespaces" "$TF_TMP/explain-err"
# What vm.memfd_noexec = 2 closes: under 0 a user's memfd holding code
# passes the kernel's check (policy 3, judged by its mode); under 2 it
# cannot be made executable and is refused.  The knob belongs to the pid
# namespace (a child may only raise it), so a new one changes nothing on
# the host.
memfd_check() {
	# The real knob, from under the files bind-mounted over it above.
	unshare --pid --fork --mount sh -c 'while umount /proc/sys/vm/memfd_noexec 2>/dev/null; do :; done
		echo "$1" >/proc/sys/vm/memfd_noexec &&
		exec setpriv --reuid 65534 --regid 65534 --clear-groups -- /usr/bin/$TF_PYTHON -c "$2" "$3"' \
		sh "$1" '
import os, subprocess, sys
fd = os.memfd_create("code", 0)
os.write(fd, b"+\n")
try:
    os.fchmod(fd, 0o755)
except OSError as e:
    print("chmod:", os.strerror(e.errno), flush=True)
r = os.open(f"/proc/self/fd/{fd}", os.O_RDONLY)
os.close(fd)
sys.exit(subprocess.run([sys.argv[1], "check", "--explain", "--policy", "3", f"/dev/fd/{r}"], pass_fds=[r]).returncode)' "$TF"
}
if [ -e /proc/sys/vm/memfd_noexec ]; then
	expect "vm.memfd_noexec = 0: a user's executable memfd passes policy 3" 0 \
		"/dev/fd/4: trusted for execution (policy 3, execveat(AT_EXECVE_CHECK))" "" -- memfd_check 0
	expect "vm.memfd_noexec = 2: it cannot be made executable, and is refused" 1 \
		"chmod: Operation not permitted
/dev/fd/4: not trusted for execution: no execute permission: uid 65534 (policy 3, execveat(AT_EXECVE_CHECK))" "" \
		-- memfd_check 2
fi

# Places users write, on mounts that allow execution (status only; its
# --verbose has one line each, tests/integration/status.sh the rest): fresh
# tmpfs mounts over /var/tmp and /home in this test's namespace, unless the
# build or the sources are below them, which the mount would hide.
place_lines() {
	local word=$1
	shift
	"$@" "$TF" status --verbose | grep "^$word" || true
}
place="on a mount without noexec: a user's own script there passes policy 1, and policy 3 once it is made executable"
mounted_over=
for dir in /var/tmp /home; do
	hides=
	for used in "$TF_BUILD" "$TF_SRC" "$TF_TMP"; do
		case "$(realpath "$used")/" in "$dir"/*) hides=$used ;; esac
	done
	if [ -n "$hides" ]; then
		not_run "status: $dir on an exec mount" "a tmpfs on $dir would hide $hides"
		continue
	fi
	who="every user can write here"
	mode=1777
	[ "$dir" = /home ] && who="users write their home directories here" mode=0755
	mount -t tmpfs -o "mode=$mode" trustedfor-test "$dir" || not_ok "mount a tmpfs on $dir"
	expect "status: $dir on an exec mount" 0 "warning: $dir: $who, $place; nothing is enforced here" "" -- \
		place_lines "warning: $dir:" none
	expect "... the enforcement here depends on it" 0 \
		"warning: $dir: $who, $place; the enforcement here depends on it" "" -- \
		place_lines "warning: $dir:" enforced
	mount -o remount,noexec "$dir" || not_ok "remount $dir noexec"
	expect "status: $dir on a noexec mount: no warning" 0 "" "" -- place_lines "warning: $dir:" none
	mounted_over=$mounted_over$dir
done
if [ "${mounted_over:-}" != "${mounted_over#/var/tmp}" ]; then
	mount -t tmpfs -o mode=0755 trustedfor-test /var/tmp || not_ok "mount a tmpfs on /var/tmp"
	expect "status: /var/tmp that only root writes: no warning" 0 "" "" -- \
		place_lines "warning: /var/tmp:" none
fi
done_testing
