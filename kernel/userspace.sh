#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel/userspace.sh KERNEL BUILD: the project's userspace suite
# (tests/run.py over the Meson build directory BUILD) in a QEMU guest
# (software emulation, under timeout) booted on one of these kernels:
#
#   stock-6.1   Debian 12's own kernel, bookworm's linux-image-amd64 as
#               Debian builds it: no AT_EXECVE_CHECK, no exec securebits;
#               the emulation and the policy file are the whole product there
#   stock-6.12  Debian 13's own kernel, trixie's: the same as 6.1 for us
#   stock-7.3   trixie-backports' kernel: AT_EXECVE_CHECK and the exec
#               securebits, which the library must use
#   6.12        linux-source-6.12 with kernel/patches: the trusted_for() system
#               call; the same tree, build and configuration as kernel/check.sh
#
# Debian's kernels are not built: their packages are fetched through a
# private apt configuration and booted with an initramfs of the modules the
# guest needs (kernel/debian.sh, kernel/userspace-rdinit.c).
#
# The guest's root is the host's, shared read-only over virtio-9p with a
# tmpfs overlay on top (kernel/userspace-init.sh), so the suite runs the
# very binaries the host built.  It runs as root, then as nobody (uid
# 65534).  Prints one TAP line per case ("root: LABEL: what"), the
# harness's own checks, and "guest KERNEL: N passed, N failed (N not
# applicable)"; exits 1 on any failure, a kernel crash or warning, a
# timeout or a missing summary.
#
# Left to the host, with the reason: the tests named in $host_only below.
#
# Environment:
#   TRUSTEDFOR_GUEST_DIR      work directory of Debian's kernels, outside the
#                             repository, one subdirectory per release
#                             (default /var/tmp/trustedfor-guest-debian);
#                             6.12 uses kernel/check.sh's TRUSTEDFOR_KERNEL_DIR
#   TRUSTEDFOR_GUEST_TIMEOUT  seconds the guest may run (default 3600)
#   TRUSTEDFOR_KERNEL_JOBS    parallel build jobs (default: nproc)
#   TRUSTEDFOR_GUEST_SET      all (default) or ci: the set make check runs
#   TRUSTEDFOR_GUEST_ONLY     while working on a test: run only the tests
#                             so named (space-separated), as root
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
start=$(date +%s)
kernel_lib=$here/lib.sh
. "$kernel_lib"
. "$here/debian.sh"
. "$repo/scripts/debian-source.sh"
usage="usage: $0 stock-6.1|stock-6.12|stock-7.3|6.12 BUILD"
[ $# = 2 ] || { echo "$usage" >&2; exit 2; }
which=$1
tf_build=$(cd "$2" 2>/dev/null && pwd) || { echo "$0: no build directory $2" >&2; exit 2; }
guest_timeout=${TRUSTEDFOR_GUEST_TIMEOUT:-3600}
jobs=${TRUSTEDFOR_KERNEL_JOBS:-$(nproc)}

say() { echo "# guest $which: $*"; }
die() {
	echo "guest $which: error: $*" >&2
	echo "not ok 1 - guest $which: $*"
	echo "1..1"
	exit 1
}

# The suite's tests that stay on the host, and why (also in kernel/README.md).
# Emulation runs these tests 10 to 25 times slower than the host; the guests
# run every test of the library, the CLI, enforcement and each interpreter's
# refusals and matrix, and any test added later, except:
#   python-cpython-tests  CPython's own test suite through trusted-python,
#   lua-compat            Lua's, the shells' (shells-compat.sh: dash's and
#   shells-compat.sh      bash's behaviour against stock; bash-testsuite:
#   bash-testsuite        bash's own tests, two minutes on the host) and
#   python-basics         trusted-python's stock behaviour (python-matrix
#                         and python-attacks run here): they test the
#                         interpreters, not the kernel's answer, and take
#                         from minutes to an hour under emulation
#   install.sh            meson install and a compiler: nothing of the kernel
#   test-threads          a race between threads: needs real parallelism
#   policy-file.sh        an in-place rewrite racing interpreter start-ups,
#                         thousands of processes; the policy file's
#                         enforcement in every interpreter runs here through
#                         interpreter-matrix's policy-file modes
#   session.sh            a minute of sessions on the host, a quarter of an
#   loaders.sh            hour here; the escapes (escapes.sh) and the
#                         confinement's own test (test-confine) run here
#   loader-window.sh      meson install and the kernel's rule for a file the
#                         caller cannot read, which is no kernel's change;
#                         and the guest's root is an overlay, where the loader
#                         guard takes the libraries for other files than
#                         those mapped (docs/interpreters-security.md) and
#                         refuses them first
#   interposed-guard.sh   the loader's symbol binding and the ELF tables of
#                         a preloaded object, no kernel's answer; its locked
#                         sessions need the exec securebits, which make
#                         check's guest kernels lack
host_only="python-cpython-tests lua-compat shells-compat.sh bash-testsuite python-basics
install.sh test-threads policy-file.sh session.sh loaders.sh loader-window.sh interposed-guard.sh"
# make check (TRUSTEDFOR_GUEST_SET=ci) leaves these to the host too, so that
# CI keeps within its time; make guest-check runs them:
#   python-runners        434 start-ups of trusted-python (programs that run
#                         files themselves, the stdlib's code-taking modules);
#                         every interpreter's refusals run in python-attacks,
#                         python-matrix and interpreter-matrix
#   shells.sh             every way code enters dash and bash, 696 cases: half
#                         of each guest's time; the shells' refusals under
#                         each kernel's answer run in interpreter-matrix
ci_host_only="python-runners shells.sh"
[ "${TRUSTEDFOR_GUEST_SET:-all}" = ci ] && host_only="$host_only $ci_host_only"
# As nobody (uid 65534): the tests that need no real root at all; the
# others run their unprivileged cases as uid 65534 from the root run.
nobody_only="cli.sh demo.sh"

# Each kernel: its work directory, where its image comes from, and the
# backend the library must choose there at policy 3.
case $which in
stock-6.1) suite=bookworm ;;
stock-6.12) suite=trixie ;;
stock-7.3) suite=trixie-backports ;;
6.12) suite= ;;
*) echo "$usage" >&2; exit 2 ;;
esac
if [ -n "$suite" ]; then
	work=${TRUSTEDFOR_GUEST_DIR:-/var/tmp/trustedfor-guest-debian}/$suite
	backend=emulation
	[ "$which" = stock-7.3 ] && backend="execveat(AT_EXECVE_CHECK)"
else
	work=${TRUSTEDFOR_KERNEL_DIR:-/var/tmp/trustedfor-kernel-6.12}
	backend="trusted_for() system call"
fi
case "$work" in
"$repo"|"$repo"/*) die "the work directory must be outside the repository" ;;
esac
[ "$(uname -m)" = x86_64 ] || die "needs an x86_64 host, not $(uname -m)"
kernel_lock
if [ -n "$suite" ]; then
	kernel_packages debian-archive-keyring kmod cpio
	debian_fetch "$work" "$suite"
	# The guest's name says which kernel it boots: a release that moves to
	# another one is a new guest.
	case ${kernel_version#* } in
	"${which#stock-}".*) ;;
	*) die "$suite's linux-image-amd64 is now $kernel_version, not ${which#stock-}" ;;
	esac
	say "Debian's $kernel_version [$(elapsed)]"
	qemu_kernel="-kernel $kernel_image -initrd $kernel_initrd"
	# kernel/userspace-rdinit.c, the initramfs's /init, mounts the root.
	cmdline="rdinit=/init -- $here/userspace-init.sh"
else
	kernel_packages linux-source-6.12
	kernel_tree linux-source-6.12 "$here"/patches/*.patch
	kernel_config "$here/config.fragment" "$here/userspace.fragment"
	kernel_build "$jobs"
	qemu_kernel="-kernel $build/arch/x86/boot/bzImage"
	cmdline="root=root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=262144 ro init=$here/userspace-init.sh --"
fi
# The boot reads only its own files: kernel/check.sh may use the same
# tree meanwhile (make check runs both), but not a second guest.
exec 9>&-
exec 9>"$work/lock-userspace"
flock 9

# --- the guest's instructions: a file on the host, read by its init --------
exclude=
for t in $host_only; do exclude="$exclude --exclude $t"; done
if [ -n "${TRUSTEDFOR_GUEST_ONLY:-}" ]; then
	exclude=
	for t in $TRUSTEDFOR_GUEST_ONLY; do exclude="$exclude --only $t"; done
fi
# Emulation is several times slower: the tests' own time limits grow too.
run_args="--timeout-factor 10$exclude --build $tf_build"
nobody_args="--timeout-factor 10"
for t in $nobody_only; do nobody_args="$nobody_args --only $t"; done
nobody_args="$nobody_args --build $tf_build"
[ -z "${TRUSTEDFOR_GUEST_ONLY:-}" ] || nobody_args=
env_file=$work/guest.env
{
	echo "# written by kernel/userspace.sh for kernel/userspace-init.sh"
	printf 'export PATH=%s\n' "'$PATH'"
	for v in CI TRUSTEDFOR_NO_SKIP LANG LC_ALL; do
		eval "val=\${$v-}"
		[ -n "$val" ] && printf "export %s='%s'\n" "$v" "$val"
	done
	printf "GUEST_REPO='%s'\n" "$repo"
	printf "GUEST_BUILD='%s'\n" "$tf_build"
	printf "GUEST_RUN_ARGS='%s'\n" "$run_args"
	printf "GUEST_NOBODY_ARGS='%s'\n" "$nobody_args"
} >"$env_file"

# --- boot ----------------------------------------------------------------------
console=$work/console-userspace.log
results=$work/results-userspace.tap
rm -f "$console" "$results"
say "booting under qemu-system-x86_64 -accel tcg, timeout ${guest_timeout}s [$(elapsed)]"
boot=$(date +%s)
rc=0
# shellcheck disable=SC2086 # $qemu_kernel: one option per word, no spaces in paths
timeout --kill-after=10 "$guest_timeout" qemu-system-x86_64 -accel tcg -cpu max \
	-m 2048 -no-reboot -net none -display none -monitor none \
	-serial "file:$console" -serial "file:$results" $qemu_kernel \
	-virtfs local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap \
	-device virtio-rng-pci \
	-append "console=ttyS0 panic=-1 quiet $cmdline $env_file" \
	</dev/null >"$work/qemu.log" 2>&1 || rc=$?
guest_time=$(($(date +%s) - boot))
say "console log: $console, results: $results [$(elapsed)]"

# --- results -------------------------------------------------------------------
# Each run's lines are renumbered and labelled with the user; the harness
# adds its own checks at the end.
crash=$(tr -d '\r' <"$console" |
	grep -m1 -E 'Kernel panic|BUG:|Oops|WARNING:|Call Trace|general protection' || true)
tr -d '\r' <"$results" | awk -v rc="$rc" -v t="$guest_timeout" -v crash="$crash" \
	-v which="$which" -v backend_wanted="$backend" -v secs="$guest_time" -v nobody="$nobody_args" '
function tap(ok, what) {
	n++
	if (ok) passed++
	else failed++
	print (ok ? "ok " : "not ok ") n " - " what
}
/^# guest: run [a-z]+$/ { run = $4; runs[run] = 1; next }
/^# guest: run [a-z]+ status / { status[$4] = $6; next }
/^# guest: end$/ { end = 1; next }
/^# guest: backend / { backend = substr($0, 18); next }
/^(not )?ok / {
	line = $0
	ok = sub(/^ok [0-9]+ - /, "", line)
	if (!ok) sub(/^not ok [0-9]+ - /, "", line)
	n++
	if (!ok) { failed++; rfail[run]++ }
	else if (line ~ /# *N\/A/) { na++; rna[run]++ }
	else if (line ~ /# *SKIP/) { skipped++; rskip[run]++ }
	else { passed++; rpass[run]++ }
	print (ok ? "ok " : "not ok ") n " - " run ": " line
	next
}
/^[0-9]+ passed, [0-9]+ failed/ { summary[run] = $0; next }
/^#/ { print; next }
END {
	tap(rc != 124 && rc != 137, "guest " which " finished within " t "s (qemu status " rc ")")
	tap(crash == "", "no kernel crash or warning on the console" \
	    (crash == "" ? "" : ": " crash))
	tap(end, "the guest ran to its end")
	# What this kernel is for: Debian 6.1 and 6.12 have only the
	# emulation, 7.3 has AT_EXECVE_CHECK, the series gives 6.12 the
	# trusted_for() system call: the library must use what there is.
	want = backend_wanted
	tap(backend == want, "the library checks by " want " at policy 3 (trusted-for status: " backend ")")
	for (r in runs) {
		want = rpass[r] + 0 " passed, " rfail[r] + 0 " failed" \
		       (rskip[r] ? ", " rskip[r] " skipped" : "")
		tap(summary[r] == want, r ": the summary (" summary[r] ") matches the lines (" want ")")
	}
	tap(("root" in runs) && (nobody == "" || ("nobody" in runs)), "the guest ran as root and as nobody")
	print "1.." n
	print "# guest " which ": " passed + 0 " passed, " failed + 0 " failed" \
	      (skipped ? ", " skipped " skipped" : "") " (" na + 0 " not applicable), " secs "s in the guest"
	exit (failed > 0 ? 1 : 0)
}' || { say "FAILED after $(elapsed)"; exit 1; }
say "done in $(elapsed)"
