#!/bin/bash
# trusted-lua against the usual ways around a check, under check policy 1
# (mount) and 3 (mount and execute bit), with both securebits set: each
# attempt must end in the exact refusal, and the code must not run.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4
lua=$TF_BUILD/interpreters/lua/trusted-lua
run=$TF_BUILD/tools/trusted-for
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }

ex=$TF_TMP/exec noex=$TF_TMP/noexec
not="not trusted for execution"

# Untrusted code, executable, but on a noexec mount.
printf 'print("EVIL RAN")\nreturn true\n' >"$noex/evil.lua"
chmod 0755 "$noex/evil.lua"
# A trusted main script that requires "evil" and says what happened.
printf 'print("main")\nrequire("evil")\nprint("not reached")\n' >"$ex/main.lua"
printf 'package.path = "%s/?.lua"\nrequire("evil")\n' "$noex" >"$ex/main-path.lua"
printf 'print(pcall(require, "evil"))\n' >"$ex/main-pcall.lua"
printf 'dofile(arg[1])\n' >"$ex/dofile.lua"
printf 'print(pcall(loadfile, arg[1]))\n' >"$ex/loadfile.lua"
printf 'print(pcall(require, "evilc"))\n' >"$ex/cmodule.lua"
chmod 0755 "$ex"/*.lua
# Any shared object will do: it is refused before it is loaded.
cp "$(ls /usr/lib/*/liblua5.4.so.0 | head -n 1)" "$noex/evilc.so"
# A noexec bind mount of the exec tmpfs: the same files, seen noexec.
mkdir -p "$TF_TMP/bind"
mount --bind "$ex" "$TF_TMP/bind" && mount -o remount,bind,noexec "$TF_TMP/bind" ||
	not_ok "make a noexec bind mount"
cp "$noex/evil.lua" "$ex/good.lua"

enforced() { "$run" run --restrict-file --deny-interactive -- "$@"; }

for policy in 1 3; do
	set_policy_file "policy = $policy"
	p="policy $policy"

	expect "$p: a script on a noexec mount" 126 "" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- enforced "$lua" "$noex/evil.lua"
	ln -sf "$noex/evil.lua" "$ex/symlink.lua"
	expect "$p: a symlink on an exec mount to it" 126 "" \
		"trusted-lua: $ex/symlink.lua: $not: noexec mount" -- enforced "$lua" "$ex/symlink.lua"
	ln -f "$noex/evil.lua" "$noex/hardlink.lua"
	expect "$p: a hardlink to it" 126 "" \
		"trusted-lua: $noex/hardlink.lua: $not: noexec mount" -- enforced "$lua" "$noex/hardlink.lua"
	expect "$p: a hardlink onto the exec mount cannot be made" 1 "" \
		"ln: failed to create hard link '$ex/hardlink.lua' => '$noex/evil.lua': Invalid cross-device link" -- \
		ln "$noex/evil.lua" "$ex/hardlink.lua"
	expect "$p: an exec file through a noexec bind mount" 126 "" \
		"trusted-lua: $TF_TMP/bind/good.lua: $not: noexec mount" -- enforced "$lua" "$TF_TMP/bind/good.lua"
	expect "$p: /proc/self/fd/N of a noexec file" 126 "" \
		"trusted-lua: /proc/self/fd/3: $not: noexec mount" -- \
		enforced "$lua" /proc/self/fd/3 3<"$noex/evil.lua"
	expect "$p: /dev/fd/N of a noexec file" 126 "" \
		"trusted-lua: /dev/fd/3: $not: noexec mount" -- \
		enforced "$lua" /dev/fd/3 3<"$noex/evil.lua"
	expect "$p: a module on a noexec mount through LUA_PATH" 126 "main" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- \
		enforced env LUA_PATH="$noex/?.lua" "$lua" "$ex/main.lua"
	expect "$p: a module on a noexec mount through package.path" 126 "" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- enforced "$lua" "$ex/main-path.lua"
	expect "$p: the refusal of require is a Lua error" 0 \
		"false	$noex/evil.lua: $not: noexec mount" "" -- \
		enforced env LUA_PATH="$noex/?.lua" "$lua" "$ex/main-pcall.lua"
	expect "$p: -l of a module on a noexec mount" 126 "" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- \
		enforced env LUA_PATH="$noex/?.lua" "$lua" -l evil "$ex/main-pcall.lua"
	expect "$p: LUA_INIT=@ a noexec file" 126 "" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- \
		enforced env LUA_INIT="@$noex/evil.lua" "$lua" "$ex/main-pcall.lua"
	expect "$p: LUA_INIT_5_4=@ a noexec file" 126 "" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- \
		enforced env LUA_INIT_5_4="@$noex/evil.lua" LUA_INIT=@/dev/null "$lua" "$ex/main-pcall.lua"
	expect "$p: lua - < a noexec file" 126 "" \
		"trusted-lua: <stdin>: interactive code refused: noexec mount: $noex" -- \
		with_stdin "$noex/evil.lua" enforced "$lua" -
	expect "$p: lua < a noexec file" 126 "" \
		"trusted-lua: <stdin>: interactive code refused: noexec mount: $noex" -- \
		with_stdin "$noex/evil.lua" enforced "$lua"
	expect "$p: dofile of a noexec file" 126 "" \
		"trusted-lua: $noex/evil.lua: $not: noexec mount" -- \
		enforced "$lua" "$ex/dofile.lua" "$noex/evil.lua"
	expect "$p: loadfile of a noexec file raises the refusal" 0 \
		"false	$noex/evil.lua: $not: noexec mount" "" -- \
		enforced "$lua" "$ex/loadfile.lua" "$noex/evil.lua"
	expect "$p: dofile through /proc/self/fd/N" 126 "" \
		"trusted-lua: /proc/self/fd/3: $not: noexec mount" -- \
		enforced "$lua" "$ex/dofile.lua" /proc/self/fd/3 3<"$noex/evil.lua"
	# A C module is code read from a file: checked on its descriptor
	# before the dynamic loader maps it (tests/integration/loaders.sh
	# runs the data-only objects that noexec alone does not stop).
	expect "$p: a C module on a noexec mount is refused" 0 \
		"false	$noex/evilc.so: $not: noexec mount" "" -- \
		enforced env LUA_CPATH="$noex/?.so" "$lua" "$ex/cmodule.lua"
done
done_testing
