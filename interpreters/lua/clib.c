/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-lua: C modules.  Lua's library hands a C module's file name to
 * dlopen(), and the dynamic loader runs code as soon as it maps the file:
 * the initialisers in its init array, which need no executable segment of
 * the file's own (they may point into any library it depends on).  So a
 * C module is code read from a file, checked like a Lua file: the three
 * ways loadlib.c reaches dlopen() (the C searcher, the all-in-one searcher
 * and package.loadlib) are replaced by versions that open the file once,
 * ask the enforcement layer about that descriptor and load that very file.
 * Everything else (search order, symbol names, results, messages) is
 * loadlib.c's of Lua 5.4.
 *
 * Origin: the searchers and loadlib follow loadlib.c of Lua 5.4.4,
 * Copyright (C) 1994-2022 Lua.org, PUC-Rio, under the MIT licence
 * (debian/copyright), changed to load the descriptor that was checked.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <trustedfor.h>

#include "../common/checked_dlopen.h"
#include "loaders.h"

/* loadlib.c's names, which luaconf.h does not export. */
#define LUA_POF "luaopen_"
#define LUA_OFSEP "_"
#define LUA_IGMARK "-"

/* loadlib.c's names for its two failures. */
enum {
	ERRLIB = 1,
	ERRFUNC = 2
};

/*
 * Loads the library in fd (or path, when fd is -1), and pushes the C
 * function sym, or true when sym is "*" (the library only, its symbols
 * global).  Returns 0, or ERRLIB/ERRFUNC with the message pushed.  A
 * refusal is raised as an error, never returned: no caller may mistake it
 * for a missing file.
 */
static int look_for_func(lua_State *L, int fd, const char *path, const char *sym)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char err[1024];
	int refused;
	void *lib;
	lua_CFunction f;

	lib = tf_checked_dlopen(fd, path,
				RTLD_NOW | (*sym == '*' ? RTLD_GLOBAL : RTLD_LOCAL),
				&v, &refused, err, sizeof(err));
	if (refused) {
		tl_refused(L, &v);
		lua_error(L);
	}
	if (!lib) {
		lua_pushstring(L, err);
		return ERRLIB;
	}
	if (*sym == '*') {
		lua_pushboolean(L, 1);
		return 0;
	}
	f = (lua_CFunction)(void (*)(void))dlsym(lib, sym);
	if (!f) {
		lua_pushstring(L, dlerror());
		return ERRFUNC;
	}
	lua_pushcfunction(L, f);
	return 0;
}

/* package.loadlib(path, funcname) */
static int checked_loadlib(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	const char *init = luaL_checkstring(L, 2);
	int status = look_for_func(L, -1, path, init);

	if (status == 0)
		return 1;
	luaL_pushfail(L);
	lua_insert(L, -2);
	lua_pushstring(L, status == ERRLIB ? "open" : "init");
	return 3;
}

/*
 * luaopen_NAME, with dots as underscores; "a-b" tries luaopen_a first,
 * then luaopen_b (loadlib.c's "ignore mark").  fd is used (and closed) by
 * the first attempt; the library stays loaded for the second, which the
 * loader then finds by the same file.
 */
static int load_func(lua_State *L, int fd, const char *filename,
		     const char *modname)
{
	const char *mark;
	int status;

	modname = luaL_gsub(L, modname, ".", LUA_OFSEP);
	mark = strchr(modname, *LUA_IGMARK);
	if (mark) {
		lua_pushlstring(L, modname, (size_t)(mark - modname));
		status = look_for_func(L, fd, filename,
				       lua_pushfstring(L, LUA_POF "%s", lua_tostring(L, -1)));
		if (status != ERRFUNC)
			return status;
		modname = mark + 1;
		fd = -1;
	}
	return look_for_func(L, fd, filename,
			     lua_pushfstring(L, LUA_POF "%s", modname));
}

static int check_load(lua_State *L, int loaded, const char *filename)
{
	if (loaded) {
		lua_pushstring(L, filename);
		return 2;
	}
	return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
			  lua_tostring(L, 1), filename, lua_tostring(L, -1));
}

/* Opens name along package.cpath; the file name is left on the stack. */
static int find_c_file(lua_State *L, const char *name)
{
	lua_getfield(L, lua_upvalueindex(1), "cpath");
	if (!lua_tostring(L, -1))
		luaL_error(L, "'package.%s' must be a string", "cpath");
	return tl_open_in_path(L, name, lua_tostring(L, -1), LUA_DIRSEP);
}

/* package.searchers[3]; upvalue 1 is the package table. */
static int checked_searcher_c(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const char *filename;
	int fd = find_c_file(L, name);

	if (fd < 0)
		return 1; /* the "no file" list */
	filename = lua_tostring(L, -1);
	return check_load(L, load_func(L, fd, filename, name) == 0, filename);
}

/* package.searchers[4]: "a.b.c" from the library of "a". */
static int checked_searcher_croot(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const char *p = strchr(name, '.');
	const char *filename;
	int fd, status;

	if (!p)
		return 0;
	lua_pushlstring(L, name, (size_t)(p - name));
	fd = find_c_file(L, lua_tostring(L, -1));
	if (fd < 0)
		return 1;
	filename = lua_tostring(L, -1);
	status = load_func(L, fd, filename, name);
	if (status != 0) {
		if (status != ERRFUNC)
			return check_load(L, 0, filename);
		lua_pushfstring(L, "no module '%s' in file '%s'", name, filename);
		return 1;
	}
	lua_pushstring(L, filename);
	return 2;
}

void tl_install_c_loaders(lua_State *L)
{
	lua_getglobal(L, "package");
	lua_pushcfunction(L, checked_loadlib);
	lua_setfield(L, -2, "loadlib");
	lua_getfield(L, -1, "searchers");
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, checked_searcher_c, 1);
	lua_rawseti(L, -2, 3);
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, checked_searcher_croot, 1);
	lua_rawseti(L, -2, 4);
	lua_pop(L, 2);
}
