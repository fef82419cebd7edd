#!/bin/bash
# The policy file as the attacker meets it (docs/semantics.md section 7): a
# strict file that root rewrites in place while interpreters start, and
# files that are cut short.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
# LeakSanitizer reads /proc, which some cases hide under a tmpfs: there the
# sanitizer runtime reads its options and its own name from the fake
# /proc/self/environ and /proc/self/exe.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
unset TRUSTEDFOR_ENFORCE
inc=$TF_BUILD/interpreters/inc/inc
lua=$TF_BUILD/interpreters/lua/trusted-lua
TF=$TF_BUILD/tools/trusted-for
forge=$TF_BUILD/tests/forge-answer
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }
noex=$TF_TMP/noexec
printf '+\n' >"$noex/one"
printf 'print("ran")\n' >"$noex/evil.lua"
chmod 0755 "$noex/one" "$noex/evil.lua"

# Files cut short: each fails closed, says why, and enforces everything.
bad="policy file: NOT TRUSTED, failing closed: /etc/trustedfor.conf"
while IFS='|' read -r what bytes why; do
	set_policy_file_raw "$(printf "${bytes}_")"
	expect "status: $what" 0 "$bad: $why" "" -- \
		bash -c '"$1" status | grep "^policy file:"' - "$TF"
	expect "inc refuses a noexec file: $what" 126 "" \
		"inc: $noex/one: not trusted for execution: noexec mount" -- \
		as_nobody "$inc" "$noex/one"
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
	as_nobody "$inc" "$noex/one"

# User namespaces (docs/semantics.md section 7): inside "unshare -Urm" a
# user can mount over /etc, where their own file shows as uid 0, or hide the
# file.  Only root of the initial user namespace counts, and uid 0 seen here
# is that root only where every map down to this namespace carries it to 0,
# which only root can arrange; so in a user's namespace, however nested, a
# file fails closed, and so does its absence, whatever stands in for /proc.
# in_userns WHO SCRIPT: SCRIPT in "unshare -Urm" started by WHO (root or
# nobody); SCRIPT sees $TF, $inc, $lua, $noex, $policy (a complete file
# that enforces nothing) and $libdir (the build's libraries: without /proc
# the loader cannot find them through $ORIGIN).
in_userns() {
	local who=$1
	shift
	local as=()
	[ "$who" = nobody ] && as=(as_nobody)
	"${as[@]}" env TF="$TF" inc="$inc" lua="$lua" noex="$noex" forge="$forge" \
		libdir="$TF_BUILD/lib" \
		policy=$'trustedfor-policy 1\nenforce = none\nend' \
		unshare -Urm${2:-} bash -c "$1"
}
failing="policy file: NOT TRUSTED, failing closed: /etc/trustedfor.conf"
untold="$failing: cannot tell the user namespace"
status_line='"$TF" status | grep "^policy file:"'
set_policy_file "enforce = none"
outer=65534
expect "userns, nobody: their own file mounted over /etc fails closed" 0 \
	"$failing: owned by uid 0 here, uid $outer in the parent user namespace (uid_map 0 $outer 1): only root of the initial one counts" "" -- \
	in_userns nobody 'mount -t tmpfs etc /etc && echo "$policy" >/etc/trustedfor.conf &&'"$status_line"
expect "userns, nobody: ... and trusted-lua refuses the noexec file" 126 "" \
	"trusted-lua: $noex/evil.lua: not trusted for execution: noexec mount" -- \
	in_userns nobody 'mount -t tmpfs etc /etc && echo "$policy" >/etc/trustedfor.conf && exec "$lua" "$noex/evil.lua"'
expect "userns, nobody: the file hidden under an empty /etc fails closed" 0 \
	"$failing: absent, in a user namespace (uid_map 0 $outer 1) where a mount can hide it" "" -- \
	in_userns nobody 'mount -t tmpfs etc /etc && '"$status_line"
expect "userns, nobody: ... and inc refuses the noexec file" 126 "" \
	"inc: $noex/one: not trusted for execution: noexec mount" -- \
	in_userns nobody 'mount -t tmpfs etc /etc && exec "$inc" "$noex/one"'
expect "userns, nobody: root's file, seen from inside as the overflow uid, fails closed" 0 \
	"$failing: owned by uid 65534 here, no uid in the parent user namespace (uid_map 0 $outer 1): only root of the initial one counts" "" -- \
	in_userns nobody "$status_line"
# A namespace in a namespace maps its "0" to the outer one's "0", the
# user's own uid: one step of the map would call their file root's.
expect "userns, nobody: their file seen from a nested namespace fails closed" 0 \
	"$failing: owned by uid 0 here, uid 0 in the parent user namespace (uid_map 0 0 1): only root of the initial one counts" "" -- \
	in_userns nobody 'mount -t tmpfs etc /etc && echo "$policy" >/etc/trustedfor.conf && unshare -Ur bash -c '"'$status_line'"
# What stands in for procfs's "self" link: a tmpfs of theirs with a link
# of theirs, a procfs of their own, a mount over the link's target, and
# filters that answer fstatfs() and statx() without filling the buffers.
# (A directory of procfs bound over /proc, their process's or their network
# namespace's holding an interface renamed "self", is in test-policy-file:
# a sanitizer cannot start without /proc/self.)
own_file='mount -t tmpfs etc /etc && echo "$policy" >/etc/trustedfor.conf && '
# (In root's own namespace too: there /proc is still no procfs.)
for who in nobody root; do
	expect "userns, $who: a tmpfs over /proc with a link of theirs fails closed" 0 \
		"$untold: /proc is not procfs" "" -- \
		in_userns $who "$own_file"'mkdir -p /etc/proc/1 && ln -s 1 /etc/proc/self &&
			printf "ASAN_OPTIONS=detect_leaks=0\\0" >/etc/proc/1/environ && ln -s "$TF" /etc/proc/1/exe &&
			mount --bind /etc/proc /proc && LD_LIBRARY_PATH=$libdir '"$status_line"
done
expect "userns, nobody: a procfs of their own (PID namespace) fails closed" 0 \
	"$failing: owned by uid 0 here, uid $outer in the parent user namespace (uid_map 0 $outer 1): only root of the initial one counts" "" -- \
	in_userns nobody "$own_file"'exec unshare -pf --mount-proc bash -c '"'$status_line'"
expect "userns, nobody: a mount over where /proc/self leads fails closed" 0 \
	"$failing: owned by uid 0 here, uid $outer in the parent user namespace (uid_map 0 $outer 1): only root of the initial one counts" "" -- \
	in_userns nobody "$own_file"'mount -t tmpfs x /proc/self && '"$status_line"
expect "userns, nobody: fstatfs() forged to 0 fails closed" 0 \
	"$untold: /proc is not procfs" "" -- \
	in_userns nobody "$own_file"'"$forge" fstatfs=0 '"$status_line"
expect "userns, nobody: statx() forged to 0 fails closed" 0 \
	"$untold: /proc/self is not procfs's own link" "" -- \
	in_userns nobody "$own_file"'"$forge" statx=0 '"$status_line"
# glibc's statx() answers ENOSYS with an fstatat() of its own, whose
# buffer another filter could leave unfilled: the library makes the
# system call itself, and ENOSYS is an answer it cannot use.
expect "userns, nobody: statx() forged to ENOSYS fails closed" 0 \
	"$untold: /proc/self: Function not implemented" "" -- \
	in_userns nobody "$own_file"'"$forge" statx=ENOSYS '"$status_line"
# The map, read for the message, cannot be faked either.
expect "userns, nobody: an identity map mounted over /proc/PID/uid_map is not read" 0 \
	"$failing: cannot read /proc/self/uid_map: not procfs, or something mounted over it" "" -- \
	in_userns nobody "$own_file"'echo "0 0 4294967295" >/etc/map &&
		(mount --bind /etc/map /proc/$BASHPID/uid_map && grep -qx " *0 *0 *4294967295" /proc/$BASHPID/uid_map &&
		 exec "$TF" status) | grep "^policy file:"'
# Nor by a filter that answers openat2() with 0 while standard input
# was closed at the start: 0 is then the first file the process opened
# itself, here the policy file, whose first line would read as the
# identity map (and whose rest, past what that read took, as a policy,
# where the filter also keeps close(0) from closing it).
expect "userns, nobody: openat2() forged to 0, a file of theirs there, fails closed" 0 \
	"$failing: cannot read /proc/self/uid_map: Bad file descriptor" "" -- \
	in_userns nobody 'mount -t tmpfs etc /etc &&
		printf "0 0 4294967295\n%047d\n%s\n" 0 "$policy" >/etc/trustedfor.conf &&
		"$forge" openat2=0 "$TF" status <&- | grep "^policy file:"'
# Root's own namespace ("unshare -Urm" by root: uid_map "0 0 1") maps root
# of the initial namespace to its root: there uid 0 is that root, and its
# files, nested or not, count as root's own; only root can make one.
expect "userns, root: root's file mounted over /etc counts" 0 \
	"policy file: /etc/trustedfor.conf: trusted" "" -- \
	in_userns root 'mount -t tmpfs etc /etc && echo "$policy" >/etc/trustedfor.conf &&'"$status_line"
expect "userns, root: ... and seen from a nested namespace" 0 \
	"policy file: /etc/trustedfor.conf: trusted" "" -- \
	in_userns root 'mount -t tmpfs etc /etc && echo "$policy" >/etc/trustedfor.conf && unshare -Ur bash -c '"'$status_line'"
expect "userns, root: no file there is the defaults" 0 \
	"policy file: /etc/trustedfor.conf: absent, defaults apply" "" -- \
	in_userns root 'mount -t tmpfs etc /etc && '"$status_line"
# Controls: outside a user namespace the same file counts, and its absence
# is the defaults, for root and for uid 65534.
expect "control, nobody: the root-owned file counts outside a user namespace" 0 \
	"policy file: /etc/trustedfor.conf: trusted" "" -- \
	as_nobody env TF="$TF" bash -c "$status_line"
set_policy_file -
expect "control, nobody: no file outside a user namespace is the defaults" 0 \
	"policy file: /etc/trustedfor.conf: absent, defaults apply" "" -- \
	as_nobody env TF="$TF" bash -c "$status_line"
expect "control, nobody: ... and the noexec file runs when nothing is enforced" 0 "1" "" -- \
	as_nobody "$inc" "$noex/one"

# A bad file and root (docs/semantics.md section 3, trustedfor.conf(5)):
# root, who can rewrite the file, is held to what the securebits and
# TRUSTEDFOR_ENFORCE say and to nothing else, so that a typo locks no one
# out who could mend it; uid 65534 still fails closed, as before.  Each
# kind of bad file: what policy check says of it, then -c through each
# enlightened shell and Python, as root and as uid 65534.
# NAME|PROGRAM|CODE: each enlightened -c of this build (a sanitizer build
# has no shells), the first for the cases below that need one only.
with_c=()
for row in "trusted-dash|$TF_BUILD/shells/trusted-dash|echo ran" \
	"trusted-bash|$TF_BUILD/shells/trusted-bash|echo ran" \
	"trusted-python|$TF_BUILD/interpreters/python/trusted-python|print(\"ran\")"; do
	[ -x "$(echo "$row" | cut -d'|' -f2)" ] && with_c+=("$row")
done
IFS='|' read -r first first_prog first_code <<<"${with_c[0]}"
runs_c() {
	local who=$1 what=$2 refused=$3 row name prog code
	for row in "${with_c[@]}"; do
		IFS='|' read -r name prog code <<<"$row"
		if [ "$refused" = refused ]; then
			expect "$what, $who: $name -c is refused" 126 "" \
				"$name: -c: interactive code refused" -- as_user "$who" "$prog" -c "$code"
		else
			expect "$what, $who: $name -c runs" 0 "ran" "" -- as_user "$who" "$prog" -c "$code"
		fi
	done
}
good=$'trustedfor-policy 1\npolicy = 1\nend\n'
while IFS='|' read -r what bytes mode owner why; do
	set_policy_file_raw "$(printf "${bytes}_")" "$mode" "$owner"
	expect "policy check: $what" 1 "/etc/trustedfor.conf: $why" "" -- "$TF" policy check
	runs_c root "$what" runs
	runs_c nobody "$what" refused
done <<'EOF_KINDS'
a blank line after 'end'|trustedfor-policy 1\npolicy = 1\nend\n\n|0644|0|line 4: content after 'end'
cut short|trustedfor-policy 1\npolicy = 1\nenfor|0644|0|line 3: no newline (incomplete)
no 'end'|trustedfor-policy 1\npolicy = 1\n|0644|0|no 'end' line (incomplete)
owned by uid 65534|trustedfor-policy 1\npolicy = 1\nend\n|0644|65534|owned by uid 65534, not root
group-writable|trustedfor-policy 1\npolicy = 1\nend\n|0664|0|writable by group or others (mode 0664)
EOF_KINDS
set_policy_file -
expect "policy check: no file" 0 \
	"/etc/trustedfor.conf: absent, the built-in defaults: policy 3, enforce none, audit off" "" -- \
	"$TF" policy check
runs_c root "no file" runs
runs_c nobody "no file" runs
# A filter that answers getresuid() with 0, its outputs unwritten, makes
# nobody root.
set_policy_file_raw "$(printf 'trustedfor-policy 1\npolicy = 1\nend\n\n_')"
# (The launcher, which asks getresuid() too, then cannot confirm its memory
# closed either.)
expect "a blank line after 'end', nobody, getresuid() forged to 0: $first -c is refused" 126 "" \
	"$first: -c: interactive code refused: its memory is not confirmed closed to its user's other processes (PR_SET_DUMPABLE 0 did not show)" -- \
	as_nobody "$forge" getresuid=0 "$first_prog" -c "$first_code"
# Root is held to the securebits still.
if kernel_lacks exec-securebits; then
	not_applicable "a blank line after 'end', root under DENY_INTERACTIVE: -c is refused" "$na_why"
else
	expect "a blank line after 'end', root under DENY_INTERACTIVE: $first -c is refused" 126 "" \
		"$first: -c: interactive code refused" -- \
		"$TF" run --deny-interactive -- "$first_prog" -c "$first_code"
fi

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
# Root is not held to a half-written file, which reads as a bad one: a
# start of root's that caught it runs the file (and logs so, on standard
# error once the file's "log = stderr" line was there, else to syslog).
# Every start of uid 65534's refuses it.
race() {
	local who=$1 what=$2 runs=$3 want=$4 ran=0 odd=0 incomplete=0 other=0 i status
	shift 4
	rewrite_forever &
	local writer=$!
	for ((i = 0; i < runs; i++)); do
		"$@" >"$TF_TMP/out" 2>"$TF_TMP/err"
		status=$?
		if [ $status != 126 ]; then
			ran=$((ran + 1))
			[ $status = 0 ] && [ "$(cat "$TF_TMP/out")" = "$want" ] || odd=$((odd + 1))
		fi
		grep -q '(incomplete)' "$TF_TMP/err" && incomplete=$((incomplete + 1))
		grep -v -e 'not trusted for execution: noexec mount$' \
			-e '^trustedfor: refused file=".*" reason="noexec mount" ' \
			-e '^trustedfor: audit file=".*" reason="noexec mount" ' \
			-e 'bad policy file, enforcing everything: .*(incomplete)$' \
			-e '^trustedfor: bad policy file, not enforced for root and group 27 .*(incomplete)$' \
			"$TF_TMP/err" >/dev/null && other=$((other + 1))
	done
	kill "$writer"
	wait "$writer" 2>/dev/null
	echo "# $who $what: $runs starts, $incomplete caught the file half-written, $ran ran the file"
	if [ "$who" = root ]; then
		[ "$odd" = 0 ] && ok "race, root: $what refuses the noexec file or runs it whole, each of $runs starts" ||
			not_ok "race, root: $what: $odd of $runs starts neither refused the noexec file nor ran it"
	else
		[ "$ran" = 0 ] && ok "race, $who: $what never runs the noexec file ($runs starts)" ||
			not_ok "race, $who: $what ran the noexec file $ran times out of $runs"
	fi
	[ "$other" = 0 ] && ok "race, $who: $what: every start said only what a refusal says" ||
		{ not_ok "race, $who: $what: $other starts said something else"; sed 's/^/#   /' "$TF_TMP/err"; }
}
set_policy_file "enforce = all"
race root inc 200 1 "$inc" "$noex/one"
race "uid 65534" inc 200 1 as_nobody "$inc" "$noex/one"
race root trusted-lua 100 ran "$lua" "$noex/evil.lua"
race "uid 65534" trusted-lua 100 ran as_nobody "$lua" "$noex/evil.lua"

done_testing
