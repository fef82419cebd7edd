#!/bin/bash
# The check cannot be forged by a seccomp filter (docs/semantics.md section
# 7): real filters (tests/helpers/forge-answer.c, NO_NEW_PRIVS, any user)
# answer one system call in the kernel's place, and enforced launchers still
# refuse a script on a noexec mount, as root and as uid 65534.  Each row has
# its control: the same command without the filter.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
# LeakSanitizer stops the world with ptrace, which a locked session refuses.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4
TF=$TF_BUILD/tools/trusted-for
forge=$TF_BUILD/tests/forge-answer
lua=$TF_BUILD/interpreters/lua/trusted-lua
inc=$TF_BUILD/interpreters/inc/inc
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }
X=$TF_TMP/exec N=$TF_TMP/noexec
printf 'print("ran")\n' >"$N/evil.lua"
printf 'print("ran")\n' >"$X/good.lua"
printf '+\n' >"$N/evil.inc"
printf '+\n' >"$X/good.inc"
chmod 0755 "$N"/* "$X"/*
declare -A launcher=([lua]=$lua [inc]=$inc) name=([lua]=trusted-lua [inc]=inc)
declare -A out=([lua]=ran [inc]=1)
declare -A as=([root]="" [nobody]="setpriv --reuid 65534 --regid 65534 --clear-groups --")
enforced=("$TF" run --restrict-file --)
msg="not trusted for execution"

for policy in 1 3; do
	set_policy_file "policy = $policy"
	for user in root nobody; do
		for l in lua inc; do
			w="policy $policy, $user, ${name[$l]}"
			evil=$N/evil.$l good=$X/good.$l
			# shellcheck disable=SC2086 # the prefix is words
			expect "$w: control, the noexec file is refused" 126 "" \
				"${name[$l]}: $evil: $msg: noexec mount" -- \
				${as[$user]} "${enforced[@]}" "${launcher[$l]}" "$evil"
			# shellcheck disable=SC2086
			expect "$w: control, the good file runs" 0 "${out[$l]}" "" -- \
				${as[$user]} "${enforced[@]}" "${launcher[$l]}" "$good"
			if [ $policy = 3 ]; then
				# Every AT_EXECVE_CHECK answered 0, the probe's too:
				# no kernel answers 0 for descriptor -1.
				# shellcheck disable=SC2086
				expect "$w: execveat(AT_EXECVE_CHECK) answered 0: refused" 126 "" \
					"${name[$l]}: $evil: $msg: check failed" -- \
					${as[$user]} "$forge" check=0 "${enforced[@]}" "${launcher[$l]}" "$evil"
				# Only the checks answered 0, the probe left to the
				# kernel: the yes is contradicted by the noexec mount.
				# shellcheck disable=SC2086
				expect "$w: the file's check answered 0: refused" 126 "" \
					"${name[$l]}: $evil: $msg: noexec mount" -- \
					${as[$user]} "$forge" check-fd=0 "${enforced[@]}" "${launcher[$l]}" "$evil"
				# shellcheck disable=SC2086
				expect "$w: ... and a good file still runs under that filter" 0 "${out[$l]}" "" -- \
					${as[$user]} "$forge" check-fd=0 "${enforced[@]}" "${launcher[$l]}" "$good"
				# EINVAL to the probe on this kernel, which has the
				# flag: no silent fall-back to the emulation (which
				# would run the good file without asking the LSMs).
				# shellcheck disable=SC2086
				expect "$w: execveat(AT_EXECVE_CHECK) answered EINVAL: even a good file is refused" 126 "" \
					"${name[$l]}: $good: $msg: check failed" -- \
					${as[$user]} "$forge" check=EINVAL "${enforced[@]}" "${launcher[$l]}" "$good"
				# shellcheck disable=SC2086
				expect "$w: execveat(AT_EXECVE_CHECK) answered ENOSYS: the same" 126 "" \
					"${name[$l]}: $good: $msg: check failed" -- \
					${as[$user]} "$forge" check=ENOSYS "${enforced[@]}" "${launcher[$l]}" "$good"
			fi
		done
	done
done

# PR_SET_DUMPABLE answered 0 by a filter: the launcher would stay dumpable,
# its memory open to the user's other processes (/proc/PID/mem), which is
# no place for an answer.  The owner procfs shows for its memory tells, so
# every enforced decision is refused, a good file's too; as root, whose
# memory only root reaches, nothing changes; with nothing enforced nothing
# is asked.
set_policy_file "policy = 1"
unexposed="its memory is not confirmed closed to its user's other processes (PR_SET_DUMPABLE 0 did not show)"
for l in lua inc; do
	expect "nobody, ${name[$l]}: PR_SET_DUMPABLE answered 0: even a good file is refused" 126 "" \
		"${name[$l]}: $X/good.$l: $msg: $unexposed" -- \
		${as[nobody]} "$forge" dumpable=0 "${enforced[@]}" "${launcher[$l]}" "$X/good.$l"
	code=(-e 'print(1)')
	[ $l = inc ] && code=(-c +)
	expect "nobody, ${name[$l]}: ... as is interactive code" 126 "" \
		"${name[$l]}: ${code[0]}: interactive code refused: $unexposed" -- \
		${as[nobody]} "$forge" dumpable=0 "$TF" run --deny-interactive -- "${launcher[$l]}" "${code[@]}"
	expect "root, ${name[$l]}: PR_SET_DUMPABLE answered 0: the good file runs" 0 "${out[$l]}" "" -- \
		"$forge" dumpable=0 "${enforced[@]}" "${launcher[$l]}" "$X/good.$l"
	expect "nobody, ${name[$l]}: PR_SET_DUMPABLE answered 0, nothing enforced: it runs" 0 "${out[$l]}" "" -- \
		${as[nobody]} "$forge" dumpable=0 "${launcher[$l]}" "$X/good.$l"
done

# Policy 1's emulation with fstatfs() answered 0 and nothing filled in: the
# poisoned buffer says noexec.  trusted-for check --policy 1 asks the
# emulation directly (no policy file involved).
for user in root nobody; do
	# shellcheck disable=SC2086
	expect "policy 1, $user: control, check passes the good file" 0 "" "" -- \
		${as[$user]} "$TF" check --policy 1 "$X/good.inc"
	# shellcheck disable=SC2086
	expect "policy 1, $user: fstatfs answered 0: the noexec file is not trusted" 1 "" \
		"trusted-for: $N/evil.inc: $msg: noexec mount: $N" -- \
		${as[$user]} "$forge" fstatfs=0 "$TF" check --policy 1 "$N/evil.inc"
	# shellcheck disable=SC2086
	expect "policy 1, $user: fstatfs answered 0: neither is the good file" 1 "" \
		"trusted-for: $X/good.inc: $msg: noexec mount: $X" -- \
		${as[$user]} "$forge" fstatfs=0 "$TF" check --policy 1 "$X/good.inc"
	# The file's type, mode and mount come from one statx(): answered 0
	# with nothing filled, it is no answer, and the kernel's yes (policy
	# 3) is not confirmed either.
	for policy in 1 3; do
		# shellcheck disable=SC2086
		expect "policy $policy, $user: statx answered 0: the good file is not trusted" 1 "" \
			"trusted-for: $X/good.inc: $msg: check failed: Input/output error" -- \
			${as[$user]} "$forge" statx=0 "$TF" check --policy $policy "$X/good.inc"
		# Answered ENOSYS, statx() is no answer either: glibc's own
		# fall-back would fill the type and mode but no mount id, and
		# another namespace's mount would pass for an old kernel's.
		# shellcheck disable=SC2086
		expect "policy $policy, $user: statx answered ENOSYS: the good file is not trusted" 1 "" \
			"trusted-for: $X/good.inc: $msg: check failed: Function not implemented" -- \
			${as[$user]} "$forge" statx=ENOSYS "$TF" check --policy $policy "$X/good.inc"
	done
done
# A filter that makes PR_GET_SECUREBITS say 0 and the policy file's open()
# say ENOENT would turn every source of enforcement off at once.  In a
# confined session no filter can be installed.  Elsewhere (--no-confine, or
# the policy file alone) the library lists the file's directory, a buffer
# no such filter can fill: the file is listed, so the ENOENT was not the
# kernel's.  A filter that also answers
# getdents64() gives a listing without ".", or none, and fails closed too.
for policy in 1 3; do
	set_policy_file "policy = $policy"$'\n'"enforce = file,interactive"
	for user in root nobody; do
		for l in lua inc; do
			w="policy $policy, $user, ${name[$l]}"
			refused="${name[$l]}: $N/evil.$l: $msg: noexec mount"
			# shellcheck disable=SC2086
			expect "$w: a filter that reads enforcement as off cannot be installed in a confined session" 1 "" \
				"forge-answer: cannot install the filter for unenforce=0" -- \
				${as[$user]} "$TF" run --restrict-file --deny-interactive --lock -- \
				"$forge" unenforce=0 "${launcher[$l]}" "$N/evil.$l"
			# The contradiction makes the file bad, which fails closed
			# for uid 65534 and does not bind root (trustedfor.conf(5)):
			# root, who installed the filter itself, is no attacker.
			if [ "$user" = root ]; then
				want=(0 "${out[$l]}" "")
				closed="root is not held to the bad file it makes: the file runs"
			else
				want=(126 "" "$refused")
				closed="fails closed"
			fi
			# shellcheck disable=SC2086
			expect "$w: --no-confine: the filter's ENOENT is contradicted by the listing: $closed" "${want[@]}" -- \
				${as[$user]} "$TF" run --restrict-file --deny-interactive --lock --no-confine -- \
				"$forge" unenforce=0 "${launcher[$l]}" "$N/evil.$l"
			# shellcheck disable=SC2086
			expect "$w: the policy file alone: the filter's ENOENT is contradicted by the listing: $closed" "${want[@]}" -- \
				${as[$user]} "$forge" unenforce=0 "${launcher[$l]}" "$N/evil.$l"
			for listing in 0 EPERM; do
				# shellcheck disable=SC2086
				expect "$w: the policy file alone: getdents64() answered $listing too: $closed" "${want[@]}" -- \
					${as[$user]} "$forge" unlist=$listing "${launcher[$l]}" "$N/evil.$l"
			done
			# shellcheck disable=SC2086
			expect "$w: control: the good file runs under the filter" 0 "${out[$l]}" "" -- \
				${as[$user]} "$forge" unlist=0 "${launcher[$l]}" "$X/good.$l"
		done
	done
	# What the library concluded, in its own words.
	expect "policy $policy: status under the filter names the contradiction" 0 \
		"policy file: NOT TRUSTED, failing closed: /etc/trustedfor.conf: open() says it does not exist, but its directory lists it: not the kernel's answer" "" -- \
		sh -c '"$1" unenforce=0 "$2" status | grep "^policy file:"' sh "$forge" "$TF"
	expect "policy $policy: status under a filter that empties the listing" 0 \
		"policy file: NOT TRUSTED, failing closed: /etc/trustedfor.conf: absent, and the listing of /etc holds no \".\": not the kernel's answer" "" -- \
		sh -c '"$1" unlist=0 "$2" status | grep "^policy file:"' sh "$forge" "$TF"
	expect "policy $policy: status when getdents64() is refused" 0 \
		"policy file: NOT TRUSTED, failing closed: /etc/trustedfor.conf: absent, and /etc cannot be listed to confirm it: Operation not permitted" "" -- \
		sh -c '"$1" unlist=EPERM "$2" status | grep "^policy file:"' sh "$forge" "$TF"
done
# A yes of the kernel's is one return value.  faccessat2() answered 0 (the
# emulation of policies 1 and 2) and execveat(AT_EXECVE_CHECK) answered 0
# (policy 3) count only when the mode and ACL give the caller the execute
# permission too: a filter can give that 0 for a file the caller may write
# but not execute.
printf 'print("ran")\n' >"$X/plain.lua"
chmod 0644 "$X/plain.lua"
# Someone else's file that uid 65534 may write but not execute.
printf 'print("ran")\n' >"$X/theirs.lua"
chown 1000:65534 "$X/theirs.lua" && chmod 0764 "$X/theirs.lua"
memfd_run='import os, sys
try:
    fd = os.memfd_create("m", 8)  # MFD_NOEXEC_SEAL (Linux 6.3): mode 0666
except OSError:
    fd = os.memfd_create("m", 0)
    os.fchmod(fd, 0o644)
os.write(fd, b"print(\"ran\")\n")
os.execv(sys.argv[1], ["trusted-lua", "/proc/self/fd/%d" % fd])'
for user in root nobody; do
	set_policy_file "policy = 2"$'\n'"enforce = file"
	# shellcheck disable=SC2086
	expect "policy 2, $user: faccessat2() answered 0 for a mode 0644 file: refused" 126 "" \
		"trusted-lua: $X/plain.lua: $msg: no execute permission" -- \
		${as[$user]} "$forge" faccessat2=0 "$lua" "$X/plain.lua"
	# shellcheck disable=SC2086
	expect "policy 2, $user: control: a good file runs under that filter" 0 "ran" "" -- \
		${as[$user]} "$forge" faccessat2=0 "$lua" "$X/good.lua"
	set_policy_file "policy = 1"$'\n'"enforce = file"
	# shellcheck disable=SC2086
	expect "policy 1, $user: faccessat2() answered 0 for a memfd without the execute bit: refused" 126 "" \
		"trusted-lua: /proc/self/fd/3: $msg: no execute permission" -- \
		${as[$user]} "$forge" faccessat2=0 /usr/bin/$TF_PYTHON -c "$memfd_run" "$lua"
	# shellcheck disable=SC2086
	expect "policy 1, $user: control: the same memfd without the filter: refused" 126 "" \
		"trusted-lua: /proc/self/fd/3: $msg: no execute permission" -- \
		${as[$user]} /usr/bin/$TF_PYTHON -c "$memfd_run" "$lua"
done
set_policy_file "policy = 3"$'\n'"enforce = file"
expect "policy 3, nobody: AT_EXECVE_CHECK answered 0 for a file nobody may not execute: refused" 126 "" \
	"trusted-lua: $X/theirs.lua: $msg: no execute permission" -- \
	${as[nobody]} "$forge" check-fd=0 "$lua" "$X/theirs.lua"
expect "policy 3, nobody: control: the same file without the filter: refused" 126 "" \
	"trusted-lua: $X/theirs.lua: $msg: no execute permission" -- \
	${as[nobody]} "$lua" "$X/theirs.lua"
expect "policy 3, root: control: root may execute it, under the filter too" 0 "ran" "" -- \
	"$forge" check-fd=0 "$lua" "$X/theirs.lua"
# The confirmation's own inputs, forged with the yes: a capget() that fills
# nothing must not read as CAP_DAC_OVERRIDE, and a geteuid()/getegid()/
# getgroups() of 0 must not move uid 65534 out of the file's group, whose
# bits refuse, into the "other" class, whose bits allow.
printf 'print("ran")\n' >"$X/group.lua"
chown 1000:65534 "$X/group.lua" && chmod 0765 "$X/group.lua"
# Named in an ACL entry without the execute bit; "other" may execute.
printf 'print("ran")\n' >"$X/acl.lua"
chown 1000:1000 "$X/acl.lua" && chmod 0775 "$X/acl.lua"
/usr/bin/$TF_PYTHON -c 'import os, struct, sys
e = lambda tag, perm, id=0xffffffff: struct.pack("<HHI", tag, perm, id)
acl = struct.pack("<I", 2) + e(1, 7) + e(2, 6, 65534) + e(4, 7) + e(0x10, 7) + e(0x20, 5)
os.setxattr(sys.argv[1], "system.posix_acl_access", acl)' "$X/acl.lua" ||
	not_ok "set the ACL of acl.lua"
for answer in check-fd=0 faccessat2=0; do
	policy=3
	[ "$answer" = faccessat2=0 ] && policy=2
	set_policy_file "policy = $policy"$'\n'"enforce = file"
	expect "policy $policy, nobody: $answer and capget() answered 0: refused" 126 "" \
		"trusted-lua: $X/theirs.lua: $msg: no execute permission" -- \
		${as[nobody]} "$forge" "$answer,capget=0" "$lua" "$X/theirs.lua"
	expect "policy $policy, nobody: $answer and the ids answered 0: refused" 126 "" \
		"trusted-lua: $X/group.lua: $msg: no execute permission" -- \
		${as[nobody]} "$forge" "$answer,creds=0" "$lua" "$X/group.lua"
	expect "policy $policy, nobody: control: outside the file's group, it runs" 0 "ran" "" -- \
		setpriv --reuid 65534 --regid 100 --clear-groups -- "$forge" "$answer,creds=0" "$lua" "$X/group.lua"
	expect "policy $policy, nobody: $answer: the ACL entry refuses" 126 "" \
		"trusted-lua: $X/acl.lua: $msg: no execute permission" -- \
		${as[nobody]} "$forge" "$answer" "$lua" "$X/acl.lua"
	# In a user namespace that maps uid 65534 to itself, the unmapped owner
	# 1000 shows as the overflow uid 65534 too (the policy file fails
	# closed there: policy 3, everything enforced).
	expect "policy $policy, nobody mapped to 65534 in a user namespace: $answer: refused" 126 "" \
		"trusted-lua: $X/theirs.lua: $msg: no execute permission" -- \
		${as[nobody]} unshare -U --map-user=65534 --map-group=65534 "$forge" "$answer" "$lua" "$X/theirs.lua"
	expect "policy $policy, nobody in that user namespace: control: a file every class may execute runs" 0 "ran" "" -- \
		${as[nobody]} unshare -U --map-user=65534 --map-group=65534 "$forge" "$answer" "$lua" "$X/good.lua"
	expect "policy $policy, root: control: root may execute it" 0 "ran" "" -- \
		"$forge" "$answer" "$lua" "$X/theirs.lua"
	expect "policy $policy, root: ... not when capget() answered 0, which fills nothing" 126 "" \
		"trusted-lua: $X/theirs.lua: $msg: no execute permission" -- \
		"$forge" "$answer,capget=0" "$lua" "$X/theirs.lua"
done
# No policy file at all: the listing confirms the absence, and the defaults
# (nothing enforced) apply under the same filter.
set_policy_file -
expect "no policy file: the listing confirms it, nothing enforced" 0 "ran" "" -- \
	"$forge" unenforce=0 "$lua" "$N/evil.lua"
done_testing
