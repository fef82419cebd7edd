#!/bin/sh
# interpreters/python/hacl-sha2.sh OUTPUT: compile HACL*'s SHA-2
# (Modules/_hacl/Hacl_Hash_SHA2.c) from Debian's python3.13 source package,
# as Debian's static build of python3.13 compiles it, and copy the object to
# OUTPUT.  Meson calls it (meson.build) under CPython 3.13.
#
# Why: CPython 3.13 puts that file in a library of its own
# (Modules/_hacl/libHacl_Hash_SHA2.a), linked into the python binary and
# libpython3.13.so but not archived into libpython3.13.a, whose built-in
# _sha2 module calls it: Debian's libpython3.13.a links no program alone.
# With this object it links trusted-python as /usr/bin/python3.13 is linked,
# statically and non-PIE.
#
# The source is that of the installed libpython3.13-dev, the exact version
# (the object completes that library), fetched with apt-get source through
# an apt configuration private to this script (scripts/debian-source.sh):
# apt checks the files against the archive's signed index, and the
# machine's apt configuration and state are left as they are.  Debian's
# patches are applied, configure regenerated and run with the flags
# debian/rules gives its static build (read from debian/rules itself), and
# CPython's Makefile compiles the one file with its own rule: the flags are
# those python3.13's object was compiled with, but for the profile
# (-fprofile-use): that needs CPython's training run, and SHA-2 is not on
# the start-up or import path.
#
# The object is cached in the work directory, keyed by the source version,
# the compiler and this script, and reused: only the first build needs the
# archive.  With TRUSTEDFOR_OFFLINE=1 (the default make,
# scripts/build-offline.sh) nothing is fetched: a source that is not cached
# is an error naming it.
#
# Environment:
#   TRUSTEDFOR_PYTHON_DIR  work directory (default /var/tmp/trustedfor-python,
#                          shared with build-libpython.sh)
#   TRUSTEDFOR_OFFLINE     1: never fetch
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/scripts/debian-source.sh"
work=${TRUSTEDFOR_PYTHON_DIR:-/var/tmp/trustedfor-python}
pkg=python3.13

say() { echo "hacl-sha2: $*" >&2; }
die() { echo "hacl-sha2: error: $*" >&2; exit 1; }

[ $# = 1 ] || die "usage: $0 OUTPUT"
output=$1
case "$work" in
"$repo" | "$repo"/*) die "TRUSTEDFOR_PYTHON_DIR must be outside the repository" ;;
esac

version=$(dpkg-query -W -f='${source:Version}' lib$pkg-dev 2>/dev/null) ||
	die "lib$pkg-dev is not installed: cannot tell which $pkg source to build from"
host=$(dpkg-architecture -qDEB_HOST_GNU_TYPE)
key=$({
	echo "$pkg $version"
	"$host-gcc" --version | head -n 1
	cat "$here/hacl-sha2.sh" "$repo/scripts/debian-source.sh"
} | sha256sum | cut -c1-12)
tree=$work/hacl-sha2-$key
object=Modules/_hacl/Hacl_Hash_SHA2.o
dsc=$work/src/${pkg}_${version#*:}.dsc

mkdir -p "$work"
exec 9>"$work/hacl-sha2.lock"
flock 9

if [ ! -f "$tree/built" ]; then
	if [ ! -r "$dsc" ]; then
		[ "${TRUSTEDFOR_OFFLINE:-}" != 1 ] ||
			die "libpython3.13.a lacks HACL* SHA-2, and the $pkg $version source package it is compiled from is not in $work/src: \"make build\" fetches it"
		say "fetching the $pkg $version source package (HACL* SHA-2, missing from libpython3.13.a)"
		debsrc_update "$work" "$work/apt-source.log" ||
			die "apt-get update failed, see $work/apt-source.log"
		debsrc_download "$work" "$pkg=$version" "$work/apt-source.log" ||
			die "apt-get source $pkg=$version failed (libpython3.13.a lacks HACL* SHA-2, compiled from it), see $work/apt-source.log"
	fi
	say "compiling HACL* SHA-2 from $pkg $version in $tree"
	rm -rf "$tree"
	mkdir -p "$tree"
	src=$tree/src
	debsrc_unpack "$dsc" "$src" "$tree/log" ||
		die "$(tail -n 1 "$tree/log"), see $tree/log"
	# debian/rules' stamp-patch: Debian's patches change configure.ac.
	(cd "$src" && rm -rf autom4te.cache configure && autoconf) >>"$tree/log" 2>&1 ||
		die "autoconf failed, see $tree/log"
	# What debian/rules gives the configure of its static build (the one
	# installed as /usr/bin/python3.13 and libpython3.13.a), one a line.
	# ($(info) in the recipe: expanded once debian/rules is read, printed
	# as it is, quotes and all.)
	# shellcheck disable=SC2016 # make expands them, not the shell
	(cd "$src" && make -s -f debian/rules --eval 'trustedfor-print: ; @:$(info $(CC))$(info $(AR))$(info $(RANLIB))$(info $(DPKG_PIE_CPPFLAGS) $(OPT_PIE_CFLAGS))$(info $(DPKG_PIE_LDFLAGS) $(LTO_CFLAGS))$(info $(common_configure_args))' \
		trustedfor-print) >"$tree/rules-flags" 2>>"$tree/log" ||
		die "cannot read debian/rules' flags, see $tree/log"
	{ read -r cc && read -r ar && read -r ranlib && read -r cflags &&
		read -r ldflags && read -r args; } <"$tree/rules-flags" ||
		die "debian/rules gave too few flags, see $tree/rules-flags"
	if [ -z "$cc" ] || [ -z "$cflags" ] || [ -z "$args" ]; then
		die "debian/rules gave empty flags, see $tree/rules-flags"
	fi
	# The HACL* sources include no pyconfig.h, only libc's headers: what
	# configure finds reaches the object through the Makefile's flags
	# alone.  --with-dtrace adds probes to other files and needs
	# systemtap-sdt-dev's dtrace: left out.
	args=$(echo "$args" | sed 's/--with-dtrace//')
	# (As dpkg-buildpackage does, from the changelog; the object has no
	# date, configure may read it.)
	SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$src/debian/changelog" -STimestamp)
	export SOURCE_DATE_EPOCH
	mkdir -p "$src/build-static"
	# (eval: debian/rules quotes one of its arguments)
	(cd "$src/build-static" && export CC="$cc" AR="$ar" RANLIB="$ranlib" \
		CFLAGS_NODIST="$cflags" LDFLAGS_NODIST="$ldflags" &&
		eval "../configure $args") >>"$tree/log" 2>&1 ||
		die "configure failed, see $tree/log"
	# CPython's own rule for the object, its command kept beside it.
	(cd "$src/build-static" && make -n "$object" | grep -- ' -c ' >"$tree/command" &&
		make "$object") >>"$tree/log" 2>&1 ||
		die "compiling $object failed, see $tree/log"
	cp "$src/build-static/$object" "$tree/Hacl_Hash_SHA2.o"
	touch "$tree/built"
	say "compiled: $(cat "$tree/command")"
fi
# The functions libpython3.13.a calls must all be here.
lib=$(dpkg-query -L lib$pkg-dev | grep "/lib$pkg\.a\$" | head -n 1)
[ -n "$lib" ] || die "lib$pkg-dev has no lib$pkg.a"
defined=$(nm --defined-only "$tree/Hacl_Hash_SHA2.o" | awk '$2 == "T" { print $3 }')
missing=$(nm -u "$lib" 2>/dev/null | awk '/ python_hashlib_Hacl_Hash_SHA2_/ { print $2 }' |
	sort -u | grep -vxF "$defined" || :)
[ -z "$missing" ] || die "$tree/Hacl_Hash_SHA2.o does not define $missing"
# Trees of other keys go after two idle days.
touch "$tree/built"
find "$work" -maxdepth 1 -name 'hacl-sha2-*' ! -name "${tree##*/}" -mtime +2 \
	-exec rm -rf {} + 2>/dev/null || :
cp "$tree/Hacl_Hash_SHA2.o" "$output.tmp"
mv "$output.tmp" "$output"
