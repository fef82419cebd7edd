#!/bin/bash
# make check-fresh: runs .ci/run from a clean clone of HEAD inside a minimal
# Debian root made by debootstrap, as on a freshly installed machine.  A
# package the project uses but forgets to install fails here.
#
#   scripts/check-fresh.sh [COMMAND...]
#
# SUITE (environment) is the release: bookworm (Debian 12, the default) or
# trixie (Debian 13).  Its archive is the one the host's apt reaches for its
# own release's sources, with the suite's name in their place
# (scripts/debian-root.sh).
#
# COMMAND (default .ci/run) runs in the clone, inside the root, as root, with
# CI, TRUSTEDFOR_NO_SKIP and TRUSTEDFOR_IN_FRESH_ROOT=1 set.  The root runs in
# a private mount and PID namespace with its own /proc, /sys, /dev, /dev/shm
# and /tmp: nothing is mounted on the host, nothing of the host's /etc
# changes, and the root is deleted afterwards, also on failure or interrupt.
# The last line is the inner suite's "N passed, N failed"; the exit status
# is the inner one.
#
# Environment:
#   TRUSTEDFOR_FRESH_DIR  work directory, outside the repository
#                         (default /var/tmp/trustedfor-fresh)
#   TRUSTEDFOR_FRESH_KEEP_DAYS  age after which the cached pristine root is
#                         made again (default 7)
#
# Debootstrap's pristine root is cached in the work directory and copied for
# each run; nothing ever runs in the cached copy.  The run's output stays in
# the work directory as root.XXXXXX.log.
set -euo pipefail

say() { echo "check-fresh: $*"; }
die() { echo "check-fresh: error: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, namespaces, mounts)"
here=$(cd "$(dirname "$0")/.." && pwd)
work=${TRUSTEDFOR_FRESH_DIR:-/var/tmp/trustedfor-fresh}
keep_days=${TRUSTEDFOR_FRESH_KEEP_DAYS:-7}
suite=${SUITE:-bookworm}
case "$suite" in
bookworm | trixie) ;;
*) die "SUITE=$suite: bookworm or trixie" ;;
esac
start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start))s"; }
[ $# -gt 0 ] || set -- .ci/run

# --- what the gate itself uses on the host --------------------------------
packages="debootstrap debian-archive-keyring gpgv git util-linux coreutils"
missing=
for p in $packages; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 \
		--no-install-recommends $missing >/dev/null || die "apt-get install$missing failed"
fi

repo=$(git -C "$here" rev-parse --show-toplevel)
case "$work" in
"$repo"|"$repo"/*) die "TRUSTEDFOR_FRESH_DIR must be outside the repository" ;;
esac
commit=$(git -C "$repo" rev-parse HEAD)
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] ||
	say "note: uncommitted changes are not tested, only HEAD $commit"

# --- the archive apt uses here -------------------------------------------
. "$here/scripts/debian-root.sh"
sources=$(release_sources "$suite") || die "no archive for $suite"
mirror=$(release_mirror "$sources" "$suite")
# Only what changes how apt reaches that archive, never anything else.
apt_conf=$(apt-config dump | grep -E '^Acquire::(https?::Proxy|Check-Valid-Until|Check-Date) ' || true)

mkdir -p "$work"
exec 8>"$work/lock"
# Runs may overlap; making or copying the pristine root may not.
flock 8

# --- the pristine root, cached ---------------------------------------------
pristine=$work/pristine-$suite
stamp="$suite $mirror"
if [ ! -f "$pristine/.trustedfor-pristine" ] ||
	[ "$(cat "$pristine/.trustedfor-pristine")" != "$stamp" ] ||
	[ -n "$(find "$pristine/.trustedfor-pristine" -mtime +"$keep_days")" ]; then
	say "debootstrap --variant=minbase $suite from $mirror [$(elapsed)]"
	rm -rf --one-file-system "$pristine" "$pristine.new"
	debootstrap_verified "$suite" "$pristine.new" "$mirror" "$work/debootstrap.log" ||
		die "no pristine $suite root"
	echo "$stamp" >"$pristine.new/.trustedfor-pristine"
	mv "$pristine.new" "$pristine"
fi

# --- this run's root: a copy, deleted on any exit --------------------------
find "$work" -maxdepth 1 -name 'root.*.log' -mtime +14 -delete
root=$(mktemp -d "$work/root.XXXXXX")
child=
log=$root.log
cleanup() {
	trap - EXIT INT TERM HUP
	[ -z "$child" ] || { kill -KILL "$child" 2>/dev/null; wait "$child" 2>/dev/null; } || true
	# Every mount was in the namespace, which is gone with its last process.
	if awk -v r="$root" '$2 == r || index($2, r "/") == 1 { found = 1 }
		END { exit !found }' /proc/self/mounts; then
		echo "check-fresh: error: mounts left under $root, not deleting it" >&2
	else
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT
trap 'say "interrupted"; cleanup; echo "0 passed, 1 failed"; exit 130' INT TERM HUP

cp -a "$pristine/." "$root/"
flock -u 8
rm -f "$root/.trustedfor-pristine"
git clone -q --no-hardlinks "$repo" "$root/srv/trustedfor"
git -C "$root/srv/trustedfor" -c advice.detachedHead=false checkout -q --detach "$commit"
[ "$(git -C "$root/srv/trustedfor" rev-parse HEAD)" = "$commit" ] || die "clone is not at $commit"
write_sources "$root" "$sources" scripts/check-fresh.sh
[ -z "$apt_conf" ] || echo "$apt_conf" >"$root/etc/apt/apt.conf.d/99trustedfor-fresh"
# The root is thrown away: dpkg need not sync each file it unpacks (minutes
# of the run's package installation on these machines' disks).
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/99trustedfor-fresh"
rm -f "$root/etc/resolv.conf"
cat /etc/resolv.conf >"$root/etc/resolv.conf"
say "root $root, clone of $commit [$(elapsed)]"

# --- inside: a private mount and PID namespace, then pivot_root ----------
# shellcheck disable=SC2016
inner='set -eu
root=$1 log=$2
shift 2
. "$TF_ROOT_MOUNTS"
root_mounts "$root"
exec 3>"$log"
cd "$root"
pivot_root . .
umount -l .
cd /
set +e
/usr/bin/env -i --default-signal -C /srv/trustedfor \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM=dumb "$@" 2>&1 3>&- | tee /dev/fd/3
exit "${PIPESTATUS[0]}"'
passthrough=(TRUSTEDFOR_IN_FRESH_ROOT=1 CI="${CI:-true}")
[ -z "${TRUSTEDFOR_NO_SKIP:-}" ] || passthrough+=(TRUSTEDFOR_NO_SKIP="$TRUSTEDFOR_NO_SKIP")
say "running $* inside [$(elapsed)]"
# In the background, so that a signal reaches the trap at once; the PID
# namespace dies with unshare (--kill-child), and every process in it.
TF_ROOT_MOUNTS=$here/scripts/root-mounts.sh \
	unshare --mount --propagation private --pid --fork --kill-child \
	bash -c "$inner" inner "$root" "$log" "${passthrough[@]}" "$@" </dev/null &
child=$!
status=0
wait "$child" || status=$?
child=
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
cleanup
say "$suite: $* exited with status $status after $(elapsed); output in $log"
if [ -z "$summary" ]; then
	echo "check-fresh: error: the run printed no \"N passed, N failed\" line" >&2
	summary="0 passed, 1 failed"
	[ "$status" != 0 ] || status=1
fi
echo "$summary"
exit "$status"
