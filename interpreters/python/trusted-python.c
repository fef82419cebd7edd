/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: Debian's CPython (3.11 on Debian 12, 3.13 on Debian 13),
 * with every file it runs as code checked by libtrustedfor on the
 * descriptor the code is read from.
 *
 * This file is the start-up: the main entry points (the script, -c, -m,
 * stdin, the REPL, PYTHONSTARTUP), run after Modules/main.c of CPython 3.11
 * so that the script and the startup file are read from the descriptor
 * that was checked; CPython's own Py_RunMain() would reopen them by path.
 * What decides is in checks.c (the hooks, the checked open, the entry
 * points' refusals), runners.c and extensions.c.
 *
 * Everything else is CPython's: option parsing (PyConfig), messages, exit
 * statuses.  Of CPython's private functions only _Py_GetConfig() is used,
 * which both versions export (docs/python-3.13.md).
 *
 * Origin: the entry points follow Modules/main.c (pymain_run_python and
 * the functions it calls) and Python/pythonrun.c (set_main_loader, the run
 * of a file or a .pyc) of CPython 3.11, Copyright (c) 2001-2023 Python
 * Software Foundation, under the PSF License Agreement (debian/copyright).
 * The changes: the script, a .pyc and PYTHONSTARTUP are read from the
 * descriptor that was checked instead of being reopened by path, and -c,
 * stdin and the REPL are asked about as interactive code first.
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <marshal.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks.h"
#include "runners.h"

/*
 * Whether the last code run at the top level (the script, -c, -m, a
 * statement of the REPL) ended in an uncaught KeyboardInterrupt: the
 * process then dies of SIGINT, as python3 does.  CPython keeps its own
 * flag in private state (a global in 3.11, the runtime's in 3.12 on); the
 * same is seen here through two audit events raised while no Python frame
 * runs: "exec" of top-level code starts afresh, and "sys.excepthook" with
 * a KeyboardInterrupt that has a traceback (it came out of code, not out
 * of the REPL's prompt) sets it.  call_top_level() sets it itself.  Only the
 * main interpreter's: a subinterpreter's code runs with no frame under it
 * too.
 */
static int unhandled_interrupt;

static int audit(const char *event, PyObject *args)
{
	if (((event[0] == 'e' && strcmp(event, "exec") == 0) ||
	     (event[0] == 's' && strcmp(event, "sys.excepthook") == 0)) &&
	    PyInterpreterState_Get() == PyInterpreterState_Main()) {
		if (PyEval_GetFrame())
			; /* exec() or a hook called from Python code */
		else if (event[0] == 'e')
			unhandled_interrupt = 0;
		else if (PyTuple_Check(args) && PyTuple_GET_SIZE(args) >= 4 &&
			 PyTuple_GET_ITEM(args, 1) == PyExc_KeyboardInterrupt &&
			 PyTuple_GET_ITEM(args, 3) != Py_None)
			unhandled_interrupt = 1;
	}
	return runner_audit(event, args);
}

/* An environment variable as CPython reads it: none under -E or -I, and an
 * empty value is none. */
static const char *config_env(const PyConfig *config, const char *name)
{
	const char *v = config->use_environment ? getenv(name) : NULL;

	return v && v[0] ? v : NULL;
}

/*
 * When a refused file stops the interpreter's start, CPython also dumps its
 * whole path configuration to stderr; the refusal's one line is all there
 * is to say.  From the start's first refusal on, what it writes to stderr
 * is held in a memfd, and replayed afterwards unless a refusal ended the
 * start.  A start without a refusal, every ordinary one, holds nothing and
 * pays nothing.  held_stderr is the saved stderr while one is held.
 */
static int held_stderr = -1;

static void hold_stderr(void)
{
	int held, saved;

	if (held_stderr >= 0)
		return;
	held = memfd_create("trusted-python-stderr", MFD_CLOEXEC);
	saved = held < 0 ? -1 : fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	fflush(stderr);
	if (saved < 0 || dup2(held, STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		if (held >= 0)
			close(held);
		return;
	}
	close(held);
	held_stderr = saved;
}

static void release_stderr(int saved, int replay)
{
	char buf[4096];
	ssize_t n;
	int held;

	if (saved < 0)
		return;
	fflush(stderr);
	held = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	dup2(saved, STDERR_FILENO);
	close(saved);
	if (held < 0)
		return;
	if (replay && lseek(held, 0, SEEK_SET) == 0)
		while ((n = read(held, buf, sizeof(buf))) > 0)
			if (write(STDERR_FILENO, buf, (size_t)n) != n)
				break;
	close(held);
}

/* The main entry points, after Modules/main.c (pymain_run_python) of 3.11. */

static PyConfig *running_config(void)
{
	/* main.c casts the same way: inspect changes while main runs. */
	return (PyConfig *)_Py_GetConfig();
}

/*
 * CPython's PyErr_Print() reads the running config's inspect: with -i a
 * SystemExit of the script does not end the process, and the REPL after
 * it clears the flag so that one there does.  No public API writes it
 * before 3.14 (PyConfig_Set).
 */
static void set_inspect(PyConfig *config, int inspect)
{
	config->inspect = inspect;
#if PY_VERSION_HEX < 0x030C0000
	/* Deprecated in 3.12, and no longer read once initialised. */
	Py_InspectFlag = inspect;
#endif
}

static int run_code_given(const PyConfig *config)
{
	return config->run_command || config->run_filename || config->run_module;
}

static int stdin_is_interactive(const PyConfig *config)
{
	return isatty(fileno(stdin)) || config->interactive;
}

/*
 * A pending SystemExit, unless -i holds the process for the REPL: cleared,
 * and its status in *exitcode: 0 for None, the number, or 1 after its
 * message is written to stderr.  Returns 0 for any other exception.
 */
static int take_system_exit(int *exitcode)
{
	PyObject *type, *value, *tb, *code;
	PyObject *err;

	if (running_config()->inspect || !PyErr_ExceptionMatches(PyExc_SystemExit))
		return 0;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	fflush(stdout);
	code = value && PyExceptionInstance_Check(value) ?
		       PyObject_GetAttrString(value, "code") :
		       NULL;
	if (!code) {
		/* No code attribute: the exception itself is the message. */
		PyErr_Clear();
		code = value ? value : Py_None;
		Py_INCREF(code);
	}
	*exitcode = 0;
	if (PyLong_Check(code)) {
		*exitcode = (int)PyLong_AsLong(code);
		PyErr_Clear();
	} else if (code != Py_None) {
		err = PySys_GetObject("stderr");
		if (!err || err == Py_None || PyFile_WriteObject(code, err, Py_PRINT_RAW) < 0) {
			PyErr_Clear();
			PyObject_Print(code, stderr, Py_PRINT_RAW);
			fflush(stderr);
		}
		PySys_WriteStderr("\n");
		*exitcode = 1;
	}
	Py_DECREF(code);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	return 1;
}

static int err_print(int *exitcode)
{
	if (take_system_exit(exitcode))
		return 1;
	PyErr_Print();
	return 0;
}

static int exit_err_print(void)
{
	int exitcode = 1;

	err_print(&exitcode);
	return exitcode;
}

static int sys_path_insert0(PyObject *path0)
{
	PyObject *sys_path = PySys_GetObject("path");

	if (!sys_path || !PyList_Check(sys_path)) {
		PyErr_SetString(PyExc_RuntimeError, "unable to get sys.path");
		return -1;
	}
	return PyList_Insert(sys_path, 0, path0);
}

/* sys.path[0], as _PyPathConfig_ComputeSysPath0() computes it on POSIX. */
static PyObject *compute_path0(const PyConfig *config)
{
	const wchar_t *argv0;
	const char *path, *slash;
	char *bytes, real[PATH_MAX];
	PyObject *res;

	if (config->argv.length == 0)
		Py_RETURN_NONE;
	argv0 = config->argv.items[0];
	if (wcscmp(argv0, L"-c") == 0)
		return PyUnicode_FromString("");
	if (wcscmp(argv0, L"-m") == 0) {
		if (!getcwd(real, sizeof(real)))
			Py_RETURN_NONE;
		return PyUnicode_DecodeFSDefault(real);
	}
	bytes = Py_EncodeLocale(argv0, NULL);
	if (!bytes)
		return PyErr_NoMemory();
	/* realpath() resolves the symlinks that main.c follows by hand. */
	path = realpath(bytes, real) ? real : bytes;
	slash = strrchr(path, '/');
	if (!slash)
		res = PyUnicode_FromString("");
	else
		res = PyUnicode_DecodeFSDefaultAndSize(
			path, slash > path ? slash - path : 1);
	PyMem_Free(bytes);
	return res;
}

/* Ends the process as a refused script does if EXC is, or comes of, a refusal. */
static void exit_if_refusal(PyObject *exc)
{
	PyObject *refusal = find_refusal(exc), *s;
	const char *msg;

	if (!refusal)
		return;
	s = PyObject_Str(refusal);
	msg = s ? PyUnicode_AsUTF8(s) : NULL;
	refuse_and_exit(msg ? msg : last_refusal);
}

/*
 * runpy reports a module it cannot load with sys.exit(str(error)); a
 * refusal behind it ends the process as a refused script does.
 */
static void exit_if_runpy_refused(void)
{
	PyObject *type, *value, *tb, *context = NULL;

	if (!PyErr_ExceptionMatches(PyExc_SystemExit))
		return;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (value && PyExceptionInstance_Check(value))
		context = PyException_GetContext(value);
	exit_if_refusal(context);
	Py_XDECREF(context);
	PyErr_Restore(type, value, tb);
}

/*
 * Top-level code (a module run as __main__, the console): whether it ended
 * in an uncaught KeyboardInterrupt, for unhandled_interrupt.
 */
static PyObject *call_top_level(PyObject *f, PyObject *args, PyObject *kwargs)
{
	PyObject *result;

	unhandled_interrupt = 0;
	result = PyObject_Call(f, args, kwargs);
	if (!result && PyErr_Occurred() == PyExc_KeyboardInterrupt)
		unhandled_interrupt = 1;
	return result;
}

static int run_module(const wchar_t *modname, int set_argv0)
{
	PyObject *runpy, *runmodule = NULL, *module = NULL, *args = NULL, *result = NULL;

	if (PySys_Audit("cpython.run_module", "u", modname) < 0)
		return exit_err_print();
	runpy = PyImport_ImportModule("runpy");
	if (!runpy) {
		fprintf(stderr, "Could not import runpy module\n");
		return exit_err_print();
	}
	runmodule = PyObject_GetAttrString(runpy, "_run_module_as_main");
	module = PyUnicode_FromWideChar(modname, -1);
	args = runmodule && module ?
		       PyTuple_Pack(2, module, set_argv0 ? Py_True : Py_False) :
		       NULL;
	if (args)
		result = call_top_level(runmodule, args, NULL);
	Py_DECREF(runpy);
	Py_XDECREF(runmodule);
	Py_XDECREF(module);
	Py_XDECREF(args);
	if (!result) {
		exit_if_runpy_refused();
		return exit_err_print();
	}
	Py_DECREF(result);
	return 0;
}

#if PY_VERSION_HEX >= 0x030D0000
/*
 * -c as 3.13's main.c runs it, so that its tracebacks show its lines:
 * compiled as "<string>", the source given to linecache for that code,
 * then run in __main__.  PyRun_SimpleStringFlags() would skip linecache.
 */
static int run_string_shown(const char *command, PyCompilerFlags *cf)
{
	PyObject *main, *co, *linecache = NULL, *r = NULL, *v = NULL;

	main = PyImport_AddModule("__main__");
	if (!main)
		goto print;
	co = Py_CompileStringExFlags(command, "<string>", Py_file_input, cf, -1);
	if (!co)
		goto print;
	linecache = PyImport_ImportModule("linecache");
	if (linecache)
		r = PyObject_CallMethod(linecache, "_register_code", "Oss", co, command,
					"<string>");
	Py_XDECREF(linecache);
	if (r && PySys_Audit("exec", "O", co) == 0)
		v = PyEval_EvalCode(co, PyModule_GetDict(main), PyModule_GetDict(main));
	Py_XDECREF(r);
	Py_DECREF(co);
print:
	if (!v) {
		PyErr_Print();
		return -1;
	}
	Py_DECREF(v);
	return 0;
}
#else
static int run_string_shown(const char *command, PyCompilerFlags *cf)
{
	return PyRun_SimpleStringFlags(command, cf);
}
#endif

static int run_command(const wchar_t *command)
{
	PyObject *unicode, *bytes;
	PyCompilerFlags cf = _PyCompilerFlags_INIT;
	int ret;

	unicode = PyUnicode_FromWideChar(command, -1);
	if (!unicode)
		goto error;
	if (PySys_Audit("cpython.run_command", "O", unicode) < 0) {
		Py_DECREF(unicode);
		return exit_err_print();
	}
	bytes = PyUnicode_AsUTF8String(unicode);
	Py_DECREF(unicode);
	if (!bytes)
		goto error;
	cf.cf_flags |= PyCF_IGNORE_COOKIE;
	ret = run_string_shown(PyBytes_AsString(bytes), &cf);
	Py_DECREF(bytes);
	return ret != 0;
error:
	PySys_WriteStderr("Unable to decode the command from the command line:\n");
	return exit_err_print();
}

/* Sets __main__.__loader__ the way pythonrun.c's set_main_loader() does. */
static int set_main_loader(PyObject *d, PyObject *filename, const char *type)
{
	PyObject *ext, *cls, *loader;
	int rc = -1;

	ext = PyImport_ImportModule("_frozen_importlib_external");
	if (!ext)
		return -1;
	cls = PyObject_GetAttrString(ext, type);
	Py_DECREF(ext);
	if (!cls)
		return -1;
	loader = PyObject_CallFunction(cls, "sO", "__main__", filename);
	Py_DECREF(cls);
	if (loader) {
		rc = PyDict_SetItemString(d, "__loader__", loader);
		Py_DECREF(loader);
	}
	return rc;
}

static void flush_io(void)
{
	PyObject *type, *value, *tb, *f, *r;
	const char *names[] = { "stderr", "stdout" };

	PyErr_Fetch(&type, &value, &tb);
	for (size_t i = 0; i < 2; i++) {
		f = PySys_GetObject(names[i]);
		if (f && f != Py_None) {
			r = PyObject_CallMethod(f, "flush", NULL);
			if (r)
				Py_DECREF(r);
			else
				PyErr_Clear();
		}
	}
	PyErr_Restore(type, value, tb);
}

/* The code of a source file, read to its end from the checked stream. */
static PyObject *compile_stream(FILE *fp, PyObject *filename)
{
	PyCompilerFlags cf = _PyCompilerFlags_INIT;
	PyObject *co;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	do {
		/* Room for one byte and the terminating NUL at least. */
		if (cap - len < 2) {
			char *nbuf = PyMem_Realloc(buf, cap = cap ? 2 * cap : 8192);

			if (!nbuf) {
				PyMem_Free(buf);
				return PyErr_NoMemory();
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len - 1, fp);
		len += n;
	} while (n > 0);
	if (ferror(fp)) {
		PyMem_Free(buf);
		return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, filename);
	}
	buf[len] = '\0';
	co = Py_CompileStringObject(buf, filename, Py_file_input, &cf, -1);
	PyMem_Free(buf);
	return co;
}

/*
 * A file run in __main__ from its checked stream (a .pyc script, the
 * PYTHONSTARTUP file), as pythonrun.c's _PyRun_SimpleFileObject() would run
 * it, except that pythonrun.c closes the stream of a .pyc and reopens the
 * file by name: the code here is read only from fp.
 */
static int run_stream(FILE *fp, PyObject *filename, int pyc)
{
	PyObject *m, *d, *co = NULL, *v = NULL;
	int set_file_name = 0, ret = -1;

	m = PyImport_AddModule("__main__");
	if (!m)
		goto done;
	Py_INCREF(m);
	d = PyModule_GetDict(m);
	if (!PyDict_GetItemString(d, "__file__")) {
		if (PyDict_SetItemString(d, "__file__", filename) < 0 ||
		    PyDict_SetItemString(d, "__cached__", Py_None) < 0)
			goto done;
		set_file_name = 1;
	}
	if (set_main_loader(d, filename, pyc ? "SourcelessFileLoader" : "SourceFileLoader") < 0) {
		fprintf(stderr, "python: failed to set __main__.__loader__\n");
		goto done;
	}
	if (!pyc) {
		co = compile_stream(fp, filename);
		if (!co)
			goto print;
		goto run;
	}
	if (PyMarshal_ReadLongFromFile(fp) != PyImport_GetMagicNumber()) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_RuntimeError,
					"Bad magic number in .pyc file");
		goto print;
	}
	/* The rest of the 16-byte header: flags, then mtime and size or a hash. */
	for (int i = 0; i < 3; i++)
		(void)PyMarshal_ReadLongFromFile(fp);
	if (PyErr_Occurred())
		goto print;
	co = PyMarshal_ReadLastObjectFromFile(fp);
	if (!co || !PyCode_Check(co)) {
		Py_CLEAR(co);
		PyErr_SetString(PyExc_RuntimeError, "Bad code object in .pyc file");
		goto print;
	}
run:
	if (PySys_Audit("exec", "O", co) == 0)
		v = PyEval_EvalCode(co, d, d);
	flush_io();
print:
	if (!v) {
		if (PyErr_Occurred() == PyExc_KeyboardInterrupt)
			unhandled_interrupt = 1;
		PyErr_Print();
		goto done;
	}
	Py_DECREF(v);
	ret = 0;
done:
	if (set_file_name && m) {
		if (PyDict_DelItemString(d, "__file__") < 0)
			PyErr_Clear();
		if (PyDict_DelItemString(d, "__cached__") < 0)
			PyErr_Clear();
	}
	Py_XDECREF(co);
	Py_XDECREF(m);
	fclose(fp);
	return ret;
}

static int is_pyc(FILE *fp, PyObject *filename, int skipped_first_line)
{
	unsigned char buf[2];
	unsigned int halfmagic = PyImport_GetMagicNumber() & 0xFFFF;
	int ispyc = 0;
	Py_ssize_t len = PyUnicode_GetLength(filename);
	PyObject *tail;

	if (len >= 4) {
		tail = PyUnicode_Substring(filename, len - 4, len);
		if (tail && PyUnicode_CompareWithASCIIString(tail, ".pyc") == 0)
			ispyc = 1;
		Py_XDECREF(tail);
		if (ispyc)
			return 1;
	}
	/* As pythonrun.c: after -x the stream is not at its start; give up. */
	if (skipped_first_line || ftell(fp) != 0)
		return 0;
	if (fread(buf, 1, 2, fp) == 2 &&
	    ((unsigned int)buf[1] << 8 | buf[0]) == halfmagic)
		ispyc = 1;
	rewind(fp);
	return ispyc;
}

static int run_file(const PyConfig *config)
{
	PyObject *filename, *program_name, *fsname;
	PyCompilerFlags cf = _PyCompilerFlags_INIT;
	struct stat st;
	FILE *fp;
	int fd, ret, open_errno;

	filename = PyUnicode_FromWideChar(config->run_filename, -1);
	program_name = PyUnicode_FromWideChar(config->program_name, -1);
	if (!filename || !program_name) {
		Py_XDECREF(filename);
		Py_XDECREF(program_name);
		PyErr_Print();
		return -1;
	}
	if (PySys_Audit("cpython.run_file", "O", filename) < 0 ||
	    PySys_Audit("open", "Osi", filename, "rb", 0) < 0) {
		ret = exit_err_print();
		goto out;
	}
	fd = open_entry_point(filename, &open_errno);
	if (fd < 0 && open_errno) {
		PyErr_Clear();
		PySys_FormatStderr("%S: can't open file %R: [Errno %d] %s\n",
				   program_name, filename, open_errno,
				   strerror(open_errno));
		ret = 2;
		goto out;
	}
	if (fd < 0) {
		ret = exit_err_print();
		goto out;
	}
	/* Unreachable when files are enforced: a directory is never trusted. */
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		PySys_FormatStderr("%S: %R is a directory, cannot continue\n",
				   program_name, filename);
		close(fd);
		ret = 1;
		goto out;
	}
	fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		PyErr_NoMemory();
		ret = exit_err_print();
		goto out;
	}
	if (config->skip_source_first_line) {
		int ch;

		/* Push back the newline so that line numbers stay the same. */
		while ((ch = getc(fp)) != EOF) {
			if (ch == '\n') {
				(void)ungetc(ch, fp);
				break;
			}
		}
	}
	if (Py_MakePendingCalls() == -1) {
		fclose(fp);
		ret = exit_err_print();
		goto out;
	}
	/* The standard library's timeit.py, pdb.py...: as with -m. */
	if (runner_script(fd, PyModule_GetDict(PyImport_AddModule("__main__"))) < 0) {
		fclose(fp);
		exit_if_refused();
		ret = exit_err_print();
		goto out;
	}
	if (is_pyc(fp, filename, config->skip_source_first_line)) {
		ret = run_stream(fp, filename, 1) != 0;
	} else if (!PyUnicode_FSConverter(filename, &fsname)) {
		fclose(fp);
		ret = exit_err_print();
	} else {
		/* Decodes the name back to filename, as main.c passes it. */
		ret = PyRun_AnyFileExFlags(fp, PyBytes_AS_STRING(fsname), 1, &cf) != 0;
		Py_DECREF(fsname);
	}
out:
	Py_DECREF(filename);
	Py_DECREF(program_name);
	return ret;
}

/* Returns 1 (with *exitcode) when the caller must stop. */
static int run_startup(const PyConfig *config, int *exitcode)
{
	const char *env = config_env(config, "PYTHONSTARTUP");
	PyObject *startup;
	FILE *fp;
	int fd, ret = 0, open_errno;

	if (!env || !env[0])
		return 0;
	startup = PyUnicode_DecodeFSDefault(env);
	if (!startup)
		return err_print(exitcode);
	if (PySys_Audit("cpython.run_startup", "O", startup) < 0 ||
	    PySys_Audit("open", "Osi", startup, "r", 0) < 0)
		goto error;
	fd = open_entry_point(startup, &open_errno);
	if (fd < 0 && open_errno) {
		PyErr_Clear();
		PySys_WriteStderr("Could not open PYTHONSTARTUP\n");
		errno = open_errno;
		PyErr_SetFromErrnoWithFilenameObjects(PyExc_OSError, startup, NULL);
		goto error;
	}
	if (fd < 0)
		goto error;
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		PyErr_NoMemory();
		goto error;
	}
	/* Like python3: a .pyc by its name, never by its content. */
	(void)run_stream(fp, startup, is_pyc(fp, startup, 1));
	PyErr_Clear();
	goto done;
error:
	ret = err_print(exitcode);
done:
	Py_DECREF(startup);
	return ret;
}

static int run_interactive_hook(int *exitcode)
{
	PyObject *hook, *result;

	hook = PySys_GetObject("__interactivehook__");
	if (!hook)
		return 0;
	Py_INCREF(hook);
	if (PySys_Audit("cpython.run_interactivehook", "O", hook) < 0)
		goto error;
	result = PyObject_CallNoArgs(hook);
	Py_DECREF(hook);
	hook = NULL;
	if (!result)
		goto error;
	Py_DECREF(result);
	return 0;
error:
	Py_XDECREF(hook);
	PySys_WriteStderr("Failed calling sys.__interactivehook__\n");
	return err_print(exitcode);
}

#if PY_VERSION_HEX >= 0x030D0000
/*
 * 3.13's console on a terminal is _pyrepl, unless PYTHON_BASIC_REPL asks
 * for the basic one, or _pyrepl cannot be imported (Debian's python3.13
 * then falls back to the basic one, and so does this).  Both consoles run
 * what stdin types: the entry check (check_entry_points, or
 * check_interactive_or_exit after -i) has already allowed that, and
 * _pyrepl's row of runners.c asks again when it runs as __main__.
 */
static int use_pyrepl(const PyConfig *config)
{
	PyObject *mod;

	if (!isatty(fileno(stdin)) || config_env(config, "PYTHON_BASIC_REPL"))
		return 0;
	mod = PyImport_ImportModule("_pyrepl");
	if (!mod) {
		PyErr_Clear();
		return 0;
	}
	Py_DECREF(mod);
	return 1;
}

/*
 * The console after -i, as 3.13's main.c starts it: not as __main__, and
 * told to run PYTHONSTARTUP itself (compiled under the file's name, so the
 * compile check reads it again through a checked descriptor).
 */
static int run_pyrepl_after_code(void)
{
	PyObject *main, *console = NULL, *args = NULL, *kwargs = NULL, *result = NULL;

	main = PyImport_ImportModule("_pyrepl.main");
	if (!main) {
		fprintf(stderr, "Could not import _pyrepl.main\n");
		return exit_err_print();
	}
	console = PyObject_GetAttrString(main, "interactive_console");
	Py_DECREF(main);
	if (console) {
		args = PyTuple_New(0);
		kwargs = Py_BuildValue("{s:O}", "pythonstartup", Py_True);
	}
	if (args && kwargs)
		result = call_top_level(console, args, kwargs);
	Py_XDECREF(console);
	Py_XDECREF(args);
	Py_XDECREF(kwargs);
	if (!result) {
		/* Before the first prompt (the startup file refused): not a
		 * statement the console reports and goes on from. */
		PyObject *type, *value, *tb;

		PyErr_Fetch(&type, &value, &tb);
		PyErr_NormalizeException(&type, &value, &tb);
		exit_if_refusal(value);
		PyErr_Restore(type, value, tb);
		return exit_err_print();
	}
	Py_DECREF(result);
	return 0;
}
#else
static int use_pyrepl(const PyConfig *config)
{
	(void)config;
	return 0;
}

static int run_pyrepl_after_code(void)
{
	return 1;
}
#endif

static int run_stdin(PyConfig *config)
{
	PyCompilerFlags cf = _PyCompilerFlags_INIT;
	int exitcode;

	if (stdin_is_interactive(config)) {
		runner_in_repl(1);
		set_inspect(config, 0); /* SystemExit exits */
		if (run_startup(config, &exitcode))
			return exitcode;
		if (run_interactive_hook(&exitcode))
			return exitcode;
	}
	if (Py_MakePendingCalls() == -1)
		return exit_err_print();
	if (PySys_Audit("cpython.run_stdin", NULL) < 0)
		return exit_err_print();
	if (use_pyrepl(config))
		return run_module(L"_pyrepl", 0);
	return PyRun_AnyFileExFlags(stdin, "<stdin>", 0, &cf) != 0;
}

static void run_repl(PyConfig *config, int *exitcode)
{
	PyCompilerFlags cf = _PyCompilerFlags_INIT;

	/* A program may set PYTHONINSPECT itself: look at the very end. */
	if (!config->inspect &&
	    config_env(config, "PYTHONINSPECT"))
		set_inspect(config, 1);
	if (!(config->inspect && stdin_is_interactive(config) &&
	      run_code_given(config)))
		return;
	check_interactive_or_exit("<stdin>", 0);
	runner_in_repl(1);
	set_inspect(config, 0);
	if (run_interactive_hook(exitcode))
		return;
#if PY_VERSION_HEX >= 0x030D0000
	if (PySys_Audit("cpython.run_stdin", NULL) < 0)
		return;
#endif
	if (use_pyrepl(config)) {
		*exitcode = run_pyrepl_after_code();
		return;
	}
	*exitcode = PyRun_AnyFileFlags(stdin, "<stdin>", &cf) != 0;
}

static void print_header(const PyConfig *config)
{
	if (config->quiet)
		return;
	if (!config->verbose &&
	    (run_code_given(config) || !stdin_is_interactive(config)))
		return;
	fprintf(stderr, "Python %s on %s\n", Py_GetVersion(), Py_GetPlatform());
	if (config->site_import)
		fprintf(stderr, "%s\n",
			"Type \"help\", \"copyright\", \"credits\" or "
			"\"license\" for more information.");
}

static void import_readline(const PyConfig *config)
{
	const char *names[] = { "readline", "rlcompleter" };

	if (config->isolated)
		return;
	if (!config->inspect && run_code_given(config))
		return;
	if (!isatty(fileno(stdin)))
		return;
	for (size_t i = 0; i < 2; i++) {
		PyObject *mod = PyImport_ImportModule(names[i]);

		if (mod)
			Py_DECREF(mod);
		else
			PyErr_Clear();
	}
}

/*
 * 3.13 keeps sys.path[0] in the config as well (sys_path_0): the import
 * system reads it to say that a module of the script's directory shadows
 * a standard one.  Set as main.c sets it; PyConfig_Clear() frees it.
 */
static int set_sys_path_0(PyConfig *config, PyObject *path0)
{
#if PY_VERSION_HEX >= 0x030D0000
	wchar_t *w = PyUnicode_AsWideCharString(path0, NULL);
	size_t size;

	if (!w)
		return -1;
	size = (wcslen(w) + 1) * sizeof(wchar_t);
	PyMem_RawFree(config->sys_path_0);
	config->sys_path_0 = PyMem_RawMalloc(size);
	if (config->sys_path_0)
		memcpy(config->sys_path_0, w, size);
	PyMem_Free(w);
	if (!config->sys_path_0) {
		PyErr_NoMemory();
		return -1;
	}
#endif
	return 0;
}

static int run_python(void)
{
	PyConfig *config = running_config();
	PyObject *importer_path = NULL;
	int exitcode = 0;

	if (config->run_filename) {
		PyObject *path0 = PyUnicode_FromWideChar(config->run_filename, -1);
		PyObject *importer = path0 ? PyImport_GetImporter(path0) : NULL;

		if (!importer) {
			Py_XDECREF(path0);
			PySys_WriteStderr("Failed checking if argv[0] is an import path entry\n");
			err_print(&exitcode);
			return exitcode;
		}
		/* A directory or a zip file with a __main__ module. */
		if (importer != Py_None)
			importer_path = path0;
		else
			Py_DECREF(path0);
		Py_DECREF(importer);
	}

	import_readline(config);

	if (importer_path) {
		if (set_sys_path_0(config, importer_path) < 0 ||
		    sys_path_insert0(importer_path) < 0)
			goto error;
	} else if (!config->safe_path) {
		PyObject *path0 = compute_path0(config);

		if (!path0)
			goto error;
		if (path0 != Py_None && (set_sys_path_0(config, path0) < 0 ||
					 sys_path_insert0(path0) < 0)) {
			Py_DECREF(path0);
			goto error;
		}
		Py_DECREF(path0);
	}

	print_header(config);

	if (config->run_command)
		exitcode = run_command(config->run_command);
	else if (config->run_module)
		exitcode = run_module(config->run_module, 1);
	else if (importer_path)
		exitcode = run_module(L"__main__", 0);
	else if (config->run_filename)
		exitcode = run_file(config);
	else
		exitcode = run_stdin(config);

	run_repl(config, &exitcode);
	goto done;
error:
	PyErr_Print();
	exitcode = 1;
done:
	Py_XDECREF(importer_path);
	return exitcode;
}

static int exit_sigint(void)
{
	/* Die of SIGINT, so that a calling shell knows about the ^C. */
	if (PyOS_setsig(SIGINT, SIG_DFL) == SIG_ERR)
		perror("signal");
	else
		kill(getpid(), SIGINT);
	return SIGINT + 128;
}

static void exit_status(PyStatus status)
{
	/* Exits with the status's code, or prints its error and aborts. */
	Py_ExitStatusException(status);
}

int main(int argc, char **argv)
{
	PyPreConfig preconfig;
	PyConfig config;
	PyStatus status;
	int refused_at_start, exitcode, interrupted;

	set_program_name(argc > 0 ? argv[0] : NULL);

	/*
	 * Pre-initialise first, as python3's main does: it picks the memory
	 * allocators (PYTHONMALLOC, -X dev), which must be in place before
	 * the audit hook allocates its entry.
	 */
	PyPreConfig_InitPythonConfig(&preconfig);
	status = Py_PreInitializeFromBytesArgs(&preconfig, argc, argv);
	if (PyStatus_Exception(status))
		exit_status(status);

	if (install_checks(audit, runner_code_read) < 0) {
		fprintf(stderr, "%s: cannot install the trustedfor hooks\n", prog);
		return 1;
	}

	PyConfig_InitPythonConfig(&config);
	status = PyConfig_SetBytesArgv(&config, argc, argv);
	if (PyStatus_Exception(status))
		goto fail;
	status = PyConfig_Read(&config);
	if (PyStatus_Exception(status))
		goto fail;

	check_entry_points(&config);

	on_refusal = hold_stderr;
	status = Py_InitializeFromConfig(&config);
	on_refusal = NULL;
	PyConfig_Clear(&config);
	refused_at_start = PyStatus_Exception(status) && last_refusal[0] &&
			   !PyStatus_IsExit(status);
	release_stderr(held_stderr, !refused_at_start);
	held_stderr = -1;
	if (PyStatus_Exception(status)) {
		/* A .pth file, a startup module or the standard library itself
		 * (policy 3 on Debian) was refused. */
		if (refused_at_start)
			refuse_and_exit(last_refusal);
		exit_status(status);
	}

	exitcode = run_python();
	interrupted = unhandled_interrupt;
	if (Py_FinalizeEx() < 0)
		exitcode = 120;
	if (interrupted)
		exitcode = exit_sigint();
	return exitcode;

fail:
	PyConfig_Clear(&config);
	exit_status(status);
	return 1;
}
