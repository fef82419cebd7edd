#!/bin/sh
# What the confined session costs (bench/session.md).  Builds nothing.
# Usage: bench/session/confine.sh BUILDDIR
set -eu
bench=${1:?usage: $0 BUILDDIR}/bench/confine_bench
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '+\n' >"$dir/x" && chmod 0755 "$dir/x"
echo "## The confined session"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
	"($(getconf _NPROCESSORS_ONLN) CPUs)"
echo "kernel: $(uname -sr); user: $(id -un); load average: $(cut -d" " -f1-3 /proc/loadavg)"
echo
"$bench" "$dir/x"
