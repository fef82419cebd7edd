#!/bin/sh
# Installs the Debian packages the build, the tests and the demo need, when
# some are missing: as root with apt-get, otherwise it names them and fails.
# With arguments, those packages instead (for a script that needs more, as
# interpreters/python/build-libpython.sh).
set -eu
packages="$*"
[ -n "$packages" ] || packages="meson ninja-build gcc libc6-dev pkg-config python3 util-linux mount
	clang libclang-rt-14-dev scdoc acl libseccomp-dev strace gdb
	liblua5.4-dev lua5.4 python3.11 python3.11-dev python3.11-venv libpython3.11-testsuite
	dpkg-dev autoconf automake bison patch libncurses-dev python3-setuptools
	debhelper build-essential lintian libpam0g-dev pamtester git iproute2"
missing=
for p in $packages; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
