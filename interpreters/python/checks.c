/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: what decides.  Every file Python runs as code reaches
 * libtrustedfor through this file, runners.c or extensions.c; the start-up
 * in trusted-python.c only calls in here.
 *
 *  - PEP 578's open-code hook (set before the interpreter starts; CPython
 *    refuses to replace it afterwards) opens every file that io.open_code()
 *    is asked for: source and cached .pyc imports, zip imports, runpy,
 *    .pth files (site.py reads them with io.open_code).  It checks the new
 *    descriptor and hands Python a file object over that same descriptor.
 *  - Sourceless .pyc files are read by SourcelessFileLoader.get_data() with
 *    io.FileIO, which bypasses the open-code hook.  An audit hook (PEP 578;
 *    it cannot be removed) replaces that method, and SourceFileLoader's,
 *    in every interpreter, with a C function that reads through
 *    io.open_code(), before the first import can find a file.  Unlike the
 *    rest, trusted Python code could assign another method: CPython raises
 *    no audit event for that.
 *  - Extension modules: the same hook replaces _imp.create_dynamic with a
 *    function that checks the file and loads that descriptor
 *    (extensions.c); the loader's variables are judged before any shared
 *    object's initialiser runs (../common/loader_guard.c).
 *  - Programs that run files or take code by themselves (runners.c): the
 *    audit hook's "compile", "exec", "builtins.breakpoint" and
 *    "sys.excepthook" events.
 *  - The main entry points: the script and PYTHONSTARTUP are opened and
 *    checked here (open_entry_point), and code that is not a file (-c,
 *    stdin, the REPL) is judged here before the interpreter starts
 *    (check_entry_points).
 *
 * A refused main entry point prints one line "PROG: MESSAGE" and exits with
 * 126; a refused import raises _trustedfor.NotTrustedError, a subclass of
 * ImportError.
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trustedfor.h>

#include "checks.h"
#include "extensions.h"
#include "state.h"

#define REFUSED_STATUS 126

const char *prog = "trusted-python";

void set_program_name(const char *argv0)
{
	const char *slash;

	if (argv0 && argv0[0]) {
		slash = strrchr(argv0, '/');
		prog = slash ? slash + 1 : argv0;
	}
}

/* The last refusal, for refusals that end the interpreter's start. */
char last_refusal[TRUSTED_FOR_MESSAGE_MAX];

void refuse_and_exit(const char *message)
{
	fprintf(stderr, "%s: %s\n", prog, message);
	fflush(stderr);
	exit(REFUSED_STATUS);
}

PyObject *not_trusted_error(void)
{
	struct tp_state *s = tp_state_if_made();

	return s ? s->not_trusted_error : NULL;
}

int is_refusal_pending(void)
{
	PyObject *type = not_trusted_error();

	return type && PyErr_ExceptionMatches(type);
}

void (*on_refusal)(void);

/* Raise NotTrustedError(message, path=path). */
void raise_not_trusted(const char *message, PyObject *path)
{
	PyObject *msg, *args = NULL, *kwargs = NULL, *exc = NULL;
	struct tp_state *s;

	snprintf(last_refusal, sizeof(last_refusal), "%s", message);
	if (on_refusal)
		on_refusal();
	/* Without its class the refusal is tp_state()'s error: refused too. */
	s = tp_state();
	if (!s)
		return;
	/* The message holds the path's bytes, which need not be UTF-8. */
	msg = PyUnicode_DecodeFSDefault(message);
	if (msg)
		args = PyTuple_Pack(1, msg);
	kwargs = Py_BuildValue("{s:O}", "path", path);
	if (args && kwargs)
		exc = PyObject_Call(s->not_trusted_error, args, kwargs);
	if (exc)
		PyErr_SetObject(s->not_trusted_error, exc);
	Py_XDECREF(exc);
	Py_XDECREF(msg);
	Py_XDECREF(args);
	Py_XDECREF(kwargs);
}

static read_fn code_read; /* runners.c's, given by install_checks() */

/*
 * open_checked() without telling runners.c.  With nothing enforced and
 * auditing off, no answer of the check could refuse a file or be logged,
 * so none is asked: three system calls fewer a module (bench/python.md).
 * Asked at every read, not once as the shells do: Python code can set its
 * own securebits.  A configuration that cannot be read asks for the check.
 */
static int open_and_check(PyObject *path, int *open_errno, struct read_check *how)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	PyObject *bytes = NULL;
	const char *name;
	unsigned int enforce = 0;
	bool audit = false;
	int fd, known = 0, unchecked = 0, allowed = 0, err = 0;

	*open_errno = 0;
	if (!PyUnicode_FSConverter(path, &bytes))
		return -1;
	name = PyBytes_AS_STRING(bytes);
	Py_BEGIN_ALLOW_THREADS
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		known = trusted_for_get_enforcement(&enforce, &audit) == 0;
		unchecked = known && !enforce && !audit;
		/* The library also refuses a pipe or terminal named as a file. */
		allowed = unchecked || trusted_for_allow_file(fd, name, &v) == 0;
	}
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
	how->trusted = !unchecked && v.trusted;
	how->audited = known && audit;
	return fd;
}

/*
 * Open path once, check that descriptor, and return it, or -1 with a Python
 * exception set: OSError when it cannot be opened (callers such as the
 * import system rely on that; *open_errno is then the errno), or
 * NotTrustedError when it is refused (*open_errno is 0).
 */
int open_checked(PyObject *path, int *open_errno)
{
	struct read_check how;
	int fd = open_and_check(path, open_errno, &how);

	if (fd >= 0 && code_read)
		code_read(fd, NULL, path);
	return fd;
}

PyObject *read_all(int fd, struct stat *st)
{
	PyObject *data;
	size_t size, len = 0;
	ssize_t n;

	/* Poisoned: a filter's 0 that fills nothing reads as no file at all. */
	memset(st, 0, sizeof(*st));
	if (fstat(fd, st) < 0)
		return NULL;
	if (st->st_mode == 0) {
		errno = EPROTO;
		return NULL;
	}
	size = st->st_size > 0 ? (size_t)st->st_size + 1 : 4096;
	data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
	if (!data)
		return NULL;
	for (;;) {
		if (len == size) {
			size *= 2;
			if (_PyBytes_Resize(&data, (Py_ssize_t)size) < 0)
				return NULL;
		}
		/* No Python code sees data yet; other threads run meanwhile. */
		Py_BEGIN_ALLOW_THREADS
		n = read(fd, PyBytes_AS_STRING(data) + len, size - len);
		Py_END_ALLOW_THREADS
		if (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0)
			continue;
		if (n < 0) {
			int err = errno;

			Py_DECREF(data);
			errno = err;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (_PyBytes_Resize(&data, (Py_ssize_t)len) < 0)
		return NULL;
	return data;
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
	"Open a file read-only and check it with trusted_for_allow_file()."
};

PyObject *source_of_cache(PyObject *path)
{
	PyObject *ext = PyImport_ImportModule("_frozen_importlib_external");
	PyObject *source = ext ? PyObject_CallMethod(ext, "source_from_cache", "O", path) : NULL;

	Py_XDECREF(ext);
	if (source && !PyUnicode_Check(source))
		Py_CLEAR(source);
	PyErr_Clear();
	return source;
}

/*
 * Is path a cache file whose source exists?  CPython writes those at run
 * time with the source's mode less its execute bits (_write_atomic() masks
 * the mode with 0666), so under a check policy with the file check every
 * one it rewrites is refused.  Asked with the refusal pending.
 */
static int is_cache_of_source(PyObject *path)
{
	PyObject *type, *value, *tb, *source, *bytes = NULL;
	struct stat st;
	int found = 0;

	PyErr_Fetch(&type, &value, &tb);
	source = source_of_cache(path);
	if (source && PyUnicode_FSConverter(source, &bytes)) {
		found = stat(PyBytes_AS_STRING(bytes), &st) == 0 && S_ISREG(st.st_mode);
		Py_DECREF(bytes);
	}
	Py_XDECREF(source);
	PyErr_Clear();
	PyErr_Restore(type, value, tb);
	return found;
}

/*
 * A refused cache file of a source is a cache that cannot be read: the
 * import system then compiles the source, which is checked itself, instead
 * of failing the import on every later start (the source's __pycache__, or
 * sys.pycache_prefix on a noexec mount).
 */
static void refused_cache_unreadable(PyObject *path)
{
	if (is_refusal_pending() && is_cache_of_source(path)) {
		PyErr_Clear();
		errno = EACCES;
		PyErr_SetFromErrnoWithFilenameObject(PyExc_PermissionError, path);
	}
}

int make_io_open(struct tp_state *s)
{
	PyObject *io;

	if (s->open_kwargs)
		return 0;
	io = PyImport_ImportModule("_io");
	if (io) {
		s->io_open = PyObject_GetAttrString(io, "open");
		s->opener = PyCFunction_New(&checked_opener_def, NULL);
		s->open_mode = PyUnicode_FromString("rb");
		if (s->io_open && s->opener && s->open_mode)
			s->open_kwargs = Py_BuildValue("{s:O}", "opener", s->opener);
		Py_DECREF(io);
	}
	if (s->open_kwargs)
		return 0;
	Py_CLEAR(s->io_open);
	Py_CLEAR(s->opener);
	Py_CLEAR(s->open_mode);
	return -1;
}

/*
 * PEP 578's open-code hook.  CPython's default is io.open(path, "rb"); this
 * is the same call with an opener, so that the file object, its name and
 * the "open" audit event (with the path, before the file is opened) are
 * exactly the default's, and only the descriptor differs: it was checked.
 */
static PyObject *open_code_hook(PyObject *path, void *data)
{
	struct tp_state *s = tp_state();
	PyObject *args, *file;

	(void)data;
	if (!s || make_io_open(s) < 0)
		return NULL;
	args = PyTuple_Pack(2, path, s->open_mode);
	if (!args)
		return NULL;
	file = PyObject_Call(s->io_open, args, s->open_kwargs);
	Py_DECREF(args);
	if (!file)
		refused_cache_unreadable(path);
	return file;
}

/*
 * The bytes the loaders' get_data() below read last (a copy of its own,
 * which no Python code holds), under which name (an exact str), and how the
 * check went, in the interpreter's state.  Set and forgotten with no Python
 * code running in between.
 */
static void remember_read(struct tp_state *s, PyObject *name, PyObject *data,
			  struct read_check how)
{
	PyObject *old_name = s->read_name, *old_data = s->read_data;

	Py_INCREF(name);
	s->read_name = name;
	s->read_data = data;
	s->read_how = how;
	Py_XDECREF(old_name);
	Py_XDECREF(old_data);
}

int compiled_as_read(PyObject *source, PyObject *filename)
{
	struct tp_state *s = tp_state_if_made();
	PyObject *name, *data;
	struct read_check how;
	unsigned int enforce;
	bool audit;
	int same;

	if (!s || !s->read_data)
		return 0;
	name = s->read_name;
	data = s->read_data;
	how = s->read_how;
	s->read_name = s->read_data = NULL;
	/* The "compile" event has a copy of the source ("yO"), not the object. */
	same = PyBytes_Check(source) && PyBytes_GET_SIZE(source) == PyBytes_GET_SIZE(data) &&
	       memcmp(PyBytes_AS_STRING(source), PyBytes_AS_STRING(data),
		      (size_t)PyBytes_GET_SIZE(data)) == 0 &&
	       PyUnicode_Check(filename) && PyUnicode_Compare(filename, name) == 0;
	if (PyErr_Occurred())
		PyErr_Clear();
	Py_DECREF(name);
	Py_DECREF(data);
	if (!same)
		return 0;
	if (how.trusted)
		return 1;
	/*
	 * Not checked (nothing was enforced or audited), or checked and failed
	 * while files were not enforced: what the full rule decides now, as
	 * long as it would log nothing that the read did not log.
	 */
	return trusted_for_get_enforcement(&enforce, &audit) == 0 &&
	       !(enforce & TRUSTED_FOR_ENFORCE_FILE) && (!audit || how.audited);
}

static int ends_with_pyc(PyObject *name)
{
	static const char suffix[] = ".pyc";
	Py_ssize_t n = PyUnicode_GET_LENGTH(name);

	if (n < 4)
		return 0;
	for (Py_ssize_t i = 0; i < 4; i++)
		if (PyUnicode_READ_CHAR(name, n - 4 + i) != (Py_UCS4)suffix[i])
			return 0;
	return 1;
}

/*
 * FileLoader.get_data() for the two loaders of files: the bytes of path,
 * opened, checked and read here, as the open-code hook would (the same
 * "open" audit event first, the same refusal of a cache file).
 *
 * SourcelessFileLoader's reads with io.FileIO, not io.open_code(), in
 * upstream CPython 3.11.  Debian's 3.11 patches FileLoader.get_data to read
 * sourceless files through io.open_code() already (its frozen importlib
 * names SourcelessFileLoader there), so on Debian that part is redundant;
 * it stays so that the launcher's guarantee does not rest on a distribution
 * patch (a libpython3.11 built from upstream's source).
 *
 * SourceFileLoader's reads through io.open_code() already; this one also
 * keeps what it read and how the check went, so that the rule for code
 * compiled under a file's name (runners.c) knows the import system's
 * compile() of those bytes for the content of the file it checked, without
 * opening, checking (and logging) the file a second time.  Between the
 * open and what is kept no Python code runs in this thread (other threads
 * run during read(), as io.FileIO lets them, and see none of it): what is
 * kept is what that descriptor gave, and how its check went.
 *
 * A C function, bound as a method by PyInstanceMethod, so that nothing of
 * it is Python code.
 */
static PyObject *checked_get_data(PyObject *module, PyObject *args)
{
	PyObject *self, *path, *str, *name, *data, *copy;
	struct tp_state *s = tp_state();
	struct read_check how;
	struct stat st;
	int fd, open_errno;

	(void)module;
	if (!s || !PyArg_ParseTuple(args, "OO:get_data", &self, &path))
		return NULL;
	str = PyObject_Str(path);
	if (!str)
		return NULL;
	name = PyUnicode_FromObject(str); /* an exact str */
	Py_DECREF(str);
	if (!name)
		return NULL;
	/* io.open_code()'s FileIO raises it: (path, mode, flags). */
	if (PySys_Audit("open", "Osi", name, "r", O_RDONLY | O_CLOEXEC) < 0) {
		Py_DECREF(name);
		return NULL;
	}
	fd = open_and_check(name, &open_errno, &how);
	if (fd < 0) {
		refused_cache_unreadable(name);
		Py_DECREF(name);
		return NULL;
	}
	data = read_all(fd, &st);
	if (!data) {
		if (!PyErr_Occurred())
			PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name);
		close(fd);
		Py_DECREF(name);
		return NULL;
	}
	/* A cache file is unmarshalled, not compiled: no copy of it is kept. */
	if (!ends_with_pyc(name)) {
		copy = PyBytes_FromStringAndSize(PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data));
		if (copy)
			remember_read(s, name, copy, how);
		else
			PyErr_Clear();
	}
	if (code_read)
		code_read(fd, &st, name);
	close(fd);
	Py_DECREF(name);
	return data;
}

static PyMethodDef checked_get_data_def = {
	"get_data", checked_get_data, METH_VARARGS,
	"get_data(self, path)\n--\n\n"
	"Return the data from path as raw bytes, from a descriptor that\n"
	"trustedfor checked, as io.open_code() opens it."
};

/* Returns 0 when the guard is in place, 1 when it cannot be yet, -1 on error. */
static int install_loader_guard(struct tp_state *s)
{
	static const char *const loaders[] = { "SourcelessFileLoader", "SourceFileLoader" };
	PyObject *name, *ext, *loader, *modname, *fn = NULL, *method = NULL;
	int rc = -1;

	name = PyUnicode_FromString("_frozen_importlib_external");
	if (!name)
		return -1;
	ext = PyImport_GetModule(name);
	Py_DECREF(name);
	if (!ext)
		return PyErr_Occurred() ? -1 : 1; /* no path-based import yet */
	/* Seen while _bootstrap_external itself is being imported. */
	if (!PyObject_HasAttrString(ext, "SourcelessFileLoader") ||
	    !PyObject_HasAttrString(ext, "SourceFileLoader")) {
		Py_DECREF(ext);
		return 1;
	}
	modname = PyUnicode_FromString("_trustedfor");
	if (modname)
		fn = PyCFunction_NewEx(&checked_get_data_def, NULL, modname);
	if (fn)
		method = PyInstanceMethod_New(fn);
	if (method) {
		rc = 0;
		for (size_t i = 0; rc == 0 && i < sizeof(loaders) / sizeof(loaders[0]); i++) {
			loader = PyObject_GetAttrString(ext, loaders[i]);
			if (!loader || PyObject_SetAttrString(loader, "get_data", method) < 0)
				rc = -1;
			Py_XDECREF(loader);
		}
	}
	if (rc == 0 && tp_guard_extensions(s, ext, raise_not_trusted) < 0)
		rc = -1;
	if (rc == 0)
		s->guarded = true;
	Py_XDECREF(method);
	Py_XDECREF(fn);
	Py_XDECREF(modname);
	Py_DECREF(ext);
	return rc;
}

/*
 * The audit hook, which cannot be removed from Python.  CPython raises
 * "import" before an import statement looks anything up, and the first ones
 * come from the interpreter's own start, before any path-based import can
 * happen, so the guard is in place before the first .pyc could be found.
 */
static audit_fn other_events; /* runners.c's, given by install_checks() */

static int audit_hook(const char *event, PyObject *args, void *data)
{
	(void)data;
	if (event[0] == 'i' && strcmp(event, "import") == 0) {
		/* Each interpreter's first import makes its state: no import
		 * goes on without it. */
		struct tp_state *s = tp_state();

		if (!s)
			return -1;
		if (s->guarded)
			return 0;
		return install_loader_guard(s) < 0 ? -1 : 0;
	}
	return other_events ? other_events(event, args) : 0;
}

/* The module's NotTrustedError is the one its interpreter raises. */
static int exec_trustedfor_module(PyObject *m)
{
	struct tp_state *s = tp_state();

	if (!s)
		return -1;
	Py_INCREF(s->not_trusted_error);
	if (PyModule_AddObject(m, "NotTrustedError", s->not_trusted_error) < 0) {
		Py_DECREF(s->not_trusted_error);
		return -1;
	}
	return 0;
}

/* Multi-phase: each interpreter, with its own GIL too, has its own. */
static PyModuleDef_Slot trustedfor_slots[] = {
	{ Py_mod_exec, (void *)exec_trustedfor_module },
#if PY_VERSION_HEX >= 0x030C0000
	{ Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED },
#endif
	{ 0, NULL },
};

static struct PyModuleDef trustedfor_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "_trustedfor",
	.m_doc = "trusted-python's checks (see trusted-python(1)).",
	.m_size = 0,
	.m_slots = trustedfor_slots,
};

static PyObject *init_trustedfor_module(void)
{
	return PyModuleDef_Init(&trustedfor_module);
}

int install_checks(audit_fn runners, read_fn read)
{
	other_events = runners;
	code_read = read;
	/* Both hooks are set before the interpreter exists; neither can be
	 * taken away from Python code afterwards. */
	if (PyFile_SetOpenCodeHook(open_code_hook, NULL) < 0 ||
	    PySys_AddAuditHook(audit_hook, NULL) < 0 ||
	    PyImport_AppendInittab("_trustedfor", init_trustedfor_module) < 0)
		return -1;
	return 0;
}

void exit_if_refused(void)
{
	if (is_refusal_pending()) {
		PyErr_Clear();
		refuse_and_exit(last_refusal);
	}
}

int open_entry_point(PyObject *path, int *open_errno)
{
	int fd = open_checked(path, open_errno);

	if (fd < 0 && !*open_errno)
		exit_if_refused();
	return fd;
}

PyObject *find_refusal(PyObject *exc)
{
	PyObject *type = not_trusted_error();

	for (int depth = 0; type && exc && exc != Py_None && depth < 8; depth++) {
		PyBaseExceptionObject *e = (PyBaseExceptionObject *)exc;

		if (PyObject_TypeCheck(exc, (PyTypeObject *)type))
			return exc;
		if (!PyExceptionInstance_Check(exc))
			return NULL;
		exc = e->cause ? e->cause : e->context;
	}
	return NULL;
}

void check_interactive_or_exit(const char *what, int fd)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	if (trusted_for_allow_interactive(fd, what, &v) < 0)
		refuse_and_exit(v.message);
}

void check_entry_points(const PyConfig *config)
{
	int code_given = config->run_command || config->run_filename ||
			 config->run_module;

	if (config->run_command)
		check_interactive_or_exit("-c", -1);
	else if (!config->run_module && !config->run_filename)
		check_interactive_or_exit("<stdin>", 0);
	/* -i: the REPL comes after the script; refuse before running it. */
	if (config->inspect && code_given &&
	    (isatty(STDIN_FILENO) || config->interactive))
		check_interactive_or_exit("<stdin>", 0);
}
