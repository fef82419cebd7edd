# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# root_mounts ROOT: inside a private mount namespace, ROOT made a mount of
# its own with what a Debian root needs to build and test in (procfs,
# sysfs, a /dev of the host's device nodes and its own devpts, /dev/shm
# and /tmp), ready for pivot_root.  A mount of its own, entered with
# pivot_root rather than chroot: the kernel refuses user namespaces to a
# chrooted process, and "unshare -m --propagation private" needs / to be
# a mount point.  Sourced by scripts/check-fresh.sh and
# scripts/release-root.sh, through $TF_ROOT_MOUNTS.
root_mounts() {
	local root=$1 d

	mount --bind "$root" "$root"
	mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
	mount -t sysfs -o nosuid,nodev,noexec sysfs "$root/sys"
	mount -t tmpfs -o mode=0755,nosuid tmpfs "$root/dev"
	for d in null zero full random urandom tty; do
		touch "$root/dev/$d"
		mount --bind "/dev/$d" "$root/dev/$d"
	done
	mkdir "$root/dev/pts" "$root/dev/shm"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
	ln -s pts/ptmx "$root/dev/ptmx"
	ln -s /proc/self/fd "$root/dev/fd"
	ln -s /proc/self/fd/0 "$root/dev/stdin"
	ln -s /proc/self/fd/1 "$root/dev/stdout"
	ln -s /proc/self/fd/2 "$root/dev/stderr"
	mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
	mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/tmp"
}
