#!/bin/bash
# What the loader defences cost at start-up, side by side in one run.
#
#   bench/loaders/startup.sh [BUILD_DIR [ROUNDS]]
#
# Each configuration is one process start, timed by bench/loaders/run-once.c:
# wall time, and the CPU time the process used (user + system), which a busy
# machine disturbs far less; each round starts every configuration once, in
# turn, so that drift hits them alike.  Check policy 1, from a policy file
# shown at /etc/trustedfor.conf inside a private mount namespace (needs
# root), so that the system's files pass the check as they would on a
# machine that enforces; nothing is enforced unless the row says so.  Prints a Markdown table: median wall and CPU time
# per process and the difference in CPU time from the row's reference.
#
#   - the launcher as built: its preinit guard scans the environment and
#     finds nothing to do;
#   - the static entry stub (bench/loaders/exec-stub.c) in front of it: the
#     option that keeps LD_* away from the launcher by starting it from a
#     program that runs no dynamic loader, at the price of a second execve;
#   - the enlightened PT_INTERP prototype (bench/loaders/ld-shim.c) in front
#     of the system's loader: one open, two reads and five mappings more;
#   - LD_PRELOAD of a system library: the guard checks every object mapped;
#   - trusted-python importing 20 extension modules that import no Python
#     module (each opened, checked and loaded through /proc/self/fd/N),
#     against python3.11 importing them: the cost per module is the
#     difference of the differences with the -S rows, divided by 20.
set -eu
build=${1:-build}
rounds=${2:-200}
if [ -z "${TF_BENCH_NS:-}" ]; then
	export TF_BENCH_NS=1
	exec unshare --mount --propagation private "$0" "$@"
fi
lua=$(realpath "$build/interpreters/lua/trusted-lua")
py=$(realpath "$build/interpreters/python/trusted-python")
stub=$(realpath "$build/bench/exec-stub")
shim_lua=$(realpath "$build/bench/trusted-lua-shim")
once=$(realpath "$build/bench/run-once")
libm=$(ls /usr/lib/*/libm.so.6 | head -n 1)
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_CPATH PYTHONPATH \
	LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT GCONV_PATH
export PYTHONDONTWRITEBYTECODE=1

dir=$(mktemp -d /tmp/trustedfor-loaders-bench.XXXXXX)
mount -t tmpfs -o mode=0755 trustedfor-bench "$dir"
trap 'umount -l "$dir"; rmdir "$dir"' EXIT
mkdir "$dir/etc-upper" "$dir/etc-work"
mount -t overlay trustedfor-etc \
	-o "lowerdir=/etc,upperdir=$dir/etc-upper,workdir=$dir/etc-work" /etc
printf 'trustedfor-policy 1\npolicy = 1\nend\n' >/etc/trustedfor.conf
echo 'local x = 1' >"$dir/ok.lua"
echo 'pass' >"$dir/ok.py"
echo 'import _json, _bz2, _lzma, _contextvars, _queue, _uuid, mmap, resource, termios, _crypt, _multibytecodec, _codecs_cn, _codecs_hk, _codecs_iso2022, _codecs_jp, _codecs_kr, _codecs_tw, _lsprof, _posixshmem, _dbm' >"$dir/exts.py"
chmod 0755 "$dir"/*

names=() cmds=() refs=()
# Every command goes through env, so that the LD_PRELOAD rows pay for the
# same extra exec as their references.
add() { names+=("$1"); refs+=("$2"); cmds+=("env $3"); }
add "lua5.4" 0 "/usr/bin/lua5.4 $dir/ok.lua"
add "trusted-lua" 0 "$lua $dir/ok.lua"
add "static stub, then trusted-lua" 1 "$stub $lua $dir/ok.lua"
add "trusted-lua with the PT_INTERP prototype" 1 "$shim_lua $dir/ok.lua"
add "trusted-lua, LD_PRELOAD=libm (every object checked)" 1 "LD_PRELOAD=$libm $lua $dir/ok.lua"
add "trusted-lua, LD_PRELOAD=libm, files enforced" 1 "LD_PRELOAD=$libm TRUSTEDFOR_ENFORCE=file $lua $dir/ok.lua"
add "lua5.4, LD_PRELOAD=libm" 0 "LD_PRELOAD=$libm /usr/bin/lua5.4 $dir/ok.lua"
add "python3.11 -S" 7 "/usr/bin/python3.11 -S $dir/ok.py"
add "trusted-python -S" 7 "$py -S $dir/ok.py"
add "static stub, then trusted-python -S" 8 "$stub $py -S $dir/ok.py"
add "trusted-python -S, LD_PRELOAD=libm (every object checked)" 8 "LD_PRELOAD=$libm $py -S $dir/ok.py"
add "python3.11 -S, 20 extension modules" 11 "/usr/bin/python3.11 -S $dir/exts.py"
add "trusted-python -S, 20 extension modules" 11 "$py -S $dir/exts.py"

n=${#cmds[@]}
for ((c = 0; c < n; c++)); do
	${cmds[c]} >/dev/null || { echo "startup.sh: ${names[c]} fails" >&2; exit 1; }
	: >"$dir/t$c"
done
for ((r = 0; r < rounds; r++)); do
	for ((c = 0; c < n; c++)); do
		"$once" ${cmds[c]} >>"$dir/t$c"
	done
done

echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
	"($(getconf _NPROCESSORS_ONLN) CPUs); kernel: $(uname -sr)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); rounds: $rounds;" \
	"load average after: $(cut -d" " -f1-3 /proc/loadavg)"
echo
median() { # of column $2 of file $1
	awk -v c="$2" '{ print $c }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.0f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "| configuration | wall, median (us) | CPU, median (us) | CPU vs reference |"
echo "|---|---:|---:|---:|"
for ((c = 0; c < n; c++)); do
	wall=$(median "$dir/t$c" 1)
	cpu=$(median "$dir/t$c" 2)
	ref=$(median "$dir/t${refs[c]}" 2)
	if [ "${refs[c]}" = "$c" ]; then
		diff="reference"
	else
		diff=$(awk -v a="$cpu" -v b="$ref" -v r="${names[refs[c]]}" 'BEGIN { printf "%+d us (%+.1f%%) vs %s", a - b, (a - b) * 100 / b, r }')
	fi
	echo "| ${names[c]} | $wall | $cpu | $diff |"
done
