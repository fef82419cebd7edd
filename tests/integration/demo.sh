#!/bin/bash
# make demo works, and shows what it promises: the exact refusals.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
TF_TMP=$(mktemp -d)
trap 'rm -rf "$TF_TMP"' EXIT
# The demo runs trusted-python, whose leak reports in the ASan build would
# be CPython's own exit-time allocations (see interpreters/python.sh).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	"$TF_SRC/scripts/demo.sh" "$TF_BUILD" >"$TF_TMP/demo" 2>&1
status=$?
sed 's/\x1b\[[0-9;]*m//g' "$TF_TMP/demo" >"$TF_TMP/plain"
[ "$status" = 0 ] && ok "the demo runs to its end" || not_ok "the demo runs to its end (status $status)"

# shows LINE NEXT: LINE appears, directly followed by NEXT.
shows() {
	if grep -A1 -xF -- "$1" "$TF_TMP/plain" | grep -qxF -- "$2"; then
		ok "the demo shows: $1"
	else
		not_ok "the demo shows: $1 / $2"
		sed 's/^/#   /' "$TF_TMP/plain"
	fi
}
# Not root, the demo runs in a user namespace, where the policy file fails
# closed: it shows the refusals of everything enforced, and stops.
if [ "$(id -u)" != 0 ]; then
	shows "# Not root, so in a user namespace: a mount could hide the policy file there, so it fails closed and everything is enforced (run the demo as root to see the defaults)" \
		'$ inc noexec/evil.inc'
	shows '$ inc noexec/evil.inc' "inc: noexec/evil.inc: not trusted for execution: noexec mount"
	shows '$ inc exec/hello.inc' "1"
	shows '$ inc -c +' "inc: -c: interactive code refused"
	if [ -x "$TF_BUILD/interpreters/lua/trusted-lua" ]; then
		shows '$ trusted-lua noexec/evil.lua' \
			"trusted-lua: noexec/evil.lua: not trusted for execution: noexec mount"
	fi
	if [ -x "$TF_BUILD/interpreters/python/trusted-python" ]; then
		shows '$ trusted-python noexec/evil.py' \
			"trusted-python: /usr/lib/$TF_PYTHON/encodings/__init__.py: not trusted for execution: no execute permission"
	fi
	done_testing
fi
# The demo follows the kernel (tests/lib.sh's probes): the check's backend,
# and enforcement by the exec securebits or, without them, TRUSTEDFOR_ENFORCE.
K=$(expected_backend)
if kernel_lacks exec-securebits; then
	restrict="env TRUSTEDFOR_ENFORCE=file"
	deny="env TRUSTEDFOR_ENFORCE=interactive"
else
	restrict="trusted-for run --restrict-file --"
	deny="trusted-for run --deny-interactive --"
fi
shows "exec/hello.inc: trusted for execution (policy 3, $K)" \
	"exec/notexec.inc: not trusted for execution: no execute permission: uid 0 (policy 3, $K)"
shows '$ inc noexec/evil.inc' "1"
shows "inc: noexec/evil.inc: not trusted for execution: noexec mount" "[exit status 126]"
shows "inc: -c: interactive code refused" "[exit status 126]"
shows "inc: <stdin>: interactive code refused: not a regular file: FIFO or pipe" "[exit status 126]"
shows "\$ $deny inc -i <exec/hello.inc" "1"
if [ "$restrict" = "env TRUSTEDFOR_ENFORCE=file" ]; then
	shows "securebits: 0x0, no exec securebits in this kernel" \
		"enforcement: file, interactive (policy file: file, interactive; TRUSTEDFOR_ENFORCE: none)"
	shows '$ inc noexec/evil.inc' "inc: noexec/evil.inc: not trusted for execution: noexec mount"
else
	shows "securebits: 0xf00, EXEC_RESTRICT_FILE on (locked), EXEC_DENY_INTERACTIVE on (locked)" \
		"enforcement: file, interactive (policy file: none; TRUSTEDFOR_ENFORCE: none)"
fi
if [ -x "$TF_BUILD/interpreters/lua/trusted-lua" ]; then
	shows "trusted-lua: noexec/evil.lua: not trusted for execution: noexec mount" "[exit status 126]"
fi
if [ -x "$TF_BUILD/interpreters/python/trusted-python" ] && ! kernel_lacks trusted-for-syscall; then
	# The guest's fs.trusted_for_policy is 3 (kernel/userspace-init.sh).
	line="# Not shown here: this kernel's fs.trusted_for_policy is 3, not 1, and Debian's standard library (mode 0644) is refused under it"
	if grep -A2 -xF "# The same for trusted-python" "$TF_TMP/plain" | grep -qxF -- "$line"; then
		ok "the demo says why trusted-python is not shown"
	else
		not_ok "the demo says why trusted-python is not shown"
		sed 's/^/#   /' "$TF_TMP/plain"
	fi
elif [ -x "$TF_BUILD/interpreters/python/trusted-python" ]; then
	# CPython names the main script by its absolute path, as python3 does.
	if grep -A1 -xE "trusted-python: /tmp/trustedfor-demo\.[A-Za-z0-9]+/noexec/evil\.py: not trusted for execution: noexec mount" \
		"$TF_TMP/plain" | grep -qxF "[exit status 126]"; then
		ok "the demo shows trusted-python refusing noexec/evil.py"
	else
		not_ok "the demo shows trusted-python refusing noexec/evil.py"
	fi
	shows "\$ $restrict trusted-python exec/good.py" '{"ok": true}'
fi
done_testing
