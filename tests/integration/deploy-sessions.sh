#!/bin/bash
# tests/integration/deploy-sessions.sh TMP: every way into the deployed
# system, run by tests/integration/deploy.sh inside its overlay root (TMP:
# its $TF_TMP) with the packages installed, both PAM profiles on, policy 1
# and the interpreters diverted.  In a network namespace of its own (only
# lo, so that sshd on 127.0.0.1:22 meets nothing of the host) and a mount
# namespace of its own (its mounts end with it), as an administrator has
# it: /home, /tmp, /var/tmp, /dev/shm and /run/lock noexec, a user made by
# useradd -m from Debian's /etc/skel, Debian's sshd and cron, started here
# and stopped at the end.
#
# su -l, runuser -l and the non-interactive PAM stacks (pamtester); ssh
# CMD, scp both ways (SFTP and the old protocol) and sftp as the user; ssh
# CMD as root (not in scope: nonroot); a crontab of the user's;
# /run/user/UID, which the module makes noexec; and, with a malformed and
# then a missing policy file, root still comes in and the user is not more
# open.  `trusted-for status` in each kind of session says whether it is
# confined.
#
# A startup file of the user's on noexec /home is skipped with one line:
# skipped_startup, a glob, %s the file's path.
skipped_startup='trusted-bash: %s: not trusted for execution: *; skipped'

export TF_SRC=${TF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
. "${TF_SRC:?}/tests/lib.sh" || exit 2
TF_TMP=$1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C

# Services are started here: never outside deploy.sh's overlay root.
if [ -z "${TF_DEPLOY_ROOT:-}" ] || [ ! -d "$TF_TMP" ]; then
	echo "Bail out! run by tests/integration/deploy.sh only, in its overlay root"
	exit 2
fi
if [ -z "${TF_SESSIONS_NS:-}" ]; then
	TF_SESSIONS_NS=1 exec unshare --net --mount --propagation private "$0" "$@"
fi
# Every line TAP: what is not a case goes out as a comment (a command's
# output of several lines, in expect's report).
exec > >(sed -u -E '/^(ok |not ok |# |1\.\.|Bail out!)/!s/^/#   /')
if kernel_lacks exec-securebits; then
	not_applicable "sessions with the securebits" "$na_why"
	done_testing
fi

user=tfdeploy
uid=$(id -u $user)
home=/home/$user
# An administrator as a cloud image makes one (deploy.sh): group sudo, sudo
# without a password; on a server where root cannot log in, root's way in.
admin=tfadmin
admin_home=/home/$admin
S=$TF_TMP/sessions
mkdir -m 0700 "$S"
syslog=$S/syslog
pids=()
stop_services() {
	local pid
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
	pids=()
}
trap stop_services EXIT
# setup WHAT COMMAND...: a step everything after needs; its failure ends
# the test, with the services' logs.
setup() {
	local what=$1
	shift
	if "$@" >"$S/setup.out" 2>&1; then
		ok "$what"
		return
	fi
	not_ok "$what"
	sed 's/^/#   /' "$S/setup.out"
	logs
	done_testing
}
# logs: what the services said, as TAP comments (of the system log, the
# module's, the library's and cron's lines).
logs() {
	local f
	for f in "$S/syslogd.log" "$S/sshd.log" "$S/cron.log" "$syslog"; do
		[ -s "$f" ] || continue
		echo "# $f:"
		grep -E "${1:-}" "$f" | tail -n 40 | sed 's/^/#   /'
	done
}
# wait_for WHAT COMMAND...: until COMMAND succeeds, for 10 seconds at most.
wait_for() {
	local what=$1 deadline=$((SECONDS + 10))
	shift
	until "$@" 2>/dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "$what: not within 10 seconds"
			return 1
		fi
		sleep 0.1
	done
}

# --- the namespace: lo, the mounts, a system log -----------------------------
setup "a network namespace with only lo, up" \
	sh -c 'ip link set lo up && [ "$(ip -o link show | wc -l)" = 1 ] && ip -o addr show lo | grep -q " 127.0.0.1/8 "'
# The places a user writes, noexec as README's deployment says (/home is
# deploy.sh's, made before the user).  /dev comes from the host (deploy.sh
# binds it): an overlay on it here gives /dev/log a place and /dev/shm a
# tmpfs of this namespace, and writes nothing to the host's /dev.  An
# overlay shows its lower directory without the mounts on it, so each of
# those is bound again: where /dev is a tmpfs with device nodes bound onto
# it (scripts/check-fresh.sh's root), /dev/null would otherwise be the empty
# file under the bind, which a user cannot open.  Root's home as Debian
# makes it (base-files' dotfiles), not this machine's.
# shellcheck disable=SC2016
dev_mounts_again() {
	local target rel
	findmnt -rn -o TARGET -R "$S/dev/host" | tail -n +2 | while read -r target; do
		rel=${target#"$S/dev/host"}
		case $rel in /shm | /shm/*) continue ;; esac
		mount --bind "$target" "/dev$rel" || return
	done
}
mounts() {
	mkdir "$S/dev" "$S/dev/host" "$S/dev/upper" "$S/dev/work" &&
		mount --rbind /dev "$S/dev/host" &&
		mount -t overlay tf-dev -o "lowerdir=/dev,upperdir=$S/dev/upper,workdir=$S/dev/work" /dev &&
		dev_mounts_again &&
		mount -t tmpfs -o mode=1777,nosuid,nodev,noexec tf-shm /dev/shm &&
		mount -o remount,bind,nosuid,nodev,noexec /tmp &&
		mount -t tmpfs -o mode=1777,nosuid,nodev,noexec tf-var-tmp /var/tmp &&
		mkdir -p /run/lock &&
		mount -t tmpfs -o mode=1777,nosuid,nodev,noexec tf-run-lock /run/lock &&
		mount -t tmpfs -o mode=0700 tf-root /root &&
		cp /usr/share/base-files/dot.bashrc /root/.bashrc &&
		cp /usr/share/base-files/dot.profile /root/.profile &&
		findmnt -no TARGET,VFS-OPTIONS /home /tmp /var/tmp /dev/shm /run/lock |
		awk '$2 !~ /(^|,)noexec(,|$)/ { print $1 " is not noexec"; bad = 1 } END { exit bad }' &&
		[ -c /dev/null ] && [ -c /dev/tty ]
}
setup "/home, /tmp, /var/tmp, /dev/shm and /run/lock noexec; /dev/log in an overlay of /dev; Debian's /root" mounts
# A system log: the module's lines, the library's, sshd's PAM and cron's.
python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/dev/log")
os.chmod("/dev/log", 0o666)
with open(sys.argv[1], "ab", buffering=0) as log:
    while True:
        log.write(s.recv(65536).rstrip(b"\n") + b"\n")
' "$syslog" >"$S/syslogd.log" 2>&1 &
pids+=($!)
setup "a system log on /dev/log" wait_for "/dev/log" test -S /dev/log
# module_lines IDENT: pam_trustedfor's lines in the system log from the
# PAM stack of a program that logs as IDENT (an extended regular
# expression), each once, in order, without the priority, the time and the
# pid.
module_lines() {
	sed -n -E "s/^<[0-9]+>[A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} $1(\[[0-9]+\])?: pam_trustedfor/pam_trustedfor/p" \
		"$syslog" | awk '!seen[$0]++'
}
# enforcing SERVICE CONFINED: the module's line for a session of the
# user's that it enforced.
enforcing() {
	echo "pam_trustedfor($1:session): enforcing user=\"$user\" uid=$uid restrict_file=\"on, locked\" deny_interactive=\"off\" confined=\"$2\" securebits=\"0x300\""
}

# Scripts where the user cannot run them, and where they can.
for f in /tmp/x /run/lock/x; do
	printf 'echo "shell ran"\n' >"$f.sh"
	printf 'print("python ran")\n' >"$f.py"
	chmod 0644 "$f.sh" "$f.py"
done

# --- the user's logins as the earlier tests made them: su -l ----------------
# expect_login WHAT STATUS STDOUT STARTUP STDERR -- COMMAND...: as expect,
# where the standard error is first one line for each of the user's
# startup files in STARTUP (paths, in order: those on noexec /home, which
# the shell skips, saying so), then exactly STDERR.
expect_login() {
	local what=$1 want_status=$2 want_out=$3 startup=$4 want_err=$5
	local got_status got_out got_err file line n=0 skipped=1
	shift 6
	"$@" >"$TF_TMP/out" 2>"$TF_TMP/err" </dev/null
	got_status=$?
	got_out=$(cat "$TF_TMP/out")
	for file in $startup; do
		n=$((n + 1))
		line=$(sed -n "${n}p" "$TF_TMP/err")
		# shellcheck disable=SC2059,SC2254
		case $line in $(printf "$skipped_startup" "$file")) ;; *) skipped=0 ;; esac
	done
	got_err=$(tail -n +$((n + 1)) "$TF_TMP/err")
	if [ "$got_status" = "$want_status" ] && [ "$got_out" = "$want_out" ] &&
		[ "$skipped" = 1 ] && [ "$got_err" = "$want_err" ]; then
		ok "$what"
		return
	fi
	not_ok "$what"
	echo "#   command: $*"
	echo "#   status: want $want_status, got $got_status"
	[ "$got_out" = "$want_out" ] ||
		printf '#   stdout: want <%s>\n#           got  <%s>\n' "$want_out" "$got_out"
	[ "$skipped" = 1 ] && [ "$got_err" = "$want_err" ] ||
		printf '#   stderr: want <%s> after a line for each of <%s>\n#           got  <%s>\n' \
			"$want_err" "$startup" "$(cat "$TF_TMP/err")"
}
# What trusted-for status says of each kind of session.
status_cmd="trusted-for status | grep -e '^securebits:' -e '^session:'"
enforced="securebits: 0x300, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE off"
confined="session: confined: no user namespaces, no ptrace, no new seccomp filters (seccomp filter)"
not_enforced="securebits: 0x0, EXEC_RESTRICT_FILE off, EXEC_DENY_INTERACTIVE off"
not_confined="session: not confined"
# refused NAME FILE: an enlightened interpreter's refusal of FILE on a
# noexec mount (the shells name themselves as their patches do).
refused() { echo "$1: $2: not trusted for execution: noexec mount"; }
userns_refused="unshare: unshare failed: Operation not permitted"

# su -l reads the user's .profile (bash, a login shell).
login() { su -l "$1" -c "$2"; }
profile="$home/.profile"
# (the module says why in the system log; runuser gives PAM's own words)
expect "a session the module cannot set up fails" 1 "" \
	"runuser: cannot open session: Cannot make/remove an entry for the specified session" \
	-- runuser -l $user -c "echo logged in"
expect_login "su -l: securebits locked, confined" 0 "$enforced
$confined" "$profile" "" -- login $user "$status_cmd"
expect_login "su -l: Debian's $TF_PYTHON is not there for the user" 126 "" "$profile" \
	"-bash: line 1: /usr/bin/$TF_PYTHON.distrib: Permission denied" \
	-- login $user "/usr/bin/$TF_PYTHON.distrib $TF_TMP/noexec/x.py"
# COMMAND SCRIPT NAME-IN-THE-MESSAGE OUTPUT
while read -r cmd script name out; do
	expect_login "su -l: $cmd $script on a noexec mount is refused" 126 "" "$profile" \
		"$(refused "$name" "$TF_TMP/noexec/$script")" \
		-- login $user "$cmd $TF_TMP/noexec/$script"
	expect_login "su -l: $cmd $script on an exec mount runs" 0 "$out" "$profile" "" \
		-- login $user "$cmd $TF_TMP/exec/$script"
done <<-EOF
	python3 x.py python3 python ran
	sh x.sh trusted-dash shell ran
	bash x.sh trusted-bash shell ran
	lua5.4 x.lua lua5.4 lua ran
EOF
expect "su -l root: not enforced, not confined" 0 "$not_enforced
$not_confined" "" -- login root "$status_cmd"
# The non-interactive stack (cron's, atd's, sudo's): the bits, locked,
# and the confinement; systemd-user's: the bits alone (unconfined=).
expect "a non-interactive session (pamtester) opens" 0 \
	"pamtester: successfully opened a session" "" \
	-- pamtester tfdeploy-batch $user open_session
expect "the non-interactive session: securebits locked, confined" 0 "$enforced
$confined" "" -- grep -e '^securebits:' -e '^session:' "$TF_TMP/batch.log"
# sudo's stack is the non-interactive one: root's sudo -u starts the
# user's processes locked and confined as cron does.
expect "sudo -u $user (from root): securebits locked, confined" 0 "$enforced
$confined" "" -- sh -c "cd / && sudo -u $user $status_cmd"
expect "the system log: the module enforced and confined sudo -u $user" 0 \
	"$(enforcing sudo yes)" "" -- module_lines sudo
expect "systemd-user's session (pamtester) opens" 0 \
	"pamtester: successfully opened a session" "" \
	-- pamtester systemd-user $user open_session
expect "systemd-user's session: securebits locked, not confined" 0 "$enforced
$not_confined" "" -- grep -e '^securebits:' -e '^session:' "$TF_TMP/user.log"

# --- sshd and cron, as Debian configures them --------------------------------
# Debian's /etc/ssh/sshd_config and the host keys its postinst made; only
# the address, and root's rule said again.  The client: a key of its own
# for root and the user, a known_hosts written here, no questions.
mkdir -p /run/sshd /root/.ssh "$home/.ssh"
ssh-keygen -q -t ed25519 -N "" -C tfdeploy-client -f "$S/id_ed25519"
mkdir -p "$admin_home/.ssh"
for d in /root/.ssh "$home/.ssh" "$admin_home/.ssh"; do cp "$S/id_ed25519.pub" "$d/authorized_keys"; done
chown -R $user: "$home/.ssh"
chown -R $admin: "$admin_home/.ssh"
echo "127.0.0.1 $(cut -d' ' -f1,2 /etc/ssh/ssh_host_ed25519_key.pub)" >"$S/known_hosts"
cat >"$S/ssh_config" <<EOF
Host 127.0.0.1
	IdentityFile $S/id_ed25519
	IdentitiesOnly yes
	UserKnownHostsFile $S/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 10
EOF
/usr/sbin/sshd -D -e -o ListenAddress=127.0.0.1:22 -o PermitRootLogin=prohibit-password \
	-o PasswordAuthentication=no >"$S/sshd.log" 2>&1 &
pids+=($!)
setup "sshd listens on 127.0.0.1:22" wait_for "sshd" bash -c 'exec 3<>/dev/tcp/127.0.0.1/22'
to() { ssh -F "$S/ssh_config" "$@"; }
# ssh CMD: bash -c CMD, which reads ~/.bashrc (Debian builds bash to do so
# under sshd).
bashrc="$home/.bashrc"

# --- /run/user/UID ------------------------------------------------------------
# No logind here: the user's runtime directory as logind mounts it, before
# the login; both profiles' lines have noexec_runtime_dir, and the module
# makes it noexec.  Before cron starts: no session of the user's has
# opened since the directory was made.
run_user=/run/user/$uid
setup "$run_user: a tmpfs, nosuid, nodev, mode 0700, the user's" sh -c "mkdir -p $run_user &&
	mount -t tmpfs -o nosuid,nodev,mode=0700,uid=$uid,gid=$(id -g $user),size=8m tf-run-user $run_user &&
	install -o $user -g $user -m 0644 /tmp/x.sh $run_user/x.sh"
expect "$run_user as logind mounts it: not noexec" 0 "rw,nosuid,nodev,relatime" "" \
	-- findmnt -no VFS-OPTIONS "$run_user"
expect_login "ssh $user: $run_user noexec, a script there refused" 126 \
	"rw,nosuid,nodev,noexec,relatime" "$bashrc" "$(refused trusted-dash "$run_user/x.sh")" \
	-- to $user@127.0.0.1 "findmnt -no VFS-OPTIONS $run_user; sh $run_user/x.sh"

# The user's crontab: one line a check, each run once (a second run, at
# the next minute, finds its status there), its output in ~/cron/NAME.*,
# the status written last.  Installed before cron starts, which reads it
# then (cron sees a later change by the spool's time, in seconds: one made
# in the second it started could go unseen); the jobs run at the next
# minute's start, while the ssh cases do.
# job NAME COMMAND: the crontab line.
job() {
	local r=$home/cron/$1
	echo "* * * * * test -e $r.status || { $2 >$r.out 2>$r.err; echo \$? >$r.new; mv $r.new $r.status; }"
}
jobs="userns noexec-sh noexec-py status exec"
{
	job userns "unshare -Ur true"
	job noexec-sh "sh /tmp/x.sh"
	job noexec-py "python3 /tmp/x.py"
	job status "$status_cmd"
	job exec "sh $TF_TMP/exec/x.sh"
} >"$S/crontab"
install -d -o $user -g $user "$home/cron"
expect "crontab -u $user" 0 "" "" -- crontab -u $user "$S/crontab"
# Debian's cron logs to the system log only; -L 15: each job, its end, its pid.
cron -f -L 15 >"$S/cron.log" 2>&1 &
pids+=($!)
setup "cron runs" wait_for "cron" test -s /run/crond.pid
cron_since=$SECONDS

# --- ssh: root, and the user on noexec /home ----------------------------------
expect "ssh root@127.0.0.1 CMD" 0 "ok
rootok" "" -- to root@127.0.0.1 'echo ok; bash -c "echo rootok"'
expect "ssh root: not enforced, not confined" 0 "$not_enforced
$not_confined" "" -- to root@127.0.0.1 "$status_cmd"
expect_login "ssh $user@127.0.0.1 'echo ok'" 0 "ok" "$bashrc" "" -- to $user@127.0.0.1 'echo ok'
expect_login "ssh $user: securebits locked, confined" 0 "$enforced
$confined" "$bashrc" "" -- to $user@127.0.0.1 "$status_cmd"
expect_login "ssh $user: sh /tmp/x.sh (noexec /tmp) is refused" 126 "" "$bashrc" \
	"$(refused trusted-dash /tmp/x.sh)" -- to $user@127.0.0.1 "sh /tmp/x.sh"
expect_login "ssh $user: python3 /run/lock/x.py (noexec /run/lock) is refused" 126 "" "$bashrc" \
	"$(refused python3 /run/lock/x.py)" -- to $user@127.0.0.1 "python3 /run/lock/x.py"
expect_login "ssh $user: sh on an exec mount runs" 0 "shell ran" "$bashrc" "" \
	-- to $user@127.0.0.1 "sh $TF_TMP/exec/x.sh"
expect_login "ssh $user: no user namespace" 1 "" "$bashrc" "$userns_refused" \
	-- to $user@127.0.0.1 "unshare -Ur sh /tmp/x.sh"
# (common-session has both profiles' lines: the first sets the bits and
# confines, the second finds the session confined.  The PAM session runs in
# sshd on Debian 12 and in sshd-session, which logs as such, on Debian 13.)
expect "the system log: the module enforced and confined $user's ssh logins, left root's" 0 \
	"$(enforcing sshd yes)
$(enforcing sshd inherited)
pam_trustedfor(sshd:session): not in scope user=\"root\" uid=0" "" -- module_lines 'sshd(-session)?'

# File transfers: scp (SFTP, and the old protocol: scp -t through the
# user's shell) both ways, and sftp; the contents compared.
head -c 100000 /dev/urandom >"$S/up"
# transfer WHAT STDOUT STARTUP COMMAND...: COMMAND copies $S/up to the
# user's home and back as $S/down (STARTUP: as expect_login's); both
# copies are $S/up, byte for byte.
transfer() {
	local what=$1 out=$2 startup=$3
	shift 3
	rm -f "$S/down" "$home/up"
	expect_login "$what" 0 "$out" "$startup" "" -- "$@"
	expect "$what: the copies are the file, byte for byte, the user's" 0 "$user" "" \
		-- sh -c "cmp $S/up $home/up && cmp $S/up $S/down && stat -c %U $home/up"
}
both_ways() { "$@" "$S/up" $user@127.0.0.1:up && "$@" $user@127.0.0.1:up "$S/down"; }
# (sshd does not pass on the standard error of a subsystem: SFTP's, scp's
# by default, has no line of the skipped .bashrc)
transfer "scp both ways" "" "" both_ways scp -q -F "$S/ssh_config"
transfer "scp -O (scp -t in the user's shell) both ways" "" "$bashrc $bashrc" \
	both_ways scp -q -O -F "$S/ssh_config"
printf 'put %s up\nget up %s\n' "$S/up" "$S/down" >"$S/sftp-batch"
transfer "sftp -b: put and get" "sftp> put $S/up up
sftp> get up $S/down" "" sftp -q -F "$S/ssh_config" -b "$S/sftp-batch" $user@127.0.0.1

# --- cron ---------------------------------------------------------------------
# cron reads a new crontab at a minute's start and runs it then: wait for
# every job's status, 130 seconds at most.
cron_done() {
	local name
	for name in $jobs; do [ -e "$home/cron/$name.status" ] || return 1; done
}
until cron_done || [ $((SECONDS - cron_since)) -ge 130 ]; do sleep 1; done
echo "# cron: the jobs' results after $((SECONDS - cron_since))s"
expect "crontab -r -u $user" 0 "" "" -- crontab -r -u $user
# cron_job NAME STATUS STDOUT STDERR: the job's exact results.
cron_job() {
	local r=$home/cron/$1
	expect "cron: $1" "$2" "$3" "$4" -- sh -c "cat $r.out && cat $r.err >&2 && exit \$(cat $r.status)"
}
cron_job userns 1 "" "$userns_refused"
cron_job noexec-sh 126 "" "$(refused trusted-dash /tmp/x.sh)"
cron_job noexec-py 126 "" "$(refused python3 /tmp/x.py)"
cron_job status 0 "$enforced
$confined" ""
cron_job exec 0 "shell ran" ""
# (Debian's cron runs a job as "CRON"; its stack has one line of the module's)
expect "the system log: the module enforced and confined $user's cron job" 0 \
	"$(enforcing cron yes)" "" -- module_lines CRON

# --- a malformed and a missing policy file -----------------------------------
# Root still comes in by ssh and su (a bad file does not bind root); the
# user's ssh session is still enforced, and not more open than with the
# good file: a bad file enforces everything for every user but root and
# the administrators' group (policy 3, interactive code refused: "bash -c CMD" itself); with no file
# the packages' built-in policy is 1 (Debian installs its libraries mode
# 0644), the session's bits as before.
good_policy=$(cat /etc/trustedfor.conf)
for case in malformed missing; do
	if [ $case = malformed ]; then
		printf '%s\n\n' "$good_policy" >/etc/trustedfor.conf # a blank line after "end"
	else
		rm /etc/trustedfor.conf
	fi
	expect "$case policy file: ssh root@127.0.0.1 CMD" 0 "ok
rootok" "" -- to root@127.0.0.1 'echo ok; bash -c "echo rootok"'
	expect "$case policy file: su -l root -c CMD" 0 "ok
rootok" "" -- login root 'echo ok; bash -c "echo rootok"'
	if [ $case = malformed ]; then
		interactive="trusted-bash: -c: interactive code refused"
		expect "$case policy file: ssh $user: sh /tmp/x.sh is refused" 126 "" "$interactive" \
			-- to $user@127.0.0.1 "sh /tmp/x.sh"
		expect "$case policy file: ssh $user: sh on an exec mount is refused" 126 "" "$interactive" \
			-- to $user@127.0.0.1 "sh $TF_TMP/exec/x.sh"
		# The administrators' group is not held to the file either: its
		# session keeps its bits and its confinement, and sudo mends
		# the file.
		admin_bashrc="$admin_home/.bashrc"
		expect_login "$case policy file: ssh $admin (group sudo): bash -c and sudo run" 0 "adminok
rootok" "$admin_bashrc" "" -- to $admin@127.0.0.1 'bash -c "echo adminok"; sudo -n bash -c "echo rootok"'
		expect_login "$case policy file: ssh $admin: still locked, confined" 0 "$enforced
$confined" "$admin_bashrc" "" -- to $admin@127.0.0.1 "$status_cmd"
		expect_login "$case policy file: ssh $admin: sh /tmp/x.sh is refused by the session's bits" \
			126 "" "$admin_bashrc" "$(refused trusted-dash /tmp/x.sh)" \
			-- to $admin@127.0.0.1 "sh /tmp/x.sh"
		printf '%s\n' "$good_policy" >"$S/good.conf"
		values=$(trusted-for policy check "$S/good.conf" | sed 's/^.*: ok: //')
		expect_login "$case policy file: ssh $admin: sudo trusted-for policy install mends it" 0 \
			"/etc/trustedfor.conf: installed: $values" "$admin_bashrc" "" \
			-- to $admin@127.0.0.1 "sudo -n trusted-for policy install $S/good.conf"
		expect_login "$case policy file: mended: ssh $user: bash -c runs again" 0 "$enforced
$confined" "$bashrc" "" -- to $user@127.0.0.1 "$status_cmd"
		continue
	fi
	expect_login "$case policy file: ssh $user: still locked, confined" 0 "$enforced
$confined" "$bashrc" "" -- to $user@127.0.0.1 "$status_cmd"
	expect_login "$case policy file: ssh $user: sh /tmp/x.sh is refused" 126 "" "$bashrc" \
		"$(refused trusted-dash /tmp/x.sh)" -- to $user@127.0.0.1 "sh /tmp/x.sh"
	expect_login "$case policy file: ssh $user: sh on an exec mount runs, as with the file" 0 \
		"shell ran" "$bashrc" "" -- to $user@127.0.0.1 "sh $TF_TMP/exec/x.sh"
done
printf '%s\n' "$good_policy" >/etc/trustedfor.conf

stop_services
[ "$tap_failed" = 0 ] || logs 'trustedfor|CRON|cron|^[^<]'
done_testing
