# Shared by the benchmark scripts that time whole processes.

# stats TIMES KEY: "median mean" in ms of the lines "KEY START END" of TIMES
# (START and END in microseconds, $EPOCHREALTIME without its dot).
stats() {
	awk -v k="$2" '$1 == k { print ($3 - $2) / 1000 }' "$1" | sort -n |
		awk '{ v[NR] = $1; s += $1 } END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.3f %.3f\n", m, s / NR }'
}
