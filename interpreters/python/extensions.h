/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trusted-python: extension modules loaded only from checked descriptors. */
#ifndef TRUSTED_PYTHON_EXTENSIONS_H
#define TRUSTED_PYTHON_EXTENSIONS_H

#include <Python.h>

#include "state.h"

/* Raises the refusal (message, the file's path) as NotTrustedError. */
typedef void (*tp_refuse_fn)(const char *message, PyObject *path);

/*
 * Replaces _imp.create_dynamic, as importlib_external (the module
 * _frozen_importlib_external) sees it, by the checked version, keeping
 * CPython's in s, the running interpreter's state.  Returns 0, or -1 with
 * an exception set.
 */
int tp_guard_extensions(struct tp_state *s, PyObject *importlib_external,
			tp_refuse_fn refuse);

#endif
