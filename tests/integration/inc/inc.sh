#!/bin/bash
# inc, the reference interpreter: its language, its command line, and its
# refusals on the descriptor it reads (noexec mount, execute bit, stdin).
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE
# LeakSanitizer stops the world with ptrace, which a locked session refuses.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
inc=$TF_BUILD/interpreters/inc/inc
run=$TF_BUILD/tools/trusted-for
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }

ex=$TF_TMP/exec noex=$TF_TMP/noexec
printf '#!%s\n# counts to two, reads, counts on\n+\n\n+\n?\n+\n' "$inc" >"$ex/count"
printf '+\nfrob\n+\n' >"$ex/bad"
printf '+\n' >"$noex/one"
chmod 0755 "$ex/count" "$ex/bad" "$noex/one"
printf '+\n' >"$ex/one-0644"


# The language.
expect "a script counts and reads" 0 $'1\n2\n42' "" -- \
	with_stdin <(echo 41) "$inc" "$ex/count"
expect "direct exec through the shebang line" 0 $'1\n2\n8' "" -- \
	with_stdin <(echo 7) "$ex/count"
expect "-c runs each line" 0 $'1\n2' "" -- "$inc" -c $'+\n+'
expect "-i reads code from stdin" 0 $'1\n2' "" -- with_stdin <(printf '+\n+\n') "$inc" -i
expect "a bad command stops with status 1" 1 "1" "inc: $ex/bad:2: bad command: frob" -- \
	"$inc" "$ex/bad"
printf '+\n\033]0;owned\a\xc2\x9b2J\n' >"$ex/escapes" && chmod 0755 "$ex/escapes"
expect "the echo of a bad line never carries its escapes" 1 "1" \
	"inc: $ex/escapes:2: bad command: ?]0;owned???2J" -- "$inc" "$ex/escapes"
expect "? without a number" 1 "" "inc: -c:1: no number on stdin: ?" -- "$inc" -c "?"
expect "a missing file" 1 "" "inc: $ex/none: No such file or directory" -- "$inc" "$ex/none"
expect "no argument is a usage error" 2 "" "usage: inc FILE | inc -i | inc -c CODE" -- "$inc"
expect "an unknown option is a usage error" 2 "" "usage: inc FILE | inc -i | inc -c CODE" -- "$inc" -x

# Refusals: one line, status 126, the reason of the check.
msg="not trusted for execution"
for policy in 1 3; do
	set_policy_file "policy = $policy"
	expect "policy $policy: a script on a noexec mount is refused" 126 "" \
		"inc: $noex/one: $msg: noexec mount" -- "$run" run --restrict-file -- "$inc" "$noex/one"
	expect "policy $policy: it runs when nothing is enforced" 0 "1" "" -- "$inc" "$noex/one"
	ln -sf "$noex/one" "$ex/link"
	expect "policy $policy: a symlink to it is refused" 126 "" \
		"inc: $ex/link: $msg: noexec mount" -- "$run" run --restrict-file -- "$inc" "$ex/link"
	expect "policy $policy: /proc/self/fd/N is refused" 126 "" \
		"inc: /proc/self/fd/3: $msg: noexec mount" -- \
		"$run" run --restrict-file -- "$inc" /proc/self/fd/3 3<"$noex/one"
	expect "policy $policy: stdin from a noexec mount is refused" 126 "" \
		"inc: <stdin>: interactive code refused: noexec mount: $noex" -- \
		with_stdin "$noex/one" "$run" run --deny-interactive -- "$inc" -i
done
set_policy_file "policy = 1"
expect "policy 1: a file without the execute bit runs" 0 "1" "" -- \
	"$run" run --restrict-file -- "$inc" "$ex/one-0644"
set_policy_file "policy = 3"
expect "policy 3: a file without the execute bit is refused" 126 "" \
	"inc: $ex/one-0644: $msg: no execute permission" -- \
	"$run" run --restrict-file -- "$inc" "$ex/one-0644"
expect "-c is refused under DENY_INTERACTIVE" 126 "" "inc: -c: interactive code refused" -- \
	"$run" run --deny-interactive -- "$inc" -c +
# A pipe named as the script is interactive code, for root and for uid
# 65534 (who makes the pipe, so that they may reopen it).
for who in root nobody; do
	as=
	[ "$who" = nobody ] && as="setpriv --reuid 65534 --regid 65534 --clear-groups --"
	expect "$who: a pipe named /dev/stdin is refused under DENY_INTERACTIVE" 126 "" \
		"inc: /dev/stdin: interactive code refused: not a regular file: FIFO or pipe" -- \
		$as bash -c 'printf "+\n" | "$0" run --deny-interactive -- "$1" /dev/stdin' "$run" "$inc"
	expect "$who: ... and runs when nothing is enforced" 0 "1" "" -- \
		$as bash -c 'printf "+\n" | "$0" /dev/stdin' "$inc"
done
# Under policy 0 every file passes the check, a pipe too; it is still
# interactive code, since passing the check does not make a pipe a file,
# from the policy file alone as from a locked session.
set_policy_file "policy = 0"$'\n'"enforce = interactive"
for who in root nobody; do
	as=
	[ "$who" = nobody ] && as="setpriv --reuid 65534 --regid 65534 --clear-groups --"
	expect "policy 0, $who: a pipe named /dev/stdin is refused by the policy file's enforce = interactive" 126 "" \
		"inc: /dev/stdin: interactive code refused: not a regular file: FIFO or pipe" -- \
		$as bash -c 'printf "+\n" | "$0" /dev/stdin' "$inc"
	expect "policy 0, $who: process substitution is refused" 126 "" \
		"inc: /dev/fd/63: interactive code refused: not a regular file: FIFO or pipe" -- \
		$as bash -c '"$0" <(printf "+\n")' "$inc"
	expect "policy 0, $who: a locked session refuses it too" 126 "" \
		"inc: /dev/stdin: interactive code refused: not a regular file: FIFO or pipe" -- \
		$as bash -c 'printf "+\n" | "$0" run --deny-interactive --lock -- "$1" /dev/stdin' "$run" "$inc"
	expect "policy 0, $who: control: a regular file runs" 0 "1" "" -- \
		$as "$inc" "$ex/one-0644"
done
set_policy_file "policy = 0"
expect "policy 0, nothing enforced: the pipe runs" 0 "1" "" -- \
	bash -c 'printf "+\n" | "$0" /dev/stdin' "$inc"
set_policy_file "enforce = file"
expect "the policy file's enforce = file refuses it too" 126 "" \
	"inc: $ex/one-0644: $msg: no execute permission" -- "$inc" "$ex/one-0644"
done_testing
