/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The machine's ways around enforcement (SECURITY.md): user namespaces, an
 * overflow uid of 0, an unrestricted ptrace, launchers dumpable from their
 * execve(), executable memfds (the places users write: places.c); whether this process's session is confined
 * against the first two; and which of them the enforcement in force
 * depends on.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "escapes.h"
#include "session.h"

/* A sysctl's integer value, or -1 when the kernel has no such knob. */
static long sysctl(const char *path)
{
	char buf[32];
	long value = -1;
	FILE *f = fopen(path, "re");

	if (f && fgets(buf, sizeof(buf), f))
		sscanf(buf, "%ld", &value);
	if (f)
		fclose(f);
	return value;
}

void print_session(FILE *out)
{
	switch (tf_session_state()) {
	case TF_SESSION_CONFINED:
		fprintf(out, "session: confined: no user namespaces, no ptrace, no new seccomp "
			     "filters (seccomp filter)\n");
		break;
	case TF_SESSION_UNPROVEN:
		fprintf(out, "session: not proven confined: a seccomp filter refuses user namespaces, "
			     "ptrace and new filters, but it was installed without privileges "
			     "(no_new_privs), as a filter of the user's own would be\n");
		break;
	default:
		fprintf(out, "session: not confined\n");
	}
}

const char *escape_depends(const struct trusted_for_config *p, int confined_here)
{
	if (!p->enforce)
		return "nothing is enforced here";
	if (confined_here)
		return "this session is confined against it";
	return "the enforcement here depends on it";
}

int print_escapes(FILE *out, const char *prefix, const struct trusted_for_config *p)
{
	long clone = sysctl("/proc/sys/kernel/unprivileged_userns_clone");
	long max = sysctl("/proc/sys/user/max_user_namespaces");
	long apparmor = sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	long yama = sysctl("/proc/sys/kernel/yama/ptrace_scope");
	long memfd = sysctl("/proc/sys/vm/memfd_noexec");
	long overflow = sysctl("/proc/sys/kernel/overflowuid");
	long dumpable = sysctl("/proc/sys/fs/suid_dumpable");
	int in_session = tf_session_confined(), n = 0;
	int userns = clone != 0 && max != 0 && apparmor != 1;
	char yama_text[64];

	if (userns) {
		fprintf(out, "%swarning: unprivileged user namespaces are allowed "
			     "(user.max_user_namespaces = %ld, kernel.unprivileged_userns_clone %s): "
			     "in one the kernel clears the securebits and a user can mount over "
			     "the policy file; %s\n",
			prefix, max, clone < 0 ? "absent" : "= 1",
			escape_depends(p, in_session));
		n++;
	}
	/*
	 * The library tells root of the initial namespace by the owner procfs
	 * shows for its "self" link; where root is not mapped, that shows as
	 * this uid.
	 */
	if (overflow == 0) {
		fprintf(out, "%swarning: kernel.overflowuid = 0: in a user namespace of their own, "
			     "root's files and a user's own both show as uid 0, so a policy file "
			     "the user mounts there counts as root's; %s\n",
			prefix, escape_depends(p, in_session));
		n++;
	}
	if (yama < 2) {
		if (yama < 0)
			snprintf(yama_text, sizeof(yama_text), "no Yama");
		else
			snprintf(yama_text, sizeof(yama_text),
				 "kernel.yama.ptrace_scope = %ld", yama);
		/* The filter stops tracers inside the session, not outside. */
		fprintf(out, "%swarning: ptrace is not restricted (%s): a tracer "
			     "started by a user rewrites an interpreter's answers; %s%s\n",
			prefix, yama_text, escape_depends(p, 0),
			p->enforce && in_session ? " (a tracer outside this session)" : "");
		n++;
	}
	/*
	 * At the execve() of a file its caller cannot read (the launchers'
	 * mode 0711) the kernel sets the dumpable flag to fs.suid_dumpable:
	 * 0 and 2 close the launcher's memory to its user before the loader
	 * runs, 1 leaves it open while a FIFO in LD_PRELOAD stalls the
	 * loader.  The session's filter does not see an open() of
	 * /proc/PID/mem; Yama does: 3 refuses it, and 2 unless the launcher
	 * runs in a user namespace of the user's own.  A value that cannot be
	 * read counts as 1.
	 */
	if (dumpable != 0 && dumpable != 2) {
		char dumpable_text[64], why[64];

		if (dumpable < 0)
			snprintf(dumpable_text, sizeof(dumpable_text),
				 "fs.suid_dumpable unreadable, taken as 1");
		else
			snprintf(dumpable_text, sizeof(dumpable_text),
				 "fs.suid_dumpable = %ld", dumpable);
		/* A confined session makes no user namespace. */
		if (p->enforce && (yama >= 3 || (yama == 2 && (!userns || in_session))))
			snprintf(why, sizeof(why), "kernel.yama.ptrace_scope = %ld closes it", yama);
		else
			snprintf(why, sizeof(why), "%s", escape_depends(p, 0));
		fprintf(out, "%swarning: the launchers' memory is open to their user (%s): "
			     "mode 0711 leaves them dumpable from their start, so a user who "
			     "stalls their loader writes over their checks; %s\n",
			prefix, dumpable_text, why);
		n++;
	}
	if (memfd < 2) {
		char memfd_text[64];
		const char *why;

		if (memfd < 0)
			snprintf(memfd_text, sizeof(memfd_text), "no vm.memfd_noexec");
		else
			snprintf(memfd_text, sizeof(memfd_text), "vm.memfd_noexec = %ld", memfd);
		if (!p->enforce)
			why = "nothing is enforced here";
		else if (p->check_policy)
			why = "the enforcement here depends on it (every policy judges a memfd by its mode)";
		else
			why = "the enforcement here does not depend on it (policy 0 checks nothing)";
		fprintf(out, "%swarning: a user can make an executable memfd (%s), which passes the execute-permission check; %s\n",
			prefix, memfd_text, why);
		n++;
	}
	return n;
}
