/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the confined session costs: tf_session_confine() itself, and
 * what its filter adds to every system call (getppid(), the cheapest) and to
 * a check (trusted_for() on an allowed file).  Two worker processes, one
 * confined and one not, run batches of calls in alternating order (ABBA) on
 * the parent's word, so that background load hits both alike; the figure is
 * the median over the rounds.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"
#include "session.h"
#include "trustedfor.h"

#define ROUNDS 201
#define BATCH 2000 /* getppid() calls a batch; trusted_for() does a tenth */

struct worker {
	pid_t pid;
	int cmd, res; /* the parent writes a byte to cmd, reads a double from res */
};

/* A worker: waits for a word, runs one batch of `what`, answers ns a call. */
static void work(int cmd, int res, int confine, int fd)
{
	char what;

	if (confine && tf_session_confine() < 0) {
		perror("tf_session_confine");
		_exit(1);
	}
	while (read(cmd, &what, 1) == 1) {
		int n = what == 'p' ? BATCH : BATCH / 10;
		double t0 = now_ns(), ns;

		for (int i = 0; i < n; i++) {
			if (what == 'p')
				syscall(SYS_getppid);
			else if (trusted_for(fd, TRUSTED_FOR_EXECUTION, 0) < 0)
				_exit(2);
		}
		ns = (now_ns() - t0) / n;
		if (write(res, &ns, sizeof(ns)) != sizeof(ns))
			_exit(3);
	}
	_exit(0);
}

static struct worker start(int confine, int fd)
{
	int c[2], r[2];
	struct worker w;

	if (pipe(c) < 0 || pipe(r) < 0)
		exit(1);
	w.pid = fork();
	if (w.pid == 0) {
		close(c[1]);
		close(r[0]);
		work(c[0], r[1], confine, fd);
	}
	close(c[0]);
	close(r[1]);
	w.cmd = c[1];
	w.res = r[0];
	return w;
}

static double batch(struct worker *w, char what)
{
	double ns = -1;

	if (write(w->cmd, &what, 1) != 1 || read(w->res, &ns, sizeof(ns)) != sizeof(ns)) {
		fprintf(stderr, "confine_bench: a worker failed\n");
		exit(1);
	}
	return ns;
}

static void compare(struct worker *open_w, struct worker *confined_w, char what,
		    const char *name)
{
	static double a[ROUNDS], b[ROUNDS];

	for (int i = 0; i < ROUNDS; i++) {
		if (i % 2) {
			a[i] = batch(open_w, what);
			b[i] = batch(confined_w, what);
		} else {
			b[i] = batch(confined_w, what);
			a[i] = batch(open_w, what);
		}
	}
	double ma = median(a, ROUNDS), mb = median(b, ROUNDS);

	printf("| %-40s | %8.0f | %8.0f | %+7.0f |\n", name, ma, mb, mb - ma);
}

int main(int argc, char **argv)
{
	static double t[ROUNDS];
	struct worker open_w, confined_w;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: confine_bench EXECUTABLE-FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || trusted_for(fd, TRUSTED_FOR_EXECUTION, 0) < 0) {
		fprintf(stderr, "confine_bench: %s: not a trusted file\n", argv[1]);
		return 1;
	}
	/* The call itself, each time in a fresh process. */
	for (int i = 0; i < ROUNDS; i++) {
		int p[2];
		double ns = -1;

		if (pipe(p) < 0)
			return 1;
		if (fork() == 0) {
			double t0 = now_ns();
			int r = tf_session_confine();

			ns = r < 0 ? -1 : now_ns() - t0;
			_exit(write(p[1], &ns, sizeof(ns)) == sizeof(ns) ? 0 : 1);
		}
		if (read(p[0], &ns, sizeof(ns)) != sizeof(ns) || ns < 0)
			return 1;
		wait(NULL);
		close(p[0]);
		close(p[1]);
		t[i] = ns;
	}
	printf("tf_session_confine(): %.0f us (median of %d fresh processes)\n\n",
	       median(t, ROUNDS) / 1000, ROUNDS);

	open_w = start(0, fd);
	confined_w = start(1, fd);
	printf("| ns per call, median of %d batches | unconfined | confined | filter |\n", ROUNDS);
	printf("|------------------------------------------|----------|----------|---------|\n");
	compare(&open_w, &confined_w, 'p', "getppid()");
	compare(&open_w, &confined_w, 't', "trusted_for(), allowed file");
	close(open_w.cmd);
	close(confined_w.cmd);
	waitpid(open_w.pid, NULL, 0);
	waitpid(confined_w.pid, NULL, 0);
	return 0;
}
