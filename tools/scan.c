/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for scan: which regular files in a tree would be refused.  The walk
 * goes through descriptors (openat with O_NOFOLLOW), so a symbolic link never
 * leads it out of the tree, and each file is checked on an O_PATH descriptor
 * of its own: nothing is read, no access time changes.  Anyone can make a
 * tree deeper than a stack or PATH_MAX in /tmp: the walk keeps its own
 * stack on the heap, paths of any length, and stops at SCAN_MAX_DEPTH
 * levels with an error line rather than exhausting descriptors.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "printable.h"

#define REASONS (TRUSTED_FOR_REASON_MAX + 1)
#define SCAN_MAX_DEPTH 256 /* open directories at once, under RLIMIT_NOFILE */
#define SCAN_MAX_DEPTH_TEXT "256"
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct scan {
	unsigned int policy;
	int one_file_system;
	int progress;
	dev_t root_dev;
	unsigned long files, dirs, skipped, refused, errors;
	unsigned long by_reason[REASONS];
	unsigned long shell_startup; /* refused files that shells read */
	struct timespec last_progress;
};

static void show_progress(struct scan *s, const char *path)
{
	char shown[64];
	struct timespec now;
	long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (now.tv_sec - s->last_progress.tv_sec) * 1000000000L;
	ns += now.tv_nsec - s->last_progress.tv_nsec;
	if (ns < 100000000L) /* ten lines a second at the most */
		return;
	s->last_progress = now;
	tf_printable(shown, sizeof(shown), path);
	fprintf(stderr, "\r\033[Kscanning: %lu files, %lu refused: %s",
		s->files, s->refused, shown);
}

static void clear_progress(struct scan *s)
{
	if (s->progress)
		fputs("\r\033[K", stderr);
}

static void report_error(struct scan *s, const char *path, const char *what)
{
	int error = errno;

	clear_progress(s);
	cli_error("%s: %s%s%s", path, what, error ? ": " : "",
		  error ? strerror(error) : "");
	s->errors++;
}

/*
 * The files a login or interactive shell reads as code (trusted-dash(1),
 * trusted-bash(1)): Debian installs them mode 0644, so that policy 2 or 3
 * refuses them, and a system that enforces must know which they are.
 */
static int is_shell_startup(const char *path, const char *name)
{
	static const char *const names[] = {
		".profile", ".bashrc", ".bash_profile", ".bash_login",
		".bash_logout", "bash.bashrc"
	};
	size_t len = strlen(path);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	if (len >= 12 && !strcmp(path + len - 12, "/etc/profile"))
		return 1;
	return strstr(path, "/profile.d/") && len > 3 &&
	       !strcmp(path + len - 3, ".sh");
}

static void check_file(struct scan *s, int dirfd, const char *name,
		       const char *path)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
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
	s->shell_startup += is_shell_startup(path, name);
	clear_progress(s);
	print_verdict(stdout, &v);
	putchar('\n');
}

struct frame {
	DIR *dir;
	char *path;
};

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *path = malloc(n + strlen(name) + 2);

	if (path)
		sprintf(path, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return path;
}

/* Opens a directory as the next frame; takes ownership of dirfd and path. */
static int push(struct scan *s, struct frame *stack, int *depth, int dirfd,
		char *path)
{
	DIR *dir = fdopendir(dirfd);

	if (!dir) {
		report_error(s, path, "cannot read directory");
		close(dirfd);
		free(path);
		return -1;
	}
	s->dirs++;
	stack[(*depth)++] = (struct frame){ dir, path };
	return 0;
}

/* One entry of the directory on top of the stack. */
static void visit(struct scan *s, struct frame *stack, int *depth,
		  const char *name)
{
	struct frame *top = &stack[*depth - 1];
	int dfd = dirfd(top->dir), fd;
	struct stat st;
	char *child = join(top->path, name);

	if (!child) {
		report_error(s, top->path, "cannot descend");
		return;
	}
	if (s->progress)
		show_progress(s, child);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		report_error(s, child, "cannot stat");
	} else if (S_ISDIR(st.st_mode)) {
		if (s->one_file_system && st.st_dev != s->root_dev) {
			s->skipped++;
		} else if (*depth >= SCAN_MAX_DEPTH) {
			errno = 0;
			report_error(s, child, "not descending: deeper than " SCAN_MAX_DEPTH_TEXT " levels");
		} else {
			fd = openat(dfd, name, DIR_FLAGS);
			if (fd < 0) {
				report_error(s, child, "cannot open directory");
			} else {
				push(s, stack, depth, fd, child);
				return;
			}
		}
	} else if (S_ISREG(st.st_mode)) {
		check_file(s, dfd, name, child);
	} else {
		s->skipped++; /* links, devices, FIFOs: not code */
	}
	free(child);
}

/* The whole tree under dirfd, without recursion; takes ownership of dirfd. */
static void scan_tree(struct scan *s, int dirfd, const char *path)
{
	struct frame stack[SCAN_MAX_DEPTH];
	int depth = 0;
	char *root = strdup(path);

	if (!root) {
		report_error(s, path, "cannot descend");
		close(dirfd);
		return;
	}
	push(s, stack, &depth, dirfd, root);
	while (depth > 0) {
		struct frame *top = &stack[depth - 1];
		struct dirent *e;

		errno = 0;
		e = readdir(top->dir);
		if (!e) {
			if (errno)
				report_error(s, top->path, "cannot read directory");
			closedir(top->dir);
			free(top->path);
			depth--;
		} else if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			visit(s, stack, &depth, e->d_name);
		}
	}
}

static int cmd_scan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "one-file-system", no_argument, NULL, 'x' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct trusted_for_config effective = TRUSTED_FOR_CONFIG_INIT;
	struct scan s = { 0 };
	int quiet = 0, c;

	trusted_for_get_config(&effective);
	s.policy = effective.check_policy;
	while ((c = getopt_long(argc, argv, "+p:xq", opts, NULL)) != -1) {
		if (c == 'p' && parse_policy(optarg, &s.policy) < 0)
			return usage_error("scan: bad policy '%s' (0..3)", optarg);
		else if (c == 'x')
			s.one_file_system = 1;
		else if (c == 'q')
			quiet = 1;
		else if (c != 'p')
			return usage_error("scan: bad option '%s'", argv[optind - 1]);
	}
	if (optind == argc)
		return usage_error("scan: no directory given");
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
		scan_tree(&s, fd, argv[i]);
	}
	clear_progress(&s);
	printf("scanned %lu files in %lu directories under policy %u (%lu other entries skipped): %lu would be refused\n",
	       s.files, s.dirs, s.policy, s.skipped, s.refused);
	for (int r = 1; r < REASONS; r++)
		if (s.by_reason[r])
			printf("  %s: %lu\n",
			       trusted_for_reason_string((enum trusted_for_reason)r),
			       s.by_reason[r]);
	if (s.shell_startup)
		printf("shell startup files among them: %lu (login and interactive shells skip them, with a line each, when files are enforced: make them executable, or use policy 1; see trusted-bash(1))\n",
		       s.shell_startup);
	if (s.errors)
		printf("errors: %lu\n", s.errors);
	if (s.errors)
		return EXIT_ERROR;
	return s.refused ? EXIT_UNTRUSTED : EXIT_TRUSTED;
}

const struct command scan_command = {
	"scan", cmd_scan, "[--policy N] [--one-file-system] [--quiet] DIR...",
	"which regular files under each DIR would be refused, and why"
};
