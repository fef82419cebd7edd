#!/bin/bash
# Fuzzes the policy-file parser with libFuzzer (clang, ASan, UBSan) for
# $1 seconds, starting from the committed corpus; prints TAP.
set -u
seconds=${1:-20}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "1..2"
if clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -DTRUSTEDFOR_POLICY_FILE='"/nonexistent"' \
	-I"$src/include" -I"$src/lib" -I"$src/shared" "$src/tests/fuzz/fuzz-policy-file.c" \
	"$src"/lib/*.c "$src"/shared/*.c -o "$work/fuzz" 2>"$work/cc.log"; then
	echo "ok 1 - build the policy-file fuzzer"
else
	echo "not ok 1 - build the policy-file fuzzer"
	sed 's/^/# /' "$work/cc.log"
	echo "not ok 2 - fuzz the policy-file parser (not built)"
	exit 1
fi
mkdir "$work/corpus"
cp "$src"/tests/fuzz/corpus/* "$work/corpus/"
if "$work/fuzz" -max_total_time="$seconds" -max_len=70000 -timeout=10 \
	"$work/corpus" >"$work/fuzz.log" 2>&1; then
	echo "ok 2 - fuzz the policy-file parser for ${seconds}s: $(grep -o 'Done [0-9]* runs' "$work/fuzz.log"), no crash"
else
	echo "not ok 2 - fuzz the policy-file parser"
	tail -40 "$work/fuzz.log" | sed 's/^/# /'
	exit 1
fi
