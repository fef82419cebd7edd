/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The securebits belong to the calling thread; fork() and execve() pass
 * them on.  A session must never start with fewer bits than asked for, nor
 * when the kernel cannot say which it holds (a -1 would read as every bit
 * set).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "internal.h"
#include "session.h"

/* The library's probe, not the kernel's version, says so. */
bool tf_session_no_securebits(void)
{
	struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;

	trusted_for_get_config(&p);
	return !p.securebits_known;
}

int tf_session_set_bits(unsigned int bits, unsigned int *now, char *why, size_t size)
{
	int old = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0), got;
	unsigned int want = (unsigned int)old | bits;

	/*
	 * Without CAP_SETPCAP the kernel refuses a "change" that changes
	 * nothing (EPERM): a session inside one that holds these bits (run in
	 * a PAM login) has nothing to set.  The read-back below still decides.
	 */
	if (old < 0 || ((unsigned int)old != want && prctl(PR_SET_SECUREBITS, want, 0, 0, 0) < 0)) {
		int err = errno;
		const char *hint = "";

		if (tf_session_no_securebits())
			hint = " (this kernel has no exec securebits: Linux 6.14 or later needed)";
		snprintf(why, size, "cannot set the securebits: %s%s", tf_strerror(err), hint);
		return -1;
	}
	got = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (got < 0) {
		snprintf(why, size, "cannot read the securebits back: %s", tf_strerror(errno));
		return -1;
	}
	if (((unsigned int)got & want) != want) {
		snprintf(why, size, "the kernel did not keep the securebits");
		return -1;
	}
	*now = (unsigned int)got;
	return 0;
}
