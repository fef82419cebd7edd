#!/bin/bash
# trusted-for end to end, in a private mount namespace: exact exit statuses,
# stdout and stderr for check, status, scan and run.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# LeakSanitizer (the ASan build) reports the interpreters' exit-time
# allocations and cannot run under ptrace: off where a case needs it so.
nolsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
enter_private_namespace "$@"
TF=$TF_BUILD/tools/trusted-for
T=$TF_TMP

make_mounts || { not_ok "mount exec and noexec tmpfs"; done_testing; }
set_policy_file - || { not_ok "overlay on /etc"; done_testing; }
printf '+\n' >"$T/exec/x" && chmod 0755 "$T/exec/x"
printf '+\n' >"$T/exec/nx" && chmod 0644 "$T/exec/nx"
printf '+\n' >"$T/noexec/x" && chmod 0755 "$T/noexec/x"
mkfifo "$T/exec/fifo"
python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$T/exec/sock"
# What this kernel has, from the tests' own probes (tests/lib.sh): the
# expectations follow it, and what it cannot have is not applicable.
kernel_lacks execve-check && has_check=no || has_check=yes
kernel_lacks trusted-for-syscall && has_syscall=no || has_syscall="yes (patched kernel)"
# On the patched kernel, fs.trusted_for_policy is the check policy (the
# guest of kernel/userspace.sh sets 3), never the policy file's.
if [ "$has_syscall" = no ]; then
	from_bad="bad policy file, failing closed"
	from_default=default
else
	from_bad=fs.trusted_for_policy
	from_default=fs.trusted_for_policy
fi
K="policy 3, $(expected_backend)"
# As a normal user the test runs in a user namespace of its own, where the
# policy file fails closed: everything is enforced, with a file or not, and
# an explaining check first warns of what the enforcement depends on.
if in_user_namespace; then
	userns=yes
	quiet=$($TF check --explain "$T/exec/x" 2>&1 >/dev/null)
	if [ -n "$quiet" ] && ! grep -v -- '^trusted-for: warning: .*; the enforcement here depends on it' <<<"$quiet"; then
		ok "in a user namespace, check --explain warns before its verdicts"
	else
		not_ok "in a user namespace, check --explain warns before its verdicts"
		printf '#   %s\n' "$quiet"
	fi
	file_absent="NOT TRUSTED, failing closed: /etc/trustedfor.conf: absent, in a user namespace (uid_map $uid_map) where a mount can hide it"
	file_present="NOT TRUSTED, failing closed: /etc/trustedfor.conf: owned by uid 0 here, uid $(cut -d' ' -f2 <<<"$uid_map") in the parent user namespace (uid_map $uid_map): only root of the initial one counts"
	from_default=$from_bad
	enforced="file, interactive (policy file: file, interactive;"
else
	userns=no
	quiet=
	file_absent="/etc/trustedfor.conf: absent, defaults apply"
	enforced=
fi
kernel_lacks exec-securebits && no_securebits=$na_why || no_securebits=

# check
expect "check: a trusted file: status 0, silent" 0 "" "" -- $TF check "$T/exec/x"
expect "check: noexec mount" 1 "" \
	"trusted-for: $T/noexec/x: not trusted for execution: noexec mount: $T/noexec" \
	-- $TF check "$T/noexec/x"
expect "check: no execute permission" 1 "" \
	"trusted-for: $T/exec/nx: not trusted for execution: no execute permission: uid 0" \
	-- $TF check "$T/exec/nx"
expect "check --explain: every verdict on stdout" 1 \
	"$T/exec/x: trusted for execution ($K)
$T/noexec/x: not trusted for execution: noexec mount: $T/noexec ($K)
$T/exec: not trusted for execution: not a regular file: directory ($K)
$T/exec/fifo: not trusted for execution: not a regular file: FIFO or pipe ($K)
$T/exec/sock: not trusted for execution: not a regular file: socket ($K)
/dev/null: not trusted for execution: not a regular file: character device ($K)
/proc/self/status: not trusted for execution: kernel-internal file: procfs ($K)" "$quiet" \
	-- $TF check --explain "$T/exec/x" "$T/noexec/x" "$T/exec" "$T/exec/fifo" \
	"$T/exec/sock" /dev/null /proc/self/status
expect "check --policy 1: the mount only" 0 \
	"$T/exec/nx: trusted for execution (policy 1, emulation)" "$quiet" \
	-- $TF check --explain --policy 1 "$T/exec/nx"
expect "check --policy 2: the file only" 0 \
	"$T/noexec/x: trusted for execution (policy 2, emulation)" "$quiet" \
	-- $TF check --explain --policy 2 "$T/noexec/x"
expect "check --policy 0: no checks" 0 "" "" -- $TF check --policy 0 "$T/exec/fifo"
expect "check: a missing file is an error" 3 "" \
	"trusted-for: $T/nope: cannot open: No such file or directory" -- $TF check "$T/nope"
expect "check: an error outranks a refusal" 3 "" \
	"trusted-for: $T/noexec/x: not trusted for execution: noexec mount: $T/noexec
trusted-for: $T/nope: cannot open: No such file or directory" \
	-- $TF check "$T/exec/x" "$T/noexec/x" "$T/nope"
expect "check: no file" 2 "" \
	"trusted-for: check: no file given (see trusted-for --help)" -- $TF check
expect "check: bad policy" 2 "" \
	"trusted-for: check: bad policy '4' (0..3) (see trusted-for --help)" \
	-- $TF check --policy 4 "$T/exec/x"
expect "unknown command" 2 "" \
	"trusted-for: unknown command 'frobnicate' (see trusted-for --help)" -- $TF frobnicate
expect "no command" 2 "" "trusted-for: no command given (see trusted-for --help)" -- $TF
expect "scan: bad policy" 2 "" \
	"trusted-for: scan: bad policy '4' (0..3) (see trusted-for --help)" \
	-- $TF scan --policy 4 "$T/exec"
expect "scan: no directory" 2 "" \
	"trusted-for: scan: no directory given (see trusted-for --help)" -- $TF scan
expect "status: no arguments" 2 "" \
	"trusted-for: status: takes no arguments (see trusted-for --help)" -- $TF status now
expect "status: no operand after --verbose either" 2 "" \
	"trusted-for: status: takes no arguments (see trusted-for --help)" -- $TF status -v now
expect "status: a bad option" 2 "" \
	"trusted-for: status: bad option '--bogus' (see trusted-for --help)" -- $TF status --bogus
# --help is written from the command table: one synopsis and one help line
# for each command.
help_commands() { "$@" | sed -n 's/^  \([a-z][a-z]*\)  *[a-z].*/\1/p' | tr '\n' ' '; }
expect "--help: every command, from the table" 0 "check status scan run policy " "" \
	-- help_commands $TF --help

# status
status_line() { "$@" 2>&1 | grep "^$STATUS_KEY: "; }
expect_status() {
	local what=$1 key=$2 want=$3
	shift 3
	STATUS_KEY=$key expect "$what" 0 "$key: $want" "" -- status_line "$@"
}
expect_status "status: no policy file" "policy file" "$file_absent" $TF status
expect_status "status: default policy" "check policy" "3 (mount and file), from $from_default" $TF status
expect_status "status: AT_EXECVE_CHECK" "AT_EXECVE_CHECK" "$has_check" $TF status
expect_status "status: the patched kernel's call" "trusted_for() system call" \
	"$has_syscall" $TF status
expect_status "status: backend" "check backend" "$(expected_backend)" $TF status
expect_status "status: nothing enforced" "enforcement" \
	"${enforced:-none (policy file: none;} TRUSTEDFOR_ENFORCE: none)" $TF status
if [ -n "$no_securebits" ]; then
	# What Debian 12's kernel lacks, said by status and by run.
	expect_status "status: says the kernel has no exec securebits" "securebits" \
		"0x0, no exec securebits in this kernel" $TF status
	# ... and what pam_trustedfor(8) does then, with no policy file.
	expect_status "status: says the PAM module refuses, and both fixes" "pam_trustedfor" \
		"refuses every session whose line asks restrict_file or deny_interactive ($(spared_by_bad_file) are let in unenforced): this kernel has no exec securebits and the policy file enforces nothing; fix: a kernel with them (Linux 6.14 or later: Debian 13's trixie-backports), or enforce = file in the policy file (trusted-for policy edit)" \
		$TF status
	for opts in --restrict-file --deny-interactive "--restrict-file --lock"; do
		expect "run $opts without exec securebits: status 125, the reason" 125 "" \
			"trusted-for: run: cannot set the securebits: Operation not permitted (this kernel has no exec securebits: Linux 6.14 or later needed)" \
			-- $TF run $opts -- "$T/exec/x"
	done
else
	expect_status "status: no securebits" "securebits" \
		"0x0, EXEC_RESTRICT_FILE off, EXEC_DENY_INTERACTIVE off" $TF status
	STATUS_KEY=pam_trustedfor expect "status: nothing said of the PAM module where the bits are" \
		1 "" "" -- status_line $TF status
	expect_status "status: securebits set and locked by run" "securebits" \
		"0x300, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE off" \
		$TF run --restrict-file --lock -- env ASAN_OPTIONS=detect_leaks=0 $TF status
	expect_status "status: both bits" "enforcement" \
		"${enforced:-file, interactive (policy file: none;} TRUSTEDFOR_ENFORCE: none)" \
		$TF run --restrict-file --deny-interactive -- $TF status
fi
expect_status "status: TRUSTEDFOR_ENFORCE" "enforcement" \
	"${enforced:-interactive (policy file: none;} TRUSTEDFOR_ENFORCE: interactive)" \
	env TRUSTEDFOR_ENFORCE=interactive $TF status
set_policy_file "policy = 1
enforce = file
audit = on
log = stderr"
if [ "$userns" = yes ]; then
	expect_status "status: in a user namespace, a root-owned file fails closed" "policy file" \
		"$file_present" $TF status
	expect_status "status: ... with every check" "check policy" \
		"3 (mount and file), from $from_bad" $TF status
	expect_status "status: ... enforcing everything" "enforcement" \
		"$enforced TRUSTEDFOR_ENFORCE: none)" $TF status
	expect_status "status: ... audited to syslog" "audit" "on, log to syslog" $TF status
	expect "check: ... refuses what the file's policy 1 would trust" 1 "" \
		"trusted-for: $T/exec/nx: not trusted for execution: no execute permission: uid 0" \
		-- $TF check "$T/exec/nx"
elif [ "$has_syscall" = no ]; then
	expect_status "status: policy from the file" "check policy" "1 (mount), from policy file" $TF status
	expect_status "status: policy 1 is emulated" "check backend" "emulation" $TF status
	expect "check follows the file's policy 1" 0 "" "" -- $TF check "$T/exec/nx"
else
	# What the administrator set in the kernel rules over the file.
	set_kernel_policy 3
	expect_status "status: the kernel's policy, not the file's" "check policy" \
		"3 (mount and file), from fs.trusted_for_policy" $TF status
	expect_status "status: the kernel's call applies it" "check backend" \
		"trusted_for() system call" $TF status
	expect "check follows the kernel's policy 3" 1 "" \
		"trusted-for: $T/exec/nx: not trusted for execution: no execute permission: uid 0" \
		-- $TF check "$T/exec/nx"
fi
if [ "$userns" = no ]; then
	expect_status "status: the file is trusted" "policy file" "/etc/trustedfor.conf: trusted" $TF status
	expect_status "status: enforcement from the file" "enforcement" \
		"file (policy file: file; TRUSTEDFOR_ENFORCE: none)" $TF status
	expect_status "status: audit" "audit" "on, log to stderr" $TF status
fi
set_policy_file "policy = 1" 0666
set_kernel_policy 3 # the sysctl, where it rules, as the guest has it
[ "$userns" = yes ] && writable=$file_present ||
	writable="NOT TRUSTED, failing closed: /etc/trustedfor.conf: writable by group or others (mode 0666)"
expect_status "status: a writable policy file fails closed" "policy file" "$writable" $TF status
# For every user but root (in a user namespace of a user's own, root there
# too): everything enforced, every check.  Root is not held to it.
[ "$userns" = yes ] && as_other=() || as_other=(as_nobody)
expect_status "status: ... enforcing everything (uid 65534)" "enforcement" \
	"file, interactive (policy file: file, interactive; TRUSTEDFOR_ENFORCE: none)" "${as_other[@]}" $TF status
expect_status "status: ... with every check (uid 65534)" "check policy" \
	"3 (mount and file), from $from_bad" "${as_other[@]}" $TF status
expect_status "status: ... says what it means and names the fix" "bad policy file" \
	"every user but $(spared_by_bad_file): everything enforced, policy 3; $(spared_by_bad_file): the securebits and TRUSTEDFOR_ENFORCE alone; fix it with: trusted-for policy edit" \
	$TF status
if [ "$userns" = no ]; then
	expect_status "status: ... root enforces nothing from it" "enforcement" \
		"none (policy file: none; TRUSTEDFOR_ENFORCE: none)" $TF status
	expect_status "status: ... and has the built-in check policy" "check policy" \
		"3 (mount and file), from $from_default" $TF status
fi
set_policy_file -

# policy: judged by the library's own rules; a new file in place only
# once it passes, whole, root's and 0644, or the old one left as it was.
P=/etc/trustedfor.conf
printf 'trustedfor-policy 1\npolicy = 2\nenforce = file\naudit = on\nend\n' >"$T/good.conf"
printf 'trustedfor-policy 1\npolicy = 1\nend\n\n' >"$T/bad.conf"
chmod 0666 "$T/good.conf"
expect "policy check: a draft's content (its owner and mode are not the installed file's)" 0 \
	"$T/good.conf: ok: policy 2, enforce file, audit on" "" -- $TF policy check "$T/good.conf"
expect "policy check: a bad draft, in the library's words" 1 \
	"$T/bad.conf: line 4: content after 'end'" "" -- $TF policy check "$T/bad.conf"
expect "policy check: the shipped conffile (debian/trustedfor.conf) is good" 0 \
	"$TF_SRC/debian/trustedfor.conf: ok: policy 1, enforce none, audit off" "" -- \
	$TF policy check "$TF_SRC/debian/trustedfor.conf"
expect "policy check: a draft that cannot be opened" 3 "" \
	"trusted-for: $T/nope: cannot open: No such file or directory" -- $TF policy check "$T/nope"
expect "policy: no verb" 2 "" "trusted-for: policy: check, install or edit? (see trusted-for --help)" -- \
	$TF policy
expect "policy: an unknown verb" 2 "" "trusted-for: policy: unknown verb 'set' (see trusted-for --help)" -- \
	$TF policy set
expect "policy install: no FILE" 2 "" "trusted-for: policy install: give one FILE (see trusted-for --help)" -- \
	$TF policy install
if [ "$userns" = no ]; then
	set_policy_file "policy = 1"
	cp -p $P "$T/before"
	expect "policy install: a bad file is refused, in check's words" 1 "" \
		"trusted-for: $T/bad.conf: line 4: content after 'end'" -- $TF policy install "$T/bad.conf"
	expect "policy install: ... the installed file left byte for byte, and no file beside it" 0 \
		"-rw-r--r-- 0 0 $P" "" -- sh -c 'cmp "$1" "$2" && ls /etc/.trustedfor.conf.* 2>/dev/null;
			stat -c "%A %u %g %n" "$2"' sh "$T/before" $P
	expect "policy install: uid 65534 cannot" 3 "" \
		"trusted-for: policy install: cannot create a file in /etc: Permission denied" -- \
		as_nobody $TF policy install "$T/good.conf"
	expect "policy install: a good file is installed" 0 \
		"$P: installed: policy 2, enforce file, audit on" "" -- $TF policy install "$T/good.conf"
	expect "policy install: ... root's, mode 0644, the same bytes" 0 "-rw-r--r-- 0 0 $P" "" -- \
		sh -c 'cmp "$1" "$2" && stat -c "%A %u %g %n" "$2"' sh "$T/good.conf" $P
	expect "policy check: ... and the library reads it" 0 "$P: ok: policy 2, enforce file, audit on" "" -- \
		$TF policy check
	expect "policy edit: an editor's good draft is installed" 0 \
		"$P: installed: policy 1, enforce file, audit on" "" -- \
		env EDITOR="sed -i s/^policy.=.2$/policy=1/" TMPDIR="$T" $TF policy edit
	set_policy_file_raw "$(printf 'trustedfor-policy 1\npolicy = 1\nend\n\n_')"
	expect "policy edit: the editor mends a bad file" 0 "$P: installed: policy 1, enforce none, audit off" "" -- \
		env EDITOR="sed -i \$d" TMPDIR="$T" $TF policy edit
	# What the issue met: Debian's standard library is mode 0644.  With the
	# shipped file, a session that enforces files starts python3.
	$TF policy install "$TF_SRC/debian/trustedfor.conf" >/dev/null
	if kernel_lacks exec-securebits; then
		not_applicable "the shipped policy file: trusted-python starts under RESTRICT_FILE" "$na_why"
	else
		expect "the shipped policy file: trusted-python imports its 0644 standard library under RESTRICT_FILE" \
			0 "ran" "" -- as_nobody $TF run --restrict-file -- env "$nolsan" \
			"$TF_BUILD/interpreters/python/trusted-python" -c 'import json; print("ran")'
	fi
	set_policy_file -
fi

# run
expect "run: nothing to enforce" 2 "" \
	"trusted-for: run: nothing to enforce: give --restrict-file and/or --deny-interactive (see trusted-for --help)" \
	-- $TF run -- true
expect "run: no command" 2 "" "trusted-for: run: no command given (see trusted-for --help)" \
	-- $TF run --restrict-file
expect "run: a missing command" 127 "" \
	"trusted-for: run: $T/exec/no-such-command: No such file or directory" \
	-- $TF run --restrict-file -- "$T/exec/no-such-command"
expect "run: a command that cannot be executed" 126 "" \
	"trusted-for: run: $T/exec/nx: Permission denied" -- $TF run --restrict-file -- "$T/exec/nx"
expect "run: the command's status comes back" 7 "" "" \
	-- $TF run --deny-interactive -- sh -c 'exit 7'
expect "run: arguments pass through" 0 "a -b --c" "" \
	-- $TF run --restrict-file -- echo a -b --c
expect "run: --no-confine without --lock" 2 "" \
	"trusted-for: run: --no-confine goes with --lock (see trusted-for --help)" \
	-- $TF run --restrict-file --no-confine -- true
if [ -n "$no_securebits" ]; then
	not_applicable "run --lock: the session is confined by a filter" "$no_securebits"
else
	expect "run: without --lock, no filter" 0 "Seccomp:	0" "" \
		-- $TF run --restrict-file -- grep '^Seccomp:' /proc/self/status
	expect "run --lock: the session is confined by a filter" 0 "Seccomp:	2" "" \
		-- $TF run --restrict-file --lock -- grep '^Seccomp:' /proc/self/status
	expect "run --lock --no-confine: locked bits, no filter" 0 "Seccomp:	0" "" \
		-- $TF run --restrict-file --lock --no-confine -- grep '^Seccomp:' /proc/self/status
fi

# scan
mkdir -p "$T/exec/tree/sub" "$T/exec/tree/mnt"
printf '+\n' >"$T/exec/tree/run" && chmod 0755 "$T/exec/tree/run"
printf '+\n' >"$T/exec/tree/lib.py" && chmod 0644 "$T/exec/tree/lib.py"
printf '+\n' >"$T/exec/tree/sub/deep.py" && chmod 0600 "$T/exec/tree/sub/deep.py"
ln -s "$T/noexec/x" "$T/exec/tree/link"
mount -t tmpfs -o noexec other "$T/exec/tree/mnt"
printf '+\n' >"$T/exec/tree/mnt/x" && chmod 0755 "$T/exec/tree/mnt/x"
scan_sorted() { "$@" | sort; return "${PIPESTATUS[0]}"; }
expect "scan: the refused files and a summary" 1 \
	"  no execute permission: 2
  noexec mount: 1
$T/exec/tree/lib.py: not trusted for execution: no execute permission: uid 0
$T/exec/tree/mnt/x: not trusted for execution: noexec mount: $T/exec/tree/mnt
$T/exec/tree/sub/deep.py: not trusted for execution: no execute permission: uid 0
scanned 4 files in 3 directories under policy 3 (1 other entries skipped): 3 would be refused" "" \
	-- scan_sorted $TF scan "$T/exec/tree"
expect "scan --one-file-system stays on the file system" 1 \
	"  no execute permission: 2
$T/exec/tree/lib.py: not trusted for execution: no execute permission: uid 0
$T/exec/tree/sub/deep.py: not trusted for execution: no execute permission: uid 0
scanned 3 files in 2 directories under policy 3 (2 other entries skipped): 2 would be refused" "" \
	-- scan_sorted $TF scan --one-file-system "$T/exec/tree"
expect "scan --policy 2: the file bit only" 1 \
	"  no execute permission: 2
$T/exec/tree/lib.py: not trusted for execution: no execute permission: uid 0
$T/exec/tree/sub/deep.py: not trusted for execution: no execute permission: uid 0
scanned 4 files in 3 directories under policy 2 (1 other entries skipped): 2 would be refused" "" \
	-- scan_sorted $TF scan --policy 2 "$T/exec/tree"
mkdir -p "$T/exec/etc/profile.d" "$T/exec/home"
printf ':\n' >"$T/exec/etc/profile" && chmod 0644 "$T/exec/etc/profile"
printf ':\n' >"$T/exec/etc/profile.d/x.sh" && chmod 0644 "$T/exec/etc/profile.d/x.sh"
printf ':\n' >"$T/exec/home/.bashrc" && chmod 0644 "$T/exec/home/.bashrc"
printf ':\n' >"$T/exec/home/notes" && chmod 0644 "$T/exec/home/notes"
expect "scan: the shells' startup files are counted" 1 \
	"  no execute permission: 4
$T/exec/etc/profile.d/x.sh: not trusted for execution: no execute permission: uid 0
$T/exec/etc/profile: not trusted for execution: no execute permission: uid 0
$T/exec/home/.bashrc: not trusted for execution: no execute permission: uid 0
$T/exec/home/notes: not trusted for execution: no execute permission: uid 0
scanned 4 files in 3 directories under policy 3 (0 other entries skipped): 4 would be refused
shell startup files among them: 3 (login and interactive shells skip them, with a line each, when files are enforced: make them executable, or use policy 1; see trusted-bash(1))" "" \
	-- scan_sorted $TF scan "$T/exec/etc" "$T/exec/home"
expect "scan --policy 1 of an exec tree: nothing refused" 0 \
	"scanned 3 files in 2 directories under policy 1 (2 other entries skipped): 0 would be refused" "" \
	-- $TF scan -x --policy 1 "$T/exec/tree"
# Progress goes to a terminal only; script(1) gives scan one.
script -qec "$TF scan $T/exec/tree" /dev/null >"$T/tty" 2>&1
if grep -q $'\r\033\[Kscanning: [0-9]* files, [0-9]* refused: '"$T/exec/tree/" "$T/tty"; then
	ok "scan shows its progress on a terminal"
else
	not_ok "scan shows its progress on a terminal"
	sed -n l "$T/tty" | sed 's/^/#   /'
fi
expect "scan: a missing directory" 3 \
	"scanned 0 files in 0 directories under policy 3 (0 other entries skipped): 0 would be refused
errors: 1" \
	"trusted-for: $T/nope: cannot open directory: No such file or directory" \
	-- $TF scan "$T/nope"

# A tree deeper than any stack, which anyone can make in /tmp: scan walks it
# without recursion and stops at 256 levels with an error line.
mkdir "$T/exec/deep" && /usr/bin/$TF_PYTHON -c 'import os, sys
os.chdir(sys.argv[1])
for _ in range(2040):
    os.mkdir("d")
    os.chdir("d")
open("f", "w").write("+\n")' "$T/exec/deep" || not_ok "make a tree 2040 levels deep"
expect "scan: a tree 2040 levels deep stops at 256, with an error" 3 \
	"scanned 0 files in 256 directories under policy 3 (0 other entries skipped): 0 would be refused
errors: 1" \
	"trusted-for: $T/exec/deep$(printf '/d%.0s' $(seq 256)): not descending: deeper than 256 levels" \
	-- $TF scan "$T/exec/deep"

# Terminal escapes in names and mount points never reach the terminal: C0
# controls, DEL and the C1 controls of UTF-8 (C2 9B is CSI) become '?'.
E=$'e\033[31m\xc2\x9b1m'
mkdir "$T/$E" && mount -t tmpfs -o noexec esc "$T/$E" &&
	printf '+\n' >"$T/$E/x" && chmod 0755 "$T/$E/x" || not_ok "make a noexec mount named with escapes"
expect "check --explain: the mount point's escapes become '?'" 1 \
	"$T/e?[31m??1m/x: not trusted for execution: noexec mount: $T/e?[31m??1m ($K)" "$quiet" \
	-- $TF check --explain "$T/$E/x"
expect "check: a name's C1 controls become '?'" 3 "" \
	"trusted-for: $T/e?[31m??1m/nope: cannot open: No such file or directory" \
	-- $TF check "$T/$E/nope"
expect "scan: error lines are sanitised" 3 \
	"scanned 0 files in 0 directories under policy 3 (0 other entries skipped): 0 would be refused
errors: 1" \
	"trusted-for: $T/e?[31m??1m/nope: cannot open directory: No such file or directory" \
	-- $TF scan "$T/$E/nope"
expect "scan: verdict lines are sanitised" 1 \
	"$T/e?[31m??1m/x: not trusted for execution: noexec mount: $T/e?[31m??1m
scanned 1 files in 1 directories under policy 3 (0 other entries skipped): 1 would be refused
  noexec mount: 1" "" \
	-- $TF scan "$T/$E"
script -qec "$TF scan '$T/$E'" /dev/null >"$T/tty" 2>&1
if grep -q $'\r\033\[Kscanning: [0-9]* files, [0-9]* refused: .*e?\[31m??1m/x' "$T/tty" &&
	! grep -q $'\xc2\x9b\|\033\[31m' "$T/tty"; then
	ok "scan's progress line is sanitised"
else
	not_ok "scan's progress line is sanitised"
	sed -n l "$T/tty" | sed 's/^/#   /'
fi
expect "run: a command name's escapes become '?'" 127 "" \
	"trusted-for: run: $T/e?[31m??1m/nope: No such file or directory" \
	-- $TF run --restrict-file -- "$T/$E/nope"

# A name too long for a message (255 bytes) keeps its tail, from a slash.
L=$T/exec$(printf '/a-directory-name-of-forty-characters-xx%.0s' $(seq 10))
mkdir -p "$L" && printf '+\n' >"$L/evil.py" && chmod 0644 "$L/evil.py"
expect "check: a 400-byte name keeps its tail" 1 "" \
	"trusted-for: …$(printf '/a-directory-name-of-forty-characters-xx%.0s' $(seq 6))/evil.py: not trusted for execution: no execute permission: uid 0" \
	-- $TF check "$L/evil.py"

# prctl(PR_GET_SECUREBITS) failing after the bits were set is a failure,
# not "every bit kept": strace makes the prctl call that reads them back
# fail (its place among the prctl calls, the first read after the write,
# is counted first).
if [ -n "$no_securebits" ]; then
	not_applicable "run: securebits that cannot be read back" "$no_securebits"
elif command -v strace >/dev/null; then
	# LeakSanitizer cannot run under a tracer.
	nth=$(env "$nolsan" strace -qq -e trace=prctl -o "$T/prctl" $TF run --restrict-file -- true &&
		awk '/PR_SET_SECUREBITS/ { set = 1; next } set && /PR_GET_SECUREBITS/ { print NR; exit }' "$T/prctl")
	expect "run: securebits that cannot be read back: the command never runs" 125 "" \
		"trusted-for: run: cannot read the securebits back: Operation not permitted" \
		-- env "$nolsan" strace -qq -o /dev/null -e trace=prctl -e "inject=prctl:error=EPERM:when=$nth" \
		$TF run --restrict-file -- echo ran
else
	not_run "run: securebits that cannot be read back" "no strace"
fi
done_testing
