/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Setting the exec securebits for a session: trusted-for run, the PAM module. */
#ifndef TRUSTEDFOR_SECUREBITS_H
#define TRUSTEDFOR_SECUREBITS_H

#include <stddef.h>

/*
 * Sets bits (SECBIT_EXEC_* and their locks) on top of this thread's
 * securebits, which keeps a locked bit locked, and reads them back.  0 when
 * the kernel holds every bit asked for, *now the securebits; else -1 and
 * why holds one line: "cannot set the securebits: ERROR" (and whether the
 * kernel has none, by the library's probe), "cannot read the securebits
 * back: ERROR" or "the kernel did not keep the securebits".
 */
int tf_securebits_set(unsigned int bits, unsigned int *now, char *why, size_t size);

/* strerror()'s text without its buffer shared between threads. */
const char *tf_error_text(int err);

#endif
