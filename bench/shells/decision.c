/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a trusted shell pays per sourced file, in one process: the library's
 * decision on a descriptor (trusted_for_allow_file(), which a shell calls
 * for every file it runs) against each system call that decision makes
 * under check policy 1, and a system call that does nothing (the floor).
 * Rounds of batches, every row in turn within a round; medians.  Run by
 * run.sh with its policy file in place: bench/shells/decision FILE.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <trustedfor.h>

#include "timing.h"

static int fd;
static volatile long sink;

static void allow_file(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	sink = trusted_for_allow_file(fd, "lib1.sh", &v);
}

static void answer(void) { sink = trusted_for(fd, TRUSTED_FOR_EXECUTION, 0); }
static void securebits(void) { sink = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0); }
static void getfl(void) { sink = fcntl(fd, F_GETFL); }
static void null_call(void) { sink = getppid(); }

/* The same four calls in a row, without the library around them. */
static void four_calls(void)
{
	struct stat st;
	struct statfs sfs;

	sink = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) + fcntl(fd, F_GETFL) +
	       fstat(fd, &st) + fstatfs(fd, &sfs);
}

static void do_fstat(void)
{
	struct stat st;

	sink = fstat(fd, &st);
}

static void do_fstatfs(void)
{
	struct statfs sfs;

	sink = fstatfs(fd, &sfs);
}

static const struct row {
	const char *name;
	void (*op)(void);
} rows[] = {
	{ "trusted_for_allow_file(): the decision a shell makes per file", allow_file },
	{ "trusted_for(): the answer alone (no securebits, no verdict)", answer },
	{ "the four calls below in a row", four_calls },
	{ "prctl(PR_GET_SECUREBITS)", securebits },
	{ "fcntl(F_GETFL)", getfl },
	{ "fstat()", do_fstat },
	{ "fstatfs()", do_fstatfs },
	{ "getppid(): a system call that does nothing", null_call },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))
#define ROUNDS 101
#define BATCH 2000

int main(int argc, char **argv)
{
	static double t[NROWS][ROUNDS];
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "usage: %s FILE (a file the policy trusts)\n", argv[0]);
		return 2;
	}
	if (trusted_for_allow_file(fd, argv[1], &v) < 0 || !v.trusted) {
		fprintf(stderr, "%s: %s\n", argv[0], v.message);
		return 1;
	}
	for (int r = -5; r < ROUNDS; r++) {
		for (size_t i = 0; i < NROWS; i++) {
			double t0 = now_ns();

			for (int n = 0; n < BATCH; n++)
				rows[i].op();
			if (r >= 0)
				t[i][r] = (now_ns() - t0) / BATCH;
		}
	}
	printf("%s: check policy %u, backend %s; ns per call, median of %d batches of %d\n\n",
	       argv[1], v.check_policy, trusted_for_backend_string(v.backend), ROUNDS, BATCH);
	printf("| call | ns |\n|---|---:|\n");
	for (size_t i = 0; i < NROWS; i++) {
		printf("| %s | %.0f |\n", rows[i].name, median(t[i], ROUNDS));
	}
	return 0;
}
