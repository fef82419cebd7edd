#!/bin/bash
# scripts/trixie-root.sh [COMMAND...]: runs COMMAND (default: an
# interactive shell) as root inside a Debian 13 "trixie" root, with this
# checkout at /srv/trustedfor, for the port of trusted-python to CPython
# 3.13 (docs/python-3.13.md).  Not part of the build, of CI or of make
# check.
#
# The root is made once by debootstrap --variant=minbase from the archive
# the host's apt uses (as scripts/check-fresh.sh makes its bookworm root),
# with apt sources of its own inside it; then the build dependencies are
# installed in it (scripts/install-deps.sh build, with the trixie names of
# what debian/control names for bookworm).  It stays, and is reused, in
# TRUSTEDFOR_TRIXIE_DIR (default /var/tmp/trustedfor-py313).
#
# COMMAND runs in a private mount and PID namespace, chrooted, with its own
# /proc, /sys, /dev, /dev/shm and /tmp: nothing is mounted on the host and
# nothing of the host's /etc changes.  The checkout is bound at
# /srv/trustedfor inside the root; build into a directory of its own there
# (build-py313/), never the host's build/.
set -euo pipefail

say() { echo "trixie-root: $*" >&2; }
die() { echo "trixie-root: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, namespaces, mounts)"
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${TRUSTEDFOR_TRIXIE_DIR:-/var/tmp/trustedfor-py313}
root=$work/root
suite=trixie
case "$work" in
"$repo" | "$repo"/*) die "TRUSTEDFOR_TRIXIE_DIR must be outside the repository" ;;
esac

# The archive apt reaches here: the URI of the host's bookworm source.
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Created-By: Packages' |
	awk '$2 == "bookworm" { print $1; exit }')
[ -n "$mirror" ] || die "apt has no bookworm source here to take the archive's address from"
security=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Created-By: Packages' |
	awk '$2 == "bookworm-security" { print $1; exit }')

mkdir -p "$work"
exec 8>"$work/lock"
flock 8
if [ ! -f "$root/.trustedfor-trixie" ]; then
	say "debootstrap --variant=minbase $suite from $mirror"
	rm -rf --one-file-system "$root"
	debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ tail -20 "$work/debootstrap.log" >&2; die "debootstrap failed, see $work/debootstrap.log"; }
	grep -q '^I: Valid Release signature' "$work/debootstrap.log" ||
		die "debootstrap did not verify the archive's signature, see $work/debootstrap.log"
	{
		echo "# Written by scripts/trixie-root.sh."
		echo "deb $mirror $suite main"
		echo "deb $mirror $suite-updates main"
		[ -z "$security" ] || echo "deb $security $suite-security main"
	} >"$root/etc/apt/sources.list"
	touch "$root/.trustedfor-trixie"
fi
rm -f "$root/etc/resolv.conf"
cat /etc/resolv.conf >"$root/etc/resolv.conf"
mkdir -p "$root/srv/trustedfor"

# shellcheck disable=SC2016
inner='set -eu
root=$1 repo=$2
shift 2
. "$TF_ROOT_MOUNTS"
root_mounts "$root"
mount --bind "$repo" "$root/srv/trustedfor"
cd "$root"
pivot_root . .
umount -l .
cd /srv/trustedfor
exec /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" ${CI:+CI=$CI} "$@"'

# The build dependencies and the python tests' packages, once:
# debian/control and tests/packages name bookworm's.
if [ ! -f "$root/.trustedfor-deps" ]; then
	say "installing the build dependencies"
	# shellcheck disable=SC2016
	TF_ROOT_MOUNTS=$repo/scripts/root-mounts.sh unshare --mount --propagation private --pid --fork --kill-child \
		bash -c "$inner" inner "$root" "$repo" bash -c '
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q
		pkgs=$(sh scripts/install-deps.sh --check build 2>&1 |
			sed -n "s/.*missing Debian packages:\(.*\) (make deps.*/\1/p" |
			sed "s/libpython3\.11-dev/libpython3.13-dev python3.13-dev libpython3-dev/")
		# What the python tests need (tests/packages, for 3.13); in trixie
		# pam.pc requires audit.pc, and libpam0g-dev does not bring it.
		apt-get install -y -q --no-install-recommends $pkgs python3 python3.13-venv \
			python3-setuptools libpython3.13-testsuite lua5.4 util-linux mount acl \
			strace git fakeroot libaudit-dev' </dev/null
	touch "$root/.trustedfor-deps"
fi
flock -u 8

[ $# -gt 0 ] || set -- bash
TF_ROOT_MOUNTS=$repo/scripts/root-mounts.sh unshare --mount --propagation private --pid --fork --kill-child \
	bash -c "$inner" inner "$root" "$repo" "$@"
