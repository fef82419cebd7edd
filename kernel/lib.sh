# SPDX-License-Identifier: GPL-2.0
#
# kernel/lib.sh: what kernel/check.sh and kernel/userspace.sh share, sourced
# by both: the Debian packages, a source tree unpacked from Debian's
# linux-source-X.Y tarball (patched or not) and reused while nothing changed,
# a tinyconfig plus fragments, and the bzImage.
#
# The caller defines say() and die() (die prints its summary and exits) and
# sets $start (date +%s) for elapsed().

elapsed() { echo "$(($(date +%s) - start))s"; }

# kernel_packages PACKAGE...: installs the missing ones (as root), into
# $work/apt.log, after all the project needs (scripts/install-deps.sh:
# QEMU, the kernel build's tools).
kernel_packages() {
	local missing= p
	"$repo/scripts/install-deps.sh" all >>"$work/apt.log" 2>&1 ||
		die "scripts/install-deps.sh failed, see $work/apt.log"
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing Debian packages:$missing (run as root to install them)"
	say "installing$missing"
	# make check starts the 6.1 guest beside the host's tests, whose own
	# installs may hold dpkg's lock for a while: wait for it.
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		-o DPkg::Lock::Timeout=600 $missing >"$work/apt.log" 2>&1 ||
		{ apt-get update -o DPkg::Lock::Timeout=600 >>"$work/apt.log" 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 \
			--no-install-recommends $missing >>"$work/apt.log" 2>&1; } ||
		die "apt-get install failed, see $work/apt.log"
}

# kernel_tree PACKAGE [PATCH...]: $work/src is Debian's PACKAGE
# (linux-source-X.Y) unpacked with the patches applied, and $key names that
# tree.  An unchanged package version, patch set and source preparation
# (this function) keep the tree and $work/build; anything else starts again
# from the tarball.
kernel_tree() {
	local package=$1 version p tarball
	shift
	tarball=/usr/src/$package.tar.xz
	[ -r "$tarball" ] || die "$tarball is missing"
	version=$(dpkg-query -W -f='${Version}' "$package")
	key=$( { echo "$package $version"; cat "$@" /dev/null;
		 sed -n '/^kernel_tree()/,/^}/p' "$kernel_lib"; } |
		sha256sum | cut -d' ' -f1)
	src=$work/src
	build=$work/build
	if [ "$(cat "$work/stamp" 2>/dev/null)" != "$key" ]; then
		say "unpacking $package $version${1:+ and applying $# patches}"
		rm -rf "$work/stamp" "$src" "$build" "$work/src.new" "$work/hdr"
		mkdir -p "$work/src.new"
		# Debian's tarball has many xz blocks: decompress them in parallel.
		tar -C "$work/src.new" -I 'xz -T0' -xf "$tarball"
		for p in "$@"; do
			patch -d "$work/src.new/$package" -p1 -s -N <"$p" ||
				die "$(basename "$p") does not apply"
		done
		mv "$work/src.new/$package" "$src"
		rmdir "$work/src.new"
		echo "$key" >"$work/stamp"
	fi
	say "source $(make -s -C "$src" kernelversion) (Debian $version), $# patches [$(elapsed)]"
}

# kernel_config FRAGMENT...: $build/.config is tinyconfig plus the
# fragments; an identical configuration keeps its time stamp, so nothing
# rebuilds.
kernel_config() {
	local opt
	mkdir -p "$build"
	[ -f "$build/.config" ] && cp -p "$build/.config" "$build/.config.prev"
	make -s -C "$src" O="$build" tinyconfig >"$work/config.log" 2>&1 ||
		die "make tinyconfig failed, see $work/config.log"
	# merge_config.sh keeps its temporary files in the current directory.
	(cd "$work" && "$src/scripts/kconfig/merge_config.sh" -m -O "$build" \
		"$build/.config" "$@") >>"$work/config.log" 2>&1 ||
		die "merge_config.sh failed, see $work/config.log"
	make -s -C "$src" O="$build" olddefconfig >>"$work/config.log" 2>&1 ||
		die "make olddefconfig failed, see $work/config.log"
	for opt in $(grep -h '^CONFIG_.*=y' "$@"); do
		grep -qx "$opt" "$build/.config" || die "$opt did not survive olddefconfig"
	done
	if [ -f "$build/.config.prev" ] && cmp -s "$build/.config" "$build/.config.prev"; then
		mv "$build/.config.prev" "$build/.config"
	fi
	rm -f "$build/.config.prev"
}

# kernel_build JOBS: $build/arch/x86/boot/bzImage, log in $work/build.log.
kernel_build() {
	say "building bzImage with -j$1 [$(elapsed)]"
	make -C "$src" O="$build" -j"$1" bzImage >"$work/build.log" 2>&1 || {
		tail -30 "$work/build.log" >&2
		die "kernel build failed, see $work/build.log"
	}
}

# kernel_lock: one run at a time per work directory.
kernel_lock() {
	mkdir -p "$work"
	exec 9>"$work/lock"
	flock 9
}
