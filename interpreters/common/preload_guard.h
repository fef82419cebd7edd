/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef TRUSTEDFOR_PRELOAD_GUARD_H
#define TRUSTEDFOR_PRELOAD_GUARD_H

#include "early.h"

/*
 * preload_guard.c: while enforcement may be in force, refuses (126, one
 * line) an object outside root's library directories and the executable's
 * RUNPATH that defines symbols.  The first thing the preinit array does,
 * with the environment it was given.
 */
#pragma GCC visibility push(hidden)
EARLY void tf_preload_guard(char **envp);
#pragma GCC visibility pop

#endif
