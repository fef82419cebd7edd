#!/bin/bash
# scripts/release-root.sh SUITE [COMMAND...]: runs COMMAND (default: an
# interactive shell) as root inside a Debian root of release SUITE
# (bookworm or trixie), with this checkout at /srv/trustedfor: make deb
# SUITE=... builds and checks the other release's packages there
# (scripts/deb.sh), and the port of trusted-python to CPython 3.13 builds
# and tests in trixie's (docs/python-3.13.md).  Not part of make check.
#
# The root is made once by debootstrap --variant=minbase from the archive
# the host's apt uses (as scripts/check-fresh.sh makes its bookworm root),
# with apt sources of its own inside it; then everything the project needs
# is installed in it by scripts/install-deps.sh, run inside, which reads
# debian/control and tests/packages for that release.  It stays, and is
# reused, in TRUSTEDFOR_ROOT_DIR (default /var/tmp/trustedfor-root-SUITE);
# install-deps.sh runs again at every start, which installs what the lists
# gained since (nothing, in a second, most times).
#
# COMMAND runs in a private mount and PID namespace, in the root entered by
# pivot_root, with its own /proc, /sys, /dev, /dev/shm and /tmp
# (scripts/root-mounts.sh): nothing is mounted on the host and nothing of
# the host's /etc changes.  The checkout is bound at /srv/trustedfor inside
# the root, which is the working directory; build into a directory of its
# own there (build-trixie/), never the host's build/.  Standard input is
# COMMAND's.
set -euo pipefail

say() { echo "release-root: $*" >&2; }
die() { echo "release-root: error: $*" >&2; exit 1; }

suite=${1:-}
case "$suite" in
bookworm | trixie) shift ;;
*) die "usage: $0 bookworm|trixie [COMMAND...]" ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, namespaces, mounts)"
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${TRUSTEDFOR_ROOT_DIR:-/var/tmp/trustedfor-root-$suite}
root=$work/root
case "$work" in
"$repo" | "$repo"/*) die "TRUSTEDFOR_ROOT_DIR must be outside the repository" ;;
esac

. "$repo/scripts/debian-root.sh"
sources=$(release_sources "$suite") || die "no archive for $suite"
mirror=$(release_mirror "$sources" "$suite")

mkdir -p "$work"
exec 8>"$work/lock"
flock 8
if [ ! -f "$root/.trustedfor-root" ]; then
	say "debootstrap --variant=minbase $suite from $mirror"
	rm -rf --one-file-system "$root"
	debootstrap_verified "$suite" "$root" "$mirror" "$work/debootstrap.log" ||
		die "no $suite root"
	write_sources "$root" "$sources" scripts/release-root.sh
	touch "$root/.trustedfor-root"
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
run() {
	TF_ROOT_MOUNTS=$repo/scripts/root-mounts.sh unshare --mount --propagation private \
		--pid --fork --kill-child bash -c "$inner" inner "$root" "$repo" "$@"
}

# The project's one list, this release's names: the first time after
# apt-get update (debootstrap leaves no package lists).
if ! run sh scripts/install-deps.sh --check all </dev/null 2>/dev/null; then
	say "installing the project's dependencies (scripts/install-deps.sh)"
	[ -f "$root/.trustedfor-deps" ] || run apt-get update -q </dev/null >&2
	run sh scripts/install-deps.sh all </dev/null >&2
	touch "$root/.trustedfor-deps"
fi
flock -u 8

[ $# -gt 0 ] || set -- bash
run "$@"
