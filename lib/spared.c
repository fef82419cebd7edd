/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whom a bad policy file does not bind (docs/semantics.md section 3): root,
 * who can rewrite the file, and the administrators' group (the build's
 * admin_gid: 27, Debian's sudo), whose members become root to mend it.
 * Holding them to a broken file stops no attacker of section 7, who is
 * neither, and locks out the people who can mend it: where root cannot log
 * in, an administrator's ssh session runs "bash -c" before sudo does.
 *
 * Asked of the process's credentials at every decision, and only while the
 * file is bad: a process that drops them is held to the file again.  The
 * ids come in buffers the kernel fills, poisoned first: a seccomp filter of
 * the user's own can make a system call return any number (a supervisor
 * answers getgid() with 27) but cannot write the caller's memory.  And only
 * where uid 0 is root of the initial user namespace (userns.c): a user's
 * own namespace maps their gid to any number they like, but it cannot map
 * root, and a namespace that maps root was made by root.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int in_admin_group(void)
{
	gid_t real = (gid_t)-1, effective = (gid_t)-1, saved = (gid_t)-1;
	gid_t few[64], *list = few;
	int n, got, found = 0;

	if (TF_ADMIN_GID < 0 || getresgid(&real, &effective, &saved) < 0)
		return 0;
	if (real == (gid_t)TF_ADMIN_GID || effective == (gid_t)TF_ADMIN_GID)
		return 1;
	n = getgroups(0, NULL);
	/* The kernel's NGROUPS_MAX; a larger count is a forged one. */
	if (n <= 0 || n > 65536)
		return 0;
	if (n > (int)(sizeof(few) / sizeof(few[0])) && !(list = malloc(sizeof(*list) * (size_t)n)))
		return 0;
	memset(list, 0xff, sizeof(*list) * (size_t)n);
	got = getgroups(n, list);
	for (int i = 0; i < got && i < n && !found; i++)
		found = list[i] == (gid_t)TF_ADMIN_GID;
	if (list != few)
		free(list);
	return found;
}

__attribute__((noinline, cold)) int tf_spared_by_bad_file(void)
{
	uid_t real = (uid_t)-1, effective = (uid_t)-1, saved = (uid_t)-1;
	char why[TRUSTED_FOR_MESSAGE_MAX];

	if (getresuid(&real, &effective, &saved) < 0)
		return 0;
	if (!(real == 0 && effective == 0) && !in_admin_group())
		return 0;
	return tf_root_is_initial(why, sizeof(why)) == 1;
}
