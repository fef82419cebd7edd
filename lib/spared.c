/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whom a bad policy file does not bind (docs/semantics.md section 3): root,
 * who can rewrite the file, and the administrators' group (the build's
 * admin_gid: 27, Debian's sudo), whose members become root to mend it.
 * Holding them to a broken file stops no attacker of section 7, who is
 * neither, and locks out the people who can mend it: where root cannot log
 * in, an administrator's ssh session runs "bash -c" before sudo does.
 *
 * Asked of the thread's credentials at every decision, and only while the
 * file is bad: a process that drops them is held to the file again.  The
 * ids are the kernel's words in procfs (creds.c): a seccomp filter can make
 * getresgid() return any number and a preloaded libfakeroot answers it from
 * the environment.  And only where uid 0 is root of the initial user
 * namespace (userns.c): a user's own namespace maps their gid to any number
 * they like, but it cannot map root, and a namespace that maps root was
 * made by root.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "internal.h"

void tf_spared_who(char *out, size_t size, const char *group_name)
{
	if (TF_ADMIN_GID < 0)
		snprintf(out, size, "root");
	else if (group_name)
		snprintf(out, size, "root and group %ld (%s)", (long)TF_ADMIN_GID, group_name);
	else
		snprintf(out, size, "root and group %ld", (long)TF_ADMIN_GID);
}

long tf_admin_gid(void)
{
	return TF_ADMIN_GID;
}

static int in_admin_group(const struct tf_creds *c)
{
	if (TF_ADMIN_GID < 0)
		return 0;
	if (c->rgid == (gid_t)TF_ADMIN_GID || c->egid == (gid_t)TF_ADMIN_GID)
		return 1;
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i] == (gid_t)TF_ADMIN_GID)
			return 1;
	return 0;
}

__attribute__((noinline, cold)) int tf_spared_by_bad_file(void)
{
	char why[TRUSTED_FOR_MESSAGE_MAX];
	struct tf_creds c;
	int spared;

	if (tf_creds_read(&c) < 0)
		return 0;
	spared = (c.ruid == 0 && c.euid == 0) || in_admin_group(&c);
	tf_creds_free(&c);
	return spared && tf_root_is_initial(why, sizeof(why)) == 1;
}
