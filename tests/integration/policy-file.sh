#!/bin/bash
# The policy file as the attacker meets it (issue 9): a strict file that root
# rewrites in place while interpreters start, and files that are cut short.
. "$TF_SRC/tests/lib.sh"
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE
inc=$TF_BUILD/interpreters/inc/inc
lua=$TF_BUILD/interpreters/lua/trusted-lua
TF=$TF_BUILD/tools/trusted-for
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }
noex=$TF_TMP/noexec
printf '+\n' >"$noex/one"
printf 'print("ran")\n' >"$noex/evil.lua"
chmod 0755 "$noex/one" "$noex/evil.lua"
nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups -- "$@"; }

# Files cut short: each fails closed, says why, and enforces everything.
bad="policy file: NOT TRUSTED, failing closed: /etc/trustedfor.conf"
while IFS='|' read -r what bytes why; do
	set_policy_file_raw "$(printf "${bytes}_")"
	expect "status: $what" 0 "$bad: $why" "" -- \
		bash -c '"$1" status | grep "^policy file:"' - "$TF"
	expect "inc refuses a noexec file: $what" 126 "" \
		"inc: $noex/one: not trusted for execution: noexec mount" -- \
		nobody "$inc" "$noex/one"
done <<'EOF'
an empty file||empty (incomplete)
the first line alone|trustedfor-policy 1\n|no 'end' line (incomplete)
cut inside a setting|trustedfor-policy 1\nenforce = no|line 2: no newline (incomplete)
cut before 'end'|trustedfor-policy 1\nenforce = none\n|no 'end' line (incomplete)
'end' without its newline|trustedfor-policy 1\nenforce = none\nend|line 3: no newline (incomplete)
a setting after 'end'|trustedfor-policy 1\nend\nenforce = none\n|line 3: content after 'end'
no first line|enforce = none\nend\n|line 1: not 'trustedfor-policy 1'
EOF
# Control: the same file, complete, is read and honoured.
set_policy_file "enforce = none"
expect "status: a complete file is trusted" 0 "policy file: /etc/trustedfor.conf: trusted" "" -- \
	bash -c '"$1" status | grep "^policy file:"' - "$TF"
expect "control: with it nothing is enforced and the file runs" 0 "1" "" -- \
	nobody "$inc" "$noex/one"

# The race: root rewrites a strict file in place as editors and cp(1) do
# (O_TRUNC, then the content in several writes: each printf is one write)
# while interpreters start, each reading whatever is there at that moment.
# None may run the noexec file.  The file logs to stderr from its second
# line on, so a start that caught it half-written says so.
rewrite_forever() {
	while :; do
		{
			printf 'trustedfor-policy 1\nlog = stderr\n'
			printf 'policy = 3\n'
			printf 'enforce = all\n'
			printf 'end\n'
		} >/etc/trustedfor.conf
	done
}
race() {
	local who=$1 what=$2 runs=$3 ran=0 incomplete=0 other=0 i
	shift 3
	rewrite_forever &
	local writer=$!
	for ((i = 0; i < runs; i++)); do
		"$@" >"$TF_TMP/out" 2>"$TF_TMP/err"
		[ $? = 126 ] || ran=$((ran + 1))
		grep -q '(incomplete)' "$TF_TMP/err" && incomplete=$((incomplete + 1))
		grep -v -e 'not trusted for execution: noexec mount$' \
			-e '^trustedfor: refused file=".*" reason="noexec mount" ' \
			-e 'bad policy file, enforcing everything: .*(incomplete)$' \
			"$TF_TMP/err" >/dev/null && other=$((other + 1))
	done
	kill "$writer"
	wait "$writer" 2>/dev/null
	echo "# $who $what: $runs starts, $incomplete caught the file half-written"
	[ "$ran" = 0 ] && ok "race, $who: $what never runs the noexec file ($runs starts)" ||
		not_ok "race, $who: $what ran the noexec file $ran times out of $runs"
	[ "$other" = 0 ] && ok "race, $who: $what: every start said only what a refusal says" ||
		{ not_ok "race, $who: $what: $other starts said something else"; sed 's/^/#   /' "$TF_TMP/err"; }
}
set_policy_file "enforce = all"
race root inc 200 "$inc" "$noex/one"
race "uid 65534" inc 200 nobody "$inc" "$noex/one"
race root trusted-lua 100 "$lua" "$noex/evil.lua"
race "uid 65534" trusted-lua 100 nobody "$lua" "$noex/evil.lua"

done_testing
