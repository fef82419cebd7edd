/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for policy: judge a policy file by the library's own rules
 * (trusted_for_read_policy_file(), the parser every process uses), and put
 * a new one in place only once it passes them, as visudo does.  The new
 * file is written beside the old one, judged there on its own descriptor
 * (owner and mode included), synced, renamed over the old one, and the
 * directory synced: a reader sees the old file or the new one, whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* The library refuses larger files; one byte more is enough to be refused. */
#define POLICY_READ_MAX (64 * 1024 + 1)

static const char *enforce_word(unsigned int e)
{
	static const char *const words[] = { "none", "file", "interactive", "all" };

	return words[e & 3];
}

/* "ok: policy N, enforce E, audit A", the values of a file that passes. */
static void print_values(const char *name, const char *what,
			 const struct trusted_for_config *c)
{
	printf("%s: %s: policy %u, enforce %s, audit %s\n", name, what,
	       c->check_policy, enforce_word(c->file_enforce),
	       c->audit ? "on" : "off");
}

/* The system's file, as every process reads it. */
static int read_installed(struct trusted_for_config *c)
{
	if (trusted_for_read_policy_file(-1, 0, c) < 0) {
		cli_error("policy: cannot judge the policy file: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int check_installed(void)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT;

	if (read_installed(&c) < 0)
		return EXIT_ERROR;
	if (c.file_state == TRUSTED_FOR_FILE_FAIL_CLOSED) {
		/* The library's problem names the file already. */
		printf("%s\n", c.file_problem);
		return EXIT_UNTRUSTED;
	}
	print_values(c.file_path, c.file_state == TRUSTED_FOR_FILE_ABSENT ?
					  "absent, the built-in defaults" : "ok", &c);
	return EXIT_TRUSTED;
}

static int cmd_check(int argc, char **argv)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT;
	int fd;

	if (argc > 2)
		return usage_error("policy check: one FILE at most");
	if (argc < 2)
		return check_installed();
	if (read_installed(&c) < 0)
		return EXIT_ERROR;
	/* The installed file by its name: owner and mode count too. */
	if (!strcmp(argv[1], c.file_path))
		return check_installed();
	fd = open(argv[1], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		cli_error("%s: cannot open: %s", argv[1], strerror(errno));
		return EXIT_ERROR;
	}
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	if (trusted_for_read_policy_file(fd, TRUSTED_FOR_POLICY_CONTENT, &c) < 0) {
		cli_error("%s: cannot judge it: %s", argv[1], strerror(errno));
		close(fd);
		return EXIT_ERROR;
	}
	close(fd);
	if (c.file_state == TRUSTED_FOR_FILE_FAIL_CLOSED) {
		printf("%s: %s\n", argv[1], c.file_problem);
		return EXIT_UNTRUSTED;
	}
	print_values(argv[1], "ok", &c);
	return EXIT_TRUSTED;
}

/* Up to POLICY_READ_MAX bytes of path into buf; the length, or -1. */
static ssize_t read_source(const char *path, char *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0) {
		cli_error("%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while (len < POLICY_READ_MAX &&
	       ((n = read(fd, buf + len, POLICY_READ_MAX - len)) > 0 ||
		(n < 0 && errno == EINTR)))
		len += n > 0 ? (size_t)n : 0;
	if (n < 0)
		cli_error("%s: cannot read: %s", path, strerror(errno));
	close(fd);
	return n < 0 ? -1 : (ssize_t)len;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The bytes of source in place of the installed file, or nothing changed.
 * EXIT_TRUSTED, EXIT_UNTRUSTED (the file is bad: said in the same words
 * as check) or EXIT_ERROR.
 */
static int install(const char *source)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT;
	char *buf = malloc(POLICY_READ_MAX), path[256], dir[256], tmp[560] = "";
	const char *slash;
	int fd = -1, dirfd = -1, status = EXIT_ERROR;
	ssize_t len;

	if (!buf) {
		cli_error("policy install: out of memory");
		return EXIT_ERROR;
	}
	if (read_installed(&c) < 0 || (len = read_source(source, buf)) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s", c.file_path);
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash && slash != path ? (int)(slash - path) : 1, path);
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = dirfd < 0 ? -1 : mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		cli_error("policy install: cannot create a file in %s: %s", dir, strerror(errno));
		goto out;
	}
	if (write_all(fd, buf, (size_t)len) < 0 || fchown(fd, 0, 0) < 0 ||
	    fchmod(fd, 0644) < 0 || fsync(fd) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		cli_error("policy install: cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	/* Judged where it will be read: the very file, root's and 0644. */
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	if (trusted_for_read_policy_file(fd, 0, &c) < 0) {
		cli_error("policy install: cannot judge %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (c.file_state == TRUSTED_FOR_FILE_FAIL_CLOSED) {
		cli_error("%s: %s", source, c.file_problem);
		status = EXIT_UNTRUSTED;
		goto out;
	}
	if (rename(tmp, path) < 0) {
		cli_error("policy install: cannot rename %s to %s: %s", tmp, path,
			  strerror(errno));
		goto out;
	}
	tmp[0] = '\0';
	if (fsync(dirfd) < 0) {
		cli_error("policy install: %s is in place, but %s could not be synced: %s",
			  path, dir, strerror(errno));
		goto out;
	}
	print_values(path, "installed", &c);
	status = EXIT_TRUSTED;
out:
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
	if (fd >= 0 && tmp[0])
		unlink(tmp);
	free(buf);
	return status;
}

static int cmd_install(int argc, char **argv)
{
	if (argc != 2)
		return usage_error("policy install: give one FILE");
	return install(argv[1]);
}

/* The editor as visudo picks it: SUDO_EDITOR, VISUAL, EDITOR, editor, vi. */
static const char *editor(void)
{
	static const char *const vars[] = { "SUDO_EDITOR", "VISUAL", "EDITOR" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *e = getenv(vars[i]);

		if (e && *e)
			return e;
	}
	return access("/usr/bin/editor", X_OK) == 0 ? "/usr/bin/editor" : "vi";
}

/* The editor on draft, its words split at blanks; its exit status, or -1. */
static int run_editor(const char *draft)
{
	char *words = strdup(editor()), *argv[32], *save = NULL;
	int argc = 0, status;
	pid_t pid;

	if (!words)
		return -1;
	for (char *w = strtok_r(words, " \t", &save); w && argc < 30;
	     w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc++] = (char *)draft;
	argv[argc] = NULL;
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		cli_error("policy edit: cannot run %s: %s", argv[0], strerror(errno));
		_exit(EXIT_NOT_FOUND);
	}
	free(words);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The draft starts as the installed file, or as the built-in defaults. */
static int make_draft(const char *draft)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT;
	char *buf = malloc(POLICY_READ_MAX);
	ssize_t len = -1;
	int fd = -1, r = -1;

	if (!buf || read_installed(&c) < 0)
		goto out;
	if (c.file_state == TRUSTED_FOR_FILE_ABSENT)
		len = snprintf(buf, POLICY_READ_MAX, "trustedfor-policy 1\npolicy = %u\nend\n",
			       c.check_policy);
	else
		len = read_source(c.file_path, buf);
	if (len < 0)
		goto out;
	fd = open(draft, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, buf, (size_t)len) < 0 || close(fd) < 0)
		cli_error("policy edit: cannot write %s: %s", draft, strerror(errno));
	else
		r = 0;
out:
	free(buf);
	return r;
}

/* Edit a copy, install it once it passes; on a bad one, ask again. */
static int cmd_edit(int argc, char **argv)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[256], draft[300], answer[16];
	int status;

	(void)argv;
	if (argc != 1)
		return usage_error("policy edit: no arguments");
	snprintf(dir, sizeof(dir), "%s/trustedfor-policy.XXXXXX",
		 tmpdir && *tmpdir == '/' ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		cli_error("policy edit: cannot make a directory for the draft: %s",
			  strerror(errno));
		return EXIT_ERROR;
	}
	snprintf(draft, sizeof(draft), "%s/trustedfor.conf", dir);
	if (make_draft(draft) < 0) {
		rmdir(dir);
		return EXIT_ERROR;
	}
	for (;;) {
		int r = run_editor(draft);

		if (r != 0) {
			cli_error("policy edit: the editor failed%s; nothing installed, the draft is %s",
				  r < 0 ? "" : " (status not 0)", draft);
			return EXIT_ERROR;
		}
		status = install(draft);
		if (status != EXIT_UNTRUSTED)
			break;
		fprintf(stderr, "%s: edit again (e) or quit without installing (q)? ", program);
		if (!fgets(answer, sizeof(answer), stdin) || answer[0] != 'e') {
			cli_error("policy edit: nothing installed, the draft is %s", draft);
			return EXIT_UNTRUSTED;
		}
	}
	if (status == EXIT_TRUSTED) {
		unlink(draft);
		rmdir(dir);
	} else {
		cli_error("policy edit: the draft is %s", draft);
	}
	return status;
}

static int cmd_policy(int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : "";

	if (!strcmp(verb, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(verb, "install"))
		return cmd_install(argc - 1, argv + 1);
	if (!strcmp(verb, "edit"))
		return cmd_edit(argc - 1, argv + 1);
	if (!*verb)
		return usage_error("policy: check, install or edit?");
	return usage_error("policy: unknown verb '%s'", verb);
}

const struct command policy_command = {
	"policy", cmd_policy, "check [FILE] | install FILE | edit",
	"judge the policy file as the library does; put a new one in place only if it passes"
};
