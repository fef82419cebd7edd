# The interpreter matrix's adapter for trusted-lua (contract:
# ../interpreter-matrix.sh).  With no argument and stdin not a terminal it
# reads its code from stdin, as lua does; "-" is covered by the Lua tests.
interp=$TF_BUILD/interpreters/lua/trusted-lua
prog=trusted-lua
code='print("marker")'
marker=marker
eval_flag=-e
stdin_args=()
unset LUA_INIT LUA_INIT_5_4
