/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The enforced session, for the two programs that start one: trusted-for
 * run and the PAM module.  It sits above the library (it reads the
 * configuration and procfs through it) and is not part of libtrustedfor.so:
 * an interpreter never starts a session, and only this unit needs
 * libseccomp (docs/design.md, "The session unit").
 *
 *   securebits.c  set the exec securebits, and read them back
 *   confine.c     the seccomp filter that keeps a session in its bits
 *   state.c       is this process in such a session, proven
 *
 * The bits' numbers are lib/missing.h's SECBIT_EXEC_*.
 */
#ifndef TRUSTEDFOR_SESSION_H
#define TRUSTEDFOR_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "missing.h"

/*
 * securebits.c: sets bits (SECBIT_EXEC_* and their locks) on top of this
 * thread's securebits, which keeps a locked bit locked, and reads them
 * back.  0 when the kernel holds every bit asked for, *now the securebits;
 * else -1 and why holds one line: "cannot set the securebits: ERROR" (and
 * whether the kernel has none, by the library's probe), "cannot read the
 * securebits back: ERROR" or "the kernel did not keep the securebits".
 */
int tf_session_set_bits(unsigned int bits, unsigned int *now, char *why, size_t size);
/*
 * securebits.c: true when the library's probe finds no exec securebits in
 * this kernel: execveat() refuses AT_EXECVE_CHECK, which came with them,
 * and uname() says Linux before 6.14.
 */
bool tf_session_no_securebits(void);

/*
 * confine.c: confines this process and every process it starts, for good.
 * A seccomp filter refuses creating or joining user namespaces (EPERM;
 * clone3() answers ENOSYS so that libc falls back to clone()), every
 * ptrace() request, process_vm_writev() and every new seccomp filter
 * (EPERM); a caller with CAP_SETPCAP also drops CAP_SYS_PTRACE from the
 * bounding set.  Sets no_new_privs when the caller lacks CAP_SYS_ADMIN, as
 * the kernel requires.  0, or -1 with errno: the session is not (fully)
 * confined and must not be started.
 */
int tf_session_confine(void);

/* state.c: is this process in a session confined by tf_session_confine()? */
enum tf_session {
	TF_SESSION_OPEN,      /* no filter refuses what the confinement refuses */
	TF_SESSION_UNPROVEN,  /* one does, but it could be the user's own */
	TF_SESSION_CONFINED,  /* one does, and every filter in place is root's */
};

enum tf_session tf_session_state(void);
/* tf_session_state() == TF_SESSION_CONFINED */
bool tf_session_confined(void);
/* This process's /proc/self/status, proven its own: its length, or -1. */
ssize_t tf_own_status(char *buf, size_t size);
/* The seccomp filters in place (Seccomp_filters:), or -1 when unknown. */
int tf_seccomp_filters(void);

#endif
