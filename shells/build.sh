#!/bin/sh
# shells/build.sh SHELL OUTPUT LIBTRUSTEDFOR_A: build trusted-SHELL (SHELL is
# dash or bash) from Debian's own source package with our patch series, and
# copy the binary to OUTPUT.  Meson calls it (shells/meson.build); it can be
# run by hand too.
#
# The source comes from "apt-get source" for the exact version installed on
# this machine, through an apt configuration private to this build
# (scripts/debian-source.sh: its own sources list, derived from the host's,
# its own lists and cache): the machine's apt configuration and state are
# left as they are.  The
# unpacked, patched and compiled tree is kept outside the repository and
# reused as long as the source version, the patches and this script are
# unchanged: a new public header recompiles only the files that include it,
# and the shell is relinked whenever libtrustedfor.a changes, which takes a
# second.  So worktrees and build directories share one compiled tree.
#
#   shells/build.sh SHELL --tree   print the build tree's path (for tests)
#
# Environment:
#   TRUSTEDFOR_SHELLS_DIR   work directory (default /var/tmp/trustedfor-shells)
#   TRUSTEDFOR_SHELLS_JOBS  parallel make jobs (default: nproc)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/debian-source.sh"
work=${TRUSTEDFOR_SHELLS_DIR:-/var/tmp/trustedfor-shells}
jobs=${TRUSTEDFOR_SHELLS_JOBS:-$(nproc)}
shell=${1:-}

say() { echo "shells: $*" >&2; }
die() { echo "shells: error: $*" >&2; exit 1; }

case "$shell" in
dash | bash) ;;
*) die "usage: $0 dash|bash OUTPUT LIBTRUSTEDFOR_A" ;;
esac
case "$work" in
"$repo" | "$repo"/*) die "TRUSTEDFOR_SHELLS_DIR must be outside the repository" ;;
esac

# --- what goes into the build: its key -----------------------------------
# The source version is that of the shell installed here, so that the
# trusted shell is the very shell the system runs, plus our patches.
version=$(dpkg-query -W -f='${source:Version}' "$shell" 2>/dev/null) ||
	die "$shell is not installed: cannot tell which source version to build"
# The tree's name: a key of what it is built from, then one of the
# libraries linked after libtrustedfor.a (configure bakes them in).
tree_key() {
	{
		echo "$shell $version"
		cat "$here/build.sh" "$repo/scripts/debian-source.sh" "$here/$shell"/patches/*.patch
	} | sha256sum | cut -c1-12
	[ -z "$1" ] || echo "$1" | sha256sum | cut -c1-4
}
if [ "${2:-}" = --tree ]; then
	# The most recently used tree of this version, patches and script.
	tree=$(ls -dt "$work/$shell-$(tree_key "")"* 2>/dev/null | head -1)
	[ -n "$tree" ] || die "trusted-$shell has not been built"
	echo "$tree/build"
	exit 0
fi
[ $# = 4 ] || die "usage: $0 dash|bash OUTPUT LIBTRUSTEDFOR_A LOADER_GUARD_A"
output=$2
lib=$3
guard=$4
[ -r "$lib" ] || die "$lib: no such library"
[ -r "$guard" ] || die "$guard: no such library"
# Meson makes a thin archive of what it does not install, which names its
# members by path: the tree gets a real archive of them (ar is
# deterministic, so an unchanged guard compares equal).
real_archive() {
	rm -f "$2"
	if [ "$(head -c 7 "$1")" = '!<thin>' ]; then
		# shellcheck disable=SC2046 # one member per line, no spaces
		ar rcD "$2" $(ar t "$1")
	else
		cp "$1" "$2"
	fi
}
# What the static library needs linked after it (-pthread, libseccomp...),
# from the build directory's uninstalled pkg-config file.
pc_dir=$(cd "$(dirname "$lib")/../meson-uninstalled" 2>/dev/null && pwd) ||
	die "no meson-uninstalled/ beside $(dirname "$lib")"
deps=$(PKG_CONFIG_PATH=$pc_dir pkg-config --static --libs trustedfor-uninstalled) ||
	die "pkg-config cannot read $pc_dir/trustedfor-uninstalled.pc"
deps=$(printf '%s\n' $deps | sed '/^-L/d; /^-ltrustedfor$/d' | tr '\n' ' ')
key=$(tree_key "$deps" | tr -d '\n')
tree=$work/$shell-$key

mkdir -p "$work"
# One build at a time per shell: worktrees and build directories share it.
exec 9>"$work/$shell.lock"
flock 9

# --- Debian packages: what building the two shells needs ------------------
# (debian/control's Build-Depends: dpkg-dev unpacks; autoconf and automake
# regenerate dash's build system, as Debian's own build does)
"$repo/scripts/install-deps.sh" build >"$work/apt-install.log" 2>&1 ||
	die "scripts/install-deps.sh build failed, see $work/apt-install.log"

# --- the source package, through a private apt configuration --------------
dsc=$work/src/${shell}_${version#*:}.dsc
if [ ! -r "$dsc" ]; then
	say "fetching the $shell $version source package"
	debsrc_update "$work" "$work/apt-source.log" &&
		debsrc_download "$work" "$shell=$version" "$work/apt-source.log" ||
		die "apt-get source $shell=$version failed, see $work/apt-source.log"
fi

# --- unpack, patch, configure, build: once per key -------------------------
if [ ! -f "$tree/built" ]; then
	start=$(date +%s)
	say "building trusted-$shell from $shell $version in $tree"
	rm -rf "$tree"
	mkdir -p "$tree"
	debsrc_unpack "$dsc" "$tree/src" "$tree/log" "$here/$shell"/patches/*.patch ||
		die "$(tail -n 1 "$tree/log"), see $tree/log"
	# Debian's compiler flags; the build links the library copied below.
	eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all DEB_CFLAGS_MAINT_APPEND=-Wall \
		dpkg-buildflags --export=sh)"
	CPPFLAGS="$CPPFLAGS -I$tree/include"
	LIBS="-Wl,--whole-archive $tree/loader-guard.a -Wl,--no-whole-archive $tree/libtrustedfor.a $deps"
	export CPPFLAGS LIBS
	mkdir -p "$tree/include" "$tree/build"
	cp "$repo/include/trustedfor.h" "$tree/include/"
	cp "$lib" "$tree/libtrustedfor.a"
	real_archive "$guard" "$tree/loader-guard.a" || die "cannot copy $guard"
	# The configure options of Debian's debian/rules.
	case $shell in
	dash)
		(cd "$tree/src" && autoreconf -fi) >>"$tree/log" 2>&1 ||
			die "autoreconf failed, see $tree/log"
		set -- --prefix=/usr --disable-fnmatch --disable-lineno --disable-glob
		;;
	bash)
		set -- --prefix=/usr --enable-largefile --without-bash-malloc \
			--infodir=/usr/share/info --mandir=/usr/share/man
		;;
	esac
	(cd "$tree/build" && ../src/configure "$@" && make -j"$jobs") >>"$tree/log" 2>&1 ||
		die "the $shell build failed, see $tree/log"
	touch "$tree/built"
	say "built in $(($(date +%s) - start))s"
fi

# --- link with this build's library and header ------------------------------
case $shell in
dash) binary=$tree/build/src/dash ;;
bash) binary=$tree/build/bash ;;
esac
if ! cmp -s "$repo/include/trustedfor.h" "$tree/include/trustedfor.h"; then
	cp "$repo/include/trustedfor.h" "$tree/include/"
	# dash's dependency tracking sees the header; bash's Makefile does not,
	# and checkexec.c is the one bash file that includes it.
	rm -f "$tree/build/checkexec.o" "$binary"
fi
if ! cmp -s "$lib" "$tree/libtrustedfor.a"; then
	cp "$lib" "$tree/libtrustedfor.a"
	rm -f "$binary"
fi
real_archive "$guard" "$tree/loader-guard.new" || die "cannot copy $guard"
if ! cmp -s "$tree/loader-guard.new" "$tree/loader-guard.a"; then
	mv "$tree/loader-guard.new" "$tree/loader-guard.a"
	rm -f "$binary"
fi
rm -f "$tree/loader-guard.new"
if [ ! -x "$binary" ]; then
	(cd "$tree/build" && make -j"$jobs") >>"$tree/log" 2>&1 ||
		die "linking trusted-$shell failed, see $tree/log"
fi
# Trees of other keys (another worktree's patches) go after two idle days.
touch "$tree/built"
find "$work" -maxdepth 1 -name "$shell-*" ! -name "$shell-$key" -mtime +2 \
	-exec rm -rf {} + 2>/dev/null || :
cp "$binary" "$output.tmp"
mv "$output.tmp" "$output"
