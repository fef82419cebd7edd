#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of kernel/userspace.sh's guest, run by the host's /bin/sh from the
# host's root file system (virtio-9p, read-only): the kernel's init= on the
# patched 6.12, which mounts that root itself; on Debian's kernels
# kernel/userspace-rdinit.c, the initramfs's /init, loads the modules,
# mounts it and runs this script there.
#
#   stage 1: an overlay of that root with a tmpfs on top becomes the root
#            (pivot_root, not chroot: user namespaces refuse a chrooted
#            caller), so that the suite can write wherever it writes on the
#            host and nothing reaches the host
#   stage 2: /proc, /sys, /dev, then tests/run.py --tap as root and as
#            nobody (uid 65534), its TAP on the second serial port, and
#            power off
#
# Arguments (after the kernel command line's "--"): the environment file
# kernel/userspace.sh wrote, in its work directory on the host.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "guest: $*" >/dev/console; }

# The reboot(2) system call; perl is Essential in Debian and needs no
# systemd, which is not running here.
power_off() {
	perl -e 'syscall(169, 0xfee1dead, 672274793, 0x4321fedc, 0)'
	say "power off failed"
	exit 1
}

if [ "${1:-}" != stage2 ]; then
	mount -t proc proc /proc &&
		mount -t tmpfs -o mode=0755 guest-upper /mnt &&
		mkdir /mnt/upper /mnt/work /mnt/root &&
		mount -t overlay -o lowerdir=/,upperdir=/mnt/upper,workdir=/mnt/work \
			guest-root /mnt/root &&
		mkdir -p /mnt/root/oldroot &&
		cd /mnt/root && pivot_root . oldroot || { say "cannot make the root"; power_off; }
	exec chroot . /bin/sh "$0" stage2 "$@"
fi
shift
umount -l /oldroot /proc 2>/dev/null
# The guest's /tmp is a tmpfs of its own; a checkout, a build or a work
# directory of the host's under /tmp stays reachable through /.host-tmp
# and is bound back in place below.
mkdir -p /.host-tmp && mount --bind /tmp /.host-tmp || { say "cannot keep the host's /tmp"; power_off; }
mount -t proc proc /proc &&
	mount -t sysfs sysfs /sys &&
	mount -t devtmpfs devtmpfs /dev &&
	mkdir -p /dev/pts /dev/shm &&
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts /dev/pts &&
	ln -sf pts/ptmx /dev/ptmx &&
	ln -s /proc/self/fd /dev/fd &&
	ln -s fd/0 /dev/stdin && ln -s fd/1 /dev/stdout && ln -s fd/2 /dev/stderr &&
	mount -t tmpfs -o mode=1777 shm /dev/shm &&
	mount -t tmpfs -o mode=1777 tmp /tmp &&
	mount -t tmpfs -o mode=0755 run /run || { say "cannot mount /proc /sys /dev /tmp"; power_off; }
hostname guest
# The patched kernel's check policy starts at 0 (trust everything); a
# system that uses the series sets it, as here, to every check.
if [ -e /proc/sys/fs/trusted_for_policy ]; then
	echo 3 >/proc/sys/fs/trusted_for_policy || { say "cannot set fs.trusted_for_policy"; power_off; }
fi
case $1 in /tmp/*) env_file=/.host-tmp/${1#/tmp/} ;; *) env_file=$1 ;; esac
# shellcheck disable=SC1090
. "$env_file" || { say "cannot read $1"; power_off; }
for dir in "$GUEST_REPO" "$GUEST_BUILD" "$(dirname "$1")"; do
	case $dir in
	/tmp/*)
		mountpoint -q "$dir" && continue
		mkdir -p "$dir" && mount --bind "/.host-tmp/${dir#/tmp/}" "$dir" ||
			{ say "cannot bind $dir back"; power_off; }
		;;
	esac
done

# The results go to ttyS1, out of the way of the kernel's messages on ttyS0.
out=/dev/ttyS1
stty -F "$out" raw -echo 2>/dev/null
{
	echo "# guest: kernel $(uname -r)"
	echo "# guest: backend $("$GUEST_BUILD/tools/trusted-for" status 2>&1 |
		sed -n 's/^check backend: //p')"
	echo "# guest: run root"
	# shellcheck disable=SC2086
	"$GUEST_REPO/tests/run.py" --tap $GUEST_RUN_ARGS
	echo "# guest: run root status $?"
	if [ -n "$GUEST_NOBODY_ARGS" ]; then
		echo "# guest: run nobody"
		# shellcheck disable=SC2086
		setpriv --reuid 65534 --regid 65534 --clear-groups \
			env HOME=/tmp "$GUEST_REPO/tests/run.py" --tap $GUEST_NOBODY_ARGS
		echo "# guest: run nobody status $?"
	fi
	echo "# guest: end"
} >"$out" 2>&1 </dev/null
say "powering off"
power_off
