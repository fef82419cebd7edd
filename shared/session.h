/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Is this process in a session confined by trusted_for_confine_session()? */
#ifndef TRUSTEDFOR_SESSION_H
#define TRUSTEDFOR_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

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
