#!/bin/sh
# scripts/deb.sh [--suite SUITE] [DIR]: build the Debian packages (debian/)
# for Debian release SUITE (bookworm or trixie; default: the running
# system's) and leave the binary packages in DIR/SUITE (default
# build/deb/SUITE), then run lintian on them.
#
# One debian/ for both releases: what differs (the CPython trusted-python
# embeds and how it links it, the dash and bash it patches) comes from the
# build machine (debian/rules).  So the packages of a release are built on
# that release: natively when SUITE is the running system's, otherwise in a
# root of SUITE (scripts/release-root.sh), where this script runs again,
# natively, with the release's own compiler, libraries and lintian.  DIR
# must then be inside the checkout, which that root sees at /srv/trustedfor.
#
# dpkg-buildpackage writes its results beside the source tree and its build
# inside it, so it runs on a copy of the work tree (what git tracks plus
# new files it does not ignore, uncommitted changes included) made in
# TRUSTEDFOR_DEB_DIR (default /var/tmp/trustedfor-deb, the root's own for
# another release): the repository stays free of generated files (git
# lists the tree, here, on the host: a worktree's git directory is not in
# the root).  The copy always has the same path and the compiler maps it
# away (dpkg-buildflags' fixfilepath), and every time stamp comes from
# debian/changelog (SOURCE_DATE_EPOCH), so two builds give identical
# packages.
#
# trusted-dash and trusted-bash come from the build machine's dash and bash
# source packages, fetched with apt-get source through shells/build.sh's
# private apt configuration unless /var/tmp/trustedfor-shells has them:
# the build needs the archive once (debian/README.source).
#
# TRUSTEDFOR_LIBPYTHON=DIR: trusted-python links DIR's libpython3.11.a, the
# profile-guided LTO build of interpreters/python/build-libpython.sh
# (debian/rules), instead of python3.11-dev's: Debian 12 only.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
running=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
suite=$running tree_on_stdin=
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=${2:-$running}; shift 2 ;;
	# The copy of the tree as a tar stream on standard input (the run
	# inside another release's root).
	--tree-on-stdin) tree_on_stdin=1; shift ;;
	*) break ;;
	esac
done
case "$suite" in
bookworm | trixie) ;;
*) echo "deb: SUITE must be bookworm or trixie, not '$suite'" >&2; exit 1 ;;
esac
base=${1:-$repo/build/deb}
mkdir -p "$base"
base=$(cd "$base" && pwd)
out=$base/$suite
work=${TRUSTEDFOR_DEB_DIR:-/var/tmp/trustedfor-deb}
case "$work" in
"$repo" | "$repo"/*) echo "deb: TRUSTEDFOR_DEB_DIR must be outside the repository" >&2; exit 1 ;;
esac

# The work tree's files, as a tar stream.
tree() {
	(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -)
}

if [ "$suite" != "$running" ]; then
	case "$base" in
	"$repo"/*) ;;
	*) echo "deb: DIR must be inside the checkout to build $suite in its root: $base" >&2; exit 1 ;;
	esac
	[ -z "${TRUSTEDFOR_LIBPYTHON:-}" ] ||
		{ echo "deb: TRUSTEDFOR_LIBPYTHON is for a native Debian 12 build, not $suite from $running" >&2; exit 1; }
	echo "deb: $suite from $running: building in scripts/release-root.sh $suite"
	tree | "$repo/scripts/release-root.sh" "$suite" \
		sh scripts/deb.sh --suite "$suite" --tree-on-stdin "/srv/trustedfor/${base#"$repo"/}"
	exit
fi

if [ -n "${TRUSTEDFOR_LIBPYTHON:-}" ]; then
	# The build runs in a copy elsewhere: the directory must not be relative.
	given=$TRUSTEDFOR_LIBPYTHON
	TRUSTEDFOR_LIBPYTHON=$(cd "$given" 2>/dev/null && pwd) &&
		[ -f "$TRUSTEDFOR_LIBPYTHON/libpython3.11.a" ] || {
		echo "deb: TRUSTEDFOR_LIBPYTHON: no libpython3.11.a in $given" >&2
		exit 1
	}
	export TRUSTEDFOR_LIBPYTHON
	echo "deb: trusted-python links $TRUSTEDFOR_LIBPYTHON/libpython3.11.a"
fi
version=$(dpkg-parsechangelog -l "$repo/debian/changelog" -S Version)
src=$work/trustedfor-$version

mkdir -p "$work"
exec 9>"$work/lock"
flock 9
rm -rf "$work"/trustedfor-* "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes \
	"$work"/*.dsc "$work"/*.tar.*
mkdir -p "$src"
if [ -n "$tree_on_stdin" ]; then
	tar -xf - -C "$src"
else
	tree | tar -xf - -C "$src"
fi

echo "deb: building $suite's packages in $src (log: $work/build.log)"
# -us -uc: nothing is signed; the source package lets lintian check debian/.
if ! (cd "$src" && dpkg-buildpackage -us -uc -j"$(nproc)") >"$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	echo "deb: dpkg-buildpackage failed, see $work/build.log" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"
cp "$work"/*.deb "$out"/
changes=$(ls "$work"/trustedfor_"$version"_*.changes)
# No error, no warning; each override in debian/*.lintian-overrides says why.
if ! lintian --fail-on error,warning "$changes" >"$work/lintian.log" 2>&1; then
	cat "$work/lintian.log" >&2
	echo "deb: lintian found problems" >&2
	exit 1
fi
cat "$work/lintian.log"
ls "$out"
