// SPDX-License-Identifier: GPL-2.0
/*
 * The in-guest benchmark (kernel/check.sh --bench): the cost of one
 * trusted_for() call against what userspace does without it, fstatvfs() +
 * faccessat2(AT_EMPTY_PATH) on the same descriptor, and against an
 * open() + close() of the same file.  The guest runs under QEMU's software
 * emulation, so only the ratios mean anything; each figure is the best of
 * several rounds to keep the noise of the host out.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/trusted-for.h>

#include "guest.h"

#ifndef TFK_NO_LIBRARY
#include "trustedfor.h"
#endif

#define ROUNDS 5
#define CALLS 20000

static int fd_allowed, fd_denied;

static void op_getppid(void)
{
	syscall(SYS_getppid);
}

static void op_trusted_for(void)
{
	syscall(__NR_trusted_for, fd_allowed, TRUSTED_FOR_EXECUTION, 0);
}

static void op_trusted_for_denied(void)
{
	syscall(__NR_trusted_for, fd_denied, TRUSTED_FOR_EXECUTION, 0);
}

static void op_statvfs_access(void)
{
	struct statvfs sv;

	fstatvfs(fd_allowed, &sv);
	syscall(SYS_faccessat2, fd_allowed, "", X_OK,
		AT_EMPTY_PATH | AT_EACCESS);
}

static void op_execve_ok(void)
{
	syscall(SYS_faccessat2, fd_allowed, "", EXECVE_OK, AT_EMPTY_PATH);
}

static void op_open_close(void)
{
	close(open(EXEC_DIR "/x", O_RDONLY | O_CLOEXEC));
}

#ifndef TFK_NO_LIBRARY
static void op_library(void)
{
	trusted_for(fd_allowed, TRUSTED_FOR_EXECUTION, 0);
}
#endif

static double ns_per_call(void (*op)(void))
{
	double best = 0;
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		struct timespec a, b;
		double ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (i = 0; i < CALLS; i++)
			op();
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) /
		     CALLS;
		if (r == 0 || ns < best)
			best = ns;
	}
	return best;
}

void run_bench(void)
{
	static const struct {
		const char *name;
		void (*op)(void);
	} ops[] = {
		{ "getppid() (an empty system call)", op_getppid },
		{ "trusted_for() on an allowed file", op_trusted_for },
		{ "trusted_for() on a denied file (noexec)", op_trusted_for_denied },
		{ "fstatvfs() + faccessat2(X_OK)", op_statvfs_access },
		{ "faccessat2(EXECVE_OK)", op_execve_ok },
		{ "open() + close()", op_open_close },
#ifndef TFK_NO_LIBRARY
		{ "libtrustedfor trusted_for()", op_library },
#endif
	};
	double base = 0, ns;
	unsigned int i;

	set_policy(3);
	fd_allowed = open(EXEC_DIR "/x", O_RDONLY | O_CLOEXEC);
	fd_denied = open(NOEXEC_DIR "/x", O_RDONLY | O_CLOEXEC);
	printf("tfk-bench: policy 3, best of %d rounds of %d calls, "
	       "ratios against trusted_for() on an allowed file\n",
	       ROUNDS, CALLS);
	base = ns_per_call(op_trusted_for);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		ns = ns_per_call(ops[i].op);
		printf("tfk-bench: %-42s %6.2f x  (%.0f ns in the emulated guest)\n",
		       ops[i].name, ns / base, ns);
	}
}
