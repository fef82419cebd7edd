#!/bin/bash
# trusted-dash against dash and trusted-bash against bash: the start-up of
# "sh script", and a script that sources FILES small files, with nothing
# enforced and with files enforced, under check policy 1 and 3, measured
# side by side in one run.
#
#   bench/shells/run.sh [BUILD_DIR [FILES [ROUNDS]]]     (as root)
#   TF_BENCH_BASELINE=OTHER_BUILD_DIR bench/shells/run.sh ...   (before/after)
#
# The policy comes from a policy file shown at /etc/trustedfor.conf in a
# private mount namespace of this script only (tests/lib.sh's overlay), so
# that no wrapper process is timed.  Every sourced file is executable and on
# the disk that holds /tmp, so every check passes: the numbers are the price
# of asking.  Each round starts every configuration of every workload once,
# in turn, so that drift in the machine hits them alike.  Prints a Markdown
# table: median and mean wall time per process, and the difference from the
# stock shell, in all and per sourced file; then start-up again, each shell
# started by posix_spawn() with no shell around it (TF_BENCH_SPAWNS times,
# 2000 by default), and what the library's decision per file costs.
set -eu
build=$(realpath "${1:-build}")
files=${2:-300}
rounds=${3:-100}
src=$(cd "$(dirname "$0")/../.." && pwd)

if [ -z "${TF_IN_NAMESPACE:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "$0: run as root (it mounts a policy file in a namespace of its own)" >&2; exit 1; }
	export TF_IN_NAMESPACE=1
	exec unshare --mount --propagation private "$0" "$build" "$files" "$rounds"
fi
unset TRUSTEDFOR_ENFORCE ENV BASH_ENV
. "$src/tests/lib.sh"
. "$src/bench/lib.sh"
TF_TMP=$(mktemp -d /tmp/trustedfor-shells-bench.XXXXXX)
dir=$TF_TMP/work
trap 'umount /etc 2>/dev/null; rm -rf "$TF_TMP"' EXIT
mkdir -p "$dir"

printf ':\n' >"$dir/empty.sh"
{
	echo 'x=0'
	for ((i = 1; i <= files; i++)); do echo ". $dir/lib$i.sh"; done
	echo "[ \$x = $files ] || exit 9"
} >"$dir/main.sh"
for ((i = 1; i <= files; i++)); do
	printf 'f%d() { echo "%d"; }\nx=$((x + 1))\n' "$i" "$i" >"$dir/lib$i.sh"
done
chmod 0755 "$dir"/*.sh

# The shells timed, side by side in one directory: Debian's copied there,
# the trusted ones stripped (dh_strip), as the packages install them.  The
# build tree's copies carry their debug information, which alone made our
# own unpatched bash 3.5% slower to start than Debian's; and started as
# /bin/dash, Debian's dash came out up to 1.7 points slower than its own
# copy (bench/shells.md).  With TF_BENCH_BASELINE=BUILD_DIR, that build's
# trusted shells run beside, under policy 1: before and after a change,
# in the same rounds.
before=${TF_BENCH_BASELINE:+$(realpath "$TF_BENCH_BASELINE")}
bin=$TF_TMP/bin
mkdir "$bin"
for sh in dash bash; do
	cp "/bin/$sh" "$bin/$sh"
	strip -o "$bin/trusted-$sh" "$build/shells/trusted-$sh"
	[ -z "$before" ] || strip -o "$bin/baseline-trusted-$sh" "$before/shells/trusted-$sh"
done

# configuration: "label|shell|policy|enforce"; the first of each shell is
# its baseline (no policy file at all: the stock shell reads none).
configs=()
for sh in dash bash; do
	configs+=("$sh|$bin/$sh|-|-")
	for pol in 1 3; do
		configs+=("trusted-$sh, policy $pol, nothing enforced|$bin/trusted-$sh|$pol|none")
		configs+=("trusted-$sh, policy $pol, files enforced|$bin/trusted-$sh|$pol|file")
		[ -n "$before" ] && [ "$pol" = 1 ] || continue
		configs+=("baseline trusted-$sh, policy $pol, nothing enforced|$bin/baseline-trusted-$sh|$pol|none")
		configs+=("baseline trusted-$sh, policy $pol, files enforced|$bin/baseline-trusted-$sh|$pol|file")
	done
done
workloads=(empty main)
wnames=("start-up: sh script" "sourcing $files files")

setpol() {
	if [ "$1" = - ]; then
		set_policy_file -
	else
		set_policy_file "$(printf 'policy = %s\nenforce = %s\naudit = off\n' "$1" "$2")"
	fi
}

# Every configuration must run cleanly before it is timed.
for c in "${configs[@]}"; do
	IFS='|' read -r label shell pol enf <<<"$c"
	setpol "$pol" "$enf"
	for w in "${workloads[@]}"; do
		"$shell" "$dir/$w.sh" || { echo "$label failed on $w.sh" >&2; exit 1; }
	done
done

# Each round starts one configuration later than the one before, so that
# none always runs after the same other one (bench/shells.md).
for ((r = 0; r < rounds; r++)); do
	for ((k = 0; k < ${#configs[@]}; k++)); do
		c=$(((r + k) % ${#configs[@]}))
		IFS='|' read -r label shell pol enf <<<"${configs[$c]}"
		setpol "$pol" "$enf"
		for w in "${workloads[@]}"; do
			start=$EPOCHREALTIME
			"$shell" "$dir/$w.sh"
			end=$EPOCHREALTIME
			echo "$w$c ${start/./} ${end/./}"
		done
	done
done >"$TF_TMP/times"


echo "$rounds rounds; $(nproc) CPUs; Linux $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "dash $(dpkg-query -W -f='${Version}' dash), bash $(dpkg-query -W -f='${Version}' bash)"
echo
echo "| workload | configuration | median ms | mean ms | vs stock | per file |"
echo "|---|---|---:|---:|---:|---:|"
for w in "${!workloads[@]}"; do
	key=${workloads[$w]}
	for c in "${!configs[@]}"; do
		IFS='|' read -r label shell pol enf <<<"${configs[$c]}"
		read -r med mean < <(stats "$TF_TMP/times" "$key$c")
		if [ "$pol" = - ]; then
			base=$med rel="baseline" per=""
		else
			rel=$(awk -v a="$med" -v b="$base" 'BEGIN { printf "%+.1f%%", (a - b) / b * 100 }')
			per=$([ "$key" = empty ] || awk -v a="$med" -v b="$base" -v n="$files" \
				'BEGIN { printf "%+.2f us", (a - b) / n * 1000 }')
		fi
		echo "| ${wnames[$w]} | $label | $med | $mean | $rel | $per |"
	done
done

# Start-up again, without the bash that times the rows above (its fork and
# exec dilute every percentage there): each shell started by posix_spawn()
# and reaped by wait4(), under policy 1 with nothing enforced, the policy
# file of a deployed system; medians of wall time and of the CPU time the
# shell used, and the mean of its minor page faults.
spawns=${TF_BENCH_SPAWNS:-2000}
setpol 1 none
labels=() cmds=()
for sh in dash bash; do
	labels+=("$sh") cmds+=(-- "$bin/$sh" "$dir/empty.sh")
	labels+=("trusted-$sh") cmds+=(-- "$bin/trusted-$sh" "$dir/empty.sh")
	[ -z "$before" ] && continue
	labels+=("baseline trusted-$sh") cmds+=(-- "$bin/baseline-trusted-$sh" "$dir/empty.sh")
done
"$build/bench/shells-startup" "$spawns" "${cmds[@]}" >"$TF_TMP/startup"
echo
echo "Start-up by posix_spawn(), $spawns each, policy 1, nothing enforced; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| shell | wall us | vs stock | CPU us | vs stock | page faults |"
echo "|---|---:|---:|---:|---:|---:|"
i=0
while read -r wall cpu faults; do
	label=${labels[$i]}
	i=$((i + 1))
	case $label in
	dash | bash) bw=$wall bc=$cpu rw=baseline rc=baseline ;;
	*)
		rw=$(awk -v a="$wall" -v b="$bw" 'BEGIN { printf "%+.1f%%", (a - b) / b * 100 }')
		rc=$(awk -v a="$cpu" -v b="$bc" 'BEGIN { printf "%+.1f%%", (a - b) / b * 100 }')
		;;
	esac
	echo "| $label | $wall | $rw | $cpu | $rc | $faults |"
done <"$TF_TMP/startup"

# Where the per-file cost goes: the library's decision on one of the sourced
# files and each system call it makes, under policy 1 with nothing enforced;
# on the filesystem of /tmp, and on a tmpfs (whose statfs() is cheap).
echo
setpol 1 none
"$build/bench/shells-decision" "$dir/lib1.sh"
mkdir "$TF_TMP/tmpfs"
mount -t tmpfs -o mode=0755 trustedfor-bench "$TF_TMP/tmpfs"
cp -p "$dir/lib1.sh" "$TF_TMP/tmpfs/"
echo
"$build/bench/shells-decision" "$TF_TMP/tmpfs/lib1.sh"
umount "$TF_TMP/tmpfs"
