#!/bin/bash
# docs/semantics.md section 5's interpreter matrix (8 scenarios x 4 modes) for
# trusted-python, under check policy 3, where "not executable" is a file
# without the execute bit, and under policy 1, where it is a file (mode
# 0755) on a noexec mount.  tests/conformance/interpreter-matrix.sh runs the
# policy 3 half for every interpreter; this one adds policy 1, the policy
# that Debian systems can enforce with their standard library as installed.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
# LeakSanitizer would report the interpreter's own allocations kept until exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
enter_private_namespace "$@"
make_mounts || { not_ok "make the exec and noexec mounts"; done_testing; }
. "$TF_SRC/tests/integration/python/trusted-stdlib.sh"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONINSPECT PYTHONSAFEPATH
export HOME=$TF_TMP/exec/home
mkdir -p "$HOME"

PY=$TF_BUILD/interpreters/python/trusted-python
uid=$(id -u)

# The modes (mode_none ... mode_both), with_stdin and with_pipe: tests/lib.sh.

# 0 runs; K the kernel refuses the exec; R the launcher refuses the script;
# S refuses stdin (a file that fails the check); P refuses stdin (a pipe);
# I refuses -c.
matrix='
direct             0 0 0 0
indirect           0 0 0 0
stdin              0 0 0 0
untrusted-direct   K K K K
untrusted-indirect 0 R 0 R
untrusted-stdin    0 0 S S
interactive-flag   0 0 I I
interactive-pipe   0 0 P P
'

# run_matrix POLICY TRUSTED-SCRIPT UNTRUSTED-SCRIPT REASON STDIN-REASON
run_matrix() {
	local policy=$1 good=$2 bad=$3 reason=$4 stdin_reason=$5
	local scenario outcomes outcome i
	while read -r scenario outcomes; do
		[ -n "$scenario" ] || continue
		read -r -a outcome <<<"$outcomes"
		for i in "${!modes[@]}"; do
			local mode=${modes[$i]} script=$good cmd=() pre=()
			local status=0 out=marker err=""
			case $scenario in untrusted-*) script=$bad ;; esac
			case $scenario in
			*indirect) cmd=("$PY" "$script") ;;
			*direct) cmd=(env "$script") ;;
			*stdin) pre=(with_stdin "$script") cmd=("$PY" -) ;;
			interactive-flag) cmd=("$PY" -c 'print("marker")') ;;
			interactive-pipe) pre=(with_pipe 'print("marker")') cmd=("$PY" -) ;;
			esac
			case ${outcome[$i]} in
			K) status=126 out="" err="env: '$script': Permission denied" ;;
			R) status=126 out="" err="trusted-python: $script: not trusted for execution: $reason" ;;
			S) status=126 out="" err="trusted-python: <stdin>: interactive code refused: $stdin_reason" ;;
			P) status=126 out="" err="trusted-python: <stdin>: interactive code refused: not a regular file: FIFO or pipe" ;;
			I) status=126 out="" err="trusted-python: -c: interactive code refused" ;;
			esac
			expect "policy $policy: $scenario under $mode" "$status" "$out" "$err" -- \
				"${pre[@]}" "mode_$mode" "${cmd[@]}"
		done
	done <<<"$matrix"
}

# Policy 1 with Debian's standard library as it is installed.
set_policy_file "policy = 1
log = none" || not_ok "policy file"
printf '#!%s\nprint("marker")\n' "$PY" >"$TF_TMP/exec/script"
cp "$TF_TMP/exec/script" "$TF_TMP/noexec/script"
chmod 0755 "$TF_TMP/exec/script" "$TF_TMP/noexec/script"
run_matrix 1 "$TF_TMP/exec/script" "$TF_TMP/noexec/script" \
	"noexec mount" "noexec mount: $TF_TMP/noexec"

# Policy 3 with an executable copy of the standard library.
set_policy_file "policy = 3
log = none" || not_ok "policy file"
if trusted_stdlib "$TF_TMP/exec"; then
	cp "$TF_TMP/exec/script" "$TF_TMP/exec/script-0644"
	chmod 0644 "$TF_TMP/exec/script-0644"
	run_matrix 3 "$TF_TMP/exec/script" "$TF_TMP/exec/script-0644" \
		"no execute permission" "no execute permission: uid $uid"
else
	not_ok "policy 3: make an executable copy of the standard library"
fi

done_testing
