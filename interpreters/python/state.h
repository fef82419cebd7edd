/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python: what the checks keep, one set for each interpreter
 * (state.c).
 */
#ifndef TRUSTED_PYTHON_STATE_H
#define TRUSTED_PYTHON_STATE_H

#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

/* How a code file's read went, for compiled_as_read() (checks.c). */
struct read_check {
	bool trusted; /* the check passed */
	bool audited; /* auditing was on: a failed check was logged */
};

/*
 * Every Python object the checks keep belongs to the interpreter that made
 * it: from 3.12 on a subinterpreter may have its own allocator and its own
 * GIL, and an object of one interpreter must not be used, counted or freed
 * in another.  Each field is made the first time its interpreter needs it,
 * unless said otherwise.
 */
struct tp_state {
	int64_t interp_id;
	/* _trustedfor.NotTrustedError: made with the state. */
	PyObject *not_trusted_error;
	/* The loaders' get_data() and _imp.create_dynamic are guarded. */
	bool guarded;
	/* checks.c: the bytes the loaders' get_data() read last, their name. */
	PyObject *read_name, *read_data;
	struct read_check read_how;
	/* checks.c: _io.open, the checked opener, and the open-code hook's
	 * arguments for it ("rb", {"opener": opener}). */
	PyObject *io_open, *opener, *open_mode, *open_kwargs;
	/* runners.c: names of the runner rows' files and of other code files. */
	PyObject *row_names, *plain_names, *opened_bracket_names;
	bool row_file_read;
	/* extensions.c: CPython's own _imp.create_dynamic. */
	PyObject *create_dynamic;
};

/*
 * The running interpreter's state, made on its first use (new ones start
 * with NotTrustedError made).  NULL with an exception set when it cannot
 * be made, which the caller passes on: what it was to check is refused.
 */
struct tp_state *tp_state(void);

/*
 * The running interpreter's state if it was made, else NULL; never sets
 * or clears an exception (for callers that look at a pending one).
 */
struct tp_state *tp_state_if_made(void);

#endif
