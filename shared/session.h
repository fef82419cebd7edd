/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Is this process in a session confined by trusted_for_confine_session()? */
#ifndef TRUSTEDFOR_SESSION_H
#define TRUSTEDFOR_SESSION_H

#include <stdbool.h>

bool tf_session_confined(void);

#endif
