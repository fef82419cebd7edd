#!/bin/bash
# pam_trustedfor.so, from the build directory, loaded by the system's own
# su (util-linux) and login (shadow), and by pamtester, through service
# files in this test's namespace only (/etc and /dev are overlays here: the
# host's stay as they are).  The module's log lines are read from a socket
# mounted on /dev/log.
#
# In a session of uid 65534 (and of root) opened with
#   restrict_file deny_interactive lock confine
# trusted-for status shows the bits set and locked and the confinement, and
# the build's trusted interpreters refuse a script on a noexec mount with
# the exact message and status 126 while the same file on an exec mount
# runs, under check policy 3 (no policy file) and 1, and refuse a -c
# string.  Then: whom it applies to (group=, nonroot), and every way it
# fails the session: a bad option, PR_SET_SECUREBITS refused or ignored, no
# seccomp() to confine with (the kernel's answers forged by
# tests/helpers/forge-answer.c), each with its log line.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"
enter_private_namespace "$@"
make_mounts || { not_ok "make the exec and noexec mounts"; done_testing; }
export LC_ALL=C
for tool in pamtester "/usr/bin/$TF_PYTHON" logger; do
	command -v "$tool" >/dev/null || {
		not_ok "$tool is installed (scripts/install-deps.sh)"
		done_testing
	}
done

MODULE=$TF_BUILD/pam/pam_trustedfor.so
TF=$TF_BUILD/tools/trusted-for
FORGE=$TF_BUILD/tests/forge-answer
X=$TF_TMP/exec N=$TF_TMP/noexec
chmod 0777 "$X" "$N"

# /etc: a group for the scope cases, and uid 65534 with a home and a shell
# (su -l runs the user's shell from its home).
etc_overlay || { not_ok "overlay /etc"; done_testing; }
sed -i "s|^nobody:\([^:]*\):65534:65534:\([^:]*\):[^:]*:[^:]*\$|nobody:\1:65534:65534:\2:$X:/bin/bash|" /etc/passwd
grep -qx "nobody:x:65534:65534:nobody:$X:/bin/bash" /etc/passwd ||
	{ not_ok "give uid 65534 a home and a shell in /etc/passwd"; done_testing; }
echo "trustedfor-pam:x:64990:nobody" >>/etc/group
# An administrator: a member of group 27 (Debian's sudo, the build's
# admin_gid), which this module's own failure, like a bad policy file,
# does not lock out.
echo "trustedfor-admin:x:64991:64991::$X:/bin/bash" >>/etc/passwd &&
	echo "trustedfor-admin:*:19000:0:99999:7:::" >>/etc/shadow &&
	awk -F: -v OFS=: '$3 == 27 { $4 = $4 == "" ? "trustedfor-admin" : $4 ",trustedfor-admin" } 1' \
		/etc/group >"$TF_TMP/group" && cat "$TF_TMP/group" >/etc/group &&
	id -G trustedfor-admin | grep -qw 27 ||
	{ not_ok "a user trustedfor-admin in group 27"; done_testing; }

# /dev/log: there may be no syslog daemon, and its messages are the host's.
# An overlay on /dev gives a file to mount this test's socket on; the
# filesystems mounted under /dev come back on top of it.
# The sink ends with this script, when its standard input closes.
sink_script='
import os, select, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print("ready", flush=True)
with open(sys.argv[2], "a") as log:
    while True:
        ready, _, _ = select.select([s, sys.stdin], [], [])
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1):
            break
        if s not in ready:
            continue
        m = s.recv(65536).decode(errors="replace")
        if "trustedfor-test-mark " in m:
            print(m.split("trustedfor-test-mark ", 1)[1], flush=True)
        else:
            log.write(m + "\n")
            log.flush()
'
mkdir -p "$TF_TMP/dev-upper" "$TF_TMP/dev-work" "$TF_TMP/hostdev"
mount --rbind /dev "$TF_TMP/hostdev" &&
	mount -t overlay trustedfor-dev \
		-o "lowerdir=/dev,upperdir=$TF_TMP/dev-upper,workdir=$TF_TMP/dev-work" /dev ||
	{ not_ok "overlay /dev"; done_testing; }
for sub in pts shm mqueue; do
	mountpoint -q "$TF_TMP/hostdev/$sub" && mount --bind "$TF_TMP/hostdev/$sub" "/dev/$sub"
done
rm -f /dev/log && touch /dev/log
coproc SINK { exec "/usr/bin/$TF_PYTHON" -c "$sink_script" "$TF_TMP/log.sock" "$TF_TMP/log"; }
read -r ready <&"${SINK[0]}"
[ "$ready" = ready ] && mount --bind "$TF_TMP/log.sock" /dev/log ||
	{ not_ok "a syslog socket on /dev/log"; done_testing; }

# module_log: the module's lines since the last call, without the syslog
# header: a mark sent after the command comes back once every line before
# it is written.
marks=0
module_log() {
	marks=$((marks + 1))
	logger -u "$TF_TMP/log.sock" "trustedfor-test-mark $marks"
	local mark
	read -r mark <&"${SINK[0]}"
	[ "$mark" = "$marks" ] || echo "mark $mark, not $marks"
	grep -o 'pam_trustedfor(.*' "$TF_TMP/log"
	: >"$TF_TMP/log"
}

# service NAME ARGS...: /etc/pam.d/NAME with the module and ARGS in its
# session stack; root authenticates as anyone (pam_rootok).
service() {
	local name=$1
	shift
	cat >"/etc/pam.d/$name" <<EOF
auth sufficient pam_rootok.so
auth required pam_deny.so
account required pam_permit.so
session required $MODULE $*
session required pam_permit.so
EOF
}

# in_session USER COMMAND: COMMAND in USER's login session opened by su -l.
in_session() { su -l "$1" -c "$2"; }

# expect_log WHAT LINE: the module logged exactly LINE since the last call.
expect_log() { expect "$1" 0 "$2" "" -- module_log; }

ENFORCED="securebits: 0xf00, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE on (locked)"
CONFINED="session: confined: no user namespaces, no ptrace, no new seccomp filters (seccomp filter)"
SESSION_ERR="su: cannot open session: Cannot make/remove an entry for the specified session"
# What trusted-for status says of the session (su -l clears the environment).
STATUS="$TF status | grep -E '^(securebits|session):'"

# Scripts on both mounts, each printing its interpreter's name.
for m in "$X" "$N"; do
	printf 'print("python ran")\n' >"$m/x.py"
	printf 'print("lua ran")\n' >"$m/x.lua"
	printf 'echo shell ran\n' >"$m/x.sh"
	chmod 0755 "$m"/x.*
done
# Under policy 3 Debian's Python library (mode 0644) needs an executable copy.
trusted_stdlib "$X/python" || not_ok "an executable copy of Python's library"
declare -A interp=(
	[python]="$TF_BUILD/interpreters/python/trusted-python x.py python"
	[lua]="$TF_BUILD/interpreters/lua/trusted-lua x.lua lua"
)
if [ -e "$TF_BUILD/shells/trusted-dash" ]; then
	interp[dash]="$TF_BUILD/shells/trusted-dash x.sh shell"
	interp[bash]="$TF_BUILD/shells/trusted-bash x.sh shell"
else
	not_ok "this build has trusted-dash and trusted-bash (meson -Dshells=true)"
fi

# A kernel without the exec securebits (Debian 13's 6.12, Debian 12's
# 6.1): the module holds a session to the policy file where the file
# already enforces, for everyone, what the line asks; anything less
# refuses it, naming both fixes, and lets root and an administrator in
# unenforced.  On a kernel with the bits, the same cases run under
# tests/helpers/old-kernel.c (OLD), which gives 6.12's answers; the guests
# run them on the real kernel.  Each refusal has its control: the same
# line accepted once the policy file enforces.
NO_BITS="this kernel has no exec securebits"
FIX="fix: a kernel with them (Linux 6.14 or later: Debian 13's trixie-backports)"
RELIES="no exec securebits: the session relies on the policy file (/etc/trustedfor.conf: enforce"
OLD_STATUS="$TF status | grep -E '^(securebits|pam_trustedfor|session):'"
old_session() { "${OLD[@]}" su -l "$1" -c "$2"; }
# old_refused WHAT WANT SAID NEEDED: uid 65534 refused, root and an
# administrator let in unenforced, each with the one line that says why.
old_refused() {
	local what=$1 reason user
	reason="$NO_BITS and the policy file does not enforce $2 ($3); $FIX, or enforce = $4 in the policy file (trusted-for policy edit)"
	# A bad file may say what is needed already: mend it.
	case $3 in bad:*)
		reason="$NO_BITS and the policy file does not enforce $2 ($3); fix: mend it (trusted-for policy edit), with enforce = $4, or ${FIX#fix: }" ;;
	esac
	expect "$ON: $what: su -l nobody fails" 1 "" "$SESSION_ERR" -- old_session nobody true
	expect_log "... and the log names both fixes" \
		"pam_trustedfor(su-l:session): refused user=\"nobody\" uid=65534 reason=\"$reason\""
	for user in root trustedfor-admin; do
		expect "$ON: $what: su -l $user is let in, unenforced" 0 "" "" -- old_session "$user" true
		expect_log "... and the log says why" \
			"pam_trustedfor(su-l:session): not enforced user=\"$user\" uid=$(id -u "$user") reason=\"$reason\"; $(spared_by_bad_file) are let in to mend it"
	done
}
without_bits() {
	local user uid
	service su-l restrict_file lock confine
	set_policy_file -
	old_refused "no policy file" file "/etc/trustedfor.conf: absent" file
	set_policy_file "enforce = none"
	old_refused "a policy file that enforces nothing" file "/etc/trustedfor.conf: enforce = none" file
	set_policy_file_raw "$(printf 'trustedfor-policy 1\nenforce = file\nend\n\n_')"
	old_refused "a bad policy file that says enforce = file" file \
		"bad: /etc/trustedfor.conf: line 4: content after 'end'" file
	# status names the fix of that file: mending it, not enforce = file,
	# which it says already.
	expect "$ON: a bad policy file that says enforce = file: status says to mend it" 0 \
		"securebits: 0x0, no exec securebits in this kernel
pam_trustedfor: refuses every session whose line asks restrict_file or deny_interactive ($(spared_by_bad_file) are let in unenforced): $NO_BITS and the policy file is bad, which enforces nothing for a session; fix: mend it (trusted-for policy edit), with enforce = file, or a kernel with them (Linux 6.14 or later: Debian 13's trixie-backports)
session: not confined" "" -- "${OLD[@]}" sh -c "$OLD_STATUS"
	# The control: the same line, once the file enforces.
	set_policy_file "enforce = file"
	for user in nobody root; do
		uid=$(id -u "$user")
		expect "$ON: enforce = file, su -l $user: the session opens, confined, relying on the file" 0 \
			"securebits: 0x0, no exec securebits in this kernel
pam_trustedfor: sessions rely on the policy file (enforce = file): $NO_BITS; a line that asks deny_interactive is refused (enforce = file,interactive to accept it); root can change the file, even from inside a session, where locked bits would hold; for the bits: a kernel with them (Linux 6.14 or later: Debian 13's trixie-backports)
$CONFINED" "" -- old_session "$user" "$OLD_STATUS"
		expect_log "... and the log says what the session relies on, and why" \
			"pam_trustedfor(su-l:session): enforcing user=\"$user\" uid=$uid restrict_file=\"on, by the policy file\" deny_interactive=\"off\" confined=\"yes\" securebits=\"0x0\" kernel=\"$RELIES = file)\""
		expect "$ON: enforce = file, $user's session: trusted-lua refuses the noexec script" 126 "" \
			"trusted-lua: $N/x.lua: not trusted for execution: noexec mount" \
			-- old_session "$user" "${interp[lua]%% *} $N/x.lua"
		expect "$ON: enforce = file, $user's session: ... and runs the exec one" 0 "lua ran" "" \
			-- old_session "$user" "${interp[lua]%% *} $X/x.lua"
		module_log >/dev/null
	done
	# deny_interactive asks for more than the file gives.
	service su-l restrict_file deny_interactive lock confine
	old_refused "enforce = file, deny_interactive asked" file,interactive \
		"/etc/trustedfor.conf: enforce = file" file,interactive
	set_policy_file "enforce = file,interactive"
	expect "$ON: enforce = file,interactive: su -l nobody opens, and -c is refused" 126 "" \
		"trusted-python: -c: interactive code refused" \
		-- old_session nobody "$TF_BUILD/interpreters/python/trusted-python -c 'print(1)'"
	expect_log "... logged" \
		"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on, by the policy file\" deny_interactive=\"on, by the policy file\" confined=\"yes\" securebits=\"0x0\" kernel=\"$RELIES = file,interactive)\""
	# The line says what the session gets, the file's whole enforcement.
	service su-l restrict_file lock confine
	expect "$ON: enforce = file,interactive, restrict_file asked: su -l nobody opens" 0 "" "" \
		-- old_session nobody true
	expect_log "... logged with both, the file's" \
		"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on, by the policy file\" deny_interactive=\"on, by the policy file\" confined=\"yes\" securebits=\"0x0\" kernel=\"$RELIES = file,interactive)\""
	# Users the line does not choose are not touched, root (nonroot) first.
	set_policy_file -
	service su-l restrict_file lock confine nonroot
	expect "$ON: nonroot, no policy file: root's session opens, untouched" 0 \
		"securebits: 0x0, no exec securebits in this kernel
pam_trustedfor: refuses every session whose line asks restrict_file or deny_interactive ($(spared_by_bad_file) are let in unenforced): $NO_BITS and the policy file enforces nothing; $FIX, or enforce = file in the policy file (trusted-for policy edit)
session: not confined" "" -- old_session root "$OLD_STATUS"
	expect_log "... not in scope" "pam_trustedfor(su-l:session): not in scope user=\"root\" uid=0"
	# confine alone needs no bit.
	service su-l confine
	expect "$ON: confine alone: the session opens, confined" 0 "" "" -- old_session nobody true
	expect_log "... logged" \
		"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"off\" deny_interactive=\"off\" confined=\"yes\" securebits=\"0x0\""
}

if kernel_lacks exec-securebits; then
	no_securebits=$na_why
	for what in "an enforced session as root and as uid 65534" \
		"the trusted interpreters in an enforced session" "group= and nonroot"; do
		not_applicable "$what" "$no_securebits"
	done
	OLD=() ON="this kernel"
	without_bits
	done_testing
fi
OLD=("$TF_BUILD/tests/old-kernel") ON="6.12's answers"
without_bits
# The controls of the simulation: the same line without old-kernel sets
# the bits; and a refused PR_SET_SECUREBITS on a kernel that has them
# (uname() not saying older) is no kernel without them: refused, even
# with the policy file enforcing.
set_policy_file "enforce = file"
service su-l restrict_file lock confine
expect "control: without 6.12's answers, the same line sets the bits" 0 "" "" \
	-- in_session nobody true
expect_log "... logged" \
	"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on, locked\" deny_interactive=\"off\" confined=\"yes\" securebits=\"0x300\""
expect "PR_SET_SECUREBITS refused and AT_EXECVE_CHECK answered EINVAL on this kernel: refused" 1 "" \
	"$SESSION_ERR" -- "$FORGE" setsecurebits=EPERM,check=EINVAL su -l nobody -c true
expect_log "... the policy file does not stand in" \
	"pam_trustedfor(su-l:session): refused user=\"nobody\" uid=65534 reason=\"cannot set the securebits: Operation not permitted\""
set_policy_file -

# The enforced session, as uid 65534 and as root.
service su-l restrict_file deny_interactive lock confine
for user in nobody root; do
	uid=$(id -u "$user")
	expect "su -l $user: status shows the bits set and locked, and the confinement" 0 \
		"$ENFORCED
$CONFINED" "" -- in_session "$user" "$STATUS"
	expect_log "... and the module logs what it set" \
		"pam_trustedfor(su-l:session): enforcing user=\"$user\" uid=$uid restrict_file=\"on, locked\" deny_interactive=\"on, locked\" confined=\"yes\" securebits=\"0xf00\""
done

# A bad policy file: the line says what it holds the session's user to, and
# names the command that mends it (judged at each session: sshd lives long).
set_policy_file_raw "$(printf 'trustedfor-policy 1\nend\n\n_')"
for user in nobody root; do
	uid=$(id -u "$user")
	in_session "$user" true >/dev/null 2>&1
	[ "$user" = root ] && means="$(spared_by_bad_file) held to their securebits and TRUSTEDFOR_ENFORCE alone" ||
		means="everything enforced for every user but $(spared_by_bad_file)"
	expect_log "a bad policy file, su -l $user: the module's line says what it means, and the fix" \
		"pam_trustedfor(su-l:session): enforcing user=\"$user\" uid=$uid restrict_file=\"on, locked\" deny_interactive=\"on, locked\" confined=\"yes\" securebits=\"0xf00\" policy_file=\"bad, $means: /etc/trustedfor.conf: line 3: content after 'end'; fix: trusted-for policy edit\""
done
set_policy_file -

# login (shadow) opens the session and forks the shell as su does; it needs
# a terminal (script(1) gives it one) and writes utmp and wtmp (over which
# this namespace mounts its own).
mount -t tmpfs trustedfor-log /var/log &&
	{ [ ! -e /run/utmp ] || { : >"$TF_TMP/utmp" && mount --bind "$TF_TMP/utmp" /run/utmp; }; } ||
	not_ok "a private /var/log and /run/utmp"
cp /etc/pam.d/su-l /etc/pam.d/login
in_login() {
	# login on a terminal of its own, typed to once the shell's prompt
	# shows: util-linux's login (Debian 13) flushes what was typed before.
	# The terminal's escape sequences go.
	"/usr/bin/$TF_PYTHON" "$TF_SRC/tests/pty-type.py" '$ ' "$STATUS; exit\\n" login -f nobody |
		sed 's/\x1b\[[?0-9;]*[a-zA-Z]//g; s/\r//g' | grep -aE '^(securebits|session):'
}
expect "login -f nobody: status shows the bits set and locked, and the confinement" 0 \
	"$ENFORCED
$CONFINED" "" -- in_login
expect_log "... and the module logs what it set" \
	"pam_trustedfor(login:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on, locked\" deny_interactive=\"on, locked\" confined=\"yes\" securebits=\"0xf00\""

# The build's trusted interpreters in that session, under policy 3 and 1.
for policy in 3 1; do
	if [ "$policy" = 3 ]; then
		set_policy_file -
	else
		set_policy_file "policy = 1"
	fi
	for user in nobody root; do
		for i in "${!interp[@]}"; do
			read -r path file out <<<"${interp[$i]}"
			expect "policy $policy, $user, $i: a script on the noexec mount is refused" 126 "" \
				"$(basename "$path"): $N/$file: not trusted for execution: noexec mount" \
				-- in_session "$user" "$path $N/$file"
			expect "policy $policy, $user, $i: the same file on the exec mount runs" 0 \
				"$out ran" "" -- in_session "$user" "$path $X/$file"
		done
	done
done
set_policy_file -
# deny_interactive holds too: a -c string is refused.
expect "uid 65534: trusted-python -c is refused" 126 "" \
	"trusted-python: -c: interactive code refused" \
	-- in_session nobody "$TF_BUILD/interpreters/python/trusted-python -c 'print(1)'"
if [ -e "$TF_BUILD/shells/trusted-bash" ]; then
	expect "uid 65534: trusted-bash -c is refused" 126 "" \
		"trusted-bash: -c: interactive code refused" \
		-- in_session nobody "$TF_BUILD/shells/trusted-bash -c 'echo 1'"
fi
module_log >/dev/null

# A session opened inside a confined one keeps the confinement it has: the
# filter refuses a second one.
expect "su -l inside a confined session: enforced, confinement inherited" 0 \
	"$ENFORCED
$CONFINED" "" -- in_session root "su -l nobody -c \"$STATUS\""
expect_log "... logged as inherited" \
	"pam_trustedfor(su-l:session): enforcing user=\"root\" uid=0 restrict_file=\"on, locked\" deny_interactive=\"on, locked\" confined=\"yes\" securebits=\"0xf00\"
pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on, locked\" deny_interactive=\"on, locked\" confined=\"inherited\" securebits=\"0xf00\""

# Each option on its own.
NOTHING="securebits: 0x0, EXEC_RESTRICT_FILE off, EXEC_DENY_INTERACTIVE off
session: not confined"
service su-l restrict_file
expect "restrict_file alone: that bit, unlocked, no confinement" 0 \
	"securebits: 0x100, EXEC_RESTRICT_FILE on, EXEC_DENY_INTERACTIVE off
session: not confined" "" -- in_session nobody "$STATUS"
expect_log "... logged" \
	"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on\" deny_interactive=\"off\" confined=\"no\" securebits=\"0x100\""
service su-l deny_interactive lock
expect "deny_interactive lock: that bit and its lock" 0 \
	"securebits: 0xc00, EXEC_RESTRICT_FILE off, EXEC_DENY_INTERACTIVE on (locked)
session: not confined" "" -- in_session nobody "$STATUS"
module_log >/dev/null
service su-l confine
expect "confine alone: the confinement, no bits" 0 \
	"securebits: 0x0, EXEC_RESTRICT_FILE off, EXEC_DENY_INTERACTIVE off
$CONFINED" "" -- in_session nobody "$STATUS"
expect_log "... logged" \
	"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"off\" deny_interactive=\"off\" confined=\"yes\" securebits=\"0x0\""

# unconfined=: a caller that must not be confined (systemd-user's
# manager) gets the bits alone; every other service the confinement.
service su-l restrict_file lock confine nonroot unconfined=systemd-user,su-l
expect "unconfined= naming the service: the bits, no confinement" 0 \
	"securebits: 0x300, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE off
session: not confined" "" -- in_session nobody "$STATUS"
expect_log "... logged" \
	"pam_trustedfor(su-l:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on, locked\" deny_interactive=\"off\" confined=\"no, unconfined service\" securebits=\"0x300\""
service su-l restrict_file lock confine nonroot unconfined=systemd-user,su
expect "unconfined= naming other services: confined" 0 \
	"securebits: 0x300, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE off
$CONFINED" "" -- in_session nobody "$STATUS"
module_log >/dev/null

# noexec_runtime_dir: /run/user/UID, logind's tmpfs (nosuid,nodev), made
# noexec; a directory that is not a mount of its own is bound onto itself
# first.  /run is an overlay here, the host's stays as it is.
mkdir -p "$TF_TMP/run-upper" "$TF_TMP/run-work"
mount -t overlay trustedfor-run -o "lowerdir=/run,upperdir=$TF_TMP/run-upper,workdir=$TF_TMP/run-work" /run &&
	mkdir -p /run/user && chmod 0755 /run/user ||
	{ not_ok "overlay /run"; done_testing; }
RUNTIME=/run/user/65534
mkdir -p "$RUNTIME"
mount -t tmpfs -o nosuid,nodev,mode=0700,uid=65534,gid=65534 trustedfor-runtime "$RUNTIME" ||
	not_ok "mount a runtime directory as logind does"
printf 'echo runtime ran\n' >"$RUNTIME/x.sh" && chown 65534:65534 "$RUNTIME/x.sh"
service su-l restrict_file lock nonroot noexec_runtime_dir
SH=$TF_BUILD/shells/trusted-dash
[ -x "$SH" ] || SH=
expect "noexec_runtime_dir: before the session, the runtime directory is an exec mount" 0 \
	"rw,nosuid,nodev,relatime" "" -- findmnt -n -o VFS-OPTIONS "$RUNTIME"
expect "noexec_runtime_dir: the session opens" 0 "" "" -- in_session nobody true
expect "noexec_runtime_dir: ... and the runtime directory is noexec, its other options kept" 0 \
	"rw,nosuid,nodev,noexec,relatime" "" -- findmnt -n -o VFS-OPTIONS "$RUNTIME"
if [ -n "$SH" ]; then
	expect "noexec_runtime_dir: a script there is refused in the session" 126 "" \
		"trusted-dash: $RUNTIME/x.sh: not trusted for execution: noexec mount" \
		-- in_session nobody "$SH $RUNTIME/x.sh"
fi
umount "$RUNTIME"
# findmnt names every mount stacked on /run (a guest has its own tmpfs
# under the overlay): the directory's bind takes the options of the last.
run_options=$(findmnt -n -o VFS-OPTIONS /run)
expect "noexec_runtime_dir: a plain directory is bound onto itself, noexec, /run as it was" 0 \
	"$(echo "$run_options" | tail -n 1 | sed 's/,relatime/,noexec,relatime/')
$run_options" "" \
	-- sh -c "su -l nobody -c true && findmnt -n -o VFS-OPTIONS $RUNTIME && findmnt -n -o VFS-OPTIONS /run"
umount "$RUNTIME"
rmdir "$RUNTIME"
expect "noexec_runtime_dir: no runtime directory, nothing to do" 0 "" "" -- in_session nobody true
module_log >/dev/null

# Whom it applies to.
service su-l restrict_file lock group=trustedfor-pam
expect "group=: a member (uid 65534) gets the bits" 0 \
	"securebits: 0x300, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE off
session: not confined" "" -- in_session nobody "$STATUS"
module_log >/dev/null
expect "group=: root, not a member, is not in scope: no bits" 0 "$NOTHING" "" \
	-- in_session root "$STATUS"
expect_log "... and the module says so" \
	"pam_trustedfor(su-l:session): not in scope user=\"root\" uid=0"
service su-l restrict_file nonroot
expect "nonroot: uid 65534 gets the bits" 0 \
	"securebits: 0x100, EXEC_RESTRICT_FILE on, EXEC_DENY_INTERACTIVE off
session: not confined" "" -- in_session nobody "$STATUS"
module_log >/dev/null
expect "nonroot: root gets nothing" 0 "$NOTHING" "" -- in_session root "$STATUS"
expect_log "... and the module says so" \
	"pam_trustedfor(su-l:session): not in scope user=\"root\" uid=0"
# PAM_IGNORE: with no other session module the stack has no verdict.
cat >/etc/pam.d/trustedfor-test <<EOF
auth sufficient pam_rootok.so
account required pam_permit.so
session required $MODULE restrict_file nonroot
EOF
expect "pamtester: the module alone ignores root's session" 1 \
	"" "pamtester: Permission denied" -- pamtester trustedfor-test root open_session
module_log >/dev/null
expect "pamtester: ... and opens uid 65534's" 0 \
	"pamtester: successfully opened a session" "" -- pamtester trustedfor-test nobody open_session
expect_log "... logged" \
	"pam_trustedfor(trustedfor-test:session): enforcing user=\"nobody\" uid=65534 restrict_file=\"on\" deny_interactive=\"off\" confined=\"no\" securebits=\"0x100\""

# Every configuration it cannot carry out fails the session of uid 65534,
# with one line that says why; root and an administrator (group 27) are
# let in unenforced, with the same reason at LOG_ERR: the module's own
# failure locks out none of those who can mend it.
fails() {
	local what=$1 reason=$2 user
	shift 2
	expect "$what: su -l nobody fails" 1 "" "$SESSION_ERR" -- "$@" su -l nobody -c true
	expect_log "... and the log says why" \
		"pam_trustedfor(su-l:session): refused user=\"nobody\" uid=65534 reason=\"$reason\""
	for user in root trustedfor-admin; do
		expect "$what: su -l $user is let in, unenforced" 0 "" "" -- "$@" su -l "$user" -c true
		expect_log "... and the log says why" \
			"pam_trustedfor(su-l:session): not enforced user=\"$user\" uid=$(id -u "$user") reason=\"$reason\"; $(spared_by_bad_file) are let in to mend it"
	done
}
service su-l restrict_file bogus
fails "an unknown option" "unknown option 'bogus'"
service su-l lock
fails "lock without a bit" "option 'lock' without restrict_file or deny_interactive"
service su-l
fails "no option" "nothing to enforce: give restrict_file, deny_interactive or confine"
service su-l restrict_file group=trustedfor-pam group=root
fails "two groups" "option 'group=root': give one group= with a name"
service su-l restrict_file group=
fails "an empty group" "option 'group=': give one group= with a name"
service su-l restrict_file unconfined=su-l
fails "unconfined= without confine" "option 'unconfined=' without confine"
service su-l restrict_file confine unconfined=
fails "an empty unconfined=" "option 'unconfined=': give one unconfined= with service names"
service su-l restrict_file group=trustedfor-none
fails "a group that does not exist" "group 'trustedfor-none' not found"
service su-l restrict_file deny_interactive lock confine
fails "PR_SET_SECUREBITS refused" "cannot set the securebits: Operation not permitted" \
	"$FORGE" setsecurebits=EPERM
fails "PR_SET_SECUREBITS ignored" "the kernel did not keep the securebits" \
	"$FORGE" setsecurebits=0
fails "no seccomp() to confine with" "cannot confine the session: Operation not supported" \
	"$FORGE" seccomp=ENOSYS
expect "pamtester: a session that cannot be enforced fails" 1 "" \
	"pamtester: Cannot make/remove an entry for the specified session" \
	-- "$FORGE" setsecurebits=EPERM pamtester trustedfor-test nobody open_session
expect_log "... logged" \
	"pam_trustedfor(trustedfor-test:session): refused user=\"nobody\" uid=65534 reason=\"cannot set the securebits: Operation not permitted\""
expect "pamtester: an unknown user's session fails" 1 "" \
	"pamtester: Cannot make/remove an entry for the specified session" \
	-- pamtester trustedfor-test trustedfor-nobody open_session
expect_log "... logged" \
	"pam_trustedfor(trustedfor-test:session): refused user=\"trustedfor-nobody\" reason=\"user not found\""

# Only the PAM entry points are exported.
expect "the module exports pam_sm_open_session and pam_sm_close_session only" 0 \
	"pam_sm_close_session pam_sm_open_session" "" \
	-- sh -c "nm -D --defined-only '$MODULE' | awk '{ print \$3 }' | sort | xargs"
done_testing
