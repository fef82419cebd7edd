/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The confined session (session.h): a seccomp filter, inherited by every descendant and
 * impossible to remove, that takes away the two ways an unprivileged user
 * walks around the exec securebits and the library's answers
 * (docs/semantics.md section 7): a new user namespace, where the kernel
 * resets the securebits (locks included) and the user may mount over the
 * policy file; and ptrace, which rewrites any answer in a traced
 * interpreter.
 *
 * Built with libseccomp so that the rules hold on every system call ABI the
 * machine can run (x86_64, i386, x32 on an x86_64 kernel); any other ABI is
 * killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>

#include "session.h"

#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER 1
#endif

/* The other ABIs a kernel of this architecture runs. */
static const uint32_t extra_arches[] = {
#if defined(__x86_64__)
	SCMP_ARCH_X86,
	SCMP_ARCH_X32,
#elif defined(__aarch64__)
	SCMP_ARCH_ARM,
#endif
	0,
};

/* Each rule refuses one system call, when its argument matches. */
struct rule {
	const char *name;
	int error;
	unsigned int arg;     /* which argument, when masked */
	uint64_t mask, value; /* refuse when (arg & mask) == value; mask 0: always */
};

static const struct rule rules[] = {
	/* A new user namespace resets the securebits and gives the mounts. */
	{ "unshare", EPERM, 0, CLONE_NEWUSER, CLONE_NEWUSER },
	{ "clone", EPERM, 0, CLONE_NEWUSER, CLONE_NEWUSER },
	/*
	 * Joining one does the same (the kernel resets the securebits in
	 * setns() too).  nstype 0 accepts a descriptor of any namespace type,
	 * a user namespace included, and a filter cannot see the descriptor:
	 * refuse it as well.  nsenter(1) names the type it joins.
	 */
	{ "setns", EPERM, 1, CLONE_NEWUSER, CLONE_NEWUSER },
	{ "setns", EPERM, 1, 0xffffffff, 0 }, /* an int: upper bits ignored */
	/*
	 * clone3() passes its flags in memory a filter cannot read: answer
	 * that the call does not exist, and libc falls back to clone().
	 */
	{ "clone3", ENOSYS, 0, 0, 0 },
	/* Every request, PTRACE_TRACEME included: a tracer forges answers. */
	{ "ptrace", EPERM, 0, 0, 0 },
	/* Writes another process's memory under the same rules as ptrace. */
	{ "process_vm_writev", EPERM, 0, 0, 0 },
	/*
	 * A filter of the user's answers system calls in the kernel's place:
	 * a plain one makes PR_GET_SECUREBITS say 0 and the policy file's
	 * open() say ENOENT, a user-notification supervisor answers anything.
	 * No new filter in the session, by either call (strict mode through
	 * seccomp(), which allows only read, write and exit, stays).
	 */
	{ "seccomp", EPERM, 0, 0xffffffff, SECCOMP_SET_MODE_FILTER },
	{ "prctl", EPERM, 0, 0xffffffff, PR_SET_SECCOMP },
};

static int add_rule(scmp_filter_ctx ctx, const struct rule *r)
{
	int nr = seccomp_syscall_resolve_name(r->name);

	if (nr == __NR_SCMP_ERROR)
		return -EOPNOTSUPP;
	if (!r->mask)
		return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(r->error), nr, 0);
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(r->error), nr, 1,
				SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask,
					 r->value));
}

static int build(scmp_filter_ctx ctx)
{
	int r;

	/* Kernel errors as they are, not libseccomp's ECANCELED. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_API_SYSRAWRC, 1);
	/* Every thread, or none: a thread left out would be a way out. */
	if (!r)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	/* An ABI the filter does not know is not a way around it. */
	if (!r)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
				     SCMP_ACT_KILL_PROCESS);
	/* no_new_privs only where the kernel demands it (see below). */
	if (!r)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	for (const uint32_t *a = extra_arches; !r && *a; a++) {
		r = seccomp_arch_add(ctx, *a);
		if (r == -EEXIST)
			r = 0;
	}
	for (size_t i = 0; !r && i < sizeof(rules) / sizeof(rules[0]); i++)
		r = add_rule(ctx, &rules[i]);
	return r;
}

int tf_session_confine(void)
{
	scmp_filter_ctx ctx;
	int r;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		errno = ENOMEM;
		return -1;
	}
	r = build(ctx);
	if (!r)
		r = seccomp_load(ctx);
	/*
	 * Without CAP_SYS_ADMIN the kernel accepts a filter only under
	 * no_new_privs.  A privileged session starter (a PAM module, root)
	 * keeps setuid programs working; anyone else gets no_new_privs.
	 */
	if (r == -EACCES) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			r = -errno;
		else
			r = seccomp_load(ctx);
	}
	seccomp_release(ctx);
	/*
	 * /proc/PID/mem is opened, not traced: the filter cannot see it, and
	 * CAP_SYS_PTRACE passes over a non-dumpable launcher.  Whoever may
	 * (CAP_SETPCAP: root, a privileged session starter) takes it out of
	 * the bounding set, so that no program the session executes, root or
	 * setuid, has it again.
	 */
	if (r == 0 && prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0) < 0 &&
	    errno != EPERM)
		r = -errno;
	if (r != 0) {
		/* A thread that could not take the filter is not an errno. */
		errno = r < 0 && r > -4096 ? -r : EAGAIN;
		return -1;
	}
	return 0;
}
