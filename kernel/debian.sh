# SPDX-License-Identifier: GPL-2.0
#
# kernel/debian.sh: Debian's prebuilt kernels for kernel/userspace.sh's
# guests, sourced by it.  The image package of a release (what its
# linux-image-amd64 depends on) comes through an apt configuration private
# to the work directory (scripts/debian-source.sh's options: its own
# sources list, lists and cache; the machine's apt configuration is left as
# it is), from the archive the host installs from, its Release file checked
# against debian-archive-keyring; apt-get download checks each package
# against it.  From the package: the kernel, and an initramfs with the
# modules the guest needs (and those they need, after depmod's modules.dep)
# and kernel/userspace-rdinit.c as /init.  Kept per package version, with
# nothing of the package but those two files.
#
# The caller defines say() and die(), sets $repo, $here and $start, and has
# sourced kernel/lib.sh and scripts/debian-source.sh.

# What the guest loads, as modules where the kernel does not build them
# in: virtio over PCI, the host's root over virtio-9p, the overlay on it
# (and the tests' overlays), virtio-rng (getrandom() must not wait under
# emulation).
debian_modules="virtio_pci 9pnet_virtio 9p overlay virtio_rng"

# debian_fetch WORK SUITE: $kernel_image and $kernel_initrd of SUITE's
# linux-image-amd64, built in WORK/VERSION unless there already; $kernel_version
# is the package's version.
debian_fetch() {
	local dir=$1 suite=$2 uri apt img abi version key pkgs deb tree kver m
	apt=$(debsrc_options "$dir")
	mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial"
	# The host's archive: the URI of its release's main suite.
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
	uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' \
		'Created-By: Packages' | awk '$3 == "main" && $2 !~ /-/ { print $1; exit }')
	[ -n "$uri" ] || die "no Debian archive in the host's apt sources (apt-get indextargets)"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
		>"$dir/apt/sources.list"
	# Without the archive, the lists fetched last time still say which
	# version is kept here.
	# shellcheck disable=SC2086 # one option per word
	apt-get $apt -o Acquire::Languages=none update >"$dir/apt.log" 2>&1 ||
		if ls "$dir/apt/lists/"*_Packages* >/dev/null 2>&1; then
			say "apt-get update of $suite failed (see $dir/apt.log): the lists of the last one"
		else
			die "apt-get update of $suite from $uri failed, see $dir/apt.log"
		fi
	# shellcheck disable=SC2086
	img=$(apt-cache $apt show linux-image-amd64 2>>"$dir/apt.log" |
		sed -n '1,/^$/s/^Depends: //p' | tr ',' '\n' |
		sed -n 's/^ *\(linux-image-[^ ]*\).*/\1/p' | head -n 1)
	[ -n "$img" ] || die "$suite has no linux-image-amd64, see $dir/apt.log"
	abi=${img#linux-image-}
	# shellcheck disable=SC2086
	version=$(apt-cache $apt show "$img" | sed -n '1,/^$/s/^Version: //p')
	[ -n "$version" ] || die "$suite: no version of $img"
	kernel_version="$img $version"
	key=$( { echo "$suite $img $version $debian_modules"; cat "$here/userspace-rdinit.c";
		 sed -n '/^debian_fetch()/,/^}/p' "$here/debian.sh"; } | sha256sum | cut -d' ' -f1)
	tree=$dir/$version
	kernel_image=$tree/vmlinuz
	kernel_initrd=$tree/initramfs.cpio
	[ "$(cat "$tree/stamp" 2>/dev/null)" = "$key" ] && return 0

	say "fetching $img $version from $suite [$(elapsed)]"
	rm -rf "$tree"
	mkdir -p "$tree/debs" "$tree/root" "$tree/initramfs/modules"
	# From 7.3 on the image package only depends on the kernel's own
	# packages (linux-binary-, linux-modules-, linux-base-ABI).
	# shellcheck disable=SC2086
	pkgs="$img $(apt-cache $apt show "$img" | sed -n '1,/^$/s/^Depends: //p' |
		tr ',|' '\n\n' | sed -n "s/^ *\(linux-[a-z]*-$abi\)\( .*\)*$/\1/p")"
	# shellcheck disable=SC2086
	(cd "$tree/debs" && apt-get $apt download $(echo $pkgs | sed "s|\([^ ]*\)|\1=$version|g")) \
		>>"$dir/apt.log" 2>&1 || die "apt-get download $pkgs failed, see $dir/apt.log"
	for deb in "$tree/debs"/*.deb; do
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$tree/root" -x --wildcards \
			'./boot/*' './lib/modules/*' './usr/lib/modules/*' \
			2>>"$dir/apt.log" || true
	done
	# Debian 13 merged /usr: depmod (kmod 30) reads lib/modules/.
	[ -d "$tree/root/usr/lib/modules" ] && mkdir -p "$tree/root/lib" &&
		mv "$tree/root/usr/lib/modules" "$tree/root/lib/"
	kver=$(ls "$tree/root/lib/modules")
	[ -n "$kver" ] && [ "$(echo "$kver" | wc -l)" = 1 ] || die "$img: no one module tree"
	mv "$(ls "$tree/root/boot/vmlinuz-$kver" "$tree/root/lib/modules/$kver/vmlinuz" \
		2>/dev/null | head -n 1)" "$kernel_image" || die "$img: no kernel image"
	cp "$(ls "$tree/root/boot/config-$kver" "$tree/root/lib/modules/$kver/config" \
		2>/dev/null | head -n 1)" "$tree/config" || die "$img: no config"
	depmod -b "$tree/root" "$kver" >>"$dir/apt.log" 2>&1 || die "depmod $kver failed, see $dir/apt.log"
	# Each module after those it needs, numbered in that order.
	awk -v want="$debian_modules" -v dir="$tree/root/lib/modules/$kver" '
	function base(p) { sub(/.*\//, "", p); sub(/\.ko(\.[a-z]+)?$/, "", p); gsub(/-/, "_", p); return p }
	function visit(m,   i, n, d) {
		if (m in done) return
		done[m] = 1
		n = split(deps[m], d, " ")
		for (i = 1; i <= n; i++) visit(base(d[i]))
		printf "%02d %s\n", ++count, path[m]
	}
	FILENAME ~ /builtin$/ { builtin[base($0)] = 1; next }
	{ p = $1; sub(/:$/, "", p); m = base(p); path[m] = p
	  $1 = ""; deps[m] = $0 }
	END {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++) {
			if (w[i] in builtin) continue
			if (!(w[i] in path)) { print "missing " w[i]; exit 1 }
			visit(w[i])
		}
	}' "$tree/root/lib/modules/$kver/modules.builtin" "$tree/root/lib/modules/$kver/modules.dep" \
		>"$tree/modules" || die "$img: $(tail -n 1 "$tree/modules")"
	while read -r n m; do
		cp "$tree/root/lib/modules/$kver/$m" "$tree/initramfs/modules/$n-$(basename "$m")"
	done <"$tree/modules"
	# Compressed modules stay so where the kernel decompresses them.
	if ! grep -qx CONFIG_MODULE_DECOMPRESS=y "$tree/config"; then
		for m in "$tree/initramfs/modules"/*.xz; do [ -e "$m" ] && xz -d "$m"; done
		for m in "$tree/initramfs/modules"/*.zst; do [ -e "$m" ] && zstd -q --rm -d "$m"; done
	fi
	gcc -static -Os -std=gnu11 -Wall -Wextra -Werror -o "$tree/initramfs/init" \
		"$here/userspace-rdinit.c" 2>>"$dir/apt.log" || die "cannot build userspace-rdinit.c, see $dir/apt.log"
	(cd "$tree/initramfs" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$kernel_initrd" || die "cannot make the initramfs"
	rm -rf "$tree/debs" "$tree/root" "$tree/initramfs"
	echo "$key" >"$tree/stamp"
	# Older versions of this release are no longer booted.
	for m in "$dir"/*/stamp; do
		[ "$m" = "$tree/stamp" ] || rm -rf "$(dirname "$m")"
	done
	say "$img $version: $(wc -l <"$tree/modules") modules in the initramfs [$(elapsed)]"
}
