#!/bin/sh
# Run the libtrustedfor benchmark from an existing build directory and print
# its table.  Builds nothing: `make bench` (or ninja -C BUILDDIR) does that.
# Usage: bench/run.sh BUILDDIR [trusted_for_bench options: -r ROUNDS -t MS -n]
set -eu

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILDDIR [-r ROUNDS] [-t BATCH_MS] [-n]" >&2
	exit 2
fi
builddir=$1
shift
bench=$builddir/bench/trusted_for_bench
if [ ! -x "$bench" ]; then
	echo "$0: $bench not found: build it first (ninja -C $builddir)" >&2
	exit 1
fi

echo "## libtrustedfor: trusted_for() per call"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
	"($(getconf _NPROCESSORS_ONLN) CPUs)"
echo "kernel: $(uname -sr)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "user: $(id -un); load average: $(cut -d" " -f1-3 /proc/loadavg)"
echo
exec "$bench" "$@"
