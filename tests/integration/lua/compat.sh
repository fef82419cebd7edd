#!/bin/bash
# trusted-lua behaves as lua5.4 when nothing is enforced: the programs in
# compat/ and the command line give the same stdout, stderr and exit status
# under both.  Each interpreter's own path is written as LUA in both
# outputs, since lua prefixes its messages with argv[0].  (The REPL is left
# out: Debian's lua5.4 uses readline, trusted-lua reads plain lines.)  With
# TF_DIVERTED=1 (tests/integration/deploy.sh): the diverted /usr/bin/lua5.4
# against Debian's, /usr/bin/lua5.4.distrib.
. "${TF_SRC:?}/tests/lib.sh" || exit 2
enter_private_namespace "$@"

export LC_ALL=C
unset TRUSTEDFOR_ENFORCE LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4
set_policy_file - || { not_ok "hide the host's policy file"; done_testing; }

stock=$(command -v lua5.4) || { not_run "lua compatibility" "lua5.4 is not installed"; done_testing; }
trusted=$TF_BUILD/interpreters/lua/trusted-lua
[ -z "${TF_DIVERTED:-}" ] || stock=/usr/bin/lua5.4.distrib trusted=/usr/bin/lua5.4

# The programs are files without the execute bit: the check fails on every
# one of them, and nothing is enforced, so they run (and are audited).
dir=$TF_TMP/compat
cp -r "$TF_SRC/tests/integration/lua/compat" "$dir"
chmod -R a-x+X "$dir"
cd "$dir" || exit 1

# run INTERP STDIN [VAR=VALUE...] -- ARG...: prints status, stdout, stderr.
run() {
	local interp=$1 input=$2 vars=()
	shift 2
	while [ "$1" != -- ]; do
		vars+=("$1")
		shift
	done
	shift
	rm -f chunk.luac chunk-shebang.luac
	env "${vars[@]}" "$interp" "$@" <"$input" >"$TF_TMP/out" 2>"$TF_TMP/err"
	echo "status $?"
	echo "-- stdout"
	sed "s|$interp|LUA|g" "$TF_TMP/out"
	echo "-- stderr"
	sed "s|$interp|LUA|g" "$TF_TMP/err"
}

# same WHAT [< FILE] [VAR=VALUE...] -- ARG...
same() {
	local what=$1 input=/dev/null
	shift
	if [ "$1" = "<" ]; then
		input=$2
		shift 2
	fi
	run "$stock" "$input" "$@" >"$TF_TMP/want"
	run "$trusted" "$input" "$@" >"$TF_TMP/got"
	if cmp -s "$TF_TMP/want" "$TF_TMP/got"; then
		ok "$what"
	else
		not_ok "$what"
		diff -u "$TF_TMP/want" "$TF_TMP/got" | sed 's/^/#   /'
	fi
}

same "arguments and the arg table" -- args.lua one "two words" ""
same "arguments after options" -- -W -e 'x=1' -- args.lua -e -
same "modules, require chains, init.lua, failures" -- modules.lua
same "dofile and loadfile, binary chunks, #! and BOM" -- loading.lua
same "a runtime error: status 1 and a traceback" -- error.lua
same "an error with a table value" -- error-table.lua
same "an error with __tostring" -- error-tostring.lua
same "os.exit(3)" -- exit.lua 3
same "os.exit(true)" -- exit.lua true
same "os.exit(false)" -- exit.lua false
same "warnings off, then on" -- warn.lua
same "-W turns warnings on" -- -W warn.lua
same "a missing script" -- none.lua
same "a directory as the script" -- pkg
same "a syntax error in the script" -- pkg/syntax.lua
same "-e" -- -e 'print("e", 1 + 1)'
same "-e with an error" -- -e 'error("from -e")'
same "-e with a syntax error" -- -e 'print('
same "-e joined to its argument" -- '-eprint(42)'
same "-l mod" LUA_PATH='./?.lua' -- -l pkg.other -e 'print(package.loaded["pkg.other"])'
same "-l g=mod" LUA_PATH='./?.lua' -- -l o=pkg.other -e 'print(o)'
same "-l of a missing module" LUA_PATH='./?.lua' -- -l nothing
same "LUA_PATH with ;; for the default path" LUA_PATH='./pkg/?.lua;;' -- -e 'print(package.path)' -e 'print(require "other")'
same "LUA_PATH_5_4 before LUA_PATH" LUA_PATH_5_4='./pkg/?.lua' LUA_PATH=x -- -e 'print(require "other")'
same "-v" -- -v
same "-v with a script" -- -v args.lua
same "-E ignores LUA_INIT and LUA_PATH" LUA_INIT='print("init")' LUA_PATH=x -- -E -e 'print(package.path)'
same "LUA_INIT text" LUA_INIT='print("init text")' -- args.lua
same "LUA_INIT text with an error" LUA_INIT='error("init")' -- args.lua
same "LUA_INIT=@file" LUA_INIT=@init.lua -- -e 'print(INIT)'
same "LUA_INIT=@ a missing file" LUA_INIT=@none.lua -- -e 'print(1)'
same "LUA_INIT_5_4 before LUA_INIT" LUA_INIT_5_4='print("5.4")' LUA_INIT='print("plain")' -- -v
same "an unknown option" -- -x
same "-e without its argument" -- -e
same "-l followed by an option" -- -l -v
same "a bad -- option" -- --x
same "- reads the script from stdin" "<" stdin.lua -- - a b
same "no argument reads stdin" "<" stdin.lua --
same "-- - is a script named -" -- -- -
same "an error in stdin's code" "<" error.lua --
same "os.exit from stdin's code" "<" exit.lua -- - 5
done_testing
