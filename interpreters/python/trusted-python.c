/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: Debian's CPython 3.11, with every file it runs as code
 * checked by libtrustedfor on the descriptor the code is read from.
 *
 * What goes where:
 *  - PEP 578's open-code hook (set before the interpreter starts; CPython
 *    refuses to replace it afterwards) opens every file that io.open_code()
 *    is asked for: source and cached .pyc imports, zip imports, runpy,
 *    .pth files (site.py reads them with io.open_code).  It checks the new
 *    descriptor and hands Python a file object over that same descriptor.
 *  - The main entry points (the script, -c, -m, stdin, the REPL,
 *    PYTHONSTARTUP) are run here, after Modules/main.c of CPython 3.11, so
 *    that the script and the startup file are read from the descriptor that
 *    was checked; CPython's own Py_RunMain() would reopen them by path.
 *  - Sourceless .pyc files are read by SourcelessFileLoader.get_data() with
 *    io.FileIO, which bypasses the open-code hook.  An audit hook (PEP 578;
 *    it cannot be removed) replaces that method, in every interpreter, with
 *    a C function that reads through io.open_code(), before the first
 *    import can find a file.  Unlike the rest, trusted Python code could
 *    assign another method: CPython raises no audit event for that.
 *  - Extension modules: the same hook replaces _imp.create_dynamic with a
 *    function that checks the file and loads that descriptor
 *    (extensions.c); the loader's variables are judged before any shared
 *    object's initialiser runs (../common/loader_guard.c).
 *  - Programs that run files or take code by themselves (runners.c): the
 *    audit hook's "compile", "exec", "builtins.breakpoint" and
 *    "sys.excepthook" events; code compiled under a file's name must be
 *    that file's checked content, and the standard library's interactive
 *    programs are interactive code however they are started.
 *
 * Everything else is CPython's: option parsing (PyConfig), messages, exit
 * statuses.  A refused main entry point prints one line "PROG: MESSAGE" and
 * exits with 126; a refused import raises _trustedfor.NotTrustedError, a
 * subclass of ImportError.
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

#include <trustedfor.h>

#include "checks.h"
#include "extensions.h"
#include "runners.h"

/* Exported by libpython3.11 but declared only in its internal headers. */
extern int _Py_UnhandledKeyboardInterrupt;
extern int _Py_HandleSystemExit(int *exitcode);
extern const char *_Py_GetEnv(int use_environment, const char *name);

#define REFUSED_STATUS 126

static const char *prog = "trusted-python";

/* The last refusal, for refusals that end the interpreter's start. */
char last_refusal[TRUSTED_FOR_MESSAGE_MAX];

PyObject *not_trusted_error; /* _trustedfor.NotTrustedError */
/* Set in each interpreter's dict once its loader is guarded. */
#define GUARD_KEY "trustedfor.sourceless-guard"

void refuse_and_exit(const char *message)
{
	fprintf(stderr, "%s: %s\n", prog, message);
	fflush(stderr);
	exit(REFUSED_STATUS);
}

/*
 * When a refused file stops the interpreter's start, CPython also dumps its
 * whole path configuration to stderr; the refusal's one line is all there
 * is to say.  What the start writes to stderr is held in a memfd and
 * replayed afterwards, unless a refusal ended it.  Returns the saved stderr,
 * or -1 when nothing is held.
 */
static int hold_stderr(void)
{
	int held = memfd_create("trusted-python-stderr", MFD_CLOEXEC);
	int saved = held < 0 ? -1 : fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);

	fflush(stderr);
	if (saved < 0 || dup2(held, STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		if (held >= 0)
			close(held);
		return -1;
	}
	close(held);
	return saved;
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

static int make_not_trusted_error(void)
{
	if (not_trusted_error)
		return 0;
	not_trusted_error = PyErr_NewExceptionWithDoc(
		"_trustedfor.NotTrustedError",
		"A file was refused as code by the trustedfor policy.",
		PyExc_ImportError, NULL);
	return not_trusted_error ? 0 : -1;
}

/* Raise NotTrustedError(message, path=path). */
void raise_not_trusted(const char *message, PyObject *path)
{
	PyObject *msg, *args = NULL, *kwargs = NULL, *exc = NULL;

	snprintf(last_refusal, sizeof(last_refusal), "%s", message);
	if (make_not_trusted_error() < 0)
		return;
	/* The message holds the path's bytes, which need not be UTF-8. */
	msg = PyUnicode_DecodeFSDefault(message);
	if (msg)
		args = PyTuple_Pack(1, msg);
	kwargs = Py_BuildValue("{s:O}", "path", path);
	if (args && kwargs)
		exc = PyObject_Call(not_trusted_error, args, kwargs);
	if (exc)
		PyErr_SetObject(not_trusted_error, exc);
	Py_XDECREF(exc);
	Py_XDECREF(msg);
	Py_XDECREF(args);
	Py_XDECREF(kwargs);
}

/*
 * Open path once, check that descriptor, and return it, or -1 with a Python
 * exception set: OSError when it cannot be opened (callers such as the
 * import system rely on that; *open_errno is then the errno), or
 * NotTrustedError when it is refused (*open_errno is 0).
 */
static int open_checked(PyObject *path, int *open_errno)
{
	struct trusted_for_verdict v;
	PyObject *bytes = NULL;
	const char *name;
	int fd, allowed, err = 0;

	*open_errno = 0;
	if (!PyUnicode_FSConverter(path, &bytes))
		return -1;
	name = PyBytes_AS_STRING(bytes);
	Py_BEGIN_ALLOW_THREADS
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		err = errno;
	/* The library also refuses a pipe or terminal named as a file. */
	allowed = fd >= 0 && trusted_for_allow_file(fd, name, &v) == 0;
	Py_END_ALLOW_THREADS
	Py_DECREF(bytes);
	if (fd < 0) {
		*open_errno = err;
		errno = err;
		PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
		return -1;
	}
	if (!allowed) {
		close(fd);
		raise_not_trusted(v.message, path);
		return -1;
	}
	return fd;
}

/* An opener for io.open(): the descriptor, opened once and checked. */
static PyObject *checked_opener(PyObject *self, PyObject *const *args,
				Py_ssize_t nargs)
{
	PyObject *res;
	int fd, open_errno;

	(void)self;
	/* (path, flags); the flags are io.open()'s O_RDONLY|O_CLOEXEC. */
	if (nargs != 2) {
		PyErr_SetString(PyExc_TypeError, "opener takes (path, flags)");
		return NULL;
	}
	fd = open_checked(args[0], &open_errno);
	if (fd < 0)
		return NULL;
	res = PyLong_FromLong(fd);
	if (!res)
		close(fd);
	return res;
}

PyMethodDef checked_opener_def = {
	"checked_opener", (PyCFunction)(void (*)(void))checked_opener, METH_FASTCALL,
	"Open a file read-only and check it with trusted_for_allow_file().",
};

/*
 * Is path a cache file __pycache__/NAME.TAG.pyc whose source NAME.py
 * exists?  CPython writes those at run time with the source's mode less
 * its execute bits (_write_atomic() masks the mode with 0666), so under a
 * check policy with the file check every one it rewrites is refused.
 */
static int is_cache_of_source(PyObject *path)
{
	PyObject *bytes = NULL;
	char src[PATH_MAX];
	const char *name, *base, *dot;
	struct stat st;
	int found = 0;

	if (!PyUnicode_FSConverter(path, &bytes)) {
		PyErr_Clear();
		return 0;
	}
	name = PyBytes_AS_STRING(bytes);
	base = strrchr(name, '/');
	if (base && base - name >= 11 && strncmp(base - 11, "__pycache__", 11) == 0 &&
	    (base - name == 11 || base[-12] == '/') && (dot = strchr(base, '.')) &&
	    strlen(base) > 4 && strcmp(base + strlen(base) - 4, ".pyc") == 0 &&
	    snprintf(src, sizeof(src), "%.*s%.*s.py", (int)(base - 11 - name), name,
		     (int)(dot - base - 1), base + 1) < (int)sizeof(src))
		found = stat(src, &st) == 0 && S_ISREG(st.st_mode);
	Py_DECREF(bytes);
	return found;
}

/*
 * PEP 578's open-code hook.  CPython's default is io.open(path, "rb"); this
 * is the same call with an opener, so that the file object, its name and
 * the "open" audit event (with the path, before the file is opened) are
 * exactly the default's, and only the descriptor differs: it was checked.
 */
static PyObject *open_code_hook(PyObject *path, void *data)
{
	/* Made once; _io.open is a static builtin shared by all interpreters. */
	static PyObject *io_open, *mode, *kwargs;
	PyObject *args, *file;

	(void)data;
	if (!io_open) {
		PyObject *io = PyImport_ImportModule("_io");
		PyObject *opener = PyCFunction_New(&checked_opener_def, NULL);

		if (io && opener) {
			mode = PyUnicode_FromString("rb");
			kwargs = Py_BuildValue("{s:O}", "opener", opener);
			io_open = PyObject_GetAttrString(io, "open");
		}
		Py_XDECREF(io);
		Py_XDECREF(opener);
		if (!io_open || !mode || !kwargs) {
			Py_CLEAR(io_open);
			Py_CLEAR(mode);
			Py_CLEAR(kwargs);
			return NULL;
		}
	}
	args = PyTuple_Pack(2, path, mode);
	if (!args)
		return NULL;
	file = PyObject_Call(io_open, args, kwargs);
	Py_DECREF(args);
	/*
	 * A refused cache file of a source is a cache that cannot be read:
	 * the import system then compiles the source, which is checked
	 * itself, instead of failing the import on every later start.
	 */
	if (!file && PyErr_ExceptionMatches(not_trusted_error) && is_cache_of_source(path)) {
		PyErr_Clear();
		errno = EACCES;
		PyErr_SetFromErrnoWithFilenameObject(PyExc_PermissionError, path);
	}
	return file;
}

/*
 * SourcelessFileLoader.get_data() reads with io.FileIO, not io.open_code(),
 * in upstream CPython 3.11: this replacement reads through the hook above.
 * It is a C function, bound as a method by PyInstanceMethod, so that
 * nothing of it is Python code.  Debian's 3.11 patches FileLoader.get_data
 * to read sourceless files through io.open_code() already (its frozen
 * importlib names SourcelessFileLoader there), so on Debian this guard is
 * redundant; it stays so that the launcher's guarantee does not rest on a
 * distribution patch (a libpython3.11 built from upstream's source), at the
 * cost of one attribute set per interpreter.
 */
static PyObject *sourceless_get_data(PyObject *module, PyObject *args)
{
	PyObject *self, *path, *str, *file, *data, *res;

	(void)module;
	if (!PyArg_ParseTuple(args, "OO:get_data", &self, &path))
		return NULL;
	str = PyObject_Str(path);
	if (!str)
		return NULL;
	file = PyFile_OpenCodeObject(str);
	Py_DECREF(str);
	if (!file)
		return NULL;
	data = PyObject_CallMethod(file, "read", NULL);
	if (!data) {
		PyObject *type, *value, *tb;

		/* Close it, and report the read's error, not the close's. */
		PyErr_Fetch(&type, &value, &tb);
		res = PyObject_CallMethod(file, "close", NULL);
		Py_XDECREF(res);
		PyErr_Clear();
		PyErr_Restore(type, value, tb);
		Py_DECREF(file);
		return NULL;
	}
	res = PyObject_CallMethod(file, "close", NULL);
	Py_DECREF(file);
	if (!res) {
		Py_DECREF(data);
		return NULL;
	}
	Py_DECREF(res);
	return data;
}

static PyMethodDef sourceless_get_data_def = {
	"get_data", sourceless_get_data, METH_VARARGS,
	"get_data(self, path)\n--\n\n"
	"Return the data from path as raw bytes, read through io.open_code()\n"
	"so that trustedfor checks the file.",
};

/* Returns 0 when the guard is in place, 1 when it cannot be yet, -1 on error. */
static int install_sourceless_guard(PyObject *idict)
{
	PyObject *name, *ext, *loader = NULL, *modname = NULL, *fn = NULL;
	PyObject *method = NULL;
	int rc = -1;

	name = PyUnicode_FromString("_frozen_importlib_external");
	if (!name)
		return -1;
	ext = PyImport_GetModule(name);
	Py_DECREF(name);
	if (!ext)
		return PyErr_Occurred() ? -1 : 1; /* no path-based import yet */
	/* Seen while _bootstrap_external itself is being imported. */
	if (!PyObject_HasAttrString(ext, "SourcelessFileLoader")) {
		Py_DECREF(ext);
		return 1;
	}
	loader = PyObject_GetAttrString(ext, "SourcelessFileLoader");
	modname = PyUnicode_FromString("_trustedfor");
	if (loader && modname)
		fn = PyCFunction_NewEx(&sourceless_get_data_def, NULL, modname);
	if (fn)
		method = PyInstanceMethod_New(fn);
	if (method && PyObject_SetAttrString(loader, "get_data", method) == 0 &&
	    tp_guard_extensions(ext, raise_not_trusted) == 0)
		rc = 0;
	if (rc == 0 && PyDict_SetItemString(idict, GUARD_KEY, Py_True) < 0)
		rc = -1;
	Py_XDECREF(method);
	Py_XDECREF(fn);
	Py_XDECREF(modname);
	Py_XDECREF(loader);
	Py_DECREF(ext);
	return rc;
}

/*
 * The audit hook, which cannot be removed from Python.  CPython raises
 * "import" before an import statement looks anything up, and the first ones
 * come from the interpreter's own start, before any path-based import can
 * happen, so the guard is in place before the first .pyc could be found.
 */
static int audit_hook(const char *event, PyObject *args, void *data)
{
	(void)data;
	if (event[0] == 'i' && strcmp(event, "import") == 0) {
		static PyObject *key;
		PyObject *idict = PyInterpreterState_GetDict(PyInterpreterState_Get());
		PyObject *state;

		if (!key && !(key = PyUnicode_InternFromString(GUARD_KEY)))
			return -1;
		if (!idict) {
			PyErr_SetString(PyExc_RuntimeError, "trustedfor: no interpreter dict");
			return -1;
		}
		state = PyDict_GetItemWithError(idict, key);
		if (!state && PyErr_Occurred())
			return -1;
		if (state == Py_True)
			return 0;
		return install_sourceless_guard(idict) < 0 ? -1 : 0;
	}
	return runner_audit(event, args);
}

static struct PyModuleDef trustedfor_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "_trustedfor",
	.m_doc = "trusted-python's checks (see trusted-python(1)).",
	.m_size = -1,
};

static PyObject *init_trustedfor_module(void)
{
	PyObject *m;

	if (make_not_trusted_error() < 0)
		return NULL;
	m = PyModule_Create(&trustedfor_module);
	if (!m)
		return NULL;
	Py_INCREF(not_trusted_error);
	if (PyModule_AddObject(m, "NotTrustedError", not_trusted_error) < 0) {
		Py_DECREF(not_trusted_error);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}

/* ------------------------------------------------------------------------
 * The main entry points, after Modules/main.c (pymain_run_python) of 3.11.
 */

static PyConfig *running_config(void)
{
	/* main.c casts the same way: inspect changes while main runs. */
	return (PyConfig *)_PyInterpreterState_GetConfig(PyInterpreterState_Get());
}

static void set_inspect(PyConfig *config, int inspect)
{
	config->inspect = inspect;
	Py_InspectFlag = inspect;
}

static int run_code_given(const PyConfig *config)
{
	return config->run_command || config->run_filename || config->run_module;
}

static int stdin_is_interactive(const PyConfig *config)
{
	return isatty(fileno(stdin)) || config->interactive;
}

static int err_print(int *exitcode)
{
	int code;

	if (_Py_HandleSystemExit(&code)) {
		*exitcode = code;
		return 1;
	}
	PyErr_Print();
	return 0;
}

static int exit_err_print(void)
{
	int exitcode = 1;

	err_print(&exitcode);
	return exitcode;
}

static void check_interactive_or_exit(const char *what, int fd)
{
	struct trusted_for_verdict v;

	if (trusted_for_allow_interactive(fd, what, &v) < 0)
		refuse_and_exit(v.message);
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

/* The refusal behind a runpy failure, if that is what ended it. */
static PyObject *runpy_refusal(void)
{
	PyObject *type, *value, *tb, *cur, *found = NULL;
	int depth = 0;

	if (!not_trusted_error || !PyErr_ExceptionMatches(PyExc_SystemExit))
		return NULL;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	/*
	 * runpy reports a module it cannot load with sys.exit(str(error)); the
	 * refusal is the cause (or context) somewhere down that chain.
	 */
	for (cur = value ? PyException_GetContext(value) : NULL; cur && depth < 8;
	     depth++) {
		PyObject *next;

		if (PyObject_TypeCheck(cur, (PyTypeObject *)not_trusted_error)) {
			found = cur;
			break;
		}
		next = PyException_GetCause(cur);
		if (!next)
			next = PyException_GetContext(cur);
		Py_DECREF(cur);
		cur = next;
	}
	if (!found)
		Py_XDECREF(cur);
	PyErr_Restore(type, value, tb);
	return found;
}

static int run_module(const wchar_t *modname, int set_argv0)
{
	PyObject *runpy, *runmodule = NULL, *module = NULL, *result = NULL;
	PyObject *refusal;

	if (PySys_Audit("cpython.run_module", "u", modname) < 0)
		return exit_err_print();
	runpy = PyImport_ImportModule("runpy");
	if (!runpy) {
		fprintf(stderr, "Could not import runpy module\n");
		return exit_err_print();
	}
	runmodule = PyObject_GetAttrString(runpy, "_run_module_as_main");
	module = PyUnicode_FromWideChar(modname, -1);
	if (runmodule && module) {
		_Py_UnhandledKeyboardInterrupt = 0;
		result = PyObject_CallFunctionObjArgs(
			runmodule, module, set_argv0 ? Py_True : Py_False, NULL);
		if (!result && PyErr_Occurred() == PyExc_KeyboardInterrupt)
			_Py_UnhandledKeyboardInterrupt = 1;
	}
	Py_DECREF(runpy);
	Py_XDECREF(runmodule);
	Py_XDECREF(module);
	if (!result) {
		refusal = runpy_refusal();
		if (refusal) {
			PyObject *s = PyObject_Str(refusal);
			const char *msg = s ? PyUnicode_AsUTF8(s) : NULL;

			refuse_and_exit(msg ? msg : last_refusal);
		}
		return exit_err_print();
	}
	Py_DECREF(result);
	return 0;
}

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
	ret = PyRun_SimpleStringFlags(PyBytes_AsString(bytes), &cf);
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
		if (len == cap) {
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
			_Py_UnhandledKeyboardInterrupt = 1;
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
	PyObject *filename, *program_name;
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
	fd = open_checked(filename, &open_errno);
	if (fd < 0 && open_errno) {
		PyErr_Clear();
		PySys_FormatStderr("%S: can't open file %R: [Errno %d] %s\n",
				   program_name, filename, open_errno,
				   strerror(open_errno));
		ret = 2;
		goto out;
	}
	if (fd < 0) {
		if (PyErr_ExceptionMatches(not_trusted_error)) {
			PyErr_Clear();
			refuse_and_exit(last_refusal);
		}
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
		if (PyErr_ExceptionMatches(not_trusted_error)) {
			PyErr_Clear();
			refuse_and_exit(last_refusal);
		}
		ret = exit_err_print();
		goto out;
	}
	if (is_pyc(fp, filename, config->skip_source_first_line))
		ret = run_stream(fp, filename, 1) != 0;
	else
		ret = _PyRun_AnyFileObject(fp, filename, 1, &cf) != 0;
out:
	Py_DECREF(filename);
	Py_DECREF(program_name);
	return ret;
}

/* Returns 1 (with *exitcode) when the caller must stop. */
static int run_startup(const PyConfig *config, int *exitcode)
{
	const char *env = _Py_GetEnv(config->use_environment, "PYTHONSTARTUP");
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
	fd = open_checked(startup, &open_errno);
	if (fd < 0 && open_errno) {
		PyErr_Clear();
		PySys_WriteStderr("Could not open PYTHONSTARTUP\n");
		errno = open_errno;
		PyErr_SetFromErrnoWithFilenameObjects(PyExc_OSError, startup, NULL);
		goto error;
	}
	if (fd < 0) {
		if (PyErr_ExceptionMatches(not_trusted_error)) {
			PyErr_Clear();
			refuse_and_exit(last_refusal);
		}
		goto error;
	}
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
	return PyRun_AnyFileExFlags(stdin, "<stdin>", 0, &cf) != 0;
}

static void run_repl(PyConfig *config, int *exitcode)
{
	PyCompilerFlags cf = _PyCompilerFlags_INIT;

	/* A program may set PYTHONINSPECT itself: look at the very end. */
	if (!config->inspect &&
	    _Py_GetEnv(config->use_environment, "PYTHONINSPECT"))
		set_inspect(config, 1);
	if (!(config->inspect && stdin_is_interactive(config) &&
	      run_code_given(config)))
		return;
	check_interactive_or_exit("<stdin>", 0);
	runner_in_repl(1);
	set_inspect(config, 0);
	if (run_interactive_hook(exitcode))
		return;
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
		if (sys_path_insert0(importer_path) < 0)
			goto error;
	} else if (!config->safe_path) {
		PyObject *path0 = compute_path0(config);

		if (!path0)
			goto error;
		if (path0 != Py_None && sys_path_insert0(path0) < 0) {
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

/*
 * The refusals that can be decided before the interpreter starts: code
 * that is not a file (-c, the REPL, stdin).  Python reads stdin from the
 * descriptor checked here, fd 0.
 */
static void check_entry_points(const PyConfig *config)
{
	if (config->run_command)
		check_interactive_or_exit("-c", -1);
	else if (!config->run_module && !config->run_filename)
		check_interactive_or_exit("<stdin>", 0);
	/* -i: the REPL comes after the script; refuse before running it. */
	if (config->inspect && run_code_given(config) &&
	    (isatty(STDIN_FILENO) || config->interactive))
		check_interactive_or_exit("<stdin>", 0);
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
	int held, refused_at_start;
	const char *slash;
	int exitcode;

	if (argc > 0 && argv[0] && argv[0][0]) {
		slash = strrchr(argv[0], '/');
		prog = slash ? slash + 1 : argv[0];
	}

	/*
	 * Pre-initialise first, as python3's main does: it picks the memory
	 * allocators (PYTHONMALLOC, -X dev), which must be in place before
	 * the audit hook allocates its entry.
	 */
	PyPreConfig_InitPythonConfig(&preconfig);
	status = Py_PreInitializeFromBytesArgs(&preconfig, argc, argv);
	if (PyStatus_Exception(status))
		exit_status(status);

	/* Both hooks are set before the interpreter exists; neither can be
	 * taken away from Python code afterwards. */
	if (PyFile_SetOpenCodeHook(open_code_hook, NULL) < 0 ||
	    PySys_AddAuditHook(audit_hook, NULL) < 0 ||
	    PyImport_AppendInittab("_trustedfor", init_trustedfor_module) < 0) {
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

	held = hold_stderr();
	status = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	refused_at_start = PyStatus_Exception(status) && last_refusal[0] &&
			   !PyStatus_IsExit(status);
	release_stderr(held, !refused_at_start);
	if (PyStatus_Exception(status)) {
		/* A .pth file, a startup module or the standard library itself
		 * (policy 3 on Debian) was refused. */
		if (refused_at_start)
			refuse_and_exit(last_refusal);
		exit_status(status);
	}

	exitcode = run_python();
	if (Py_FinalizeEx() < 0)
		exitcode = 120;
	if (_Py_UnhandledKeyboardInterrupt)
		exitcode = exit_sigint();
	return exitcode;

fail:
	PyConfig_Clear(&config);
	exit_status(status);
	return 1;
}
