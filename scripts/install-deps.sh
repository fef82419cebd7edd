#!/bin/sh
# scripts/install-deps.sh [--check] [build|tests|all|PACKAGE...]: installs
# the Debian packages that are missing, as root with apt-get; otherwise it
# names them and fails.  The project's one list of what it needs:
#
#   build  the Build-Depends of debian/control, with build-essential (which
#          Debian's policy implies): the library, the CLI, the PAM module,
#          the interpreters, the shells, the man pages, the packages
#   tests  tests/packages: what only the tests, the demo and the guests need
#   all    both (the default)
#
# PACKAGE... installs those instead (a script that needs more, as
# interpreters/python/build-libpython.sh).  With --check first, it installs
# nothing: it names what is missing and fails (the default make, which
# builds offline).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi

# The names in debian/control's Build-Depends: no versions, the first of
# alternatives; debhelper-compat is the version of debhelper it names.
build_depends() {
	sed -n '/^Build-Depends:/,/^[A-Za-z-]*:/p' "$repo/debian/control" |
		sed -e '/^#/d' -e 's/^Build-Depends://' -e '/^[A-Za-z-]*:/d' |
		tr ',' '\n' | sed -e 's/|.*//' -e 's/[[(<].*//' -e 's/^ *//' -e 's/ *$//' |
		sed -e '/^$/d' -e 's/^debhelper-compat$/debhelper/'
}

# A line of tests/packages that ends in [CODENAME] is only that release's:
# the few names that carry a version (the Python test suite's package).
# shellcheck source=/dev/null
release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
tests_packages() {
	sed -e 's/#.*//' -e '/^ *$/d' "$repo/tests/packages" |
		awk -v r="$release" '$2 == "" || $2 == "[" r "]" { print $1 }'
}

case "${1:-all}" in
build) packages="build-essential $(build_depends)" ;;
tests) packages=$(tests_packages) ;;
all) packages="build-essential $(build_depends) $(tests_packages)" ;;
*) packages="$*" ;;
esac
missing=
for p in $packages; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ -n "$check" ]; then
	echo "install-deps: missing Debian packages:$missing (make deps installs them)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# make check starts a guest beside the host's tests: one of them may hold
# dpkg's lock for a while.
lock="-o DPkg::Lock::Timeout=600"
# The package lists may be missing or older than the archive: once more
# after apt-get update.
# shellcheck disable=SC2086
apt-get install -y -q $lock --no-install-recommends $missing ||
	{ apt-get update -q $lock && apt-get install -y -q $lock --no-install-recommends $missing; }
