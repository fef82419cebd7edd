#!/bin/sh
# scripts/deb.sh [OUTPUT]: build the Debian packages (debian/) and leave the
# binary packages in OUTPUT (default build/deb), then run lintian on them.
#
# dpkg-buildpackage writes its results beside the source tree and its build
# inside it, so it runs on a copy of the work tree (what git tracks plus
# new files it does not ignore, uncommitted changes included) made in
# TRUSTEDFOR_DEB_DIR (default /var/tmp/trustedfor-deb): the repository
# stays free of generated files (git lists the tree: install-deps.sh
# installs it).  The copy always has the same path and the
# compiler maps it away (dpkg-buildflags' fixfilepath), and every time
# stamp comes from debian/changelog (SOURCE_DATE_EPOCH), so two builds give
# identical packages.
#
# trusted-dash and trusted-bash come from the build machine's dash and bash
# source packages, fetched with apt-get source through shells/build.sh's
# private apt configuration unless /var/tmp/trustedfor-shells has them:
# the build needs the archive once (debian/README.source).
#
# TRUSTEDFOR_LIBPYTHON=DIR: trusted-python links DIR's libpython3.11.a, the
# profile-guided LTO build of interpreters/python/build-libpython.sh
# (debian/rules), instead of python3.11-dev's.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/build/deb}
work=${TRUSTEDFOR_DEB_DIR:-/var/tmp/trustedfor-deb}
case "$work" in
"$repo" | "$repo"/*) echo "deb: TRUSTEDFOR_DEB_DIR must be outside the repository" >&2; exit 1 ;;
esac
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
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -T - -cf -) | tar -xf - -C "$src"

echo "deb: building in $src (log: $work/build.log)"
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
