/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dynamic loader is an interpreter too: a shared object whose segments
 * are all readable and writable maps from a noexec mount, and its init
 * array runs functions of the trusted libraries it names.  The launchers
 * load C modules only through this function, which checks the descriptor
 * the loader then maps.
 */
#ifndef TRUSTEDFOR_CHECKED_DLOPEN_H
#define TRUSTEDFOR_CHECKED_DLOPEN_H

#include <stddef.h>

#include <trustedfor.h>

/*
 * dlopen(path, flags), except that the file is opened once (O_RDONLY |
 * O_CLOEXEC), trusted_for_allow_file() is asked about that descriptor,
 * and the loader is handed that very file as /proc/self/fd/N.  Takes
 * ownership of fd when fd >= 0 (already open on path), else opens path.
 *
 * Returns the handle, or NULL with:
 *  - *refused set and v->message the one-line refusal, or
 *  - *refused clear and err holding a message like dlerror()'s, in which
 *    the descriptor's name is replaced by path.
 * /proc that is missing or is not procfs is an error: the file is not
 * loaded (there is no other way to map exactly this descriptor).
 */
void *tf_checked_dlopen(int fd, const char *path, int flags,
			struct trusted_for_verdict *v, int *refused, char *err,
			size_t errsize);

#endif
