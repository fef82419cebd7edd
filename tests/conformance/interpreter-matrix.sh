#!/bin/bash
# docs/semantics.md section 5's interpreter matrix: 8 scenarios x 4
# enforcement modes (and the three enforcing ones again from
# /etc/trustedfor.conf, the only enforcement of kernels without exec
# securebits), run against every enlightened interpreter that has an
# adapter in tests/conformance/interpreters/.  Exact exit status, stdout and stderr for
# every cell.  Runs as root in a private mount namespace (tests/lib.sh).
#
# THE ADAPTER CONTRACT.  tests/conformance/interpreters/NAME.sh is a bash
# fragment, sourced by this runner (TF_BUILD and TF_SRC are set), that sets:
#
#   interp      absolute path of the interpreter, e.g. "$TF_BUILD/.../inc"
#   prog        the name it puts before a refusal line, e.g. "inc"
#   code        one line of code that prints $marker and a newline
#   marker      what $code prints
#   eval_flag   the option that runs a string: "-c" or "-e"
#   stdin_args  a bash array: the arguments that make it read its code from
#               stdin, e.g. (-i) for inc, (-) or () for others
#
# and may set "missing" to a reason why the interpreter cannot be tested
# (its cells are then "not run", a failure under CI), or "not_in_build" to
# say that this build directory was configured without it (Meson option
# shells=false): its cells are then left out, with a comment.  It may also export or
# unset environment variables for its interpreter (LUA_INIT, ASAN_OPTIONS):
# each adapter is sourced in a subshell of its own, so they apply to its
# cells only.
#
# The runner writes each script as "#!$interp" then $code.  The interpreter
# must follow the refusal contract of docs/semantics.md sections 3 and 4,
# with these names, which the runner asserts exactly ($uid is the effective
# uid):
#   a script given as a path    "$prog: PATH: not trusted for execution: no execute permission"
#   stdin, a non-executable file "$prog: <stdin>: interactive code refused: no execute permission: uid $uid"
#   stdin, a pipe               "$prog: <stdin>: interactive code refused: not a regular file: FIFO or pipe"
#   the string option           "$prog: $eval_flag: interactive code refused"
# each alone on stderr, with exit status 126.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

# env's messages in plain ASCII quotes; no enforcement from the environment.
export LC_ALL=C
unset TRUSTEDFOR_ENFORCE
# No host policy file: policy 3, nothing enforced unless the securebits say so.
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }

uid=$(id -u)
# The modes (mode_none ... mode_both), with_stdin and with_pipe: tests/lib.sh.

# The expected outcome of each scenario under none, file, interactive, both:
# 0 runs and prints the marker; K the kernel refuses the exec (env reports
# it); R the interpreter refuses the file; S refuses stdin (non-executable
# file); P refuses stdin (pipe); I refuses the string option.
matrix='
direct             0 0 0 0
indirect           0 0 0 0
stdin              0 0 0 0
noexec-direct      K K K K
noexec-indirect    0 R 0 R
noexec-stdin       0 0 S S
interactive-flag   0 0 I I
interactive-pipe   0 0 P P
'

# run_cell NAME SCENARIO MODE OUTCOME
run_cell() {
	local scenario=$2 mode=$3 outcome=$4 script cmd=() stdin=()
	local what="$1: $scenario under $mode"
	local status=0 out=$marker err=""

	case $scenario in
	noexec-*) script=$dir/noexec-script ;;
	*) script=$dir/script ;;
	esac
	# stdin is given outside the mode's wrapper, as a shell would.
	case $scenario in
	direct | noexec-direct) cmd=(env "$script") ;;
	indirect | noexec-indirect) cmd=("$interp" "$script") ;;
	stdin | noexec-stdin)
		stdin=(with_stdin "$script")
		cmd=("$interp" "${stdin_args[@]}")
		;;
	interactive-flag) cmd=("$interp" "$eval_flag" "$code") ;;
	interactive-pipe)
		stdin=(with_pipe "$code")
		cmd=("$interp" "${stdin_args[@]}")
		;;
	esac
	case $outcome in
	0) ;;
	K) status=126 out="" err="env: '$script': Permission denied" ;;
	R) status=126 out="" err="$prog: $script: not trusted for execution: no execute permission" ;;
	S) status=126 out="" err="$prog: <stdin>: interactive code refused: no execute permission: uid $uid" ;;
	P) status=126 out="" err="$prog: <stdin>: interactive code refused: not a regular file: FIFO or pipe" ;;
	I) status=126 out="" err="$prog: $eval_flag: interactive code refused" ;;
	esac
	expect "$what" "$status" "$out" "$err" -- "${stdin[@]}" "mode_$mode" "${cmd[@]}"
}

# Each adapter runs in a subshell, so that what it sets or exports stays
# with its own cells; the TAP counters come back through a file.
for adapter in "$TF_SRC"/tests/conformance/interpreters/*.sh; do
	(
		name=$(basename "$adapter" .sh)
		stdin_args=()
		. "$adapter"
		if [ -n "${not_in_build:-}" ]; then
			echo "# $name: left out: $not_in_build"
			echo "$tap_n $tap_failed" >"$TF_TMP/counts"
			exit 0
		fi
		if [ -z "${missing:-}" ] && [ ! -x "$interp" ]; then
			missing="$interp is not built"
		fi
		if [ -n "${missing:-}" ]; then
			not_run "$name: the interpreter matrix" "$missing"
		else
			# Scripts live in this test's own tmpfs, so the shebang
			# can name the interpreter in the build tree.
			dir=$TF_TMP/$name
			mkdir -p "$dir"
			printf '#!%s\n%s\n' "$interp" "$code" >"$dir/script"
			cp "$dir/script" "$dir/noexec-script"
			chmod 0755 "$dir/script"
			chmod 0644 "$dir/noexec-script"
			while read -r scenario outcomes; do
				[ -n "$scenario" ] || continue
				read -r -a outcome <<<"$outcomes"
				for i in "${!modes[@]}"; do
					run_cell "$name" "$scenario" "${modes[$i]}" "${outcome[$i]}"
				done
				# The policy file's enforcement: as the securebits'.
				for i in 0 1 2; do
					run_cell "$name" "$scenario" "${policy_modes[$i]}" \
						"${outcome[$((i + 1))]}"
				done
			done <<<"$matrix"
		fi
		echo "$tap_n $tap_failed" >"$TF_TMP/counts"
	)
	read -r tap_n tap_failed <"$TF_TMP/counts"
done
done_testing
