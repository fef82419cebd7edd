#!/bin/bash
# shells/bash-testsuite.sh BASH SOURCE BUILD [OUTDIR]
# shells/bash-testsuite.sh BASH --cached-tree: bash's own test suite
# (the tests/run-* scripts of Debian's bash source) run against the binary
# BASH, as "make tests" runs it, one TAP case per script.
#
# A script passes when it prints nothing but its "warning:" notes: bash's
# suite reports an anomaly as diff output.  Scripts listed in
# shells/bash/known-failures fail the same way with Debian's stock bash built
# from the same source on these machines (the reason is given there); they
# count as passed, with the reason; one that passes says so.  A script with
# a file in shells/bash/races races against its own child processes: the
# anomaly that file holds (its "##" line says why) is the race lost, and it
# counts as passed only when it is exactly that.  OUTDIR keeps each
# script's output, to compare two binaries.
#
# SOURCE is the unpacked source tree (its tests/ directory is used), BUILD
# the configured build tree (for the helper programs recho, zecho, printenv,
# xcase, which are built here if missing); --cached-tree takes both from
# the tree that shells/build.sh keeps.
set -u

here=$(cd "$(dirname "$0")" && pwd)
if [ "${2:-}" = --cached-tree ]; then
	build=$("$here/build.sh" bash --tree) || exit 1
	set -- "$1" "$(dirname "$build")/src" "$build"
fi
[ $# -ge 3 ] || { echo "usage: $0 BASH SOURCE BUILD [OUTDIR]" >&2; exit 2; }
bash_bin=$1
src=$2
build=$3
out=${4:-}
known=$here/bash/known-failures
races=$here/bash/races
n=0
failed=0

# As "make tests" does: the helpers are built, then copied to tests/.
mkdir -p "$build/tests"
make -C "$build" -s recho zecho printenv xcase >/dev/null 2>&1 &&
	(cd "$build" && cp recho zecho printenv xcase tests/) || {
	echo "not ok 1 - build the test suite's helper programs in $build"
	echo "1..1"
	exit 1
}
work=$(mktemp -d /tmp/trustedfor-bash-tests.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -z "$out" ] || mkdir -p "$out"

# The suite expects messages that start "bash:": the binary under test is
# run through a link of that name.
mkdir -p "$work/bin"
ln -s "$(realpath "$bash_bin")" "$work/bin/bash"

# The environment of the suite's Makefile and run-all.
unset BASH_ENV ENV CDPATH GLOBIGNORE
export -n SHELLOPTS BASHOPTS
export THIS_SH="$work/bin/bash" BUILD_DIR="$build" TMPDIR="$work"
export PATH="$build/tests:.:$PATH" BASH_TSTOUT="$work/bashtst"

# Descriptors inherited from whatever started this script would shift the
# numbers that "exec {fd}>file" picks, which the suite prints: close them
# (bash reads this script from descriptor 255, which stays).
for fd in /proc/$$/fd/*; do
	fd=${fd##*/}
	[ "$fd" -gt 2 ] && [ "$fd" -lt 255 ] && { exec {fd}>&-; } 2>/dev/null
done
cd "$src/tests" || exit 1
for t in run-*; do
	case $t in
	run-all | run-minimal | run-gprof | *.orig | *~) continue ;;
	esac
	n=$((n + 1))
	sh "$t" </dev/null >"$work/out" 2>&1
	rm -f "$BASH_TSTOUT"
	[ -z "$out" ] || cp "$work/out" "$out/$t"
	# What is left once the scripts' own warnings are dropped is an anomaly.
	grep -av '^warning: ' "$work/out" >"$work/anomaly"
	reason=$(awk -v t="$t" '$1 == t { $1 = ""; sub(/^ /, ""); print }' "$known")
	if [ ! -s "$work/anomaly" ]; then
		if [ -n "$reason" ]; then
			# Another machine (a terminal, more locales) passes it.
			echo "ok $n - $t (passes here; listed in known-failures: $reason)"
		else
			echo "ok $n - $t"
		fi
	elif [ -n "$reason" ]; then
		echo "ok $n - $t # fails with stock Debian bash too: $reason"
	elif [ -f "$races/$t" ] && grep -v '^##' "$races/$t" | cmp -s - "$work/anomaly"; then
		echo "ok $n - $t # lost a race of the suite's own: $(sed -n 's/^## //p' "$races/$t")"
	else
		failed=$((failed + 1))
		echo "not ok $n - $t"
		sed 's/^/#   /' "$work/anomaly" | head -40
	fi
done
echo "1..$n"
[ "$failed" = 0 ]
