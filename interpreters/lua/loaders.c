/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-lua: every way the standard library loads a Lua file from disk,
 * rebuilt on one function that checks the descriptor it reads the code from.
 *
 * Lua 5.4's library reaches luaL_loadfilex() from exactly three places:
 * dofile, loadfile and the Lua searcher of require.  They are replaced here
 * by functions that behave the same way (arguments, results, messages)
 * except that a file the policy refuses raises an error with the refusal's
 * message.  The originals are unreachable from Lua afterwards: they were
 * only stored in _G and in package.searchers.  debug.debug(), a prompt on
 * stdin, is asked about as interactive code.
 *
 * Origin: the replacements follow Lua 5.4.4's own (luaL_loadfilex and its
 * reader in lauxlib.c, dofile and loadfile in lbaselib.c, the Lua searcher
 * and searchpath in loadlib.c, debug.debug in ldblib.c), Copyright (C)
 * 1994-2022 Lua.org, PUC-Rio, under the MIT licence (debian/copyright),
 * changed to read from the descriptor that was checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <trustedfor.h>

#include "loaders.h"

/* The registry field that holds the last refusal's message. */
#define REFUSAL_KEY "trusted-lua.refusal"

int tl_refused(lua_State *L, const struct trusted_for_verdict *v)
{
	lua_pushstring(L, v->message);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, REFUSAL_KEY);
	return TL_REFUSED;
}

int tl_is_refusal(lua_State *L, int idx)
{
	int same;

	idx = lua_absindex(L, idx);
	lua_getfield(L, LUA_REGISTRYINDEX, REFUSAL_KEY);
	same = lua_type(L, -1) == LUA_TSTRING && lua_rawequal(L, idx, -1);
	lua_pop(L, 1);
	return same;
}

int tl_allow_interactive(lua_State *L, int fd, const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	if (trusted_for_allow_interactive(fd, what, &v) < 0)
		return tl_refused(L, &v);
	return LUA_OK;
}

/* As lauxlib's reader: a few characters read ahead, then the stream. */
struct reader {
	int n;
	FILE *f;
	char buff[BUFSIZ];
};

static const char *read_chunk(lua_State *L, void *ud, size_t *size)
{
	struct reader *r = ud;

	(void)L;
	if (r->n > 0) {
		*size = (size_t)r->n;
		r->n = 0;
	} else {
		if (feof(r->f))
			return NULL;
		*size = fread(r->buff, 1, sizeof(r->buff), r->f);
	}
	return r->buff;
}

/* A UTF-8 byte order mark is skipped; a partial one is kept as text. */
static int skip_bom(struct reader *r)
{
	static const char bom[] = "\xEF\xBB\xBF";
	const char *p = bom;
	int c;

	r->n = 0;
	do {
		c = getc(r->f);
		if (c == EOF || c != *(const unsigned char *)p++)
			return c;
		r->buff[r->n++] = (char)c;
	} while (*p);
	r->n = 0;
	return getc(r->f);
}

/* A first line starting with '#' (a "#!" line) is not Lua. */
static int skip_comment(struct reader *r, int *cp)
{
	int c = *cp = skip_bom(r);

	if (c != '#')
		return 0;
	do
		c = getc(r->f);
	while (c != EOF && c != '\n');
	*cp = getc(r->f);
	return 1;
}

/* lauxlib's message for a file that cannot be opened or read. */
static int file_error(lua_State *L, const char *what, const char *filename,
		      int error)
{
	lua_pushfstring(L, "cannot %s %s: %s", what, filename, strerror(error));
	return LUA_ERRFILE;
}

/* Loads from a stream whose descriptor passed the enforcement layer. */
static int load_stream(lua_State *L, FILE *f, const char *chunkname,
		       const char *errname, const char *mode)
{
	struct reader r;
	int status, c;

	r.f = f;
	if (skip_comment(&r, &c))
		r.buff[r.n++] = '\n'; /* keep the line numbers right */
	/*
	 * lauxlib reopens a binary chunk by its path in "rb" mode: the same
	 * thing on Linux, but a second open of a path that we do not make.
	 * The reopened stream would skip the comment line again without
	 * keeping a newline for it.
	 */
	if (c == LUA_SIGNATURE[0])
		r.n = 0;
	if (c != EOF)
		r.buff[r.n++] = (char)c;
	status = lua_load(L, read_chunk, &r, chunkname, mode);
	if (ferror(f)) {
		int error = errno;

		lua_pop(L, 1);
		return file_error(L, "read", errname, error);
	}
	return status;
}

/* Takes fd, already open; closes it. */
static int load_fd(lua_State *L, int fd, const char *filename, const char *mode)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	FILE *f;
	int status;

	if (trusted_for_allow_file(fd, filename, &v) < 0) {
		close(fd);
		return tl_refused(L, &v);
	}
	f = fdopen(fd, "r");
	if (!f) {
		int error = errno;

		close(fd);
		return file_error(L, "open", filename, error);
	}
	lua_pushfstring(L, "@%s", filename);
	status = load_stream(L, f, lua_tostring(L, -1), filename, mode);
	fclose(f);
	lua_remove(L, -2); /* the chunk name */
	return status;
}

int tl_loadfilex(lua_State *L, const char *filename, const char *mode)
{
	int fd;

	if (!filename) {
		/* stdin: interactive, unless it is a file that passes. */
		if (tl_allow_interactive(L, STDIN_FILENO, "<stdin>") != LUA_OK)
			return TL_REFUSED;
		return load_stream(L, stdin, "=stdin", "stdin", mode);
	}
	fd = open(filename, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return file_error(L, "open", filename, errno);
	return load_fd(L, fd, filename, mode);
}

/* dofile([filename]), as in lbaselib.c. */
static int dofile_done(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	return lua_gettop(L) - 1;
}

static int checked_dofile(lua_State *L)
{
	const char *fname = luaL_optstring(L, 1, NULL);

	lua_settop(L, 1);
	if (tl_loadfilex(L, fname, NULL) != LUA_OK)
		return lua_error(L);
	lua_callk(L, 0, LUA_MULTRET, 0, dofile_done);
	return dofile_done(L, 0, 0);
}

/* loadfile([filename [, mode [, env]]]), as in lbaselib.c. */
static int checked_loadfile(lua_State *L)
{
	const char *fname = luaL_optstring(L, 1, NULL);
	const char *mode = luaL_optstring(L, 2, NULL);
	int env = !lua_isnone(L, 3) ? 3 : 0;
	int status = tl_loadfilex(L, fname, mode);

	if (status == TL_REFUSED)
		return lua_error(L);
	if (status != LUA_OK) {
		luaL_pushfail(L);
		lua_insert(L, -2);
		return 2;
	}
	if (env) {
		lua_pushvalue(L, env);
		if (!lua_setupvalue(L, -2, 1))
			lua_pop(L, 1);
	}
	return 1;
}

/*
 * package.searchpath's walk (loadlib.c), except that a candidate is opened
 * once and the descriptor kept: the file found is the file loaded.  Returns
 * the descriptor with the file name pushed, or -1 with the "no file" list
 * pushed.
 */
int tl_open_in_path(lua_State *L, const char *name, const char *path,
		    const char *dirsep)
{
	const char *names, *p;
	luaL_Buffer b;

	if (strchr(name, '.'))
		name = luaL_gsub(L, name, ".", dirsep);
	names = luaL_gsub(L, path, LUA_PATH_MARK, name);
	for (p = names;;) {
		size_t len = strcspn(p, LUA_PATH_SEP);
		int fd;

		lua_pushlstring(L, p, len);
		fd = open(lua_tostring(L, -1), O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			lua_replace(L, -2);
			return fd;
		}
		lua_pop(L, 1);
		if (!p[len])
			break;
		p += len + 1;
	}
	luaL_buffinit(L, &b);
	luaL_addstring(&b, "no file '");
	luaL_addgsub(&b, names, LUA_PATH_SEP, "'\n\tno file '");
	luaL_addstring(&b, "'");
	luaL_pushresult(&b);
	lua_replace(L, -2);
	return -1;
}

/* package.searchers[2]; upvalue 1 is the package table, as for the original. */
static int checked_searcher(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const char *filename;
	int fd, status;

	lua_getfield(L, lua_upvalueindex(1), "path");
	if (!lua_tostring(L, -1))
		luaL_error(L, "'package.%s' must be a string", "path");
	fd = tl_open_in_path(L, name, lua_tostring(L, -1), LUA_DIRSEP);
	if (fd < 0)
		return 1; /* the "no file" list */
	filename = lua_tostring(L, -1);
	status = load_fd(L, fd, filename, NULL);
	if (status == TL_REFUSED)
		return lua_error(L);
	if (status != LUA_OK)
		return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
				  lua_tostring(L, 1), filename,
				  lua_tostring(L, -1));
	lua_insert(L, -2); /* the loader, then the file name */
	return 2;
}

/*
 * debug.debug() (ldblib.c) reads lines from stdin and runs each one: a
 * prompt, so interactive code, asked about first.  It is rebuilt here, not
 * wrapped, so that the unchecked original is not left in an upvalue.
 */
static int checked_debug_debug(lua_State *L)
{
	char line[250];

	if (tl_allow_interactive(L, STDIN_FILENO, "debug.debug") != LUA_OK)
		return lua_error(L);
	for (;;) {
		lua_writestringerror("%s", "lua_debug> ");
		if (!fgets(line, sizeof(line), stdin) || strcmp(line, "cont\n") == 0)
			return 0;
		if (luaL_loadbuffer(L, line, strlen(line), "=(debug command)") != LUA_OK ||
		    lua_pcall(L, 0, 0, 0) != LUA_OK)
			lua_writestringerror("%s\n", luaL_tolstring(L, -1, NULL));
		lua_settop(L, 0);
	}
}

static void install_debug_guard(lua_State *L)
{
	lua_getglobal(L, "package");
	lua_getfield(L, -1, "loaded");
	lua_getfield(L, -1, "debug");
	if (lua_istable(L, -1)) {
		lua_pushcfunction(L, checked_debug_debug);
		lua_setfield(L, -2, "debug");
	}
	lua_pop(L, 3);
}

void tl_install_loaders(lua_State *L)
{
	install_debug_guard(L);

	lua_pushcfunction(L, checked_dofile);
	lua_setglobal(L, "dofile");
	lua_pushcfunction(L, checked_loadfile);
	lua_setglobal(L, "loadfile");

	lua_getglobal(L, "package");
	lua_getfield(L, -1, "searchers");
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, checked_searcher, 1);
	lua_rawseti(L, -2, 2);
	lua_pop(L, 2);
}
