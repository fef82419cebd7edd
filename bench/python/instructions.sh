#!/bin/bash
# Instructions executed by Debian's python3.X (the CPython the build
# embeds: python3.11 on Debian 12, python3.13 on Debian 13; 3.11 below) and
# by CPython's own main linked three ways, counted by callgrind
# (deterministic, whatever the machine's load): the start-up and the
# standard-library imports of imports.py.  trusted-python itself cannot
# run under valgrind: valgrind 3.19 (Debian 12) lacks openat2(), and the
# library fails closed; and its preloaded vgpreload_core asks to be
# initialised first, which the loader guard refuses.  So the controls
# stand for its build.
# Usage: bench/python/instructions.sh BUILDDIR [PGO_BUILDDIR]
#   BUILDDIR      the default build (control linked to python3.11-dev's
#                 libpython3.11.a, and to libpython3.11.so)
#   PGO_BUILDDIR  a build configured with -Dlibpython (control linked to
#                 build-libpython.sh's archive with -flto)
set -eu
if [ $# -lt 1 ]; then
	echo "usage: $0 BUILDDIR [PGO_BUILDDIR]" >&2
	exit 2
fi
here=$(dirname "$(realpath "$0")")
build=$(realpath "$1")
work=$(mktemp -d /tmp/trustedfor-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH PYTHONSTARTUP
control=$build/interpreters/python/python-main-control
py=$("$control" -I -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
"/usr/bin/$py" -c 'import sys; sys.path.insert(0, sys.argv[1])
import imports; imports.write_workloads(sys.argv[2])' "$here" "$work"

names=("$py" "control, lib$py.a" "control, lib$py.so")
progs=("/usr/bin/$py" "$control" "$build/bench/python-main-control-shared")
if [ $# -ge 2 ]; then
	names+=("control, PGO+LTO libpython (-Dlibpython)")
	progs+=("$(realpath "$2")/interpreters/python/python-main-control")
fi
# Instructions of one run (valgrind prints "Collected : N").
count() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" \
		2>&1 >/dev/null | sed -n 's/.*Collected : //p'
}
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(valgrind --version)"
echo
printf '| workload |'
printf ' %s |' "${names[@]}"
printf '\n|---|'
printf -- '---:|%.0s' "${names[@]}"
echo
# (imports.py's script starts with "import sys", not counted)
for w in startup imports; do
	case $w in
	startup) printf '| start-up (%s) |' "\`pass\`" ;;
	imports) printf '| %d stdlib imports |' $(($(grep -c '^import ' "$work/imports.py") - 1)) ;;
	esac
	base=
	for prog in "${progs[@]}"; do
		c=$(count "$prog" "$work/$w.py")
		[ -n "$c" ] || { echo "$prog: no instruction count" >&2; exit 1; }
		if [ -z "$base" ]; then
			base=$c
			awk -v c="$c" 'BEGIN { printf " %.2f M |", c / 1e6 }'
		else
			awk -v c="$c" -v b="$base" \
				'BEGIN { printf " %.2f M (%+.1f%%) |", c / 1e6, (c / b - 1) * 100 }'
		fi
	done
	echo
done
