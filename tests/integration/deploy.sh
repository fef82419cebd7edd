#!/bin/bash
# tests/integration/deploy.sh BUILD: the deployment end to end, with the
# Debian packages that "make deb" left in BUILD/deb/SUITE, SUITE the
# running release's (bookworm or trixie; the other's in a root of it:
# scripts/release-root.sh SUITE make deploy-check).  As root, in a private
# mount and PID namespace whose root is an overlay of this machine's root
# (lower: / read-only, upper: a tmpfs), entered with pivot_root: dpkg,
# /etc and /usr change in the tmpfs only and vanish with the namespace.  On
# CI this machine is itself the fresh Debian 12 root of make check-fresh;
# an overlay costs a second where a debootstrap costs minutes.
#
# Installs Debian's sshd and cron first (the ways in), with a user on a
# noexec /home; then the packages, the diversion package last; checks that
# the diverted python3.X, lua5.4, dash and bash behave as Debian's with
# nothing enforced (and runs their own tests through the diverted paths);
# turns the module on with pam-auth-update (the README's step 3: the
# package's two profiles) and checks the exact lines it writes into
# /etc/pam.d/common-session and common-session-noninteractive; runs
# deploy-sessions.sh, which comes in every way a user and root do (su -l,
# ssh, scp, sftp, cron, a non-interactive PAM stack) and checks what each
# session may run, and that a malformed or missing policy file locks root
# out of none; turns the profiles off (the files as before, byte for byte)
# and on again, which an upgrade of the module keeps; purges everything
# with them on and checks that the system is as before: the same
# diversions, the same interpreter binaries (bytes, mode, owner, times),
# the same files, the same /etc/pam.d/common-* and a login that works.
export TF_SRC=${TF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
export TF_BUILD=${TF_BUILD:-$(cd "${1:-build}" && pwd)}
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# This release's packages and interpreters: the system's python3
# ($TF_PYTHON, tests/lib.sh: 3.11 on Debian 12, 3.13 on Debian 13), which
# trusted-python embeds, and the paths dpkg knows dash and bash by (/bin on
# Debian 12, /usr/bin on Debian 13), which the diversions name.
# shellcheck source=/dev/null
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
packaged_path() {
	local dir
	for dir in /usr/bin /bin; do
		if dpkg-query -S "$dir/$1" >/dev/null 2>&1; then
			echo "$dir/$1"
			return
		fi
	done
	echo "/bin/$1"
}
dash=$(packaged_path dash) bash=$(packaged_path bash)
debs=$TF_BUILD/deb/$suite
interpreters="/usr/bin/$TF_PYTHON /usr/bin/lua5.4 $dash $bash"

if [ "$(id -u)" != 0 ]; then
	not_run "deployment" "needs root (dpkg in an overlay of the root)"
	done_testing
fi
if ! ls "$debs"/trustedfor-divert-interpreters_*.deb >/dev/null 2>&1; then
	not_run "deployment" "no packages in $debs (make deb)"
	done_testing
fi

# --- outside: a private mount and PID namespace ------------------------------
if [ -z "${TF_DEPLOY_ROOT:-}" ]; then
	mnt=$(mktemp -d /tmp/trustedfor-deploy.XXXXXX)
	TF_DEPLOY_ROOT=$mnt unshare --mount --propagation private --pid --fork \
		--kill-child "$0" "$@"
	status=$?
	rmdir "$mnt"
	exit "$status"
fi

# --- inside: the overlay root ---------------------------------------------
# No /proc, /sys, /dev, /tmp of the host: those of this namespace.
root=$TF_DEPLOY_ROOT/root
if ! {
	mount -t tmpfs -o mode=0755 trustedfor-deploy "$TF_DEPLOY_ROOT" &&
		mkdir "$TF_DEPLOY_ROOT/upper" "$TF_DEPLOY_ROOT/work" "$root" &&
		mount -t overlay trustedfor-deploy -o "lowerdir=/,upperdir=$TF_DEPLOY_ROOT/upper,workdir=$TF_DEPLOY_ROOT/work" "$root" &&
		mount -t proc -o nosuid,nodev,noexec proc "$root/proc" &&
		mount -t sysfs -o nosuid,nodev,noexec sysfs "$root/sys" &&
		mount --rbind /dev "$root/dev" &&
		mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/tmp" &&
		mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$root/run" &&
		mkdir "$root/.trustedfor-src" "$root/.trustedfor-build" &&
		mount --bind "$TF_SRC" "$root/.trustedfor-src" &&
		mount --bind "$TF_BUILD" "$root/.trustedfor-build" &&
		cd "$root" && pivot_root . . && umount -l . && cd /
}; then
	not_ok "an overlay of the root in a private namespace"
	done_testing
fi
ok "an overlay of the root in a private namespace"
# The checkout and the build, wherever they are (under /tmp or /home, which
# get mounts of their own here, or on a file system the overlay's lower
# layer does not show), at paths that nothing below mounts over.
export TF_SRC=/.trustedfor-src TF_BUILD=/.trustedfor-build
debs=$TF_BUILD/deb/$suite
TF_TMP=$(mktemp -d /tmp/deploy.XXXXXX)
chmod 0755 "$TF_TMP"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C
# The system's commands, as a login has them (not a developer's pyenv).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset TRUSTEDFOR_ENFORCE PYTHONPATH PYTHONHOME LUA_INIT ENV BASH_ENV
# Root's python3 would write missing .pyc files under /usr/lib/python3.X.
export PYTHONDONTWRITEBYTECODE=1
pkgs=(libtrustedfor1 libtrustedfor-dev trusted-for trusted-python trusted-lua
	trusted-shells libpam-trustedfor)

# What the packages may change, to compare after the purge: the diversions,
# the interpreters (bytes, mode, owner, time), every path under /usr, /etc
# and dpkg's database, and the installed packages.  (Not the inode, which
# the diversion keeps on a real filesystem: the overlay copies a file up
# when it is linked, and the copy has an inode of its own.)
snapshot() {
	dpkg-divert --list | sort >"$TF_TMP/$1.diversions"
	dpkg-statoverride --list | sort >"$TF_TMP/$1.statoverrides"
	# shellcheck disable=SC2086
	{ sha256sum $interpreters; stat -L -c '%n %a %U %G %Y' $interpreters; } >"$TF_TMP/$1.interpreters"
	find /usr /etc /var/lib/dpkg/info /var/lib/dpkg/alternatives -xdev \
		-printf '%y %m %U %G %p\n' | sort >"$TF_TMP/$1.files"
	dpkg-query -W -f '${Package} ${Version} ${Status}\n' | sort >"$TF_TMP/$1.packages"
}
same() {
	if cmp -s "$TF_TMP/before.$2" "$TF_TMP/after.$2"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$TF_TMP/before.$2" "$TF_TMP/after.$2" | head -20 | sed 's/^/#   /'
	fi
}

# The ways in of deploy-sessions.sh (Debian's sshd, its sftp server, cron,
# sudo; ip for its network namespace), installed in this root before the
# snapshot, so that the purge must leave them as they are.  Their
# postinsts start nothing (policy-rc.d): deploy-sessions.sh starts its own,
# in a network namespace of its own.  The package lists may be older than
# the archive: then once more after apt-get update.
logins=(openssh-server openssh-sftp-server openssh-client cron sudo iproute2)
install_logins() {
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d || return
	apt-get install -y -qq --no-install-recommends "${logins[@]}" ||
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "${logins[@]}"; }
	local status=$?
	rm /usr/sbin/policy-rc.d
	return $status
}
start=$SECONDS
expect "apt-get install ${logins[*]}, no service started" 0 "*" "*" -- install_logins
echo "# apt-get install: $((SECONDS - start))s"
# The users and the mounts exist before and after: made first.  /home on a
# noexec tmpfs, as a deployment must have it; the users' dotfiles Debian's
# (/etc/skel).  tfadmin is an administrator as a cloud image makes one: in
# Debian's sudo group, sudo without a password.
mount -t tmpfs -o mode=0755,nosuid,nodev,noexec trustedfor-home /home
useradd -m -s /bin/bash tfdeploy
useradd -m -s /bin/bash -G sudo tfadmin
echo 'tfadmin ALL=(ALL) NOPASSWD: ALL' >/etc/sudoers.d/tfadmin
# sudo looks its host's name up, and this namespace has no resolver: the
# name in /etc/hosts, as an installer writes it.
grep -qw -- "$(hostname)" /etc/hosts || echo "127.0.1.1	$(hostname)" >>/etc/hosts
make_mounts
for d in exec noexec; do
	printf 'print("python ran")\n' >"$TF_TMP/$d/x.py"
	printf 'print("lua ran")\n' >"$TF_TMP/$d/x.lua"
	printf 'echo "shell ran"\n' >"$TF_TMP/$d/x.sh"
	chmod 0644 "$TF_TMP/$d"/x.*
done
# su -l opens a login session through common-session (the profiles, once
# enabled); runuser -l through a line the module cannot carry out (a
# misspelt option); tfdeploy-batch is a non-interactive service as cron's:
# common-session-noninteractive, then a command that inherits what the
# module set (pam_exec runs it in the process that opened the session).
echo "session required pam_trustedfor.so restrict_fil lock" >>/etc/pam.d/runuser-l
cat >/etc/pam.d/tfdeploy-batch <<EOF
session include common-session-noninteractive
session required pam_exec.so type=open_session log=$TF_TMP/batch.log /usr/bin/trusted-for status
EOF
# The user's service manager, whose stack Debian's systemd names so.
cat >/etc/pam.d/systemd-user <<EOF
session include common-session-noninteractive
session required pam_exec.so type=open_session log=$TF_TMP/user.log /usr/bin/trusted-for status
EOF
# The five files pam-auth-update manages, as they are before the install.
pam_files="common-auth common-account common-password common-session common-session-noninteractive"
mkdir "$TF_TMP/pam.d"
for f in $pam_files; do cp -p "/etc/pam.d/$f" "$TF_TMP/pam.d/$f"; done
# session USER-COMMAND: USER-COMMAND in a login session of tfdeploy.
session() { su -l tfdeploy -c "$1"; }
snapshot before

# --- install ----------------------------------------------------------------
list=()
for p in "${pkgs[@]}"; do list+=("$(ls "$debs/${p}_"*.deb)"); done
expect "dpkg -i ${pkgs[*]}" 0 "*" "*" -- dpkg -i "${list[@]}"
expect "trusted-for is installed" 0 "*" "" -- trusted-for status
# The administrator's step 2 (README "Deploying"): trusted-for ships the
# policy file, policy 1 and nothing enforced; a new one goes in through
# trusted-for policy, which refuses a bad one.
expect "the shipped policy file is good" 0 \
	"/etc/trustedfor.conf: ok: policy 1, enforce none, audit off" "" -- trusted-for policy check
printf 'trustedfor-policy 1\npolicy = 1\nend\n\n' >"$TF_TMP/bad.conf"
expect "README step 2: a bad file is refused" 1 "" \
	"trusted-for: $TF_TMP/bad.conf: line 4: content after 'end'" -- trusted-for policy install "$TF_TMP/bad.conf"
printf 'trustedfor-policy 1\npolicy = 1\nend\n' >"$TF_TMP/trustedfor.conf"
expect "README step 2: trusted-for policy install" 0 \
	"/etc/trustedfor.conf: installed: policy 1, enforce none, audit off" "" -- \
	trusted-for policy install "$TF_TMP/trustedfor.conf"

# --- the PAM profiles (README step 3) --------------------------------------
# pam_as_before: every file pam-auth-update manages is as before the
# install, byte for byte.
pam_as_before() {
	local f
	for f in $pam_files; do
		cmp "$TF_TMP/pam.d/$f" "/etc/pam.d/$f" || return 1
	done
}
# pam_lines WHAT FILE LINES: FILE has exactly LINES of pam_trustedfor, in
# that order, inside pam-auth-update's "Additional" block, and every other
# line of FILE is as before the install.
pam_lines() {
	expect "$1: $2 has exactly these pam_trustedfor lines, in its Additional block" 0 "$3" "" \
		-- sh -c "sed -n '/^# and here are more per-package modules/,/^# end of pam-auth-update config/p' \
			/etc/pam.d/$2 | grep -F pam_trustedfor"
	expect "$1: the rest of $2 as before" 0 "" "" \
		-- sh -c "grep -v -F pam_trustedfor /etc/pam.d/$2 | cmp - $TF_TMP/pam.d/$2"
}
# What pam-auth-update writes for each profile (debian/pam-configs).
login_line=$(printf 'session\trequired\tpam_trustedfor.so restrict_file lock confine nonroot noexec_runtime_dir')
batch_line=$(printf 'session\trequired\tpam_trustedfor.so restrict_file lock confine nonroot unconfined=systemd-user noexec_runtime_dir')
expect "the profiles are off once installed: /etc/pam.d/common-* as before" 0 "" "" -- pam_as_before
expect "pam-auth-update --enable trustedfor" 0 "" "" -- pam-auth-update --enable trustedfor
pam_lines "trustedfor" common-session "$login_line"
expect "trustedfor: common-session-noninteractive as before (Session-Interactive-Only)" 0 "" "" \
	-- cmp "$TF_TMP/pam.d/common-session-noninteractive" /etc/pam.d/common-session-noninteractive
expect "pam-auth-update --enable trustedfor-noninteractive" 0 "" "" \
	-- pam-auth-update --enable trustedfor-noninteractive
pam_lines "both" common-session "$batch_line
$login_line"
pam_lines "both" common-session-noninteractive "$batch_line"
expect "both: common-auth, -account, -password as before" 0 "" "" \
	-- sh -c "cd /etc/pam.d && for f in common-auth common-account common-password; do cmp \$f $TF_TMP/pam.d/\$f || exit 1; done"
expect "dpkg -i trustedfor-divert-interpreters" 0 "*" "*" \
	-- dpkg -i "$debs"/trustedfor-divert-interpreters_*.deb
want=$(for path in $interpreters; do
	echo "diversion of $path to $path.distrib by trustedfor-divert-interpreters"
done | sort)
expect "dpkg-divert --list: the four interpreters" 0 "$want" "" \
	-- sh -c 'dpkg-divert --list | grep " by trustedfor-divert-interpreters$" | sort'
while read -r sum path; do
	expect "$path.distrib is Debian's binary" 0 "$sum  $path.distrib" "" -- sha256sum "$path.distrib"
	expect "$path.distrib is root's only" 0 "700 root root" "" -- stat -c '%a %U %G' "$path.distrib"
done < <(head -4 "$TF_TMP/before.interpreters")
# A new dash at $dash.distrib, mode 0755 (a stat override gone): the
# package's file trigger makes it root's only again.
chmod 0755 "$dash.distrib"
expect "a trigger on $dash.distrib makes it root's only again" 0 "700" "" \
	-- sh -c 'dpkg-trigger --no-await "$1.distrib" && dpkg --triggers-only -a >/dev/null &&
		stat -c %a "$1.distrib"' - "$dash"
# dpkg itself unpacks an upgrade of a stock interpreter at the .distrib
# name root's only (a stat override for each): Debian's lua5.4 .deb again,
# its own version, unpacked with the triggers held back.
want=$(for path in $interpreters; do echo "root root 700 $path"; done | sort)
# shellcheck disable=SC2086
expect "dpkg-statoverride --list: root's only, each packaged path (dpkg's key)" 0 "$want" "" \
	-- sh -c 'for path; do dpkg-statoverride --list "$path"; done | sort' - $interpreters
expect "apt-get download lua5.4, the installed version" 0 "" "" \
	-- sh -c "cd $TF_TMP && apt-get download -qq -o APT::Sandbox::User=root \
		lua5.4=\$(dpkg-query -W -f '\${Version}' lua5.4) >/dev/null"
expect "dpkg --unpack lua5.4, no triggers: lua5.4.distrib is mode 0700 at once" 0 "700 root root" "" \
	-- sh -c "dpkg --unpack --no-triggers $TF_TMP/lua5.4_*.deb >/dev/null &&
		stat -c '%a %U %G' /usr/bin/lua5.4.distrib"
expect "... /usr/bin/lua5.4 is still trusted-lua, mode 0711" 0 "711" "" \
	-- sh -c 'cmp /usr/bin/lua5.4 /usr/bin/trusted-lua && stat -c %a /usr/bin/lua5.4'
expect "... and the unpack activated the package's trigger (on the .distrib name)" 0 \
	"install ok triggers-pending" "" \
	-- dpkg-query -W -f '${Status}' trustedfor-divert-interpreters
expect "dpkg --configure --pending, and the triggers" 0 "700" "" \
	-- sh -c 'dpkg --configure --pending >/dev/null && dpkg --triggers-only -a >/dev/null &&
		stat -c %a /usr/bin/lua5.4.distrib'
for pair in $TF_PYTHON:trusted-python lua5.4:trusted-lua dash:trusted-dash bash:trusted-bash; do
	path=$(dpkg-divert --list "*/${pair%%:*}" | awk '{ print $3 }')
	expect "$path is ${pair#*:}" 0 "" "" -- cmp "$path" "/usr/bin/${pair#*:}"
	expect "$path and /usr/bin/${pair#*:} are mode 0711 root root" 0 "711 root root
711 root root" "" -- stat -c '%a %U %G' "$path" "/usr/bin/${pair#*:}"
done
# The launchers' first instructions (tests/integration/loader-window.sh):
# a user's process cannot write the system's python3.X while its loader
# waits on a FIFO named in LD_PRELOAD.
mkfifo -m 0666 "$TF_TMP/preload.so"
cp "$TF_SRC/tests/helpers/stall-and-patch.py" "$TF_TMP/"
# (What the launcher refuses after it differs in this overlay root, whose
# libraries show one identity mapped and another opened: the verdict here
# is the memory's.)
expect "a user cannot write /usr/bin/$TF_PYTHON's memory before its first instruction" \
	126 "mem: Permission denied" "*" \
	-- setpriv --reuid=tfdeploy --regid=tfdeploy --init-groups -- timeout 60 \
	"/usr/bin/$TF_PYTHON" "$TF_TMP/stall-and-patch.py" "$TF_TMP/preload.so" "$TF_PYTHON" 0 1 -- \
	trusted-for run --restrict-file -- env LD_PRELOAD="$TF_TMP/preload.so" "/usr/bin/$TF_PYTHON" "$TF_TMP/noexec/x.py"

# --- with nothing enforced, they behave as Debian's ------------------------
expect "python3: sys.executable, sys.prefix, the standard library" 0 \
	"/usr/bin/python3 /usr /usr/lib/$TF_PYTHON/json/__init__.py" "" \
	-- python3 -c 'import sys, json; print(sys.executable, sys.prefix, json.__file__)'
expect "python3 -m venv, and the venv's python" 0 "$TF_TMP/venv" "" \
	-- sh -c "python3 -m venv --without-pip $TF_TMP/venv && $TF_TMP/venv/bin/python -c 'import sys; print(sys.prefix)'"
expect "sh is trusted-dash and runs a script" 0 "shell ran" "" -- sh "$TF_TMP/noexec/x.sh"
expect "lua5.4 runs a script" 0 "lua ran" "" -- lua5.4 "$TF_TMP/noexec/x.lua"

# Their own tests through the diverted paths: CPython's regression tests
# (a few modules: the whole list is python-cpython-tests), the Lua and shell
# compatibility tables against Debian's binaries (now FILE.distrib), and
# bash's own test suite.  Each one's cases, named after it.
# suite NAME COMMAND...
suite() {
	local name=$1 line status start=$SECONDS
	shift
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$name: ${line#ok * - }" ;;
		"not ok "*) not_ok "$name: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < <(TF_DIVERTED=1 "$@" 2>&1 </dev/null)
	wait $! && status=0 || status=$?
	[ "$status" = 0 ] && ok "$name: exits 0" || not_ok "$name: exits $status"
	echo "# $name: $((SECONDS - start))s"
}
TF_CPYTHON_MODULES="test_site test_sysconfig test_venv test_cmd_line_script" \
	suite "$TF_PYTHON" "$TF_SRC/tests/integration/python/cpython-tests.sh"
suite lua5.4 "$TF_SRC/tests/integration/lua/compat.sh"
suite "sh, bash" "$TF_SRC/tests/integration/shells-compat.sh"
suite "bash's own tests" "$TF_SRC/shells/bash-testsuite.sh" "$bash" --cached-tree

# --- every way in: su, ssh, scp, sftp, cron, a bad policy file ---------------
suite "logins" "$TF_SRC/tests/integration/deploy-sessions.sh" "$TF_TMP"

# --- the profiles off, and on again ---------------------------------------
expect "pam-auth-update --disable trustedfor trustedfor-noninteractive" 0 "" "" \
	-- pam-auth-update --disable trustedfor trustedfor-noninteractive
expect "disabled: /etc/pam.d/common-* as before, byte for byte" 0 "" "" -- pam_as_before
expect "disabled: a login session is not enforced" 0 \
	"securebits: 0x0, EXEC_RESTRICT_FILE off, EXEC_DENY_INTERACTIVE off" "" \
	-- session "trusted-for status | grep '^securebits:'"
expect "pam-auth-update --enable trustedfor trustedfor-noninteractive" 0 "" "" \
	-- pam-auth-update --enable trustedfor trustedfor-noninteractive
pam_lines "enabled again" common-session "$batch_line
$login_line"
pam_lines "enabled again" common-session-noninteractive "$batch_line"
# An upgrade (prerm upgrade, postinst configure) leaves them on.
expect "dpkg -i libpam-trustedfor again, as an upgrade" 0 "*" "*" \
	-- dpkg -i "$debs"/libpam-trustedfor_*.deb
pam_lines "upgraded" common-session "$batch_line
$login_line"
pam_lines "upgraded" common-session-noninteractive "$batch_line"

# --- purge, with the profiles on: the system as before ---------------------
expect "dpkg --purge trustedfor-divert-interpreters" 0 "*" "*" \
	-- dpkg --purge trustedfor-divert-interpreters
# shellcheck disable=SC2086
expect "the interpreters are Debian's again" 0 "" "" \
	-- bash -c "sha256sum $interpreters | cmp - <(head -4 $TF_TMP/before.interpreters)"
# The purge takes the policy file with it (README's undo of step 2).
expect "dpkg --purge ${pkgs[*]}" 0 "*" "*" -- dpkg --purge "${pkgs[@]}"
snapshot after
same "dpkg-divert --list as before" diversions
same "dpkg-statoverride --list as before" statoverrides
same "the interpreters as before: bytes, mode, owner, time" interpreters
same "no file left, none missing, under /usr, /etc and dpkg's database" files
same "the installed packages as before" packages
expect "purged: /etc/pam.d/common-* as before, byte for byte" 0 "" "" -- pam_as_before
expect "purged: a login works" 0 "logged in" "" -- session "echo logged in"
done_testing
