/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for scan: which regular files in a tree would be refused.  The walk
 * goes through descriptors (openat with O_NOFOLLOW), so a symbolic link never
 * leads it out of the tree, and each file is checked on an O_PATH descriptor
 * of its own: nothing is read, no access time changes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define REASONS (TRUSTED_FOR_ERROR + 1)

struct scan {
	unsigned int policy;
	int one_file_system;
	int progress;
	dev_t root_dev;
	unsigned long files, dirs, skipped, refused, errors;
	unsigned long by_reason[REASONS];
	struct timespec last_progress;
};

static void show_progress(struct scan *s, const char *path)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - s->last_progress.tv_sec) * 1000000000L +
		    (now.tv_nsec - s->last_progress.tv_nsec) < 100000000L)
		return;
	s->last_progress = now;
	fprintf(stderr, "\r\033[Kscanning: %lu files, %lu refused: %.60s",
		s->files, s->refused, path);
}

static void clear_progress(struct scan *s)
{
	if (s->progress)
		fputs("\r\033[K", stderr);
}

static void report_error(struct scan *s, const char *path, const char *what)
{
	clear_progress(s);
	fprintf(stderr, "%s: %s: %s: %s\n", program, path, what,
		strerror(errno));
	s->errors++;
}

static void check_file(struct scan *s, int dirfd, const char *name,
		       const char *path)
{
	struct trusted_for_verdict v;
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		report_error(s, path, "cannot open");
		return;
	}
	s->files++;
	trusted_for_check(fd, s->policy, path, &v);
	close(fd);
	if (v.trusted)
		return;
	s->refused++;
	s->by_reason[v.reason < REASONS ? v.reason : TRUSTED_FOR_ERROR]++;
	clear_progress(s);
	print_verdict(stdout, &v);
	putchar('\n');
}

/* Takes ownership of dirfd. */
static void scan_dir(struct scan *s, int dirfd, const char *path)
{
	DIR *dir = fdopendir(dirfd);
	struct dirent *e;
	char child[PATH_MAX];

	if (!dir) {
		report_error(s, path, "cannot read directory");
		close(dirfd);
		return;
	}
	s->dirs++;
	while ((errno = 0, e = readdir(dir))) {
		struct stat st;
		int n;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = snprintf(child, sizeof(child), "%s%s%s", path,
			     path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		if (n < 0 || (size_t)n >= sizeof(child)) {
			errno = ENAMETOOLONG;
			report_error(s, path, "cannot descend");
			continue;
		}
		if (s->progress)
			show_progress(s, child);
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			report_error(s, child, "cannot stat");
		} else if (S_ISDIR(st.st_mode)) {
			int fd;

			if (s->one_file_system && st.st_dev != s->root_dev) {
				s->skipped++;
				continue;
			}
			fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY |
						       O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				report_error(s, child, "cannot open directory");
			else
				scan_dir(s, fd, child);
		} else if (S_ISREG(st.st_mode)) {
			check_file(s, dirfd, e->d_name, child);
		} else {
			s->skipped++; /* links, devices, FIFOs: not code */
		}
	}
	if (errno)
		report_error(s, path, "cannot read directory");
	closedir(dir);
}

int cmd_scan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "one-file-system", no_argument, NULL, 'x' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct trusted_for_policy effective;
	struct scan s = { 0 };
	int quiet = 0, c;

	trusted_for_get_policy(&effective);
	s.policy = effective.policy;
	while ((c = getopt_long(argc, argv, "+p:xq", opts, NULL)) != -1) {
		if (c == 'p' && parse_policy(optarg, &s.policy) < 0) {
			fprintf(stderr, "%s: scan: bad policy '%s' (0..3)\n",
				program, optarg);
			return EXIT_USAGE;
		} else if (c == 'x') {
			s.one_file_system = 1;
		} else if (c == 'q') {
			quiet = 1;
		} else if (c != 'p') {
			fprintf(stderr, "%s: scan: bad option '%s' (see %s --help)\n",
				program, argv[optind - 1], program);
			return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "%s: scan: no directory given\n", program);
		return EXIT_USAGE;
	}
	s.progress = !quiet && isatty(STDERR_FILENO);
	for (int i = optind; i < argc; i++) {
		struct stat st;
		int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0 || fstat(fd, &st) < 0) {
			report_error(&s, argv[i], "cannot open directory");
			if (fd >= 0)
				close(fd);
			continue;
		}
		s.root_dev = st.st_dev;
		scan_dir(&s, fd, argv[i]);
	}
	clear_progress(&s);
	printf("scanned %lu files in %lu directories under policy %u (%lu other entries skipped): %lu would be refused\n",
	       s.files, s.dirs, s.policy, s.skipped, s.refused);
	for (int r = 1; r < REASONS; r++)
		if (s.by_reason[r])
			printf("  %s: %lu\n",
			       trusted_for_reason_string((enum trusted_for_reason)r),
			       s.by_reason[r]);
	if (s.errors)
		printf("errors: %lu\n", s.errors);
	return s.errors ? EXIT_ERROR : s.refused ? EXIT_UNTRUSTED : EXIT_TRUSTED;
}
