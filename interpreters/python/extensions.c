/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: extension modules.  The import system hands an extension
 * module's path to dlopen() (ExtensionFileLoader.create_module calls
 * _imp.create_dynamic), and the dynamic loader runs code as soon as it maps
 * the file: the initialisers of its init array, which need no executable
 * segment of the file's own, so a noexec mount does not stop them.  An
 * extension module is therefore a code file like a .py: _imp.create_dynamic
 * is replaced, in every interpreter, by a C function that opens the file
 * once, asks the enforcement layer about the descriptor, loads that very
 * file (/proc/self/fd/N) and then lets CPython's own create_dynamic find it
 * among the loaded objects, so that everything else (PyInit lookup, single-
 * and multi-phase init, its cache of single-phase modules, messages) is
 * CPython's.
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <link.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trustedfor.h>

#include "../common/checked_dlopen.h"
#include "extensions.h"

static tp_refuse_fn refuse;

/*
 * Every file loaded, by (st_dev, st_ino), with its handle and the name the
 * loader knows it by ("/proc/self/fd/N" of its first load): the process's,
 * whichever interpreter loaded it, as the loader's objects are.  A file
 * loaded again keeps that name.  Plain C under a lock, since interpreters
 * with their own GIL load at once.
 */
struct loaded_file {
	dev_t dev;
	ino_t ino;
	void *handle;
	char *name;
};
static struct loaded_file *loaded;
static size_t n_loaded, loaded_room;
static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct loaded_file *find_loaded(const struct stat *st)
{
	for (size_t i = 0; i < n_loaded; i++)
		if (loaded[i].dev == st->st_dev && loaded[i].ino == st->st_ino)
			return &loaded[i];
	return NULL;
}

static const struct loaded_file *add_loaded(const struct stat *st, void *handle,
					    const char *name)
{
	struct loaded_file *more;
	char *copy = strdup(name);

	if (!copy)
		return NULL;
	if (n_loaded == loaded_room) {
		size_t room = loaded_room ? 2 * loaded_room : 16;

		more = realloc(loaded, room * sizeof(*loaded));
		if (!more) {
			free(copy);
			return NULL;
		}
		loaded = more;
		loaded_room = room;
	}
	loaded[n_loaded] = (struct loaded_file){ st->st_dev, st->st_ino, handle, copy };
	return &loaded[n_loaded++];
}

/* ImportError(message, name=, path=), as create_dynamic raises it. */
static void import_error(const char *message, PyObject *name, PyObject *path)
{
	PyObject *msg = PyUnicode_DecodeFSDefault(message);

	if (msg) {
		PyErr_SetImportError(msg, name, path);
		Py_DECREF(msg);
	}
}

/*
 * Whether the loader now knows the object loaded as handle by the name
 * path too, so that CPython's dlopen() of path finds it without opening
 * anything: RTLD_NOLOAD maps no file, and gives the object loaded from the
 * file that path names now, if any, adding path to its names.  Another
 * object (the file was replaced) or none is a no.
 */
static int known_as(void *handle, const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	int same = h && h == handle;

	if (h)
		dlclose(h); /* handle keeps the object */
	else
		dlerror();
	return same;
}

/*
 * Loads the file behind origin, checked.  Returns the name to give
 * CPython's create_dynamic: origin itself when the loader knows the
 * object by it (CPython then caches a single-phase module under its own
 * path, as without trusted-python), else the object's first name; a new
 * reference, or NULL with an exception set.
 */
static PyObject *load_checked(PyObject *name, PyObject *origin)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	const struct loaded_file *file = NULL;
	PyObject *bytes, *flags_obj, *res = NULL;
	char err[1024];
	struct stat st;
	struct link_map *map;
	int fd, refused = 0, flags, by_origin = 0;
	void *handle;

	flags_obj = PySys_GetObject("getdlopenflags");
	flags = RTLD_NOW;
	if (flags_obj) {
		PyObject *r = PyObject_CallNoArgs(flags_obj);

		if (!r)
			return NULL;
		flags = (int)PyLong_AsLong(r);
		Py_DECREF(r);
		if (PyErr_Occurred())
			return NULL;
	}
	if (!PyUnicode_FSConverter(origin, &bytes))
		return NULL;
	err[0] = '\0';
	pthread_mutex_lock(&loaded_lock);
	fd = open(PyBytes_AS_STRING(bytes), O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		/* dlopen()'s own words for a file it cannot open. */
		snprintf(err, sizeof(err), "%s: cannot open shared object file: %s",
			 PyBytes_AS_STRING(bytes), strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	/* The file was loaded before: check it again, keep its first name. */
	if ((file = find_loaded(&st))) {
		refused = trusted_for_allow_file(fd, PyBytes_AS_STRING(bytes), &v) < 0;
		close(fd);
		if (refused)
			file = NULL;
		goto out;
	}
	handle = tf_checked_dlopen(fd, PyBytes_AS_STRING(bytes), flags, &v,
				   &refused, err, sizeof(err));
	if (!handle) /* fd was taken over */
		goto out;
	/*
	 * The handle stays: CPython's own dlopen() of the name the loader
	 * knows the object by (/proc/self/fd/N, the name of an earlier load
	 * of the same file, or origin) finds it loaded and takes another
	 * reference.
	 */
	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0) {
		file = add_loaded(&st, handle, map->l_name);
		if (!file)
			snprintf(err, sizeof(err), "%s: no memory", PyBytes_AS_STRING(bytes));
	} else {
		snprintf(err, sizeof(err), "%s", dlerror());
	}
out:
	/*
	 * CPython hands dlopen() "./NAME" for a name without a slash, which
	 * the loader would look for by opening it: such a name stays the
	 * descriptor's.
	 */
	if (file && strchr(PyBytes_AS_STRING(bytes), '/'))
		by_origin = known_as(file->handle, PyBytes_AS_STRING(bytes));
	if (file)
		res = by_origin ? Py_NewRef(origin) : PyUnicode_DecodeFSDefault(file->name);
	pthread_mutex_unlock(&loaded_lock);
	if (refused)
		refuse(v.message, origin);
	else if (!file)
		import_error(err, name, origin);
	Py_DECREF(bytes);
	return res;
}

/* Puts origin back where CPython's create_dynamic saw the descriptor's name. */
static void restore_path(PyObject *module, PyObject *fdpath, PyObject *origin)
{
	PyObject *type, *value, *tb, *file;

	if (!module) {
		PyErr_Fetch(&type, &value, &tb);
		PyErr_NormalizeException(&type, &value, &tb);
		if (value && PyObject_TypeCheck(value, (PyTypeObject *)PyExc_ImportError)) {
			PyObject *path = PyObject_GetAttrString(value, "path");

			if (path && PyObject_RichCompareBool(path, fdpath, Py_EQ) == 1)
				PyObject_SetAttrString(value, "path", origin);
			Py_XDECREF(path);
			PyErr_Clear();
		}
		PyErr_Restore(type, value, tb);
		return;
	}
	/* A single-phase module gets __file__ from the name it was loaded by. */
	if (!PyModule_Check(module))
		return;
	file = PyObject_GetAttrString(module, "__file__");
	if (file && PyObject_RichCompareBool(file, fdpath, Py_EQ) == 1)
		PyObject_SetAttrString(module, "__file__", origin);
	Py_XDECREF(file);
	PyErr_Clear();
}

/* ModuleSpec(name, None, origin=origin) */
static PyObject *spec_for(PyObject *bootstrap, PyObject *name, PyObject *origin)
{
	PyObject *cls, *args, *kwargs, *spec = NULL;

	cls = PyObject_GetAttrString(bootstrap, "ModuleSpec");
	args = cls ? PyTuple_Pack(2, name, Py_None) : NULL;
	kwargs = args ? Py_BuildValue("{s:O}", "origin", origin) : NULL;
	if (kwargs)
		spec = PyObject_Call(cls, args, kwargs);
	Py_XDECREF(kwargs);
	Py_XDECREF(args);
	Py_XDECREF(cls);
	return spec;
}

/*
 * A str holding a NUL: from 3.13 on CPython's ValueError, before any file
 * is opened (3.11 passes the name on, cut at the NUL).
 */
static int embedded_null(PyObject *s)
{
#if PY_VERSION_HEX < 0x030D0000
	(void)s;
	return 0;
#else
	Py_ssize_t n;
	const char *utf8;

	if (!PyUnicode_Check(s))
		return 0;
	utf8 = PyUnicode_AsUTF8AndSize(s, &n);
	if (!utf8)
		return -1;
	if (strlen(utf8) == (size_t)n)
		return 0;
	PyErr_SetString(PyExc_ValueError, "embedded null character");
	return -1;
#endif
}

/* _imp.create_dynamic(spec, file=None) */
static PyObject *checked_create_dynamic(PyObject *self, PyObject *args)
{
	struct tp_state *s = tp_state();
	PyObject *spec, *file = NULL, *name = NULL, *origin = NULL;
	PyObject *fdpath = NULL, *bootstrap = NULL, *proxy = NULL, *res = NULL;

	(void)self;
	if (!s || !PyArg_ParseTuple(args, "O|O:create_dynamic", &spec, &file))
		return NULL;
	if (!s->create_dynamic) {
		PyErr_SetString(PyExc_ImportError, "trusted-python: this interpreter's "
						   "_imp.create_dynamic is not known");
		return NULL;
	}
	name = PyObject_GetAttrString(spec, "name");
	origin = name ? PyObject_GetAttrString(spec, "origin") : NULL;
	if (!origin || embedded_null(name) < 0 || embedded_null(origin) < 0)
		goto out;
	if (!PyUnicode_Check(origin)) {
		/* No file: CPython's own error.  A NULL file ends the
		 * arguments: not given, as for the caller. */
		res = PyObject_CallFunctionObjArgs(s->create_dynamic, spec, file, NULL);
		goto out;
	}
	fdpath = load_checked(name, origin);
	if (!fdpath)
		goto out;
	/* The loader knows the object by origin: CPython's call as it was. */
	if (fdpath == origin) {
		res = PyObject_CallFunctionObjArgs(s->create_dynamic, spec, file, NULL);
		goto out;
	}
	/* A spec naming the descriptor, for create_dynamic's dlopen(). */
	bootstrap = PyImport_ImportModule("_frozen_importlib");
	if (bootstrap)
		proxy = spec_for(bootstrap, name, fdpath);
	/*
	 * file, when given, is opened again by CPython (only its presence
	 * matters to create_dynamic): it gets the descriptor's name too.
	 */
	if (proxy)
		res = PyObject_CallFunctionObjArgs(s->create_dynamic, proxy,
						   file ? fdpath : NULL, NULL);
	restore_path(res, fdpath, origin);
out:
	Py_XDECREF(proxy);
	Py_XDECREF(bootstrap);
	Py_XDECREF(fdpath);
	Py_XDECREF(origin);
	Py_XDECREF(name);
	return res;
}

static PyMethodDef checked_create_dynamic_def = {
	"create_dynamic", checked_create_dynamic, METH_VARARGS,
	"create_dynamic(spec, file=None)\n--\n\n"
	"Create an extension module from a file that trustedfor allowed."
};

int tp_guard_extensions(struct tp_state *s, PyObject *importlib_external,
			tp_refuse_fn refuse_fn)
{
	PyObject *imp, *current, *modname, *fn;
	int rc = -1;

	refuse = refuse_fn;
	imp = PyObject_GetAttrString(importlib_external, "_imp");
	if (!imp)
		return -1;
	current = PyObject_GetAttrString(imp, "create_dynamic");
	if (!current)
		goto out;
	/* Every interpreter has its own _imp, and its own create_dynamic. */
	if (PyCFunction_Check(current) &&
	    PyCFunction_GET_FUNCTION(current) == (PyCFunction)checked_create_dynamic) {
		rc = 0;
		goto out;
	}
	if (!s->create_dynamic) {
		s->create_dynamic = current;
		Py_INCREF(current);
	}
	modname = PyUnicode_FromString("_trustedfor");
	fn = modname ? PyCFunction_NewEx(&checked_create_dynamic_def, NULL, modname) : NULL;
	if (fn && PyObject_SetAttrString(imp, "create_dynamic", fn) == 0)
		rc = 0;
	Py_XDECREF(fn);
	Py_XDECREF(modname);
out:
	Py_XDECREF(current);
	Py_DECREF(imp);
	return rc;
}
