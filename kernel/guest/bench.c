// SPDX-License-Identifier: GPL-2.0
/*
 * The in-guest benchmark (kernel/check.sh --bench): the cost of one
 * trusted_for() call against what userspace does without it, fstatvfs() +
 * faccessat2(AT_EMPTY_PATH) on the same descriptor, and against an
 * open() + close() of the same file.  The guest runs under QEMU's software
 * emulation, so only the ratios mean anything.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/trusted-for.h>

#include "guest.h"

#include "trustedfor.h"

#define ROUNDS	21
#define CALLS	4000
#define MAX_OPS 8

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

static void op_library(void)
{
	trusted_for(fd_allowed, TRUSTED_FOR_EXECUTION, 0);
}

static double ns_per_batch(void (*op)(void))
{
	struct timespec a, b;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < CALLS; i++)
		op();
	clock_gettime(CLOCK_MONOTONIC, &b);
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / CALLS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * Every round runs one batch of each operation, in an order that
 * alternates from round to round, so that drift in the emulator and load on
 * the host hit all of them alike.  Each figure is the median over the
 * rounds; the ratio is the median of the per-round ratios to trusted_for().
 */
void run_bench(void)
{
	static const struct {
		const char *name;
		void (*op)(void);
	} ops[] = {
		{"trusted_for() on an allowed file", op_trusted_for},
		{"trusted_for() on a denied file (noexec)",
		 op_trusted_for_denied},
		{"getppid() (an empty system call)", op_getppid},
		{"fstatvfs() + faccessat2(X_OK)", op_statvfs_access},
		{"faccessat2(EXECVE_OK)", op_execve_ok},
		{"open() + close()", op_open_close},
		{"libtrustedfor trusted_for()", op_library},
	};
	enum { N = sizeof(ops) / sizeof(ops[0]) };
	static double ns[MAX_OPS][ROUNDS], ratio[MAX_OPS][ROUNDS];
	int r, i, k;

	_Static_assert(N <= MAX_OPS, "MAX_OPS");
	set_policy(3);
	fd_allowed = open(EXEC_DIR "/x", O_RDONLY | O_CLOEXEC);
	fd_denied = open(NOEXEC_DIR "/x", O_RDONLY | O_CLOEXEC);
	for (i = 0; i < N; i++) /* warm up */
		ns_per_batch(ops[i].op);
	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < N; k++) {
			i = r % 2 ? N - 1 - k : k;
			ns[i][r] = ns_per_batch(ops[i].op);
		}
		for (i = 0; i < N; i++)
			ratio[i][r] = ns[i][r] / ns[0][r];
	}
	printf("tfk-bench: policy 3, %d rounds of %d calls per operation, "
	       "medians; ratio to trusted_for() on an allowed file\n",
	       ROUNDS, CALLS);
	for (i = 0; i < N; i++)
		printf("tfk-bench: %-42s %6.2f x  (%.0f ns in the emulated "
		       "guest)\n",
		       ops[i].name, median(ratio[i], ROUNDS),
		       median(ns[i], ROUNDS));
}
