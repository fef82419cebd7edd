/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Is this process in a session confined by trusted_for_confine_session()? */
#ifndef TRUSTEDFOR_SESSION_H
#define TRUSTEDFOR_SESSION_H

#include <stdbool.h>

enum tf_session {
	TF_SESSION_OPEN,      /* no filter refuses what the confinement refuses */
	TF_SESSION_UNPROVEN,  /* one does, but it could be the user's own */
	TF_SESSION_CONFINED,  /* one does, and every filter in place is root's */
};

enum tf_session tf_session_state(void);
/* tf_session_state() == TF_SESSION_CONFINED */
bool tf_session_confined(void);

#endif
