/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs a command once and prints its wall time and the CPU time it used
 * (user + system, from wait4()), in microseconds: "WALL CPU".  The CPU
 * time hardly depends on what else the machine runs, so that start-up
 * costs of a few hundred microseconds show on a busy machine too.  Its
 * standard output goes to /dev/null.  Built for bench/loaders/startup.sh;
 * never installed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long us(struct timeval t)
{
	return t.tv_sec * 1000000L + t.tv_usec;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%ld %ld\n",
	       (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000,
	       us(ru.ru_utime) + us(ru.ru_stime));
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}
