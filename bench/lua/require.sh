#!/bin/bash
# require of many Lua modules: trusted-lua against lua5.4, with enforcement
# off and on, measured side by side in one run.
#
#   bench/lua/require.sh [BUILD_DIR [MODULES [ROUNDS]]]
#
# Three workloads: a script that requires nothing (the start-up alone),
# MODULES small modules (5 lines each) and MODULES larger ones (about 100
# lines of functions each), all in executable files on the disk that holds
# /tmp.  Each round starts every configuration of every workload once, in
# turn, so that drift in the machine hits them alike; each start is one
# process.  "on" runs under trusted-for run --restrict-file
# --deny-interactive, and so does its lua5.4 baseline (which ignores the
# securebits), so that both pay for the same wrapper.  Prints a Markdown
# table: median and mean wall time per process, and the difference from the
# baseline, in all and per module.
set -eu
. "$(dirname "$0")/../lib.sh"
build=${1:-build}
modules=${2:-300}
rounds=${3:-200}
trusted=$(realpath "$build/interpreters/lua/trusted-lua")
run=$(realpath "$build/tools/trusted-for")
stock=$(command -v lua5.4)
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH_5_4

dir=$(mktemp -d /tmp/trusted-lua-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# main.lua of a workload: requires $2 modules named $1N and checks a sum.
write_main() {
	{
		echo 'local t = 0'
		for ((i = 1; i <= $2; i++)); do echo "t = t + require(\"$1$i\").f(1)"; done
		echo "assert(t == $(($2 * ($2 + 1) / 2 + $2)))"
	} >"$dir/$1main.lua"
}
for ((i = 1; i <= modules; i++)); do
	printf 'local M = {}\nfunction M.f(x) return x + %d end\nM.name = "s%d"\nreturn M\n' \
		"$i" "$i" >"$dir/s$i.lua"
	{
		echo 'local M = {}'
		for ((j = 1; j <= 24; j++)); do
			printf 'function M.g%d(t)\n  local s = 0\n  for k = 1, #t do s = s + t[k] * %d end\n  return s\nend\n' "$j" "$j"
		done
		printf 'function M.f(x) return x + %d end\nreturn M\n' "$i"
	} >"$dir/l$i.lua"
done
write_main e 0
write_main s "$modules"
write_main l "$modules"
chmod 0755 "$dir"/*.lua
export LUA_PATH="$dir/?.lua"

wrap="$run run --restrict-file --deny-interactive --"
workloads=(e s l)
wnames=("start-up only" "$modules small modules" "$modules modules of ~125 lines")
cnames=("lua5.4" "trusted-lua, enforcement off" "lua5.4 under trusted-for run" "trusted-lua, enforcement on")
cmds=("$stock" "$trusted" "$wrap $stock" "$wrap $trusted")

# Every configuration must run cleanly before it is timed.
for w in "${workloads[@]}"; do
	for c in "${!cmds[@]}"; do
		${cmds[$c]} "$dir/${w}main.lua" || { echo "${cnames[$c]} failed" >&2; exit 1; }
	done
done

for ((r = 0; r < rounds; r++)); do
	for w in "${workloads[@]}"; do
		for c in "${!cmds[@]}"; do
			start=$EPOCHREALTIME
			${cmds[$c]} "$dir/${w}main.lua"
			end=$EPOCHREALTIME
			echo "$w$c ${start/./} ${end/./}"
		done
	done
done >"$dir/times"


echo "$rounds rounds; $(nproc) CPUs; Linux $(uname -r); $($stock -v 2>&1)"
echo
echo "| workload | configuration | median ms | mean ms | vs baseline | per module |"
echo "|---|---|---:|---:|---:|---:|"
for w in "${!workloads[@]}"; do
	key=${workloads[$w]}
	for c in "${!cmds[@]}"; do
		read -r med mean < <(stats "$dir/times" "$key$c")
		if ((c % 2 == 0)); then
			base=$med rel="baseline" per=""
		else
			rel=$(awk -v a="$med" -v b="$base" 'BEGIN { printf "%+.1f%%", (a - b) / b * 100 }')
			per=$([ "$key" = e ] || awk -v a="$med" -v b="$base" -v n="$modules" \
				'BEGIN { printf "%+.1f us", (a - b) / n * 1000 }')
		fi
		echo "| ${wnames[$w]} | ${cnames[$c]} | $med | $mean | $rel | $per |"
	done
done
