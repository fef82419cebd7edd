/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: what decides (checks.c), for the start-up in
 * trusted-python.c and for runners.c.
 */
#ifndef TRUSTED_PYTHON_CHECKS_H
#define TRUSTED_PYTHON_CHECKS_H

#include <Python.h>
#include <sys/stat.h>

#include <trustedfor.h>

#include "state.h"

/*
 * The running interpreter's config, which main.c reads and writes (-i's
 * inspect), and which no public API gives before 3.14 (PyConfig_Get).
 * libpython exports it in 3.11 and 3.13 alike; 3.11 declares it in its
 * public headers, 3.13 only in its internal ones.
 */
#if PY_VERSION_HEX >= 0x030C0000
PyAPI_FUNC(const PyConfig *) _Py_GetConfig(void);
#endif

/*
 * The running interpreter's _trustedfor.NotTrustedError (borrowed), or
 * NULL before its state was made; and whether the pending exception is
 * one.  Neither changes the pending exception.
 */
PyObject *not_trusted_error(void);
int is_refusal_pending(void);

/* The last refusal's message, of whichever interpreter. */
extern char last_refusal[TRUSTED_FOR_MESSAGE_MAX];

/* The name refusals begin with: argv[0]'s last component once set. */
extern const char *prog;
void set_program_name(const char *argv0);

/*
 * The open-code hook, the audit hook and the _trustedfor module, before
 * the interpreter is initialised.  The audit hook hands every event it
 * does not handle itself to runners (runner_audit(), runners.c), which
 * calls back into this file: passing it here keeps the files' order one
 * way (extensions.c, checks.c, runners.c, trusted-python.c).  Returns 0,
 * or -1.
 */
typedef int (*audit_fn)(const char *event, PyObject *args);
/*
 * Told of every code file read, once its descriptor passed the check; st is
 * the descriptor's fstat() when the reader made one, else NULL.
 */
typedef void (*read_fn)(int fd, const struct stat *st, PyObject *path);
int install_checks(audit_fn runners, read_fn code_read);

/*
 * The refusals decided before the interpreter starts: code that is not a
 * file (-c, stdin, the REPL after the script with -i).  Python reads stdin
 * from the descriptor checked here, fd 0.  Ends the process on a refusal.
 */
void check_entry_points(const PyConfig *config);

/* Interactive code from fd (or -1) named what: allowed, or the end. */
void check_interactive_or_exit(const char *what, int fd);

/* Raise NotTrustedError(message, path=path), after calling on_refusal. */
void raise_not_trusted(const char *message, PyObject *path);
extern void (*on_refusal)(void);

/*
 * Open path once, check that descriptor, and return it, or -1 with a Python
 * exception set: OSError when it cannot be opened (*open_errno is then the
 * errno), or NotTrustedError when it is refused (*open_errno is 0).
 */
int open_checked(PyObject *path, int *open_errno);

/*
 * open_checked() for a main entry point (the script, PYTHONSTARTUP): a
 * refusal ends the process; otherwise the same returns.
 */
int open_entry_point(PyObject *path, int *open_errno);

/*
 * Whether source is the bytes that the file loaders' get_data() read last,
 * through the checked descriptor, under the name filename, and the check
 * passed then, or would allow them now and log nothing new.  Forgets that
 * read either way.
 */
int compiled_as_read(PyObject *source, PyObject *filename);

/*
 * The source file a cache file stands for, by importlib's own inverse,
 * which knows sys.pycache_prefix too; NULL (no exception) when path is no
 * cache file's name.
 */
PyObject *source_of_cache(PyObject *path);

/*
 * The whole file behind fd, or NULL with errno, or with an exception (no
 * memory; a signal handler's, when a read was interrupted); *st is the
 * fstat() it sized the buffer by.  Other threads run while it reads.
 */
PyObject *read_all(int fd, struct stat *st);

/* An opener for io.open(): opens read-only, checks the descriptor. */
extern PyMethodDef checked_opener_def;

/* Makes s's _io.open and checked opener if not yet: 0, or -1 with an
 * exception set. */
int make_io_open(struct tp_state *s);

/* The NotTrustedError in exc or down its cause/context chain (borrowed). */
PyObject *find_refusal(PyObject *exc);

/* When the pending exception is NotTrustedError: its one line, and 126. */
void exit_if_refused(void);

/* "PROG: MESSAGE" on stderr, then exit with status 126. */
void refuse_and_exit(const char *message) __attribute__((noreturn));

#endif
