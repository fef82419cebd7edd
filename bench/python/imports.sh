#!/bin/bash
# trusted-python against Debian's python3.X, the CPython the build embeds
# (python3.11 on Debian 12, python3.13 on Debian 13; 3.11 below): start-up
# alone, and start-up plus the
# import of a large set of standard-library modules; enforcement off and on
# (policy 1), side by side in one run.  Needs root (or user namespaces): the
# policy file is shown at /etc/trustedfor.conf inside a private mount
# namespace only.
# Usage: bench/python/imports.sh BUILDDIR [ROUNDS]
# TF_BENCH_BASELINE=BUILDDIR adds another build's trusted-python;
# TF_BENCH_PGO=BUILDDIR a build configured with -Dlibpython (its control and
# trusted-python, linked to interpreters/python/build-libpython.sh's archive).
# TF_BENCH_INSTALLED=1 measures BUILDDIR's trusted-python as the system's
# interpreter instead: laid over /usr/bin/python3.11 (an overlay of /usr in
# the same private namespace), against Debian's binary copied beside it as
# /usr/bin/python3.11-debian (the same directory, so the same sys.prefix and
# search paths) and the build's control as /usr/bin/python3.11-control,
# and ends with their start-up alone, each started TF_BENCH_SPAWNS times
# (default 600) by posix_spawn() in turn (bench/shells-startup), policy 1.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: $0 BUILDDIR [ROUNDS]" >&2
	exit 2
fi
build=$(realpath "$1")
rounds=${2:-100}
here=$(dirname "$(realpath "$0")")
# The CPython the build embeds, as its control says.
py=$("$build/interpreters/python/python-main-control" -I -c \
	'import sys; print("python%d.%d" % sys.version_info[:2])')
export TF_BENCH_PYTHON=$py
if [ -z "${TF_BENCH_NS:-}" ]; then
	export TF_BENCH_NS=1
	exec unshare --mount --propagation private "$0" "$@"
fi
work=$(mktemp -d /tmp/trustedfor-bench.XXXXXX)
mount -t tmpfs -o mode=0755 trustedfor-bench "$work"
trap 'umount -l "$work"; rmdir "$work"' EXIT
mkdir "$work/etc-upper" "$work/etc-work"
mount -t overlay trustedfor-etc \
	-o "lowerdir=/etc,upperdir=$work/etc-upper,workdir=$work/etc-work" /etc
ref=/usr/bin/$py
if [ -n "${TF_BENCH_INSTALLED:-}" ]; then
	if ldd "$build/interpreters/python/trusted-python" | grep -q libtrustedfor; then
		echo "$0: TF_BENCH_INSTALLED: this trusted-python loads libtrustedfor.so.1" \
			"through its build tree's RUNPATH, as no installed one does" >&2
		exit 1
	fi
	mkdir "$work/usr-upper" "$work/usr-work"
	mount -t overlay trustedfor-usr \
		-o "lowerdir=/usr,upperdir=$work/usr-upper,workdir=$work/usr-work" /usr
	ref=/usr/bin/$py-debian
	cp -a "/usr/bin/$py" "$ref"
	cp "$build/interpreters/python/trusted-python" "/usr/bin/$py"
	cp "$build/interpreters/python/python-main-control" "/usr/bin/$py-control"
fi
# Same conditions for both: Debian's compiled .pyc files, none written.
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH PYTHONSTARTUP TRUSTEDFOR_ENFORCE

echo "## trusted-python: start-up and standard-library imports"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
	"($(getconf _NPROCESSORS_ONLN) CPUs)"
echo "kernel: $(uname -sr); python: $("$ref" -VV | tr '\n' ' ')"
[ -z "${TF_BENCH_INSTALLED:-}" ] ||
	echo "installed: trusted-python as /usr/bin/$py, Debian's as $ref"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); rounds: $rounds"
echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
echo
"$ref" "$here/imports.py" "$build" "$work" "$rounds"
echo
if [ -n "${TF_BENCH_INSTALLED:-}" ]; then
	spawns=${TF_BENCH_SPAWNS:-600}
	printf 'trustedfor-policy 1\npolicy = 1\nlog = none\nend\n' >/etc/trustedfor.conf
	: >"$work/empty.py"
	echo "### start-up alone, installed: $spawns posix_spawn()s each, in turn, policy 1"
	echo
	echo "| program | wall us | vs $py | CPU us | page faults |"
	echo "|---|---:|---:|---:|---:|"
	"$build/bench/shells-startup" "$spawns" -- "$ref" "$work/empty.py" \
		-- "/usr/bin/$py-control" "$work/empty.py" \
		-- "/usr/bin/$py" "$work/empty.py" |
		awk -v ref="$ref" -v py="$py" '
		{ wall[NR] = $1; cpu[NR] = $2; flt[NR] = $3 }
		END {
			split(ref " /usr/bin/" py "-control /usr/bin/" py, name, " ")
			split("Debian " py "|control|trusted-python", label, "|")
			for (i = 1; i <= 3; i++)
				printf "| %s (%s) | %.1f | %+.1f%% | %.1f | %.2f |\n", label[i], name[i],
					wall[i], (wall[i] / wall[1] - 1) * 100, cpu[i], flt[i]
		}'
	echo
fi
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
