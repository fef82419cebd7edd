/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: programs that run files or take code by themselves.
 *
 * A runner (cProfile, trace, pdb, setuptools.launch, a program's own
 * exec(compile(open(f).read(), f, "exec"))) reads a file with open() and
 * compiles it: the open-code hook never sees that file.  One rule covers
 * every such runner, in the standard library or installed later: builtin
 * compile() raises the audit event "compile" (source, filename) for every
 * source it parses (exec() and eval() of a string, ast.parse() too), and
 * code compiled under the name of a file must be that file's content, read
 * here through a descriptor that passed the check.  Comparing the bytes,
 * not only checking the name, is what defeats a swap between the runner's
 * read and this check.  Imports compile the bytes that their loader read
 * through a checked descriptor a moment before (checks.c,
 * compiled_as_read), which pass without a second read; a cached .pyc is
 * not compiled at all.
 *
 * Some modules of the standard library take code that is not a file:
 * timeit's statements on the command line, the prompts of code, asyncio
 * and pdb, pdb's commands.  Run as a program (-m, runpy, a nested runner,
 * or the script path of the module) they are interactive code.  pdb's rc
 * files and doctest's text files are code files read with open(): those
 * modules get an open() that reads through a checked descriptor.  The
 * table below is the launcher's half of the table in trusted-python(1).
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <trustedfor.h>

#include "checks.h"
#include "dirent64.h"
#include "runners.h"
#include "unforged.h"

enum {
	RUNS_ARGV = 1,	/* code from the command line, and a prompt */
	RUNS_STDIN = 2, /* a prompt on stdin */
	READS_CODE = 4, /* reads code files with its own open() */
};

/* Paths under the standard library directory. */
static const struct row {
	const char *path;
	const char *module; /* names the refusal */
	int what;
} rows[] = {
	{ "timeit.py", "timeit", RUNS_ARGV },
	{ "code.py", "code", RUNS_STDIN },
	{ "asyncio/__main__.py", "asyncio", RUNS_STDIN },
	/* 3.13's REPL (python3.13's own console), a prompt like code's;
	 * absent from 3.11, which the table allows. */
	{ "_pyrepl/__main__.py", "_pyrepl", RUNS_STDIN },
	{ "pdb.py", "pdb", RUNS_ARGV | READS_CODE },
	{ "doctest.py", "doctest", READS_CODE },
};

static int in_repl;

void runner_in_repl(int on)
{
	in_repl = on;
}

static int enforced(unsigned int bit)
{
	unsigned int enforce;
	bool audit;

	/* No answer is the strictest answer. */
	if (trusted_for_get_enforcement(&enforce, &audit) < 0)
		return 1;
	return (enforce & bit) != 0;
}

/*
 * The file named filename failed a check of this file's own (why): 0 when
 * files are not enforced, else -1 with NotTrustedError("NAME: not trusted
 * for execution: WHY") set.
 */
static int refuse_file(PyObject *filename, const char *why)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	PyObject *bytes = NULL;
	int r;

	if (!PyUnicode_FSConverter(filename, &bytes))
		return -1;
	r = trusted_for_allow_failed_file(-1, PyBytes_AS_STRING(bytes), why, &v);
	Py_DECREF(bytes);
	if (r == 0)
		return 0;
	raise_not_trusted(v.message, filename);
	return -1;
}

static int refuse_interactive(int fd, const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	if (trusted_for_allow_interactive(fd, what, &v) == 0)
		return 0;
	raise_not_trusted(v.message, Py_None);
	return -1;
}

static int same_bytes(PyObject *source, const char *data, Py_ssize_t len)
{
	Py_buffer b;
	int same;

	if (PyUnicode_Check(source)) {
		Py_ssize_t n;
		const char *s = PyUnicode_AsUTF8AndSize(source, &n);

		if (!s) {
			PyErr_Clear();
			return 0;
		}
		return n == len && memcmp(s, data, (size_t)len) == 0;
	}
	if (PyObject_GetBuffer(source, &b, PyBUF_SIMPLE) < 0) {
		PyErr_Clear();
		return 0;
	}
	same = b.len == len && memcmp(b.buf, data, (size_t)len) == 0;
	PyBuffer_Release(&b);
	return same;
}

/*
 * Is source the content of the file?  Byte for byte (what the import system
 * and binary reads give), or the file decoded as Python source (PEP 263
 * cookie, BOM, universal newlines: what open(f).read() gives and compile()
 * hands the event as UTF-8).
 */
static int is_content(PyObject *source, PyObject *content)
{
	PyObject *ext, *text;
	const char *s;
	Py_ssize_t n;
	int same;

	if (same_bytes(source, PyBytes_AS_STRING(content), PyBytes_GET_SIZE(content)))
		return 1;
	ext = PyImport_ImportModule("_frozen_importlib_external");
	text = ext ? PyObject_CallMethod(ext, "decode_source", "O", content) : NULL;
	Py_XDECREF(ext);
	s = text ? PyUnicode_AsUTF8AndSize(text, &n) : NULL;
	if (!s) {
		Py_XDECREF(text);
		PyErr_Clear();
		return 0;
	}
	same = same_bytes(source, s, n);
	Py_DECREF(text);
	return same;
}

/*
 * zipimport compiles a member's source under the name ARCHIVE/MEMBER,
 * which open() cannot open (ENOTDIR).  zipimport itself reads the member
 * again: its every read of the archive goes through io.open_code(), so
 * through a descriptor that passed the check (a refused archive raises
 * NotTrustedError here), and what it reads must be the source compiled,
 * as zipimport gives it to compile() (line endings made "\n").
 */
static int check_compiled_member(PyObject *source, PyObject *filename)
{
	PyObject *zipimport, *path = NULL, *dir = NULL, *importer = NULL;
	PyObject *data = NULL, *normal = NULL;
	int same = 0;

	zipimport = PyImport_ImportModule("zipimport");
	path = zipimport ? PyImport_ImportModule("posixpath") : NULL;
	dir = path ? PyObject_CallMethod(path, "dirname", "O", filename) : NULL;
	importer = dir ? PyObject_CallMethod(zipimport, "zipimporter", "O", dir) : NULL;
	data = importer ? PyObject_CallMethod(importer, "get_data", "O", filename) : NULL;
	normal = data ? PyObject_CallMethod(zipimport, "_normalize_line_endings", "O", data) : NULL;
	if (normal && PyBytes_Check(data) && PyBytes_Check(normal))
		same = same_bytes(source, PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data)) ||
		       same_bytes(source, PyBytes_AS_STRING(normal), PyBytes_GET_SIZE(normal));
	Py_XDECREF(normal);
	Py_XDECREF(data);
	Py_XDECREF(importer);
	Py_XDECREF(dir);
	Py_XDECREF(path);
	Py_XDECREF(zipimport);
	if (PyErr_Occurred()) {
		if (is_refusal_pending())
			return -1;
		PyErr_Clear();
		return refuse_file(filename, "the code compiled under its name cannot be read: "
					     "no such file, nor a member of a zip archive");
	}
	if (!same)
		return refuse_file(filename, "the code compiled under its name is not its content");
	return 0;
}

/* The "compile" event for a name that is not <something>. */
static int check_compiled_file(PyObject *source, PyObject *filename)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	PyObject *bytes = NULL, *content;
	struct stat st;
	int fd, err = 0, allowed, same;

	if (!PyUnicode_FSConverter(filename, &bytes))
		return -1;
	Py_BEGIN_ALLOW_THREADS
	/* O_NONBLOCK: a FIFO by that name must not hang the check. */
	fd = open(PyBytes_AS_STRING(bytes), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		err = errno;
	allowed = fd >= 0 && trusted_for_allow_file(fd, PyBytes_AS_STRING(bytes), &v) == 0;
	Py_END_ALLOW_THREADS
	Py_DECREF(bytes);
	if (fd < 0 && err == ENOTDIR && PyUnicode_Check(filename))
		return enforced(TRUSTED_FOR_ENFORCE_FILE) ? check_compiled_member(source, filename) : 0;
	if (fd < 0) {
		char why[128];

		snprintf(why, sizeof(why), "the code compiled under its name cannot be read: %s",
			 strerror(err));
		return refuse_file(filename, why);
	}
	if (!allowed) {
		close(fd);
		raise_not_trusted(v.message, filename);
		return -1;
	}
	runner_code_read(fd, NULL, filename);
	/* A file that passed the check, or nothing enforced (the check logged). */
	if (!enforced(TRUSTED_FOR_ENFORCE_FILE)) {
		close(fd);
		return 0;
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	content = read_all(fd, &st);
	err = errno;
	close(fd);
	if (!content) {
		char why[128];

		/* A signal handler's exception (Ctrl-C), or no memory: the
		 * compile() fails with it, as python3.11's read would. */
		if (PyErr_Occurred())
			return -1;
		snprintf(why, sizeof(why), "cannot be read: %s", strerror(err));
		return refuse_file(filename, why);
	}
	same = is_content(source, content);
	Py_DECREF(content);
	if (!same)
		return refuse_file(filename, "the code compiled under its name is not its content");
	return 0;
}

/*
 * Names in angle brackets ("<string>", "<stdin>", "<doctest x[0]>") are
 * CPython's for code that is no file, but a file may have such a name
 * too, and a runner reads it like any other ("-m cProfile '<evil>'").
 * Such a name is a file's when it has a "/" or no closing bracket, when a
 * file by that name exists (or cannot be told not to), or when the
 * program opened it (the "open"
 * event): a file removed between the runner's read and its compile() is
 * still one, and, gone, fails the rule.
 */
/* The open fails (-1) when its name cannot be kept. */
static int on_open(PyObject *args)
{
	struct tp_state *s;
	PyObject *path;

	if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1)
		return 0;
	path = PyTuple_GET_ITEM(args, 0);
	if (!PyUnicode_Check(path) || PyUnicode_GET_LENGTH(path) == 0 ||
	    PyUnicode_READ_CHAR(path, 0) != '<')
		return 0;
	s = tp_state();
	if (!s || (!s->opened_bracket_names && !(s->opened_bracket_names = PySet_New(NULL))))
		return -1;
	return PySet_Add(s->opened_bracket_names, path);
}

static int names_a_file(PyObject *filename, const char *name)
{
	struct tp_state *s = tp_state_if_made();
	size_t n = strlen(name);
	struct stat st;

	/*
	 * A directory the process cannot search (EACCES: sudo -u from root's
	 * home) holds no file it could have read by that name, unless it
	 * opened one (below).
	 */
	if (strchr(name, '/') || name[n - 1] != '>' || lstat(name, &st) == 0 ||
	    (errno != ENOENT && errno != EACCES))
		return 1;
	return s && s->opened_bracket_names &&
	       PySet_Contains(s->opened_bracket_names, filename) == 1;
}

static int on_compile(PyObject *args)
{
	PyObject *source, *filename, *fspath;
	int ret;

	if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 2)
		return 0;
	source = PyTuple_GET_ITEM(args, 0);
	filename = PyTuple_GET_ITEM(args, 1);
	/*
	 * An AST has no name here: it was parsed from source, which was seen.
	 * No source is the interpreter's C parser reading a stream: the
	 * launcher's own entry points, which checked it.
	 */
	if (filename == Py_None || source == Py_None)
		return 0;
	if (PyUnicode_Check(filename)) {
		const char *name = PyUnicode_AsUTF8(filename);

		if (!name) {
			PyErr_Clear();
		} else if (name[0] == '<' && !names_a_file(filename, name)) {
			/* The prompts of pdb, code and codeop read stdin. */
			if (strcmp(name, "<stdin>") == 0 || strcmp(name, "<console>") == 0 ||
			    strcmp(name, "<input>") == 0)
				return refuse_interactive(STDIN_FILENO, name);
			return 0;
		} else if (!name[0]) {
			return 0;
		}
	}
	fspath = PyOS_FSPath(filename);
	if (!fspath)
		return -1;
	/* The import system compiles what its loader just read, checked. */
	ret = compiled_as_read(source, fspath) ? 0 : check_compiled_file(source, fspath);
	Py_DECREF(fspath);
	return ret;
}

/*
 * The rows' files, by device and inode: in the standard library this
 * launcher was built for and in sys._stdlib_dir (PYTHONHOME may move it),
 * so that no other name of the same file (a symbolic link, /lib for
 * /usr/lib, "//", /proc/self/root/...) and no PYTHONHOME without it hides
 * one; each source file and its cache files (__pycache__/NAME.TAG.pyc, and
 * the optimised .opt-1 and .opt-2), which the import system reads in its
 * place.  Read once, when the first code file is read.
 *
 * A seccomp filter of the user's own can answer any of these calls with an
 * error, and a row left unknown is a row turned off.  So a file counts as
 * absent only when the kernel's listing of its directory (a buffer, which
 * no such filter can fill) does not show it; anything else that keeps a
 * row's file unknown, or a file read as code from being told apart from
 * them, ends the process while anything is enforced (refuse_unknown()).
 */
#define ROWS (sizeof(rows) / sizeof(rows[0]))
#define CACHE_TAG "cpython-" Py_STRINGIFY(PY_MAJOR_VERSION) Py_STRINGIFY(PY_MINOR_VERSION)

static const char *const variants[] = { "", ".opt-1", ".opt-2" };
#define VARIANTS (sizeof(variants) / sizeof(variants[0]))

static struct identity {
	dev_t dev;
	ino_t ino;
	off_t size;
	size_t row;
	char *path;
} identities[2 * ROWS * (1 + VARIANTS)];
static size_t identities_known;
static char unknown_why[512]; /* why the rows' files are not all known */
/*
 * The identities are the process's, learnt once by whichever interpreter
 * reads code first; interpreters with their own GIL read at once, so the
 * learning and unknown_why are each under a lock.
 */
static pthread_once_t identities_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t unknown_lock = PTHREAD_MUTEX_INITIALIZER;

static void unknown(const char *what, const char *name, int error)
{
	pthread_mutex_lock(&unknown_lock);
	if (!unknown_why[0])
		snprintf(unknown_why, sizeof(unknown_why), "%.300s%s%.100s: %s", what,
			 name[0] ? "/" : "", name, strerror(error));
	pthread_mutex_unlock(&unknown_lock);
}

/* Ends the process if the rows are not all known while anything is enforced. */
static void refuse_unknown(void)
{
	char message[sizeof(unknown_why) + 64], why[sizeof(unknown_why)];

	pthread_mutex_lock(&unknown_lock);
	memcpy(why, unknown_why, sizeof(why));
	pthread_mutex_unlock(&unknown_lock);
	if (!why[0] ||
	    !enforced(TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE))
		return;
	snprintf(message, sizeof(message), "the runner modules' files cannot be told: %s", why);
	refuse_and_exit(message);
}

/*
 * Which of names[] the kernel's listing of directory dir, from its
 * current position, shows (shown[i] 1 or 0): 0, or -1 with errno when there
 * is no such listing (every real one shows ".").
 */
static int listed(int dir, const char *const names[], size_t n, int shown[])
{
	char buf[16384];
	int dot = 0;
	long got;

	memset(shown, 0, n * sizeof(shown[0]));
	while ((got = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < got;) {
			const struct linux_dirent64 *d = tf_dirent_at(buf, got, at);

			if (!d) {
				errno = EPROTO;
				return -1;
			}
			dot |= !strcmp(d->d_name, ".");
			for (size_t i = 0; i < n; i++)
				shown[i] |= !strcmp(d->d_name, names[i]);
			at += d->d_reclen;
		}
	}
	if (got < 0)
		return -1;
	if (!dot) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* Whether the listing of dir, from its start, shows name: 1 or 0, or -1
 * with errno. */
static int listed_one(int dir, const char *name)
{
	int shown;

	if (lseek(dir, 0, SEEK_SET) != 0)
		return -1;
	return listed(dir, &name, 1, &shown) < 0 ? -1 : shown;
}

/*
 * The directory dir/name (name "" for dir itself), or -1: absent, as its
 * parent's listing shows (*absent set), or unknown (unknown() says why).
 */
static int open_dir(int parent, const char *dir, const char *name, int *absent)
{
	const char *at = name[0] ? name : dir;
	int fd, error;

	*absent = 0;
	fd = TF_UNFORGED(openat(parent, at, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (fd >= 0)
		return fd;
	error = errno;
	if (error == ENOENT && parent != AT_FDCWD && listed_one(parent, name) == 0) {
		*absent = 1;
		return -1;
	}
	unknown(dir, name, error);
	return -1;
}

/* The identity of dir/name, a row's file, unless the listing of dir shows
 * no such file; 0, or -1 after unknown(). */
static int learn(int dir, const char *dir_path, const char *name, size_t row)
{
	struct identity *id = &identities[identities_known];
	struct stat st;
	char path[4096];
	int error;

	/* Poisoned: a filter that fakes success without filling it fails. */
	memset(&st, 0, sizeof(st));
	if (fstatat(dir, name, &st, 0) < 0) {
		error = errno;
		if (error == ENOENT && listed_one(dir, name) == 0)
			return 0;
		unknown(dir_path, name, error);
		return -1;
	}
	if (st.st_mode == 0) {
		unknown(dir_path, name, EPROTO);
		return -1;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir_path, name);
	if (!(id->path = strdup(path))) {
		unknown(dir_path, name, ENOMEM);
		return -1;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = st.st_size;
	id->row = row;
	identities_known++;
	return 0;
}

/* The length of the directory part of a row's path, 0 for none. */
static int dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (int)(slash - path) : 0;
}

/* Whether two rows' files are in the same directory. */
static int same_dir(const char *a, const char *b)
{
	int len = dir_len(a);

	return dir_len(b) == len && strncmp(a, b, (size_t)len) == 0;
}

/*
 * The source and cache files of the rows whose files are in the directory
 * of row first's, under lib; the cache directory is listed once for all
 * of them.  0, or -1 after unknown().
 */
static int learn_dir(int lib, const char *lib_path, size_t first)
{
	const char *cache_names[ROWS * VARIANTS];
	char dir_path[4096], cache_path[4096], names[ROWS * VARIANTS][256], sub[256];
	int shown[ROWS * VARIANTS];
	size_t cache_row[ROWS * VARIANTS], n = 0, len = (size_t)dir_len(rows[first].path);
	int dir = lib, cache = -1, absent, rc = -1;

	snprintf(sub, sizeof(sub), "%.*s", (int)len, rows[first].path);

	if (snprintf(dir_path, sizeof(dir_path), "%s%s%s", lib_path, len ? "/" : "", sub) >=
		    (int)sizeof(dir_path) ||
	    snprintf(cache_path, sizeof(cache_path), "%s/__pycache__", dir_path) >=
		    (int)sizeof(cache_path)) {
		unknown(lib_path, sub, ENAMETOOLONG);
		return -1;
	}
	if (len && (dir = open_dir(lib, lib_path, sub, &absent)) < 0)
		return absent ? 0 : -1;
	for (size_t i = 0; i < ROWS; i++) {
		const char *file;
		int stem;

		if (!same_dir(rows[i].path, rows[first].path))
			continue;
		file = rows[i].path + (len ? len + 1 : 0);
		stem = (int)strlen(file) - 3; /* less ".py" */
		if (learn(dir, dir_path, file, i) < 0)
			goto out;
		for (size_t v = 0; v < VARIANTS; v++, n++) {
			snprintf(names[n], sizeof(names[n]), "%.*s." CACHE_TAG "%s.pyc", stem, file,
				 variants[v]);
			cache_names[n] = names[n];
			cache_row[n] = i;
		}
	}
	cache = open_dir(dir, dir_path, "__pycache__", &absent);
	if (cache < 0) {
		rc = absent ? 0 : -1;
		goto out;
	}
	if (listed(cache, cache_names, n, shown) < 0) {
		unknown(cache_path, "", errno);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (shown[i] && learn(cache, cache_path, cache_names[i], cache_row[i]) < 0)
			goto out;
	rc = 0;
out:
	if (cache >= 0)
		close(cache);
	if (dir != lib)
		close(dir);
	return rc;
}

static void learn_identities_once(void)
{
	const PyConfig *config = _Py_GetConfig();
	const char *dirs[2] = { TRUSTED_PYTHON_STDLIB, NULL };
	char *encoded = NULL;

	if (config->stdlib_dir)
		dirs[1] = encoded = Py_EncodeLocale(config->stdlib_dir, NULL);
	/* The same directory (no PYTHONHOME): its files are known once. */
	if (dirs[1] && strcmp(dirs[0], dirs[1]) == 0)
		dirs[1] = NULL;
	for (size_t d = 0; d < 2 && dirs[d]; d++) {
		int absent, lib = open_dir(AT_FDCWD, dirs[d], "", &absent);

		/* Each directory of the rows' files once. */
		for (size_t i = 0; lib >= 0 && i < ROWS; i++) {
			size_t j = 0;

			while (j < i && !same_dir(rows[j].path, rows[i].path))
				j++;
			if (j == i && learn_dir(lib, dirs[d], i) < 0)
				break;
		}
		if (lib >= 0)
			close(lib);
	}
	PyMem_Free(encoded);
}

/* Every thread waits for the first one's learning to end. */
static void learn_identities(void)
{
	pthread_once(&identities_once, learn_identities_once);
}

static const struct row *row_for_stat(const struct stat *st)
{
	learn_identities();
	refuse_unknown();
	for (size_t i = 0; i < identities_known; i++)
		if (identities[i].dev == st->st_dev && identities[i].ino == st->st_ino)
			return &rows[identities[i].row];
	return NULL;
}

/*
 * The identity of a file read as code, or -1 when it cannot be had, which
 * ends the process while anything is enforced (refuse_unknown()).
 */
static int stat_read(int fd, struct stat *st)
{
	int rc;

	memset(st, 0, sizeof(*st));
	rc = fstat(fd, st);
	if (rc == 0 && st->st_mode != 0)
		return 0;
	unknown("a file read as code", "", rc < 0 ? errno : EPROTO);
	refuse_unknown();
	return -1;
}

/*
 * Whether the files behind two descriptors, of size bytes, are the same:
 * 1 or 0, or -1 when they cannot be read.
 */
static int same_content(int a, int b, off_t size)
{
	char x[8192], y[8192];
	off_t at = 0;

	while (at < size) {
		size_t want = size - at < (off_t)sizeof(x) ? (size_t)(size - at) : sizeof(x);

		if (pread(a, x, want, at) != (ssize_t)want || pread(b, y, want, at) != (ssize_t)want)
			return -1;
		if (memcmp(x, y, want) != 0)
			return 0;
		at += (off_t)want;
	}
	return 1;
}

/*
 * The row of the file behind fd: its own, or the one of which it is a
 * byte-for-byte copy (a CPython source tree, a copy taken elsewhere), so
 * that a copy on an exec mount does not pass for another program.  Only
 * a file of a row file's size is read; one that cannot be compared is
 * taken for that row's.
 */
static const struct row *row_for_file(int fd, const struct stat *st)
{
	const struct row *row = row_for_stat(st);

	for (size_t i = 0; !row && i < identities_known; i++) {
		int other;

		if (identities[i].size != st->st_size)
			continue;
		other = TF_UNFORGED(open(identities[i].path, O_RDONLY | O_CLOEXEC));
		if (other < 0 || same_content(fd, other, st->st_size) != 0)
			row = &rows[identities[i].row];
		if (other >= 0)
			close(other);
	}
	return row;
}

/*
 * The names under which a row's file was read as code (through a
 * descriptor that passed the check, or for the compile rule), and the
 * source name that a cache file read stands for, which the import system
 * gives the code it loads from it.  The "exec" event finds the row by its
 * code's file name, which another file may have by then: a name read as a
 * row's file stays that row's.
 */
/* tp_state's row_names: str -> row index */

/*
 * The names read as code that were no row's file, and the source names
 * their cache files stand for: the "exec" event of the code loaded from
 * them needs no stat() of the name, one for each module imported.  Only
 * until a row's file is read: a loader names its code after the path it
 * was given ("DIR//m.py", "m.txt", a relative name), which row_names may
 * not hold while the cache file it read is a row's, and a program may
 * hold code loaded from a row's file and run it later under a name read
 * since.  So while no row's file has been read, code under such a name
 * was made from a file that was no row's (or by hand, which no lookup
 * of its name can judge); after one, every name is looked up as before.
 */
/* (tp_state's plain_names, until row_file_read) */

static void remember_name(struct tp_state *s, PyObject *name, size_t row)
{
	PyObject *index, *path, *absolute;

	if (!s->row_names && !(s->row_names = PyDict_New()))
		goto out;
	index = PyLong_FromSize_t(row);
	if (!index)
		goto out;
	path = PyImport_ImportModule("posixpath");
	absolute = path ? PyObject_CallMethod(path, "abspath", "O", name) : NULL;
	if (PyDict_SetItem(s->row_names, name, index) < 0 ||
	    (absolute && PyDict_SetItem(s->row_names, absolute, index) < 0))
		PyErr_Clear();
	Py_XDECREF(absolute);
	Py_XDECREF(path);
	Py_DECREF(index);
out:
	PyErr_Clear();
}

/*
 * DIR/NAME.py for DIR/__pycache__/NAME.TAG.pyc and NAME.TAG.opt-N.pyc,
 * as importlib's source_from_cache() gives it without sys.pycache_prefix;
 * NULL for any other name.  Written here because source_of_cache() runs
 * Python code, which would cost each import more than the stat() saved.
 */
static PyObject *standard_source_of_cache(const char *path, Py_ssize_t len)
{
	static const char dir[] = "/__pycache__/", tag[] = "." CACHE_TAG;
	const char *file = memrchr(path, '/', (size_t)len), *dot, *rest;
	PyObject *prefix = PySys_GetObject("pycache_prefix");
	char *source;
	PyObject *name;
	size_t head, stem;

	if (!file || (prefix && prefix != Py_None) ||
	    (size_t)(file - path) + 1 < sizeof(dir) - 1 ||
	    memcmp(file + 1 - (sizeof(dir) - 1), dir, sizeof(dir) - 1) != 0)
		return NULL;
	file++;
	dot = memchr(file, '.', (size_t)(path + len - file));
	if (!dot || dot == file)
		return NULL;
	rest = dot + strlen(tag);
	if (strncmp(dot, tag, strlen(tag)) != 0 ||
	    (strcmp(rest, ".pyc") != 0 && strcmp(rest, ".opt-1.pyc") != 0 &&
	     strcmp(rest, ".opt-2.pyc") != 0))
		return NULL;
	/* importlib joins the parts with one "/", less their trailing ones. */
	head = (size_t)(file - path) - (sizeof(dir) - 1);
	while (head > 0 && path[head - 1] == '/')
		head--;
	if (head == 0)
		return NULL;
	stem = (size_t)(dot - file);
	source = PyMem_Malloc(head + 1 + stem + 4);
	if (!source)
		return NULL;
	memcpy(source, path, head);
	source[head] = '/';
	memcpy(source + head + 1, file, stem);
	memcpy(source + head + 1 + stem, ".py", 4);
	name = PyUnicode_DecodeFSDefault(source);
	PyMem_Free(source);
	return name;
}

/* A row's file was read: from now on every name is looked up again. */
static void forget_plain_names(struct tp_state *s)
{
	s->row_file_read = true;
	Py_CLEAR(s->plain_names);
}

static void remember_plain(struct tp_state *s, PyObject *name)
{
	const char *utf8;
	Py_ssize_t n;
	PyObject *source;

	if (s->row_file_read)
		return;
	if (!s->plain_names && !(s->plain_names = PySet_New(NULL)))
		goto out;
	if (PySet_Add(s->plain_names, name) < 0 || !(utf8 = PyUnicode_AsUTF8AndSize(name, &n)))
		goto out;
	source = standard_source_of_cache(utf8, n);
	if (source && PySet_Add(s->plain_names, source) < 0)
		PyErr_Clear();
	Py_XDECREF(source);
out:
	PyErr_Clear();
}

void runner_code_read(int fd, const struct stat *st, PyObject *path)
{
	struct tp_state *s = tp_state_if_made();
	const struct row *row;
	PyObject *source;
	struct stat own;

	/*
	 * Code is read only after the interpreter's first import made its
	 * state.  Without one nothing is kept, and every name is looked up
	 * (row_for_name()).
	 */
	if (!s)
		return;
	if (!st) {
		if (stat_read(fd, &own) < 0)
			return;
		st = &own;
	}
	row = row_for_file(fd, st);
	if (row)
		forget_plain_names(s);
	if (!PyUnicode_Check(path))
		return;
	if (!row) {
		remember_plain(s, path);
		return;
	}
	remember_name(s, path, (size_t)(row - rows));
	source = source_of_cache(path);
	if (source)
		remember_name(s, source, (size_t)(row - rows));
	Py_XDECREF(source);
}

/*
 * The row whose file is path (a code object's co_filename), or NULL: the
 * row that name was read as, else none if it was read as no row's file,
 * else the row of the file the name is now.
 */
static const struct row *row_for_name(PyObject *path)
{
	struct tp_state *s = tp_state_if_made();
	PyObject *row_names = s ? s->row_names : NULL, *plain_names = s ? s->plain_names : NULL;
	PyObject *bytes = NULL, *index = NULL, *module, *absolute;
	struct stat st;
	int found;

	if (!PyUnicode_Check(path) || PyUnicode_GET_LENGTH(path) == 0 ||
	    PyUnicode_READ_CHAR(path, 0) == '<')
		return NULL;
	if (row_names && (index = PyDict_GetItemWithError(row_names, path)))
		return &rows[PyLong_AsSize_t(index)];
	PyErr_Clear();
	if (plain_names && PySet_Contains(plain_names, path) == 1)
		return NULL;
	PyErr_Clear();
	if (row_names) {
		module = PyImport_ImportModule("posixpath");
		absolute = module ? PyObject_CallMethod(module, "abspath", "O", path) : NULL;
		index = absolute ? PyDict_GetItemWithError(row_names, absolute) : NULL;
		Py_XDECREF(absolute);
		Py_XDECREF(module);
		PyErr_Clear();
		/* Borrowed from the dict, which the name's entry keeps alive. */
		if (index)
			return &rows[PyLong_AsSize_t(index)];
	}
	if (!PyUnicode_FSConverter(path, &bytes)) {
		PyErr_Clear();
		return NULL;
	}
	found = stat(PyBytes_AS_STRING(bytes), &st) == 0;
	Py_DECREF(bytes);
	return found ? row_for_stat(&st) : NULL;
}

/* The row whose file is the one behind fd, or NULL. */
static const struct row *row_for_fd(int fd)
{
	struct stat st;

	return stat_read(fd, &st) == 0 ? row_for_file(fd, &st) : NULL;
}

/* open() for modules that read code files with it: a checked descriptor. */
static PyObject *code_open(PyObject *self, PyObject *args, PyObject *kwargs)
{
	struct tp_state *s = tp_state();
	PyObject *kw, *res = NULL;

	(void)self;
	if (!s || make_io_open(s) < 0)
		return NULL;
	kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
	if (kw && PyDict_SetItemString(kw, "opener", s->opener) == 0)
		res = PyObject_Call(s->io_open, args, kw);
	Py_XDECREF(kw);
	return res;
}

static PyMethodDef code_open_def = {
	"open", (PyCFunction)(void (*)(void))code_open, METH_VARARGS | METH_KEYWORDS,
	"open() for files read as code: the descriptor is checked by trustedfor."
};

static int guard_reads(PyObject *globals)
{
	PyObject *fn = PyCFunction_New(&code_open_def, NULL);
	int rc;

	if (!fn)
		return -1;
	rc = PyDict_SetItemString(globals, "open", fn);
	Py_DECREF(fn);
	return rc;
}

/*
 * A variable of the frame whose locals are given: a dict, or from 3.13 on
 * a proxy of a function's variables (PEP 667), which PyDict_* functions
 * take for no variable at all.  A new reference, or NULL.
 */
static PyObject *frame_variable(PyObject *locals, const char *name)
{
	PyObject *v = PyMapping_GetItemString(locals, name);

	if (!v)
		PyErr_Clear();
	return v;
}

/*
 * The namespace that a module's code is about to run in, found in the
 * frame that called exec(): the import system's _call_with_frames_removed
 * (args[1]), runpy's _run_code (run_globals), a runner's runctx (globals).
 * *as_import tells the first from the rest.  A new reference, or NULL.
 */
static PyObject *exec_namespace(int *as_import)
{
	PyFrameObject *frame = PyEval_GetFrame();
	PyCodeObject *code;
	PyObject *locals, *ns = NULL;
	const char *name;

	*as_import = 0;
	if (!frame)
		return NULL;
	code = PyFrame_GetCode(frame);
	name = PyUnicode_AsUTF8(code->co_name);
	locals = PyFrame_GetLocals(frame);
	if (!name || !locals) {
		PyErr_Clear();
	} else if (strcmp(name, "_call_with_frames_removed") == 0) {
		PyObject *a = frame_variable(locals, "args");

		if (a && PyTuple_Check(a) && PyTuple_GET_SIZE(a) >= 2) {
			ns = PyTuple_GET_ITEM(a, 1);
			Py_INCREF(ns);
			*as_import = 1;
		}
		Py_XDECREF(a);
	} else {
		const char *names[] = { "run_globals", "globals", "globs" };

		for (size_t i = 0; !ns && i < 3; i++)
			ns = frame_variable(locals, names[i]);
	}
	if (ns && !PyDict_Check(ns))
		Py_CLEAR(ns);
	/* A loader's exec_module() into a module named __main__ runs it. */
	if (*as_import && ns) {
		PyObject *n = PyDict_GetItemString(ns, "__name__");

		if (n && PyUnicode_Check(n) && PyUnicode_CompareWithASCIIString(n, "__main__") == 0)
			*as_import = 0;
	}
	Py_XDECREF(locals);
	Py_DECREF(code);
	return ns;
}

/* The "exec" event: a code object about to run. */
static int on_exec(PyObject *args)
{
	PyCodeObject *code;
	const struct row *row;
	PyObject *ns;
	int as_import, rc = 0;

	if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1 ||
	    !PyCode_Check(PyTuple_GET_ITEM(args, 0)))
		return 0;
	code = (PyCodeObject *)PyTuple_GET_ITEM(args, 0);
	row = row_for_name(code->co_filename);
	if (!row)
		return 0;
	ns = exec_namespace(&as_import);
	/*
	 * Imported, the module only defines things.  Run any other way its
	 * main block runs (runpy's run_name aside, which no runner changes).
	 */
	if (!as_import) {
		if ((row->what & RUNS_ARGV) && refuse_interactive(-1, row->module) < 0)
			rc = -1;
		else if ((row->what & RUNS_STDIN) &&
			 refuse_interactive(STDIN_FILENO, row->module) < 0)
			rc = -1;
	}
	if (rc == 0 && (row->what & READS_CODE)) {
		if (ns) {
			rc = guard_reads(ns);
		} else {
			PyObject *f = code->co_filename;

			Py_INCREF(f);
			rc = refuse_file(f, "its namespace was not found, so its reads cannot be checked");
			Py_DECREF(f);
		}
	}
	Py_XDECREF(ns);
	return rc;
}

int runner_script(int fd, PyObject *main_dict)
{
	const struct row *row = row_for_fd(fd);
	struct tp_state *s;

	if (!row)
		return 0;
	s = tp_state();
	if (!s)
		return -1;
	forget_plain_names(s);
	if ((row->what & RUNS_ARGV) && refuse_interactive(-1, row->module) < 0)
		return -1;
	if ((row->what & RUNS_STDIN) && refuse_interactive(STDIN_FILENO, row->module) < 0)
		return -1;
	if (row->what & READS_CODE)
		return guard_reads(main_dict);
	return 0;
}

/*
 * "sys.excepthook": an uncaught exception is about to be printed.  A
 * refusal that reached the top level ends the process as a refused
 * script does: one line, status 126.
 */
static void on_excepthook(PyObject *args)
{
	PyObject *value, *s, *f, *r;
	const char *msg;

	if (in_repl || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 3)
		return;
	/* The refusal itself, or the cause of what a runner raised instead
	 * (runpy.run_module() raises ImportError from it). */
	value = find_refusal(PyTuple_GET_ITEM(args, 2));
	if (!value)
		return;
	s = PyObject_Str(value);
	msg = s ? PyUnicode_AsUTF8(s) : NULL;
	/* What the program printed before the refusal still goes out. */
	f = PySys_GetObject("stdout");
	r = f && f != Py_None ? PyObject_CallMethod(f, "flush", NULL) : NULL;
	Py_XDECREF(r);
	PyErr_Clear();
	refuse_and_exit(msg ? msg : last_refusal);
}

int runner_audit(const char *event, PyObject *args)
{
	switch (event[0]) {
	case 'c':
		if (strcmp(event, "compile") == 0)
			return on_compile(args);
		break;
	case 'e':
		if (strcmp(event, "exec") == 0)
			return on_exec(args);
		break;
	case 'o':
		if (strcmp(event, "open") == 0)
			return on_open(args);
		break;
	case 'b':
		/* A debugger's prompt: the hook is pdb's unless PYTHONBREAKPOINT
		 * says otherwise, and any hook is code chosen at run time. */
		if (strcmp(event, "builtins.breakpoint") == 0)
			return refuse_interactive(STDIN_FILENO, "breakpoint()");
		break;
	case 's':
		if (strcmp(event, "sys.excepthook") == 0)
			on_excepthook(args);
		break;
	}
	return 0;
}
