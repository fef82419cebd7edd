/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef TRUSTEDFOR_PRELOAD_GUARD_H
#define TRUSTEDFOR_PRELOAD_GUARD_H

#include "early.h"

/*
 * preload_guard.c: while enforcement may be in force, refuses (126, one
 * line) every object outside root's library directories but the program,
 * the vDSO, the loader and the executable's RUNPATH.  Called first by the
 * resolver of initfirst_guard.c, with no environment, and by the preinit
 * array (loader_guard.c) with the one it is handed.
 */
#pragma GCC visibility push(hidden)
EARLY void tf_preload_guard(char **envp);
#pragma GCC visibility pop

#endif
