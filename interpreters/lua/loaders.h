/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trusted-lua: loading Lua code only from descriptors that were checked. */
#ifndef TRUSTED_LUA_LOADERS_H
#define TRUSTED_LUA_LOADERS_H

#include <lua.h>
#include <trustedfor.h>

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

/* Pushes v's message, remembers it as the last refusal; returns TL_REFUSED. */
int tl_refused(lua_State *L, const struct trusted_for_verdict *v);

/*
 * package.searchpath's walk, opening each candidate once and keeping the
 * descriptor of the first that opens: returns it with the file name
 * pushed, or -1 with the "no file" list pushed.  Dots in name become
 * dirsep.
 */
int tl_open_in_path(lua_State *L, const char *name, const char *path,
		    const char *dirsep);

/*
 * Replaces the C searcher and the all-in-one searcher of require
 * (package.searchers[3] and [4]) and package.loadlib with versions that
 * load a shared object only from a descriptor the enforcement layer
 * allowed (clib.c).
 */
void tl_install_c_loaders(lua_State *L);

/* Is the value at idx the last refusal's message? */
int tl_is_refusal(lua_State *L, int idx);

/*
 * Replaces dofile, loadfile and the Lua searcher of require
 * (package.searchers[2]) with versions that load through tl_loadfilex().
 * Call after luaL_openlibs() and before any code runs.
 */
void tl_install_loaders(lua_State *L);

#endif
