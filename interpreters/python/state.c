/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: the checks' state of each interpreter.  It lives in a
 * capsule in the interpreter's own dict (PyInterpreterState_GetDict(),
 * which no Python code can reach), so that it is made, used and freed in
 * the interpreter whose objects it holds: the dict is cleared when that
 * interpreter ends, with its allocator still there.  Nothing here is
 * shared between interpreters, so nothing needs a lock beyond each one's
 * GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdio.h>

#include "state.h"

#define STATE_KEY "trustedfor.state"

/*
 * The last state this thread used, and its interpreter's ID: a lookup in
 * the dict at every audit event would cost each import.  An ID is never
 * given twice, so an ID that matches names an interpreter that still
 * exists (the thread is running in it); the pointer is used only then.
 */
static _Thread_local int64_t cached_id = -1;
static _Thread_local struct tp_state *cached;

static void free_state(PyObject *capsule)
{
	struct tp_state *s = PyCapsule_GetPointer(capsule, STATE_KEY);

	if (!s)
		return;
	if (cached == s) {
		cached = NULL;
		cached_id = -1;
	}
	Py_CLEAR(s->not_trusted_error);
	Py_CLEAR(s->read_name);
	Py_CLEAR(s->read_data);
	Py_CLEAR(s->io_open);
	Py_CLEAR(s->opener);
	Py_CLEAR(s->open_mode);
	Py_CLEAR(s->open_kwargs);
	Py_CLEAR(s->row_names);
	Py_CLEAR(s->plain_names);
	Py_CLEAR(s->opened_bracket_names);
	Py_CLEAR(s->create_dynamic);
	PyMem_RawFree(s);
}

/* The state in idict under STATE_KEY, or NULL; sets no exception. */
static struct tp_state *stored(PyObject *idict)
{
	PyObject *type, *value, *tb, *capsule;
	struct tp_state *s = NULL;

	PyErr_Fetch(&type, &value, &tb);
	capsule = PyDict_GetItemString(idict, STATE_KEY);
	if (capsule && PyCapsule_IsValid(capsule, STATE_KEY))
		s = PyCapsule_GetPointer(capsule, STATE_KEY);
	PyErr_Clear();
	PyErr_Restore(type, value, tb);
	return s;
}

static struct tp_state *remember(struct tp_state *s, int64_t id)
{
	cached = s;
	cached_id = id;
	return s;
}

static struct tp_state *make_state(PyObject *idict, int64_t id)
{
	struct tp_state *s = PyMem_RawCalloc(1, sizeof(*s));
	PyObject *capsule;

	if (!s) {
		PyErr_NoMemory();
		return NULL;
	}
	s->interp_id = id;
	s->not_trusted_error = PyErr_NewExceptionWithDoc(
		"_trustedfor.NotTrustedError",
		"A file was refused as code by the trustedfor policy.", PyExc_ImportError, NULL);
	if (!s->not_trusted_error) {
		PyMem_RawFree(s);
		return NULL;
	}
	/* From here the capsule owns s: free_state() frees it with the capsule. */
	capsule = PyCapsule_New(s, STATE_KEY, free_state);
	if (!capsule) {
		Py_DECREF(s->not_trusted_error);
		PyMem_RawFree(s);
		return NULL;
	}
	if (PyDict_SetItemString(idict, STATE_KEY, capsule) < 0) {
		Py_DECREF(capsule);
		return NULL;
	}
	Py_DECREF(capsule);
	return s;
}

struct tp_state *tp_state(void)
{
	PyInterpreterState *interp = PyInterpreterState_Get();
	int64_t id = PyInterpreterState_GetID(interp);
	PyObject *idict;
	struct tp_state *s;

	if (cached && id == cached_id)
		return cached;
	idict = PyInterpreterState_GetDict(interp);
	s = idict ? stored(idict) : NULL;
	if (!s && idict)
		s = make_state(idict, id);
	if (!s) {
		/* What was to be checked is refused, with this one line. */
		PyObject *type, *value, *tb;
		char message[200];

		PyErr_Fetch(&type, &value, &tb);
		snprintf(message, sizeof(message),
			 "trusted-python: the checks of interpreter %lld cannot be set up%s",
			 (long long)id, idict ? ": no memory" : ": it has no dict");
		Py_XDECREF(type);
		Py_XDECREF(value);
		Py_XDECREF(tb);
		PyErr_SetString(PyExc_RuntimeError, message);
		return NULL;
	}
	return remember(s, id);
}

struct tp_state *tp_state_if_made(void)
{
	PyInterpreterState *interp = PyInterpreterState_Get();
	int64_t id = PyInterpreterState_GetID(interp);
	PyObject *idict;

	if (cached && id == cached_id)
		return cached;
	idict = PyInterpreterState_GetDict(interp);
	return idict ? stored(idict) : NULL;
}
