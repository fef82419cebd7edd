#!/bin/bash
# trusted-lua's entry points under each enforcement: which code runs, which
# is refused, and what a refusal looks like from the command line, from Lua
# code and in the REPL.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
# LeakSanitizer stops the world with ptrace, which a locked session refuses.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4
lua=$TF_BUILD/interpreters/lua/trusted-lua
run=$TF_BUILD/tools/trusted-for
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }
make_mounts || { not_ok "mount the test tmpfs"; done_testing; }

ex=$TF_TMP/exec noex=$TF_TMP/noexec
not="not trusted for execution"
file() { "$run" run --restrict-file -- "$@"; }
interactive() { "$run" run --deny-interactive -- "$@"; }
both() { "$run" run --restrict-file --deny-interactive -- "$@"; }
with_text() {
	local text=$1
	shift
	printf '%s' "$text" | "$@"
}

printf 'print("evil")\nreturn "evil"\n' >"$noex/evil.lua"
printf 'print("good", ...)\nreturn "good"\n' >"$ex/good.lua"
printf 'local function f() require("evil") end\nf()\n' >"$ex/nested.lua"
printf 'print(dofile(arg[1]))\n' >"$ex/dofile.lua"
printf 'local f = loadfile(arg[1]); print(f())\n' >"$ex/loadfile.lua"
printf 'print("init ran")\n' >"$ex/init.lua"
chmod 0755 "$noex"/*.lua "$ex"/*.lua
printf 'print("no x bit")\n' >"$ex/plain.lua"
export LUA_PATH="$ex/?.lua;$noex/?.lua"

# What runs.
expect "a trusted script runs under both" 0 "good	a" "" -- both "$lua" "$ex/good.lua" a
expect "dofile of a trusted file runs under both" 0 $'good\ngood' "" -- \
	both "$lua" "$ex/dofile.lua" "$ex/good.lua"
expect "loadfile of a trusted file runs under both" 0 $'good\ngood' "" -- \
	both "$lua" "$ex/loadfile.lua" "$ex/good.lua"
expect "-l of a trusted module runs under both" 0 $'good\tgood\t'"$ex"$'/good.lua\ngood\tx' "" -- \
	both "$lua" -l good -l g=good "$ex/good.lua" x
expect "a trusted file as stdin runs under DENY_INTERACTIVE" 0 "good	x" "" -- \
	with_stdin "$ex/good.lua" interactive "$lua" - x
expect "LUA_INIT=@ a trusted file runs under both" 0 $'init ran\ngood' "" -- \
	both env LUA_INIT="@$ex/init.lua" "$lua" "$ex/good.lua"
# The banner is the release's liblua5.4's, the same as Debian's lua5.4 prints.
banner=$(lua5.4 -v)
expect "-v is no code: allowed under DENY_INTERACTIVE" 0 "$banner" "" -- interactive "$lua" -v
expect "a file without the execute bit runs under DENY_INTERACTIVE alone" 0 "no x bit" "" -- \
	interactive "$lua" "$ex/plain.lua"

# Interactive code.
expect "-e is refused under DENY_INTERACTIVE" 126 "" "trusted-lua: -e: interactive code refused" -- \
	interactive "$lua" -e 'print(1)'
expect "-e is refused before LUA_INIT or -l run" 126 "" "trusted-lua: -e: interactive code refused" -- \
	interactive env LUA_INIT="@$ex/init.lua" "$lua" -l good -e 'print(1)'
expect "-e runs under RESTRICT_FILE alone" 0 "1" "" -- file "$lua" -e 'print(1)'
expect "-i is refused under DENY_INTERACTIVE (after -v's line, which it implies)" 126 \
	"$banner" "trusted-lua: -i: interactive code refused" -- \
	interactive "$lua" -i "$ex/good.lua"
expect "LUA_INIT text is refused under DENY_INTERACTIVE" 126 "" \
	"trusted-lua: LUA_INIT: interactive code refused" -- \
	interactive env LUA_INIT='print("init")' "$lua" "$ex/good.lua"
expect "LUA_INIT_5_4 text is refused under its own name" 126 "" \
	"trusted-lua: LUA_INIT_5_4: interactive code refused" -- \
	interactive env LUA_INIT_5_4='print("init")' "$lua" "$ex/good.lua"
expect "-E: LUA_INIT is not read, so not refused" 0 "good" "" -- \
	interactive env LUA_INIT='print("init")' "$lua" -E "$ex/good.lua"
expect "a pipe is refused under DENY_INTERACTIVE" 126 "" \
	"trusted-lua: <stdin>: interactive code refused: not a regular file: FIFO or pipe" -- \
	with_text 'print(1)' interactive "$lua" -
expect "the REPL runs when nothing is enforced" 0 \
	"$banner"$'\n> 2\n> ' "" -- \
	with_text $'print(1 + 1)\n' "$lua" -i
expect "a refusal in the REPL is reported and the REPL goes on" 0 \
	"$banner"$'\n> > still here\n> ' \
	"$noex/evil.lua: $not: noexec mount" -- \
	with_text $'require "evil"\nprint("still here")\n' file "$lua" -i
if command -v script >/dev/null; then
	# script(1) gives trusted-lua a terminal: the REPL without -i.
	expect "the REPL on a terminal is refused under DENY_INTERACTIVE" 126 \
		$'trusted-lua: <stdin>: interactive code refused: not a regular file: character device\r' "" -- \
		script -qec "$run run --deny-interactive -- $lua" /dev/null
else
	not_run "the REPL on a terminal" "script(1) is missing"
fi

# debug.debug() is a prompt on stdin: interactive code, even when a trusted
# script calls it.
printf 'debug.debug()\nprint("after")\n' >"$ex/debugger.lua"
chmod 0755 "$ex/debugger.lua"
printf 'print("typed")\ncont\n' >"$ex/commands.lua"
chmod 0755 "$ex/commands.lua"
printf 'require("debug").debug()\n' >"$ex/required.lua"
chmod 0755 "$ex/required.lua"
expect "debug.debug() from a pipe is refused under DENY_INTERACTIVE" 126 "" \
	"trusted-lua: debug.debug: interactive code refused: not a regular file: FIFO or pipe" -- \
	with_text $'print("typed")\ncont\n' interactive "$lua" "$ex/debugger.lua"
expect "debug.debug() from a pipe is refused under both, locked" 126 "" \
	"trusted-lua: debug.debug: interactive code refused: not a regular file: FIFO or pipe" -- \
	with_text $'print("typed")\ncont\n' "$run" run --restrict-file --deny-interactive --lock -- \
	"$lua" "$ex/debugger.lua"
expect "debug.debug() from a pipe runs when nothing is enforced" 0 $'typed\nafter' \
	"lua_debug> lua_debug> " -- with_text $'print("typed")\ncont\n' "$lua" "$ex/debugger.lua"
expect "debug.debug() from a checked file runs under DENY_INTERACTIVE" 0 $'typed\nafter' \
	"lua_debug> lua_debug> " -- with_stdin "$ex/commands.lua" interactive "$lua" "$ex/debugger.lua"
expect "debug.debug() is the guarded one through require" 126 "" \
	"trusted-lua: debug.debug: interactive code refused: not a regular file: FIFO or pipe" -- \
	with_text 'cont' interactive "$lua" "$ex/required.lua"

# Refused files, from Lua code.
expect "an uncaught refusal is one line and status 126" 126 "" \
	"trusted-lua: $noex/evil.lua: $not: noexec mount" -- file "$lua" "$ex/nested.lua"
expect "pcall(require) gets the refusal's message" 0 "false	$noex/evil.lua: $not: noexec mount" "" -- \
	file "$lua" -e 'print(pcall(require, "evil"))'
expect "pcall(dofile) gets it" 0 "false	$noex/evil.lua: $not: noexec mount" "" -- \
	file "$lua" -e "print(pcall(dofile, '$noex/evil.lua'))"
expect "loadfile raises it instead of returning nil" 0 "false	$noex/evil.lua: $not: noexec mount" "" -- \
	file "$lua" -e "print(pcall(loadfile, '$noex/evil.lua'))"
expect "a refused module is not recorded as loaded" 0 $'false\tnil' "" -- \
	file "$lua" -e 'pcall(require, "evil") print(false, package.loaded.evil)'
expect "a refusal wrapped in another error is an ordinary error" 1 "" \
	"$lua: (command line):1: $noex/evil.lua: $not: noexec mount
stack traceback:
	[C]: in function 'error'
	(command line):1: in main chunk
	[C]: in ?" -- file "$lua" -e 'local ok, e = pcall(require, "evil") error(e)'
expect "a file without the execute bit is refused under policy 3" 126 "" \
	"trusted-lua: $ex/plain.lua: $not: no execute permission" -- file "$lua" "$ex/plain.lua"

# The launcher checks even when nothing is enforced: the audit log.
set_policy_file $'audit = on\nlog = stderr'
"$lua" "$ex/plain.lua" >"$TF_TMP/out" 2>"$TF_TMP/err"
if [ "$(cat "$TF_TMP/out")" = "no x bit" ] &&
	grep -q "^trustedfor: audit file=\"$ex/plain.lua\" reason=\"no execute permission\" .*enforced-by=\"none\"" "$TF_TMP/err"; then
	ok "a failed check is audited when nothing is enforced"
else
	not_ok "a failed check is audited when nothing is enforced"
	sed 's/^/#   /' "$TF_TMP/out" "$TF_TMP/err"
fi
# A pipe or a terminal reached by a path is code piped or typed in: the
# library makes it interactive code, refused under DENY_INTERACTIVE alone,
# for every way trusted-lua names a file, under every check policy.
printf 'require "piped"\n' >"$ex/require-piped.lua"
chmod 0755 "$ex/require-piped.lua"
# The pipe is made by the user who reopens it: a pipe of root's is 0600.
pipe_in() { $as bash -c 'printf "%s" "$0" | "$@"' "$@"; }
piped="interactive code refused: not a regular file: FIFO or pipe"
# The launcher names itself by argv[0], here the code.
procfs="interactive code refused: kernel-internal file: procfs"
# Policy 0 checks nothing and passes every file, a pipe too: the look that
# makes it interactive code must not depend on a failed check.
for policy in 0 1 3; do
	set_policy_file "policy = $policy"
	for who in root nobody; do
		as=
		[ "$who" = nobody ] && as=as_nobody
		at="policy $policy, $who"
		expect "$at: a pipe named /dev/stdin is refused under DENY_INTERACTIVE" 126 "" \
			"trusted-lua: /dev/stdin: $piped" -- \
			pipe_in 'print("piped")' "$run" run --deny-interactive -- "$lua" /dev/stdin
		expect "$at: ... and runs when nothing is enforced" 0 "piped" "" -- \
			pipe_in 'print("piped")' "$lua" /dev/stdin
		expect "$at: process substitution is refused under DENY_INTERACTIVE" 126 "" \
			"trusted-lua: /dev/fd/63: $piped" -- \
			$as bash -c '"$1" run --deny-interactive -- "$2" <(echo "print(\"piped\")")' \
			sh "$run" "$lua"
		expect "$at: LUA_INIT=@/dev/stdin on a pipe is refused" 126 "" \
			"trusted-lua: /dev/stdin: $piped" -- \
			pipe_in 'print("piped")' "$run" run --deny-interactive -- \
			env LUA_INIT=@/dev/stdin "$lua" "$ex/good.lua"
		expect "$at: LUA_PATH=/dev/stdin on a pipe: require is refused" 126 "" \
			"trusted-lua: /dev/stdin: $piped" -- \
			pipe_in 'print("piped")' "$run" run --deny-interactive -- \
			env LUA_PATH=/dev/stdin "$lua" "$ex/require-piped.lua"
		expect "$at: ... and the module runs when nothing is enforced" 0 "piped" "" -- \
			pipe_in 'print("piped")' env LUA_PATH=/dev/stdin "$lua" "$ex/require-piped.lua"
		# argv read back as a file: procfs makes /proc/self/cmdline of it.
		expect "$at: argv named as the script through /proc/self/cmdline is refused" 126 "" \
			"print(\"argv ran\")--: /proc/self/cmdline: $procfs" -- \
			$as "$run" run --deny-interactive -- \
			bash -c 'exec -a "print(\"argv ran\")--" "$0" /proc/self/cmdline' "$lua"
		expect "$at: ... and runs when nothing is enforced" 0 "argv ran" "" -- \
			$as bash -c 'exec -a "print(\"argv ran\")--" "$0" /proc/self/cmdline' "$lua"
		if command -v script >/dev/null; then
			expect "$at: /dev/tty named as the script is refused" 126 \
				$'trusted-lua: /dev/tty: interactive code refused: not a regular file: character device\r' "" -- \
				$as script -qec "$run run --deny-interactive -- $lua /dev/tty" /dev/null
		else
			not_run "$at: /dev/tty named as the script" "script(1) is missing"
		fi
	done
done
set_policy_file -

set_policy_file "enforce = file"
expect "the policy file's enforce = file refuses too" 126 "" \
	"trusted-lua: $ex/plain.lua: $not: no execute permission" -- "$lua" "$ex/plain.lua"
done_testing
