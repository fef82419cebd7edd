/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trusted-python: the launcher's checks that its other files use. */
#ifndef TRUSTED_PYTHON_CHECKS_H
#define TRUSTED_PYTHON_CHECKS_H

#include <Python.h>

#include <trustedfor.h>

/* _trustedfor.NotTrustedError, and the last refusal's message. */
extern PyObject *not_trusted_error;
extern char last_refusal[TRUSTED_FOR_MESSAGE_MAX];

/* Raise NotTrustedError(message, path=path). */
void raise_not_trusted(const char *message, PyObject *path);

/* An opener for io.open(): opens read-only, checks the descriptor. */
extern PyMethodDef checked_opener_def;

/* "PROG: MESSAGE" on stderr, then exit with status 126. */
void refuse_and_exit(const char *message) __attribute__((noreturn));

#endif
