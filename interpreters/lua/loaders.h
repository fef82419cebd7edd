/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trusted-lua: loading Lua code only from descriptors that were checked. */
#ifndef TRUSTED_LUA_LOADERS_H
#define TRUSTED_LUA_LOADERS_H

#include <lua.h>

/*
 * A status of our own, beside Lua's: the enforcement layer refused the code.
 * The message ("FILE: not trusted for execution: noexec mount") is pushed,
 * as for any other error, and remembered as the last refusal.
 */
#define TL_REFUSED (-126)

/*
 * luaL_loadfilex() with the check: opens filename once, asks the
 * enforcement layer about that descriptor and loads from it.  NULL is
 * stdin, which is interactive code unless it passes the check.  Pushes the
 * chunk and returns LUA_OK, or pushes a message and returns an error status
 * (TL_REFUSED for a refusal).
 */
int tl_loadfilex(lua_State *L, const char *filename, const char *mode);

/*
 * Refuses interactive code (-e, a REPL, LUA_INIT text) if the policy says
 * so: pushes the message, remembers it and returns TL_REFUSED; else LUA_OK
 * and pushes nothing.  fd is where the code comes from, or -1.
 */
int tl_allow_interactive(lua_State *L, int fd, const char *what);

/* Is the value at idx the last refusal's message? */
int tl_is_refusal(lua_State *L, int idx);

/*
 * Replaces dofile, loadfile and the Lua searcher of require
 * (package.searchers[2]) with versions that load through tl_loadfilex().
 * Call after luaL_openlibs() and before any code runs.
 */
void tl_install_loaders(lua_State *L);

#endif
