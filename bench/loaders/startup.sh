#!/bin/bash
# What the loader defences cost at start-up, side by side in one run.
#
#   bench/loaders/startup.sh [BUILD_DIR [ROUNDS]]
#
# Each configuration is one process start, timed from bash
# (EPOCHREALTIME); each round starts every configuration once, in turn, so
# that drift hits them alike.  Nothing is enforced (no policy file is
# needed; the checks run all the same, enforcement only decides what a
# failed check does).  Prints a Markdown table: median and mean wall time
# per process and the difference from the row's reference.
#
#   - the launcher as built: its preinit guard scans the environment and
#     finds nothing to do;
#   - the static entry stub (bench/loaders/exec-stub.c) in front of it: the
#     option that keeps LD_* away from the launcher by starting it from a
#     program that runs no dynamic loader, at the price of a second execve;
#   - LD_PRELOAD of a system library: the guard checks every object mapped;
#   - trusted-python importing 20 extension modules (each opened, checked
#     and loaded through /proc/self/fd/N) against python3.11 importing them.
set -eu
build=${1:-build}
rounds=${2:-200}
lua=$(realpath "$build/interpreters/lua/trusted-lua")
py=$(realpath "$build/interpreters/python/trusted-python")
stub=$(realpath "$build/bench/exec-stub")
libm=$(ls /usr/lib/*/libm.so.6 | head -n 1)
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_CPATH PYTHONPATH \
	LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT GCONV_PATH
export PYTHONDONTWRITEBYTECODE=1

dir=$(mktemp -d /tmp/trustedfor-loaders-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
echo 'local x = 1' >"$dir/ok.lua"
echo 'pass' >"$dir/ok.py"
echo 'import _asyncio, _bz2, _contextvars, _ctypes, _decimal, _hashlib, _json, _lsprof, _lzma, _multibytecodec, _queue, _sqlite3, _ssl, _uuid, _zoneinfo, mmap, resource, termios, readline, _typing' >"$dir/exts.py"
chmod 0755 "$dir"/*

names=() cmds=() refs=()
# Every command goes through env, so that the LD_PRELOAD rows pay for the
# same extra exec as their references.
add() { names+=("$1"); refs+=("$2"); cmds+=("env $3"); }
add "lua5.4" 0 "/usr/bin/lua5.4 $dir/ok.lua"
add "trusted-lua" 0 "$lua $dir/ok.lua"
add "static stub, then trusted-lua" 1 "$stub $lua $dir/ok.lua"
add "trusted-lua, LD_PRELOAD=libm (every object checked)" 1 "LD_PRELOAD=$libm $lua $dir/ok.lua"
add "lua5.4, LD_PRELOAD=libm" 0 "LD_PRELOAD=$libm /usr/bin/lua5.4 $dir/ok.lua"
add "python3.11 -S" 5 "/usr/bin/python3.11 -S $dir/ok.py"
add "trusted-python -S" 5 "$py -S $dir/ok.py"
add "static stub, then trusted-python -S" 6 "$stub $py -S $dir/ok.py"
add "trusted-python -S, LD_PRELOAD=libm (every object checked)" 6 "LD_PRELOAD=$libm $py -S $dir/ok.py"
add "python3.11 -S, 20 extension modules" 9 "/usr/bin/python3.11 -S $dir/exts.py"
add "trusted-python -S, 20 extension modules" 9 "$py -S $dir/exts.py"

n=${#cmds[@]}
for ((c = 0; c < n; c++)); do
	${cmds[c]} >/dev/null || { echo "startup.sh: ${names[c]} fails" >&2; exit 1; }
	: >"$dir/t$c"
done
for ((r = 0; r < rounds; r++)); do
	for ((c = 0; c < n; c++)); do
		t0=$EPOCHREALTIME
		${cmds[c]} >/dev/null
		t1=$EPOCHREALTIME
		echo "$t0 $t1" >>"$dir/t$c"
	done
done

stats() { # median and mean in microseconds
	awk '{ printf "%.1f\n", ($2 - $1) * 1e6 }' "$1" | sort -n |
		awk '{ v[NR] = $1; s += $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.0f %.0f\n", m, s / NR }'
}
echo "| configuration | median (us) | mean (us) | vs reference (median) |"
echo "|---|---:|---:|---:|"
for ((c = 0; c < n; c++)); do
	read -r med mean < <(stats "$dir/t$c")
	read -r rmed _ < <(stats "$dir/t${refs[c]}")
	if [ "${refs[c]}" = "$c" ]; then
		diff="reference"
	else
		diff=$(awk -v a="$med" -v b="$rmed" -v r="${names[refs[c]]}" 'BEGIN { printf "%+d us (%+.1f%%) vs %s", a - b, (a - b) * 100 / b, r }')
	fi
	echo "| ${names[c]} | $med | $mean | $diff |"
done
