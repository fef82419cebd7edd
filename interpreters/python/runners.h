/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: code that Python programs compile under a file's name,
 * and the standard library's modules that run code when run as __main__
 * (runners.c).
 */
#ifndef TRUSTED_PYTHON_RUNNERS_H
#define TRUSTED_PYTHON_RUNNERS_H

#include <Python.h>

/*
 * Called by the audit hook (checks.c) for every event it does not handle
 * itself.  Returns 0, or -1 with NotTrustedError set when the event's code
 * is refused.  May end the process (one line, status 126) when a refusal
 * reaches the top level.
 */
int runner_audit(const char *event, PyObject *args);

/*
 * The script named on the command line, already checked on fd, is one of
 * the standard library's modules: refuse it as runpy's path would be
 * refused, and guard its file reads.  main_dict is __main__'s namespace.
 * Returns 0, or -1 with NotTrustedError set.
 */
int runner_script(int fd, PyObject *main_dict);

/*
 * A code file was read from fd under path, once the descriptor passed the
 * check: when it is one of those modules' files, that name stays its own.
 * st is fd's fstat() when the reader made one (on a poisoned buffer, which
 * it filled: checks.c's read_all()), else NULL.
 */
void runner_code_read(int fd, const struct stat *st, PyObject *path);

/* The read-eval-print loop is running: its errors are printed, not fatal. */
void runner_in_repl(int on);

#endif
