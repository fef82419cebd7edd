#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel/check.sh [--bench]: build the trusted_for series into Debian's
# linux-source-6.12, boot it under QEMU (software emulation) with the test
# program of kernel/guest/ as /init, and report what the guest printed.
#
#   default  run the tests: one TAP line per case, then
#            "kernel: N passed, N failed"; exit 1 on any failure, a kernel
#            crash or warning, a timeout or a missing summary.
#   --bench  run the benchmark of kernel/guest/bench.c instead.
#
# Environment:
#   TRUSTEDFOR_KERNEL_DIR      work directory, outside the repository
#                              (default /var/tmp/trustedfor-kernel-6.12)
#   TRUSTEDFOR_KERNEL_LOG      where to keep the guest's console log
#                              (default $TRUSTEDFOR_KERNEL_DIR/console-<mode>.log)
#   TRUSTEDFOR_KERNEL_TIMEOUT  seconds the guest may run (default 180)
#   TRUSTEDFOR_KERNEL_JOBS     parallel build jobs (default: nproc)
#
# The unpacked, patched tree and the build directory are reused as long as
# the linux-source-6.12 version, the patches and the source preparation
# (kernel/lib.sh) are unchanged; anything else starts again from the tarball.
set -eu

mode=check
case "${1:-}" in
"") ;;
--bench) mode=bench ;;
*) echo "usage: $0 [--bench]" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
work=${TRUSTEDFOR_KERNEL_DIR:-/var/tmp/trustedfor-kernel-6.12}
log=${TRUSTEDFOR_KERNEL_LOG:-$work/console-$mode.log}
guest_timeout=${TRUSTEDFOR_KERNEL_TIMEOUT:-180}
jobs=${TRUSTEDFOR_KERNEL_JOBS:-$(nproc)}
start=$(date +%s)
kernel_lib=$here/lib.sh
. "$kernel_lib"

say() { echo "kernel: $*"; }
die() { echo "kernel: error: $*" >&2; echo "kernel: 0 passed, 1 failed"; exit 1; }

case "$work" in
"$repo"|"$repo"/*) die "TRUSTEDFOR_KERNEL_DIR must be outside the repository" ;;
esac
# The series wires up x86_64 only, and the guest program is built by the
# host's compiler.
[ "$(uname -m)" = x86_64 ] || die "needs an x86_64 host, not $(uname -m)"
# One run at a time per work directory (make check, make bench and
# kernel/userspace.sh share it).
kernel_lock

# The source; the kernel build's tools, libseccomp for the static test
# program and QEMU come with the project's lists.
kernel_packages linux-source-6.12
kernel_tree linux-source-6.12 "$here"/patches/*.patch
# The same configuration as kernel/userspace.sh's guest of this series, so
# that one build serves both.
kernel_config "$here/config.fragment" "$here/userspace.fragment"
kernel_build "$jobs"
if [ ! -f "$work/hdr/stamp" ] || [ "$(cat "$work/hdr/stamp")" != "$key" ]; then
	rm -rf "$work/hdr"
	make -s -C "$src" O="$build" headers_install INSTALL_HDR_PATH="$work/hdr" \
		>>"$work/build.log" 2>&1 || die "headers_install failed"
	echo "$key" >"$work/hdr/stamp"
fi

# --- the static /init and the initramfs ---------------------------------------
# libtrustedfor is compiled into the static /init from source: this script
# runs without a Meson build directory (and a sanitizer build's objects could
# not be linked statically), and the guest's own files need the patched
# kernel's uapi headers.
gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -pthread \
	-I"$work/hdr/include" -I"$repo/include" -I"$repo/lib" -I"$repo/shared" \
	-DTRUSTEDFOR_POLICY_FILE=\"/etc/trustedfor.conf\" \
	-o "$work/init" "$here"/guest/*.c "$repo"/lib/*.c "$repo"/shared/*.c \
	-lseccomp >"$work/init.log" 2>&1 || {
	cat "$work/init.log" >&2
	die "the guest test program does not compile"
}
# The series' own kselftest, from the patched tree; /init runs it too.
selftest=$src/tools/testing/selftests/trusted_for
gcc -static -O2 -Wall -I"$work/hdr/include" -I"$selftest/.." \
	-o "$work/trusted_for_test" "$selftest/trusted_for_test.c" \
	>>"$work/init.log" 2>&1 || {
	cat "$work/init.log" >&2
	die "the kselftest does not compile"
}
cat >"$work/initramfs.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0555 0 0
dir /mnt 0755 0 0
dir /etc 0755 0 0
dir /tmp 1777 0 0
file /init $work/init 0755 0 0
file /trusted_for_test $work/trusted_for_test 0755 0 0
EOF
"$build/usr/gen_init_cpio" "$work/initramfs.list" >"$work/initramfs.cpio" ||
	die "gen_init_cpio failed"

# --- boot ----------------------------------------------------------------------
append="console=ttyS0 panic=-1 quiet"
[ "$mode" = bench ] && append="$append -- bench"
say "booting under qemu-system-x86_64 -accel tcg, timeout ${guest_timeout}s [$(elapsed)]"
mkdir -p "$(dirname "$log")"
rc=0
timeout --kill-after=10 "$guest_timeout" qemu-system-x86_64 -accel tcg \
	-m 256 -no-reboot -net none -display none -monitor none \
	-serial stdio -kernel "$build/arch/x86/boot/bzImage" \
	-initrd "$work/initramfs.cpio" -append "$append" \
	</dev/null >"$log" 2>&1 || rc=$?
say "console log: $log [$(elapsed)]"

# --- results -------------------------------------------------------------------
# The guest's lines become TAP; the harness adds its own checks at the end.
tr -d '\r' <"$log" | awk -v rc="$rc" -v mode="$mode" -v t="$guest_timeout" '
function tap(ok, what) {
	n++
	if (ok) { passed++; print "ok " n " - " what }
	else { failed++; print "not ok " n " - " what }
}
/^tfk: ok - / { sub(/^tfk: ok - /, ""); tap(1, $0); lines_ok++; next }
/^tfk: FAIL - / { sub(/^tfk: FAIL - /, ""); tap(0, $0); lines_fail++; next }
/^tfk-bench: / { sub(/^tfk-bench: /, ""); print "# " $0; next }
/^tfk-selftest: / { next }
/^tfk: SUMMARY / { summary = $0; gp = $3; gf = $5; next }
/Kernel panic|BUG:|Oops|WARNING:|Call Trace|general protection|segfault/ {
	crash = crash ? crash : $0
}
END {
	tap(rc != 124 && rc != 137, "guest finished within " t "s (qemu status " rc ")")
	tap(crash == "", "no kernel crash or warning on the console" \
	    (crash == "" ? "" : ": " crash))
	tap(summary != "", "the guest printed its summary")
	if (summary != "" && mode == "check")
		tap(gp == lines_ok + 0 && gf == lines_fail + 0, "the summary (" \
		    gp " passed, " gf " failed) matches the lines printed")
	print "kernel: " passed + 0 " passed, " failed + 0 " failed"
	exit (failed > 0 ? 1 : 0)
}' || { say "FAILED after $(elapsed); console log: $log"; exit 1; }
say "done in $(elapsed)"
