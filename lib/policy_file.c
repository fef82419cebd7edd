/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy file, trustedfor.conf(5).  Strict: anything it does not fully
 * understand, and any file that someone other than root could have written,
 * fails closed (every check, all enforcement, auditing on).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dirent64.h"
#include "internal.h"

/* "none", or a comma-separated list of "file", "interactive" and "all". */
int tf_enforce_parse(const char *list, unsigned int *enforce)
{
	unsigned int bits = 0;
	const char *p = list;

	if (!strcmp(list, "none")) {
		*enforce = 0;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 4 && !strncmp(p, "file", 4))
			bits |= TRUSTED_FOR_ENFORCE_FILE;
		else if (n == 11 && !strncmp(p, "interactive", 11))
			bits |= TRUSTED_FOR_ENFORCE_INTERACTIVE;
		else if (n == 3 && !strncmp(p, "all", 3))
			bits |= TRUSTED_FOR_ENFORCE_FILE |
				TRUSTED_FOR_ENFORCE_INTERACTIVE;
		else
			return -1;
		if (!p[n])
			break;
		p += n + 1;
	}
	*enforce = bits;
	return 0;
}

void tf_policy_file_defaults(struct tf_policy_file *c)
{
	memset(c, 0, sizeof(*c));
	c->check_policy = TF_DEFAULT_POLICY;
	c->log_target = TRUSTED_FOR_LOG_SYSLOG;
	c->state = TRUSTED_FOR_FILE_ABSENT;
}

void tf_policy_file_fail_closed(struct tf_policy_file *c, const char *why)
{
	enum trusted_for_log_target target = c->log_target;

	tf_policy_file_defaults(c);
	c->check_policy = TRUSTED_FOR_POLICY_ALL;
	c->enforce = TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE;
	c->audit = 1;
	/* A log target already parsed is kept only if it still logs. */
	c->log_target = target == TRUSTED_FOR_LOG_STDERR ? target :
							   TRUSTED_FOR_LOG_SYSLOG;
	c->state = TRUSTED_FOR_FILE_FAIL_CLOSED;
	snprintf(c->problem, sizeof(c->problem), "%s", why);
}

static int fail(struct tf_policy_file *c, const char *fmt, ...)
{
	char why[TRUSTED_FOR_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	tf_policy_file_fail_closed(c, why);
	return -1;
}

static int set_value(struct tf_policy_file *c, const char *key, const char *value)
{
	if (!strcmp(key, "policy")) {
		if (strlen(value) != 1 || value[0] < '0' || value[0] > '3')
			return -1;
		c->check_policy = (unsigned int)(value[0] - '0');
	} else if (!strcmp(key, "enforce")) {
		return tf_enforce_parse(value, &c->enforce);
	} else if (!strcmp(key, "audit")) {
		if (strcmp(value, "on") && strcmp(value, "off"))
			return -1;
		c->audit = !strcmp(value, "on");
	} else if (!strcmp(key, "log")) {
		if (!strcmp(value, "syslog"))
			c->log_target = TRUSTED_FOR_LOG_SYSLOG;
		else if (!strcmp(value, "stderr"))
			c->log_target = TRUSTED_FOR_LOG_STDERR;
		else if (!strcmp(value, "none"))
			c->log_target = TRUSTED_FOR_LOG_NONE;
		else
			return -1;
	}
	return 0;
}

static const char *const keys[] = { "policy", "enforce", "audit", "log" };

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/* One "key = value" line, NUL-terminated, without its newline. */
static int parse_line(struct tf_policy_file *c, char *line, int lineno,
		      unsigned int *seen)
{
	char *eq, *key, *value;
	size_t k;

	key = trim(line);
	if (!*key || *key == '#')
		return 0;
	eq = strchr(key, '=');
	if (!eq)
		return fail(c, "line %d: expected key = value", lineno);
	*eq = '\0';
	key = trim(key);
	value = trim(eq + 1);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!strcmp(key, keys[k]))
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return fail(c, "line %d: unknown key '%.64s'", lineno, key);
	if (*seen & (1U << k))
		return fail(c, "line %d: duplicate key '%s'", lineno, key);
	*seen |= 1U << k;
	if (set_value(c, key, value) < 0)
		return fail(c, "line %d: bad value '%.64s' for %s", lineno,
			    value, key);
	return 0;
}

/*
 * A file is complete only between its markers: the first line names the
 * format, the last one is "end" with its newline.  A reader that races an
 * in-place rewrite (O_TRUNC, then write) sees an empty file or a prefix of
 * the new one, and neither ends in "end\n": it fails closed instead of
 * reading "no enforcement" from a file that is still being written.
 */
int tf_policy_parse(const char *buf, size_t len, struct tf_policy_file *c)
{
	char line[TF_POLICY_LINE_MAX + 1];
	unsigned int seen = 0;
	int lineno = 1, ended = 0;
	size_t n = 0;

	tf_policy_file_defaults(c);
	c->state = TRUSTED_FOR_FILE_READ;
	if (len > TF_POLICY_FILE_MAX)
		return fail(c, "larger than %d bytes", TF_POLICY_FILE_MAX);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)buf[i];

		if (ended)
			return fail(c, "line %d: content after '%s'", lineno,
				    TF_POLICY_END);
		if (ch == '\n') {
			line[n] = '\0';
			if (lineno == 1) {
				if (strcmp(line, TF_POLICY_HEADER))
					return fail(c, "line 1: not '%s'",
						    TF_POLICY_HEADER);
			} else if (!strcmp(line, TF_POLICY_END)) {
				ended = 1;
			} else if (parse_line(c, line, lineno, &seen) < 0) {
				return -1;
			}
			n = 0;
			lineno++;
			continue;
		}
		if (ch == '\0')
			return fail(c, "line %d: NUL byte", lineno);
		if (ch == '\r')
			return fail(c, "line %d: carriage return", lineno);
		if ((ch < ' ' && ch != '\t') || ch == 0x7f)
			return fail(c, "line %d: control character", lineno);
		if (n == TF_POLICY_LINE_MAX)
			return fail(c, "line %d: longer than %d bytes", lineno,
				    TF_POLICY_LINE_MAX);
		line[n++] = (char)ch;
	}
	if (lineno == 1 && n == 0)
		return fail(c, "empty (incomplete)");
	if (n)
		return fail(c, "line %d: no newline (incomplete)", lineno);
	if (!ended)
		return fail(c, "no '%s' line (incomplete)", TF_POLICY_END);
	return 0;
}

/*
 * What the map is and where uid comes from, for the message: only in a user
 * namespace, so the room for the whole map is taken only there (noinline
 * keeps it out of the frames every process starts with).
 */
__attribute__((noinline)) static int not_initial(uid_t uid, int absent,
						  struct tf_policy_file *c)
{
	char why[TRUSTED_FOR_MESSAGE_MAX], map[96], out[32];
	struct tf_uid_map m;
	uint32_t outside;

	if (tf_uid_map_read(&m, why, sizeof(why)) < 0)
		return fail(c, "%s%s", absent ? "absent, and " : "", why);
	tf_uid_map_describe(&m, map, sizeof(map));
	if (absent)
		return fail(c, "absent, in a user namespace (uid_map %.60s) where "
			       "a mount can hide it",
			    map);
	if (tf_uid_map_outside(&m, (uint32_t)uid, &outside) == 0)
		snprintf(out, sizeof(out), "uid %u", outside);
	else
		snprintf(out, sizeof(out), "no uid");
	return fail(c, "owned by uid %u here, %s in the parent user namespace "
		       "(uid_map %.60s): only root of the initial one counts",
		    (unsigned int)uid, out, map);
}

/*
 * Root of the initial user namespace, and nobody else, owns the file: in a
 * namespace of their own a user's files show as uid 0, and a file of the
 * real root shows as the overflow uid.  So uid 0 counts only where it is
 * that root (userns.c says how that is told).
 */
static int check_root(uid_t uid, struct tf_policy_file *c)
{
	char why[TRUSTED_FOR_MESSAGE_MAX];

	switch (tf_root_is_initial(why, sizeof(why))) {
	case 1:
		if (uid != 0)
			return fail(c, "owned by uid %u, not root", (unsigned int)uid);
		return 0;
	case 0:
		return not_initial(uid, 0, c);
	}
	return fail(c, "%s", why);
}

/*
 * No file means the defaults, but only where this process sees the
 * system's mounts: in a user namespace of their own, a user can mount over
 * /etc and hide the file, so there its absence fails closed.  Such a
 * namespace never maps root of the initial one to its root, and only root
 * can make one that does.
 */
static void absent(struct tf_policy_file *c)
{
	char why[TRUSTED_FOR_MESSAGE_MAX];

	switch (tf_root_is_initial(why, sizeof(why))) {
	case 1:
		return;
	case 0:
		not_initial(0, 1, c);
		return;
	}
	fail(c, "absent, and %s", why);
}

/*
 * Whether the directory of path lists its last component: 1 listed, 0 not
 * listed, -1 no listing (why says so).  An open() that answers ENOENT is
 * one return value, which a seccomp filter of the user's own can give for
 * exactly this open's flags, and "absent" means "enforce nothing".  A
 * listing is a buffer the kernel fills, which such a filter cannot: a
 * forged 0 lists nothing, not even ".", which every real listing holds.
 */
static int listed(const char *path, char *why, size_t size)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	char dir[4096];
	int fd, found = 0, dot = 0, error = 0;
	size_t cap = 16384;
	char *buf = malloc(cap);
	long n;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (!buf) {
		snprintf(why, size, "absent, and out of memory to list %.200s", dir);
		return -1;
	}
	fd = TF_UNFORGED(open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
	if (fd < 0) {
		snprintf(why, size, "absent, and %.200s cannot be listed to confirm it: %s", dir,
			 tf_strerror(errno));
		free(buf);
		return -1;
	}
	while (!found && (n = syscall(SYS_getdents64, fd, buf, cap)) > 0) {
		for (long at = 0; at < n;) {
			const struct linux_dirent64 *d = tf_dirent_at(buf, n, at);

			if (!d) {
				n = -1;
				errno = EPROTO;
				break;
			}
			if (!strcmp(d->d_name, "."))
				dot = 1;
			else if (!strcmp(d->d_name, name))
				found = 1;
			at += d->d_reclen;
		}
		if (n < 0)
			break;
	}
	error = errno;
	close(fd);
	free(buf);
	if (found)
		return 1;
	if (n < 0) {
		snprintf(why, size, "absent, and %.200s cannot be listed to confirm it: %s", dir,
			 tf_strerror(error));
		return -1;
	}
	if (!dot) {
		snprintf(why, size, "absent, and the listing of %.200s holds no \".\": "
			 "not the kernel's answer", dir);
		return -1;
	}
	return 0;
}

/*
 * The descriptor must be something only root could have written.  Out of
 * line, as are the paths below that only a missing or bad file takes:
 * every process starts with tf_policy_load()'s frame on its stack, and on
 * a machine where a fresh page of stack costs a page fault of some 15 us,
 * the room of messages never written is not free (bench/shells.md).
 */
__attribute__((noinline)) static int check_owner(int fd, int content_only, off_t *size,
						 struct tf_policy_file *c)
{
	struct stat st;

	/* Poisoned: a filter that fakes success without filling it fails. */
	memset(&st, 0, sizeof(st));
	if (fstat(fd, &st) < 0)
		return fail(c, "cannot stat: %s", tf_strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(c, "not a regular file");
	*size = st.st_size;
	if (content_only)
		return 0;
	if (check_root(st.st_uid, c) < 0)
		return -1;
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return fail(c, "writable by group or others (mode %04o)",
			    (unsigned int)(st.st_mode & 07777));
	return 0;
}

/* Why the file could not be opened, or that it is absent. */
__attribute__((noinline, cold)) static void open_failed(const char *path, int error,
							struct tf_policy_file *c)
{
	char why[TRUSTED_FOR_MESSAGE_MAX];
	int listing;

	if (error != ENOENT)
		fail(c, "cannot open: %s", error == ELOOP ? "a symbolic link" : tf_strerror(error));
	else if ((listing = listed(path, why, sizeof(why))) < 0)
		fail(c, "%s", why);
	else if (listing)
		fail(c, "open() says it does not exist, but its directory lists it: "
			"not the kernel's answer");
	else
		absent(c);
}

/* A problem's message starts with the file's name. */
__attribute__((noinline, cold)) static void name_the_file(const char *path,
							  struct tf_policy_file *c)
{
	char why[TRUSTED_FOR_MESSAGE_MAX];

	snprintf(why, sizeof(why), "%.200s: %.300s", path, c->problem);
	memcpy(c->problem, why, sizeof(why));
}

/*
 * The file on fd, judged as the system's own is (content_only: its
 * content alone, for a file not yet in place), problems unnamed.
 */
void tf_policy_read(int fd, int content_only, struct tf_policy_file *c)
{
	char *buf = NULL;
	size_t len = 0, cap;
	ssize_t n = 0;
	off_t size = 0;

	tf_policy_file_defaults(c);
	if (check_owner(fd, content_only, &size, c) < 0)
		return;
	if (size > TF_POLICY_FILE_MAX) {
		fail(c, "larger than %d bytes", TF_POLICY_FILE_MAX);
		return;
	}
	/*
	 * Room for the size fstat() gave and one byte more, which only a file
	 * that grew since fills.  (Room for the largest file allowed would grow
	 * the heap and give it back at every start: glibc trims a free top
	 * that large.)  A regular file reads short only at its end, so the
	 * read that reaches the size needs no second one to say so; the loop
	 * goes on where a filesystem reads short before it.
	 */
	cap = (size_t)size + 1;
	buf = malloc(cap);
	if (!buf) {
		fail(c, "out of memory");
		return;
	}
	while (len < cap && len != (size_t)size) {
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (n < 0)
		fail(c, "cannot read: %s", tf_strerror(errno));
	else if (len > (size_t)size)
		fail(c, "grew while it was read (incomplete)");
	else
		tf_policy_parse(buf, len, c);
	free(buf);
}

void tf_policy_load(const char *path, struct tf_policy_file *c)
{
	int fd;

	/* O_NONBLOCK: a FIFO put in its place must not hang every interpreter. */
	fd = TF_UNFORGED(open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK));
	if (fd < 0) {
		tf_policy_file_defaults(c);
		open_failed(path, errno, c);
	} else {
		tf_policy_read(fd, 0, c);
		close(fd);
	}
	if (c->state == TRUSTED_FOR_FILE_FAIL_CLOSED)
		name_the_file(path, c);
}
