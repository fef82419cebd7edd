/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-lua: the stock lua command line on Debian's liblua5.4, with every
 * way code enters routed through libtrustedfor (docs/semantics.md section 4):
 *
 *   the script, "-" and stdin   checked descriptor, or interactive (stdin)
 *   LUA_INIT=@file              checked descriptor
 *   -l, require, dofile,        checked descriptor (loaders.c)
 *   loadfile
 *   C modules: require,         checked descriptor, loaded as that very
 *   package.loadlib             file (clib.c)
 *   -e, the REPL, LUA_INIT text interactive: refused under DENY_INTERACTIVE
 *
 * Everything else follows lua.c of Lua 5.4.4: options, the arg table, error
 * messages prefixed with argv[0], exit status 1 on errors.  A refusal that
 * is not caught by the script ends the program with status 126 and one
 * line, "trusted-lua: FILE: not trusted for execution: REASON".
 *
 * Origin: this file follows lua.c of Lua 5.4.4, Copyright (C) 1994-2022
 * Lua.org, PUC-Rio, under the MIT licence (debian/copyright): most of its
 * functions, from the message handler, docall and the option scan to the
 * REPL and pmain, are lua.c's, some renamed, changed where code enters
 * (the checked entry points above).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "loaders.h"

/* lua.c's own settings. */
#define INPUT_MAX 512
#define PROMPT "> "
#define PROMPT2 ">> "
#define INIT_VAR "LUA_INIT"
#define INIT_VAR_VERSION INIT_VAR LUA_VERSUFFIX

static const char *progname = "lua";
static const char *refusal_prog = "trusted-lua";
static int was_refused; /* a refusal ended the program: exit 126 */

static void message(const char *pname, const char *msg)
{
	if (pname)
		fprintf(stderr, "%s: ", pname);
	fprintf(stderr, "%s\n", msg);
	fflush(stderr);
}

/*
 * Prints the error on top of the stack.  A refusal is one line under the
 * launcher's own name; the rest is lua's message under argv[0].
 */
static int report(lua_State *L, int status)
{
	if (status == LUA_OK)
		return status;
	if (status == TL_REFUSED || tl_is_refusal(L, -1)) {
		/* In the REPL (no progname) a refusal ends nothing. */
		if (progname)
			was_refused = 1;
		message(progname ? refusal_prog : NULL, lua_tostring(L, -1));
	} else {
		message(progname, lua_tostring(L, -1));
	}
	lua_pop(L, 1);
	return status;
}

static void print_usage(const char *badoption)
{
	fprintf(stderr, "%s: ", progname);
	if (badoption[1] == 'e' || badoption[1] == 'l')
		fprintf(stderr, "'%s' needs argument\n", badoption);
	else
		fprintf(stderr, "unrecognized option '%s'\n", badoption);
	fprintf(stderr,
		"usage: %s [options] [script [args]]\n"
		"Available options are:\n"
		"  -e stat   execute string 'stat'\n"
		"  -i        enter interactive mode after executing 'script'\n"
		"  -l mod    require library 'mod' into global 'mod'\n"
		"  -l g=mod  require library 'mod' into global 'g'\n"
		"  -v        show version information\n"
		"  -E        ignore environment variables\n"
		"  -W        turn warnings on\n"
		"  --        stop handling options\n"
		"  -         stop handling options and execute stdin\n",
		progname);
	fflush(stderr);
}

/* Ctrl-C stops the running Lua code at its next hook, as lua does. */
static lua_State *global_L;

static void stop_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	lua_sethook(L, NULL, 0, 0);
	luaL_error(L, "interrupted!");
}

static void on_sigint(int sig)
{
	int mask = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT;

	signal(sig, SIG_DFL);
	lua_sethook(global_L, stop_hook, mask, 1);
}

/* Adds a traceback, except to a refusal, which stays one line. */
static int msghandler(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);

	if (msg && tl_is_refusal(L, 1))
		return 1;
	if (!msg) {
		if (luaL_callmeta(L, 1, "__tostring") &&
		    lua_type(L, -1) == LUA_TSTRING)
			return 1;
		msg = lua_pushfstring(L, "(error object is a %s value)",
				      luaL_typename(L, 1));
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

static int docall(lua_State *L, int narg, int nres)
{
	int base = lua_gettop(L) - narg;
	int status;

	lua_pushcfunction(L, msghandler);
	lua_insert(L, base);
	global_L = L;
	signal(SIGINT, on_sigint);
	status = lua_pcall(L, narg, nres, base);
	signal(SIGINT, SIG_DFL);
	lua_remove(L, base);
	return status;
}

static void print_version(void)
{
	fputs(LUA_COPYRIGHT "\n", stdout);
	fflush(stdout);
}

/* arg[0] is the script; the interpreter and its options get negative indices. */
static void create_arg_table(lua_State *L, char **argv, int argc, int script)
{
	int i;

	if (script == argc)
		script = 0;
	/* With argc 0 there is no interpreter name either. */
	lua_createtable(L, argc > script ? argc - (script + 1) : 0, script + 1);
	for (i = 0; i < argc; i++) {
		lua_pushstring(L, argv[i]);
		lua_rawseti(L, -2, i - script);
	}
	lua_setglobal(L, "arg");
}

static int dochunk(lua_State *L, int status)
{
	if (status == LUA_OK)
		status = docall(L, 0, 0);
	return report(L, status);
}

static int dofile(lua_State *L, const char *name)
{
	return dochunk(L, tl_loadfilex(L, name, NULL));
}

/* Code from a string: interactive, so the enforcement layer is asked first. */
static int dostring(lua_State *L, const char *s, const char *chunkname,
		    const char *what)
{
	int status = tl_allow_interactive(L, -1, what);

	if (status == LUA_OK)
		status = luaL_loadbuffer(L, s, strlen(s), chunkname);
	return dochunk(L, status);
}

/* -l mod or -l g=mod: g = require(mod). */
static int dolibrary(lua_State *L, char *globname)
{
	char *modname = strchr(globname, '=');
	int status;

	if (!modname) {
		modname = globname;
	} else {
		*modname = '\0';
		modname++;
	}
	lua_getglobal(L, "require");
	lua_pushstring(L, modname);
	status = docall(L, 1, 1);
	if (status == LUA_OK)
		lua_setglobal(L, globname);
	return report(L, status);
}

static int push_args(lua_State *L)
{
	int i, n;

	if (lua_getglobal(L, "arg") != LUA_TTABLE)
		luaL_error(L, "'arg' is not a table");
	n = (int)luaL_len(L, -1);
	luaL_checkstack(L, n + 3, "too many arguments to script");
	for (i = 1; i <= n; i++)
		lua_rawgeti(L, -i, i);
	lua_remove(L, -i);
	return n;
}

static int handle_script(lua_State *L, char **argv)
{
	const char *fname = argv[0];
	int status;

	/* "-" is stdin, unless it came after "--". */
	if (!strcmp(fname, "-") && strcmp(argv[-1], "--"))
		fname = NULL;
	status = tl_loadfilex(L, fname, NULL);
	if (status == LUA_OK)
		status = docall(L, push_args(L), LUA_MULTRET);
	return report(L, status);
}

#define HAS_ERROR 1
#define HAS_I 2
#define HAS_V 4
#define HAS_E 8
#define HAS_BIG_E 16

/* lua.c's option scan: *first is the script's index, or argc if none. */
static int collect_args(char **argv, int *first)
{
	int args = 0;
	int i;

	if (!argv[0]) {
		*first = -1;
		return 0;
	}
	for (i = 1; argv[i]; i++) {
		*first = i;
		if (argv[i][0] != '-')
			return args;
		switch (argv[i][1]) {
		case '-':
			if (argv[i][2])
				return HAS_ERROR;
			*first = i + 1;
			return args;
		case '\0':
			return args;
		case 'E':
			if (argv[i][2])
				return HAS_ERROR;
			args |= HAS_BIG_E;
			break;
		case 'W':
			if (argv[i][2])
				return HAS_ERROR;
			break;
		case 'i': /* -i implies -v */
			args |= HAS_I;
			/* fall through */
		case 'v':
			if (argv[i][2])
				return HAS_ERROR;
			args |= HAS_V;
			break;
		case 'e':
			args |= HAS_E;
			/* fall through */
		case 'l':
			if (!argv[i][2]) {
				i++;
				if (!argv[i] || argv[i][0] == '-')
					return HAS_ERROR;
			}
			break;
		default:
			return HAS_ERROR;
		}
	}
	*first = i;
	return args;
}

/*
 * -e under DENY_INTERACTIVE is refused before anything runs, so that
 * LUA_INIT or an earlier -l has no effect either; -i likewise.
 */
static int precheck_interactive(lua_State *L, char **argv, int script,
				int args)
{
	int i;

	for (i = 1; i < script; i++) {
		if (argv[i][0] == '-' && (argv[i][1] == 'e' || argv[i][1] == 'l')) {
			if (argv[i][1] == 'e' &&
			    tl_allow_interactive(L, -1, "-e") != LUA_OK)
				return report(L, TL_REFUSED);
			if (!argv[i][2])
				i++;
		}
	}
	if ((args & HAS_I) && tl_allow_interactive(L, -1, "-i") != LUA_OK)
		return report(L, TL_REFUSED);
	return LUA_OK;
}

static int run_args(lua_State *L, char **argv, int n)
{
	int i;

	for (i = 1; i < n; i++) {
		int option = argv[i][1];

		if (option == 'e' || option == 'l') {
			char *extra = argv[i] + 2;
			int status;

			if (!*extra)
				extra = argv[++i];
			status = option == 'e' ?
					 dostring(L, extra, "=(command line)", "-e") :
					 dolibrary(L, extra);
			if (status != LUA_OK)
				return 0;
		} else if (option == 'W') {
			lua_warning(L, "@on", 0);
		}
	}
	return 1;
}

/* LUA_INIT_5_4, else LUA_INIT: "@FILE" runs a checked file, else text. */
static int handle_luainit(lua_State *L)
{
	const char *name = "=" INIT_VAR_VERSION;
	const char *init = getenv(name + 1);

	if (!init) {
		name = "=" INIT_VAR;
		init = getenv(name + 1);
	}
	if (!init)
		return LUA_OK;
	if (init[0] == '@')
		return dofile(L, init + 1);
	return dostring(L, init, name, name + 1);
}

/* The REPL, as lua's without readline. */
static const char *get_prompt(lua_State *L, int firstline)
{
	if (lua_getglobal(L, firstline ? "_PROMPT" : "_PROMPT2") == LUA_TNIL)
		return firstline ? PROMPT : PROMPT2;
	{
		const char *p = luaL_tolstring(L, -1, NULL);

		lua_remove(L, -2);
		return p;
	}
}

static int incomplete(lua_State *L, int status)
{
	static const char mark[] = "<eof>";
	size_t len;
	const char *msg;

	if (status != LUA_ERRSYNTAX)
		return 0;
	msg = lua_tolstring(L, -1, &len);
	if (len >= sizeof(mark) - 1 &&
	    !strcmp(msg + len - (sizeof(mark) - 1), mark)) {
		lua_pop(L, 1);
		return 1;
	}
	return 0;
}

static int push_line(lua_State *L, int firstline)
{
	char buffer[INPUT_MAX];
	size_t len;

	fputs(get_prompt(L, firstline), stdout);
	fflush(stdout);
	if (!fgets(buffer, sizeof(buffer), stdin))
		return 0;
	lua_pop(L, 1);
	len = strlen(buffer);
	if (len > 0 && buffer[len - 1] == '\n')
		buffer[--len] = '\0';
	if (firstline && buffer[0] == '=')
		lua_pushfstring(L, "return %s", buffer + 1);
	else
		lua_pushlstring(L, buffer, len);
	return 1;
}

static int add_return(lua_State *L)
{
	const char *line = lua_tostring(L, -1);
	const char *retline = lua_pushfstring(L, "return %s;", line);
	int status = luaL_loadbuffer(L, retline, strlen(retline), "=stdin");

	if (status == LUA_OK)
		lua_remove(L, -2);
	else
		lua_pop(L, 2);
	return status;
}

static int multiline(lua_State *L)
{
	for (;;) {
		size_t len;
		const char *line = lua_tolstring(L, 1, &len);
		int status = luaL_loadbuffer(L, line, len, "=stdin");

		if (!incomplete(L, status) || !push_line(L, 0))
			return status;
		lua_pushliteral(L, "\n");
		lua_insert(L, -2);
		lua_concat(L, 3);
	}
}

static int load_line(lua_State *L)
{
	int status;

	lua_settop(L, 0);
	if (!push_line(L, 1))
		return -1;
	if ((status = add_return(L)) != LUA_OK)
		status = multiline(L);
	lua_remove(L, 1);
	return status;
}

static void print_results(lua_State *L)
{
	int n = lua_gettop(L);

	if (n > 0) {
		luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
		lua_getglobal(L, "print");
		lua_insert(L, 1);
		if (lua_pcall(L, n, 0, 0) != LUA_OK)
			message(progname,
				lua_pushfstring(L, "error calling 'print' (%s)",
						lua_tostring(L, -1)));
	}
}

static void do_repl(lua_State *L)
{
	const char *oldprogname = progname;
	int status;

	progname = NULL;
	while ((status = load_line(L)) != -1) {
		if (status == LUA_OK)
			status = docall(L, 0, LUA_MULTRET);
		if (status == LUA_OK)
			print_results(L);
		else
			report(L, status);
	}
	lua_settop(L, 0);
	fputs("\n", stdout);
	fflush(stdout);
	progname = oldprogname;
}

static int pmain(lua_State *L)
{
	int argc = (int)lua_tointeger(L, 1);
	char **argv = lua_touserdata(L, 2);
	int script;
	int args = collect_args(argv, &script);

	/*
	 * argc 0 (an empty argv, which kernels before 5.18 pass on): no
	 * options, no script, so stdin, as lua does; never argv[-1].
	 */
	if (script < 0)
		script = argc;

	luaL_checkversion(L);
	if (argv[0] && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		progname = argv[0];
		refusal_prog = slash ? slash + 1 : argv[0];
	}
	if (args == HAS_ERROR) {
		print_usage(argv[script]);
		return 0;
	}
	if (args & HAS_V)
		print_version();
	if (precheck_interactive(L, argv, script, args) != LUA_OK)
		return 0;
	if (args & HAS_BIG_E) {
		lua_pushboolean(L, 1);
		lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
	}
	luaL_openlibs(L);
	tl_install_loaders(L);
	tl_install_c_loaders(L);
	create_arg_table(L, argv, argc, script);
	lua_gc(L, LUA_GCRESTART);
	lua_gc(L, LUA_GCGEN, 0, 0);
	if (!(args & HAS_BIG_E) && handle_luainit(L) != LUA_OK)
		return 0;
	if (!run_args(L, argv, script))
		return 0;
	if (script < argc && handle_script(L, argv + script) != LUA_OK)
		return 0;
	if (args & HAS_I) {
		do_repl(L);
	} else if (script == argc && !(args & (HAS_E | HAS_V))) {
		if (isatty(STDIN_FILENO)) {
			/* The REPL reads a terminal: ask about it first. */
			if (tl_allow_interactive(L, STDIN_FILENO, "<stdin>") !=
			    LUA_OK) {
				report(L, TL_REFUSED);
				return 0;
			}
			print_version();
			do_repl(L);
		} else {
			dofile(L, NULL);
		}
	}
	lua_pushboolean(L, 1);
	return 1;
}

int main(int argc, char **argv)
{
	lua_State *L = luaL_newstate();
	int status, result;

	if (!L) {
		message(argv[0], "cannot create state: not enough memory");
		return EXIT_FAILURE;
	}
	lua_gc(L, LUA_GCSTOP);
	lua_pushcfunction(L, pmain);
	lua_pushinteger(L, argc);
	lua_pushlightuserdata(L, argv);
	status = lua_pcall(L, 2, 1, 0);
	result = lua_toboolean(L, -1);
	report(L, status);
	lua_close(L);
	/* lua exits 0 after an error in stdin's code; not after a refusal. */
	if (was_refused)
		return 126;
	return result && status == LUA_OK ? EXIT_SUCCESS : EXIT_FAILURE;
}
