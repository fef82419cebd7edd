# Shell test helpers, sourced by tests/integration/*.sh and the interpreters'
# tests.  Output is TAP: one "ok N - what" or "not ok N - what" a case, then
# "1..N".  A case that cannot run says "# SKIP not run: why" (not_run);
# whether that fails is the harness's to decide, in one place: tests/run.py
# counts it as a failure under CI (CI=true or TRUSTEDFOR_NO_SKIP=1), so that
# a missing privilege can never pass there.
#
# A case that does not apply to the running kernel says
# "# N/A not applicable on this kernel: why" (not_applicable); tests/run.py
# counts those apart, as neither passed nor failed.  Decide it by probing
# the kernel (kernel_lacks), never by its version:
#
#	if kernel_lacks exec-securebits; then
#		not_applicable "run --restrict-file sets the bit" "$na_why"
#	else
#		expect "run --restrict-file sets the bit" ...
#	fi

tap_n=0
tap_failed=0

# Meson sets LD_LIBRARY_PATH for tests; the build's programs find their
# library through their run path, and under file enforcement the launchers
# refuse to start with LD_LIBRARY_PATH set (tests/integration/loaders.sh).
unset LD_LIBRARY_PATH

# The CPython trusted-python embeds (tests/meson.build: python3.11 on
# Debian 12, python3.13 on Debian 13; else the system's python3, which is
# what meson takes), and its tag in cache file names.  Exported: scripts
# the tests run in other shells name Debian's interpreter by it.
TF_PYTHON=${TF_PYTHON:-$(basename "$(readlink -f /usr/bin/python3)")}
export TF_PYTHON
TF_PYTAG=${TF_PYTHON#python}
TF_PYTAG=cpython-${TF_PYTAG//./}

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# not_run WHAT WHY: a case that cannot run here (see the top).
not_run() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP not run: $2"
}

# not_applicable WHAT WHY: a case the running kernel cannot have.
not_applicable() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # N/A not applicable on this kernel: $2"
}

# kernel_lacks FEATURE: true when the running kernel lacks FEATURE, with the
# reason in $na_why.  FEATURE: execve-check (execveat's AT_EXECVE_CHECK),
# exec-securebits (SECBIT_EXEC_*), trusted-for-syscall (the patched
# kernel's call), landlock.  See tests/tap.h's tap_kernel_lacks().
kernel_lacks() {
	local status
	na_why=$("$TF_BUILD/tests/kernel-probe" "$1")
	status=$?
	case $status in
	0) return 1 ;;
	1) return 0 ;;
	*) echo "Bail out! kernel-probe $1: status $status"; exit 2 ;;
	esac
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit
}

# expect WHAT STATUS STDOUT STDERR -- COMMAND...
# Runs COMMAND and compares its exit status and its whole stdout and stderr
# exactly; "*" accepts any output for that stream.
expect() {
	local what=$1 want_status=$2 want_out=$3 want_err=$4 got_status
	shift 5
	"$@" >"$TF_TMP/out" 2>"$TF_TMP/err" </dev/null
	got_status=$?
	local got_out got_err
	got_out=$(cat "$TF_TMP/out")
	got_err=$(cat "$TF_TMP/err")
	if [ "$got_status" = "$want_status" ] &&
		{ [ "$want_out" = "*" ] || [ "$got_out" = "$want_out" ]; } &&
		{ [ "$want_err" = "*" ] || [ "$got_err" = "$want_err" ]; }; then
		ok "$what"
	elif [ "$got_status" = 125 ] && needed_securebits "$got_err$got_out"; then
		not_applicable "$what" "$na_why"
	else
		not_ok "$what"
		echo "#   command: $*"
		echo "#   status: want $want_status, got $got_status"
		[ "$want_out" = "*" ] || [ "$got_out" = "$want_out" ] ||
			printf '#   stdout: want <%s>\n#           got  <%s>\n' "$want_out" "$got_out"
		[ "$want_err" = "*" ] || [ "$got_err" = "$want_err" ] ||
			printf '#   stderr: want <%s>\n#           got  <%s>\n' "$want_err" "$got_err"
	fi
}

# expect_logged WHAT LINES: the standard error of the last expect() holds
# exactly LINES, the library's log lines with each pid=, dev= and ino=
# value written PID, DEV and INO.
expect_logged() {
	local got
	got=$(sed -E 's/ pid=[0-9]+ / pid=PID /; s/ dev=[0-9]+:[0-9]+ ino=[0-9]+$/ dev=DEV ino=INO/' "$TF_TMP/err")
	if [ "$got" = "$2" ]; then
		ok "$1"
	else
		not_ok "$1"
		printf '%s\n' "$got" | sed 's/^/#   got:  /'
		printf '%s\n' "$2" | sed 's/^/#   want: /'
	fi
}

# needed_securebits OUTPUT: true when the kernel lacks the exec securebits
# (the probe) and OUTPUT has trusted-for run's refusal to set them: a case
# wrapped in "trusted-for run --restrict-file/--deny-interactive" (mode_file
# and the like) that this kernel cannot have.  expect() reports it as not
# applicable; a case that expects that very refusal still passes.
needed_securebits() {
	case $1 in
	# The hint in parentheses is missing where a test's filter forges the
	# kernel's answers; the probe below decides either way.
	*"run: cannot set the securebits: Operation not permitted"*) ;;
	*) return 1 ;;
	esac
	if [ -z "${tf_securebits_lacking+set}" ]; then
		kernel_lacks exec-securebits && tf_securebits_lacking=$na_why ||
			tf_securebits_lacking=
	fi
	na_why=$tf_securebits_lacking
	[ -n "$na_why" ]
}

# expected_backend: the backend the library must choose at policy 2 or 3
# on this kernel, from the tests' own probes: AT_EXECVE_CHECK where it
# exists, else the patched kernel's system call, else the emulation.
expected_backend() {
	if ! kernel_lacks execve-check; then
		echo "execveat(AT_EXECVE_CHECK)"
	elif ! kernel_lacks trusted-for-syscall; then
		echo "trusted_for() system call"
	else
		echo "emulation"
	fi
}

# in_dir DIR COMMAND...: COMMAND with DIR as its working directory.
in_dir() {
	local dir=$1
	shift
	(cd "$dir" && "$@")
}

# with_stdin FILE COMMAND...: COMMAND reading FILE on its standard input.
with_stdin() {
	local file=$1
	shift
	"$@" <"$file"
}

# with_pipe TEXT COMMAND...: COMMAND reading TEXT from a pipe.
with_pipe() {
	local text=$1
	shift
	printf '%s\n' "$text" | "$@"
}

# docs/semantics.md section 3's four enforcement modes, as prefixes of a command: the
# securebits set by trusted-for run (from $TF_BUILD).
mode_none() { "$@"; }
mode_file() { "$TF_BUILD/tools/trusted-for" run --restrict-file -- "$@"; }
mode_interactive() { "$TF_BUILD/tools/trusted-for" run --deny-interactive -- "$@"; }
mode_both() { "$TF_BUILD/tools/trusted-for" run --restrict-file --deny-interactive -- "$@"; }
modes=(none file interactive both)
# The same three from /etc/trustedfor.conf (in this test's namespace: needs
# set_policy_file), the enforcement every kernel has, Debian 12's 6.1 too.
mode_policy_file() { policy_file_mode file "$@"; }
mode_policy_interactive() { policy_file_mode interactive "$@"; }
mode_policy_both() { policy_file_mode file,interactive "$@"; }
policy_file_mode() {
	local enforce=$1 status
	shift
	set_policy_file "enforce = $enforce" || return 99
	"$@"
	status=$?
	set_policy_file - || return 99
	return $status
}
policy_modes=(policy_file policy_interactive policy_both)

# Re-executes the calling script inside a private mount namespace (as root),
# or a user and mount namespace (as a normal user, where the system allows
# it).  Nothing mounted there reaches the host.  Sets TF_TMP to a fresh
# directory on a tmpfs of its own.
enter_private_namespace() {
	if [ -z "${TF_IN_NAMESPACE:-}" ]; then
		export TF_IN_NAMESPACE=1
		if [ "$(id -u)" = 0 ]; then
			exec unshare --mount --propagation private "$0" "$@"
		elif unshare --user --map-root-user --mount true 2>/dev/null; then
			exec unshare --user --map-root-user --mount \
				--propagation private "$0" "$@"
		fi
		not_run "$(basename "$0")" "needs root or user namespaces"
		done_testing
	fi
	TF_TMP=$(mktemp -d /tmp/trustedfor-test.XXXXXX)
	mount -t tmpfs -o mode=0755 trustedfor-test "$TF_TMP" || {
		not_ok "mount a tmpfs on $TF_TMP"
		done_testing
	}
	# The tmpfs vanishes with the namespace; the empty directory does not.
	trap 'restore_kernel_policy; umount -l "$TF_TMP" 2>/dev/null; rmdir "$TF_TMP" 2>/dev/null' EXIT
}

# make_mounts: $TF_TMP/exec and $TF_TMP/noexec, two fresh tmpfs mounts.
make_mounts() {
	mkdir -p "$TF_TMP/exec" "$TF_TMP/noexec"
	mount -t tmpfs -o mode=0755 trustedfor-exec "$TF_TMP/exec" &&
		mount -t tmpfs -o mode=0755,noexec trustedfor-noexec "$TF_TMP/noexec"
}

# etc_overlay: an overlay on /etc, in this namespace only, so that tests can
# write /etc/trustedfor.conf without touching the host's.
etc_overlay() {
	[ -n "${TF_ETC_OVERLAY:-}" ] && return 0
	mkdir -p "$TF_TMP/etc-upper" "$TF_TMP/etc-work"
	mount -t overlay trustedfor-etc \
		-o "lowerdir=/etc,upperdir=$TF_TMP/etc-upper,workdir=$TF_TMP/etc-work" \
		/etc || return 1
	TF_ETC_OVERLAY=1
}

# in_user_namespace: true in a user namespace that does not map root of the
# initial one to its root (procfs's "self" link, root's, shows as another
# uid), as enter_private_namespace makes for a normal user; there the
# policy file fails closed (docs/semantics.md).  Sets uid_map to the map,
# as the library's messages show it ("0 65534 1").
in_user_namespace() {
	uid_map=$(tr -s ' ' <"/proc/self/uid_map" | sed 's/^ //')
	[ "$(stat -c %u /proc/self)" != 0 ]
}

# as_user root|nobody COMMAND...: COMMAND as root, or as uid 65534.
as_user() {
	local user=$1
	shift
	if [ "$user" = root ]; then
		"$@"
	else
		as_nobody "$@"
	fi
}
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# in_own_mount_namespace: true in the private namespace of
# enter_private_namespace, where a test may mount over the host's paths.
in_own_mount_namespace() {
	[ -n "${TF_TMP:-}" ] && [ "$(readlink /proc/self/ns/mnt)" != "$(readlink /proc/1/ns/mnt)" ]
}

# fake_sysctl NAME VALUE: /proc/sys/NAME reads VALUE in this namespace (a
# file bound over it), if the kernel has it.
fake_sysctl() {
	local path=/proc/sys/${1//.//}
	[ -e "$path" ] && in_own_mount_namespace || return 1
	printf '%s\n' "$2" >"$TF_TMP/sysctl-$1"
	mount --bind "$TF_TMP/sysctl-$1" "$path"
}

# klibc_bin DIR: DIR at /usr/lib/klibc/bin in this namespace, where
# trusted-for status looks for klibc's sh off PATH: bound over the host's,
# or, where the host has none, over the one an overlay of /usr/lib adds.
klibc_bin() {
	in_own_mount_namespace || return 1
	if [ ! -d /usr/lib/klibc/bin ]; then
		mkdir -p "$TF_TMP/usr-lib-upper/klibc/bin" "$TF_TMP/usr-lib-work" &&
			mount -t overlay trustedfor-usr-lib \
				-o "lowerdir=/usr/lib,upperdir=$TF_TMP/usr-lib-upper,workdir=$TF_TMP/usr-lib-work" \
				/usr/lib || return 1
	fi
	mount --bind "$1" /usr/lib/klibc/bin
}

# set_policy_file CONTENT [MODE [OWNER]]: show a policy file at
# /etc/trustedfor.conf inside this namespace only, through an overlay on
# /etc, and nothing at all when CONTENT is "-".  CONTENT is the settings:
# the completeness markers (first line "trustedfor-policy 1", last line
# "end") are added here.
set_policy_file() {
	local content=$1
	shift
	if [ "$content" = "-" ]; then
		etc_overlay && rm -f /etc/trustedfor.conf && set_kernel_policy 3
		return
	fi
	set_policy_file_raw "$(printf 'trustedfor-policy 1\n%s\nend\n_' "$content")" "$@"
}

# set_policy_file_raw BYTES [MODE [OWNER]]: the policy file holding exactly
# BYTES (a trailing "_" is dropped, so that BYTES can end in a newline
# through a command substitution), markers or not.
set_policy_file_raw() {
	local content=${1%_} mode=${2:-0644} owner=${3:-0}
	etc_overlay || return 1
	rm -f /etc/trustedfor.conf
	printf '%s' "$content" >/etc/trustedfor.conf &&
		chmod "$mode" /etc/trustedfor.conf &&
		chown "$owner" /etc/trustedfor.conf &&
		set_kernel_policy "$(printf '%s\n' "$content" |
			sed -n 's/^policy = \([0-3]\)$/\1/p' | tail -n 1)"
}

# spared_by_bad_file: whom a bad policy file does not bind, as status and
# the PAM module name them: root and the build's admin_gid (27, Debian's
# sudo, by its name here).
spared_by_bad_file() {
	local name
	name=$(getent group 27 | cut -d: -f1)
	echo "root and group 27${name:+ ($name)}"
}

# set_kernel_policy [N]: on the patched kernel, whose fs.trusted_for_policy
# is the check policy in place of the policy file's (docs/semantics.md), the
# policy a test asks for is set there too, as an administrator of such a
# system would (N, or 3 as the file's default).  The sysctl is the whole
# machine's: the first call keeps the value found, and the namespace's exit
# trap (enter_private_namespace) puts it back.  Nothing to do elsewhere, or
# where only root may write it and a test runs as another user.
set_kernel_policy() {
	local sysctl=/proc/sys/fs/trusted_for_policy
	[ -w "$sysctl" ] || return 0
	[ -n "${TF_KERNEL_POLICY_FOUND:-}" ] || TF_KERNEL_POLICY_FOUND=$(cat "$sysctl") || return 1
	echo "${1:-3}" >"$sysctl"
}
restore_kernel_policy() {
	[ -z "${TF_KERNEL_POLICY_FOUND:-}" ] || echo "$TF_KERNEL_POLICY_FOUND" >/proc/sys/fs/trusted_for_policy
}

# install_build DESTDIR: meson install of the build into DESTDIR, as one
# case; the test ends there when it fails.
install_build() {
	if meson install -C "$TF_BUILD" --destdir "$1" --no-rebuild --quiet >"$TF_TMP/install.log" 2>&1; then
		ok "meson install --destdir"
	else
		not_ok "meson install --destdir"
		sed 's/^/#   /' "$TF_TMP/install.log"
		done_testing
	fi
}
