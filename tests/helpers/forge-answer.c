/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * forge-answer RULE[,RULE...] COMMAND [ARG...]: runs COMMAND under a
 * seccomp filter that answers system calls in the kernel's place, as an
 * attacker's filter would (docs/semantics.md section 7).  The filter is
 * installed with NO_NEW_PRIVS, so any user can do it, and every descendant
 * inherits it.
 *
 *   check=N      execveat() with AT_EXECVE_CHECK returns N (0 or an errno name)
 *   check-fd=N   the same, only for a descriptor >= 0 (the library's probe,
 *                on descriptor -1, still reaches the kernel)
 *   fstatfs=N    fstatfs() returns N without filling its buffer
 *   statx=N      statx() returns N without filling its buffer
 *   faccessat2=N faccessat2() returns N (0: "you may execute it")
 *   unenforce=N  PR_GET_SECUREBITS returns N (0: no bits) and the policy
 *                file's open() (its exact flags) says ENOENT: enforcement
 *                reads as off, in the initial user namespace (until the
 *                library lists the file's directory to confirm the ENOENT)
 *   unlist=N     the same, and getdents64() returns N (0: a listing with
 *                nothing in it, not even ".")
 *   faccessat=N  faccessat() (the old call, not faccessat2) with mode F_OK
 *                returns N (ENOENT: "there is no policy file", as the
 *                preload guard asks it)
 *   setsecurebits=N  PR_SET_SECUREBITS returns N (0: the bits stay as
 *                they were), so that a session cannot be enforced
 *   dumpable=N   PR_SET_DUMPABLE returns N (0: the process stays
 *                dumpable, its memory open to its user's other processes)
 *   confined=N   the three probes of session/state.c, with their exact
 *                arguments and nothing else, return N (EPERM: the answers
 *                of the confinement, from a filter that confines nothing)
 *   loadfilter=N seccomp(SECCOMP_SET_MODE_FILTER) and prctl(PR_SET_SECCOMP)
 *                return N (0: a filter "loaded" that is not there)
 *   seccomp=N    seccomp() returns N (ENOSYS: a kernel without the call,
 *                which cannot load a filter on every thread at once), so
 *                that a session cannot be confined
 *   openat2=N    openat2() (procfs.c's opens below /proc) returns N: with
 *                standard input closed at the start, a forged 0 names the
 *                first file the process opened itself
 *   capget=N     capget() returns N without filling its buffer
 *   getresuid=N  getresuid() returns N without filling its outputs (0:
 *                "root", to a reader that trusts the return value alone)
 *   creds=N      geteuid(), getegid() and getgroups() return N (0: root's
 *                group, and no supplementary group)
 *   fgetxattr=N  fgetxattr() returns N (ENODATA: the file has no ACL)
 *   fstatat=N    fstatat() of a name in a directory opened before (a
 *                descriptor below 1024, flags 0: trusted-python's look at
 *                the runner modules' files) returns N without filling its
 *                buffer; stat() of a path and fstat() still reach the kernel
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include "missing.h"

/* How lib/policy_file.c opens the policy file, and only it. */
#define POLICY_FILE_FLAGS (O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK)


static int answer(const char *s)
{
	if (!strcmp(s, "0"))
		return 0;
	if (!strcmp(s, "EINVAL"))
		return EINVAL;
	if (!strcmp(s, "ENOSYS"))
		return ENOSYS;
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "ENODATA"))
		return ENODATA;
	if (!strcmp(s, "ENOENT"))
		return ENOENT;
	fprintf(stderr, "forge-answer: unknown answer '%s'\n", s);
	exit(2);
}

/* Adds the filter's rules for one RULE; -EINVAL for an unknown one. */
static int add_rule(scmp_filter_ctx ctx, const char *rule)
{
	const char *eq = strchr(rule, '=');
	int rc, n;

	if (!eq) {
		fprintf(stderr, "forge-answer: '%s' is not NAME=ANSWER\n", rule);
		exit(2);
	}
	n = answer(eq + 1);
	if (!strncmp(rule, "check=", 6))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(execveat), 1,
				      SCMP_A4(SCMP_CMP_MASKED_EQ, AT_EXECVE_CHECK, AT_EXECVE_CHECK));
	else if (!strncmp(rule, "check-fd=", 9))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(execveat), 2,
				      SCMP_A0(SCMP_CMP_LE, 0x7fffffff),
				      SCMP_A4(SCMP_CMP_MASKED_EQ, AT_EXECVE_CHECK, AT_EXECVE_CHECK));
	else if (!strncmp(rule, "fstatfs=", 8))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(fstatfs), 0);
	else if (!strncmp(rule, "statx=", 6))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(statx), 0);
	else if (!strncmp(rule, "faccessat2=", 11))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(faccessat2), 0);
	else if (!strncmp(rule, "unenforce=", 10) || !strncmp(rule, "unlist=", 7)) {
		int unlist = rule[2] == 'l';

		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(unlist ? 0 : n), SCMP_SYS(prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, PR_GET_SECUREBITS));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOENT), SCMP_SYS(openat), 1,
					      SCMP_A2(SCMP_CMP_EQ, POLICY_FILE_FLAGS));
		if (rc == 0 && unlist)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(getdents64), 0);
	} else if (!strncmp(rule, "faccessat=", 10))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(faccessat), 1,
				      SCMP_A2(SCMP_CMP_EQ, F_OK));
	else if (!strncmp(rule, "setsecurebits=", 14))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, PR_SET_SECUREBITS));
	else if (!strncmp(rule, "dumpable=", 9))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE));
	else if (!strncmp(rule, "confined=", 9)) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(setns), 2,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffff, 0xffffffff),
				      SCMP_A1(SCMP_CMP_EQ, CLONE_NEWUSER));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(ptrace), 2,
					      SCMP_A0(SCMP_CMP_EQ, PTRACE_PEEKDATA), SCMP_A1(SCMP_CMP_EQ, 0));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(seccomp), 3,
					      SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER),
					      SCMP_A1(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
	} else if (!strncmp(rule, "loadfilter=", 11)) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(seccomp), 1,
				      SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(prctl), 1,
					      SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP));
	} else if (!strncmp(rule, "seccomp=", 8))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(seccomp), 0);
	else if (!strncmp(rule, "openat2=", 8))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(openat2), 0);
	else if (!strncmp(rule, "capget=", 7))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(capget), 0);
	else if (!strncmp(rule, "getresuid=", 10))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(getresuid), 0);
	else if (!strncmp(rule, "creds=", 6)) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(geteuid), 0);
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(getegid), 0);
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(getgroups), 0);
	} else if (!strncmp(rule, "fgetxattr=", 10))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(fgetxattr), 0);
	else if (!strncmp(rule, "fstatat=", 8))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(n), SCMP_SYS(newfstatat), 2,
				      SCMP_A0(SCMP_CMP_LT, 1024), SCMP_A3(SCMP_CMP_EQ, 0));
	else
		rc = -EINVAL;
	return rc;
}

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	char *rules, *rule, *save = NULL;
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: forge-answer RULE[,RULE...] COMMAND [ARG...]\n");
		return 2;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	rules = strdup(argv[1]);
	if (!ctx || !rules)
		return 1;
	for (rule = strtok_r(rules, ",", &save); rule && rc == 0; rule = strtok_r(NULL, ",", &save))
		rc = add_rule(ctx, rule);
	if (rc < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    seccomp_load(ctx) < 0) {
		fprintf(stderr, "forge-answer: cannot install the filter for %s\n", argv[1]);
		return 1;
	}
	seccomp_release(ctx);
	free(rules);
	execvp(argv[2], argv + 2);
	perror("forge-answer: exec");
	return 127;
}
