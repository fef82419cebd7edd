/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Start-up, without a shell around it: each command started by
 * posix_spawn() and reaped by wait4(), every command once per round, in
 * turn, so that drift in the machine hits them alike.  Each round starts
 * one command later than the one before: with a fixed order, the same two
 * commands differed by up to 1.8 points more in one order than in its
 * reverse (bench/shells.md), and turning the order gives every command
 * every place alike.  Prints a line per command, in the order given: the
 * medians of the wall time from spawn to reaped and of the CPU time the
 * child used (user + system), in microseconds, and the mean of its minor
 * page faults (a median of whole faults hides a fault taken in a third of
 * the starts).  A command that fails stops the run: its time would
 * measure something else.
 *
 *   bench/shells-startup ROUNDS -- CMD [ARG...] [-- CMD [ARG...]]...
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double us(struct timeval t)
{
	return (double)t.tv_sec * 1e6 + (double)t.tv_usec;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 0, cmds = 0;
	char **cmd[64];
	double *wall, *cpu, *faults;

	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			argv[i] = NULL;
			if (i + 1 < argc && cmds < 64)
				cmd[cmds++] = argv + i + 1;
		}
	if (rounds < 1 || cmds < 1) {
		fprintf(stderr, "usage: %s ROUNDS -- CMD [ARG...] [-- CMD [ARG...]]...\n",
			argv[0]);
		return 2;
	}
	wall = calloc((size_t)(rounds * cmds), sizeof(double));
	cpu = calloc((size_t)(rounds * cmds), sizeof(double));
	faults = calloc((size_t)(rounds * cmds), sizeof(double));
	if (!wall || !cpu || !faults)
		return 1;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < cmds; i++) {
			struct timespec a, b;
			struct rusage ru;
			int c = (r + i) % cmds, status, at = c * rounds + r;
			pid_t pid;

			clock_gettime(CLOCK_MONOTONIC, &a);
			if (posix_spawn(&pid, cmd[c][0], NULL, NULL, cmd[c], environ) ||
			    wait4(pid, &status, 0, &ru) < 0) {
				perror(cmd[c][0]);
				return 1;
			}
			clock_gettime(CLOCK_MONOTONIC, &b);
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "%s: wait status %d\n", cmd[c][0], status);
				return 1;
			}
			wall[at] = (double)(b.tv_sec - a.tv_sec) * 1e6 +
				   (double)(b.tv_nsec - a.tv_nsec) / 1e3;
			cpu[at] = us(ru.ru_utime) + us(ru.ru_stime);
			faults[at] = (double)ru.ru_minflt;
		}
	for (int c = 0; c < cmds; c++) {
		double sum = 0;

		for (int r = 0; r < rounds; r++)
			sum += faults[c * rounds + r];
		printf("%.1f %.1f %.2f\n", median(wall + c * rounds, rounds),
		       median(cpu + c * rounds, rounds), sum / rounds);
	}
	return 0;
}
