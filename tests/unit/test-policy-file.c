/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy-file parser and loader: every row one input, one exact result. */
#include "../tap.h"

#include <grp.h>
#include <signal.h>
#include <syslog.h>

#include "internal.h"

#define ALL (TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE)
#define SYSLOG TRUSTED_FOR_LOG_SYSLOG
#define STDERR TRUSTED_FOR_LOG_STDERR
#define NONE TRUSTED_FOR_LOG_NONE

struct row {
	const char *what;
	const char *input;
	size_t len; /* 0: strlen(input) */
	unsigned int policy, enforce;
	int audit;
	enum trusted_for_log_target log;
	const char *problem; /* NULL: parses */
};

/* The completeness markers around a file's settings. */
#define H "trustedfor-policy 1\n"
#define E "end\n"

static const struct row rows[] = {
	{ "the smallest file: the two markers", H E, 0, 3, 0, 0, SYSLOG, NULL },
	{ "comments and blank lines", H "# a comment\n\n   \n\t# indented\n" E, 0, 3, 0, 0, SYSLOG, NULL },
	{ "policy 0", H "policy = 0\n" E, 0, 0, 0, 0, SYSLOG, NULL },
	{ "policy 1", H "policy = 1\n" E, 0, 1, 0, 0, SYSLOG, NULL },
	{ "tabs and spaces around key and value", H "  policy\t=\t1  \n" E, 0, 1, 0, 0, SYSLOG, NULL },
	{ "enforce file", H "enforce = file\n" E, 0, 3, TRUSTED_FOR_ENFORCE_FILE, 0, SYSLOG, NULL },
	{ "enforce interactive", H "enforce = interactive\n" E, 0, 3, TRUSTED_FOR_ENFORCE_INTERACTIVE, 0, SYSLOG, NULL },
	{ "enforce both", H "enforce = file,interactive\n" E, 0, 3, ALL, 0, SYSLOG, NULL },
	{ "enforce all", H "enforce = all\n" E, 0, 3, ALL, 0, SYSLOG, NULL },
	{ "enforce none", H "enforce = none\n" E, 0, 3, 0, 0, SYSLOG, NULL },
	{ "audit on", H "audit = on\n" E, 0, 3, 0, 1, SYSLOG, NULL },
	{ "audit off", H "audit = off\n" E, 0, 3, 0, 0, SYSLOG, NULL },
	{ "log stderr", H "log = stderr\n" E, 0, 3, 0, 0, STDERR, NULL },
	{ "log none", H "log = none\n" E, 0, 3, 0, 0, NONE, NULL },
	{ "a whole file", H "# Debian\npolicy = 1\nenforce = file\naudit = on\nlog = syslog\n" E, 0, 1, TRUSTED_FOR_ENFORCE_FILE, 1, SYSLOG, NULL },
	{ "UTF-8 in a comment", H "# politique d\xc3\xa9" "faut\npolicy = 1\n" E, 0, 1, 0, 0, SYSLOG, NULL },
	{ "policy out of range", H "policy = 4\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value '4' for policy" },
	{ "policy not a number", H "policy = mount\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value 'mount' for policy" },
	{ "policy with two digits", H "policy = 01\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value '01' for policy" },
	{ "empty value", H "policy =\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value '' for policy" },
	{ "trailing comment", H "policy = 1 # mount\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value '1 # mount' for policy" },
	{ "no equals sign", H "policy 1\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: expected key = value" },
	{ "unknown key", H "# ok\nbackend = emulated\n" E, 0, 3, ALL, 1, SYSLOG, "line 3: unknown key 'backend'" },
	{ "keys are case-sensitive", H "Policy = 1\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: unknown key 'Policy'" },
	{ "empty key", H "= 1\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: unknown key ''" },
	{ "duplicate key", H "policy = 1\npolicy = 1\n" E, 0, 3, ALL, 1, SYSLOG, "line 3: duplicate key 'policy'" },
	{ "duplicate key, other value", H "enforce = none\naudit = on\nenforce = file\n" E, 0, 3, ALL, 1, SYSLOG, "line 4: duplicate key 'enforce'" },
	{ "bad enforce word", H "enforce = files\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value 'files' for enforce" },
	{ "empty enforce item", H "enforce = file,,interactive\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value 'file,,interactive' for enforce" },
	{ "spaces inside an enforce list", H "enforce = file, interactive\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value 'file, interactive' for enforce" },
	{ "bad audit value", H "audit = yes\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value 'yes' for audit" },
	{ "bad log target", H "log = /var/log/x\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: bad value '/var/log/x' for log" },
	{ "a bad file keeps logging to stderr", H "log = stderr\nbogus\n" E, 0, 3, ALL, 1, STDERR, "line 3: expected key = value" },
	{ "a bad file never logs to nowhere", H "log = none\nbogus\n" E, 0, 3, ALL, 1, SYSLOG, "line 3: expected key = value" },
	{ "CRLF line ends", H "policy = 1\r\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: carriage return" },
	{ "NUL byte", H "policy = 1\n\0policy = 0\n" E, 46, 3, ALL, 1, SYSLOG, "line 3: NUL byte" },
	{ "NUL byte hiding the rest of a value", H "policy = 1\0 0\n" E, 38, 3, ALL, 1, SYSLOG, "line 2: NUL byte" },
	{ "escape character", H "policy = 1\x1b[2K\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: control character" },
	{ "DEL character", H "policy = 1\x7f\n" E, 0, 3, ALL, 1, SYSLOG, "line 2: control character" },
	/* Completeness: what a reader sees while the file is being rewritten. */
	{ "empty file", "", 0, 3, ALL, 1, SYSLOG, "empty (incomplete)" },
	{ "truncated inside the first line", "trustedfor-pol", 0, 3, ALL, 1, SYSLOG, "line 1: no newline (incomplete)" },
	{ "the first line without its newline", "trustedfor-policy 1", 0, 3, ALL, 1, SYSLOG, "line 1: no newline (incomplete)" },
	{ "the first line alone", H, 0, 3, ALL, 1, SYSLOG, "no 'end' line (incomplete)" },
	{ "truncated inside a setting", H "enforce = fi", 0, 3, ALL, 1, SYSLOG, "line 2: no newline (incomplete)" },
	{ "truncated after a setting", H "enforce = file\n", 0, 3, ALL, 1, SYSLOG, "no 'end' line (incomplete)" },
	{ "truncated inside 'end'", H "enforce = none\nen", 0, 3, ALL, 1, SYSLOG, "line 3: no newline (incomplete)" },
	{ "'end' without its newline", H "enforce = none\nend", 0, 3, ALL, 1, SYSLOG, "line 3: no newline (incomplete)" },
	{ "a setting after 'end'", H "enforce = all\n" E "enforce = none\n", 0, 3, ALL, 1, SYSLOG, "line 4: content after 'end'" },
	{ "a blank line after 'end'", H E "\n", 0, 3, ALL, 1, SYSLOG, "line 3: content after 'end'" },
	{ "'end' twice", H E E, 0, 3, ALL, 1, SYSLOG, "line 3: content after 'end'" },
	{ "bytes after 'end' without a newline", H E "x", 0, 3, ALL, 1, SYSLOG, "line 3: content after 'end'" },
	{ "no first line", "policy = 1\n" E, 0, 3, ALL, 1, SYSLOG, "line 1: not 'trustedfor-policy 1'" },
	{ "format version 2", "trustedfor-policy 2\n" E, 0, 3, ALL, 1, SYSLOG, "line 1: not 'trustedfor-policy 1'" },
	{ "the first line with a trailing space", "trustedfor-policy 1 \n" E, 0, 3, ALL, 1, SYSLOG, "line 1: not 'trustedfor-policy 1'" },
	{ "a comment before the first line", "# policy\n" H E, 0, 3, ALL, 1, SYSLOG, "line 1: not 'trustedfor-policy 1'" },
	{ "'end' with a trailing space is no end", H "end \n", 0, 3, ALL, 1, SYSLOG, "line 2: expected key = value" },
	{ "'End' is no end", H "End\n", 0, 3, ALL, 1, SYSLOG, "line 2: expected key = value" },
};

static void parse_rows(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct tf_policy_file c;
		size_t len = r->len ? r->len : strlen(r->input);
		int got = tf_policy_parse(r->input, len, &c);
		int same = got == (r->problem ? -1 : 0) && c.check_policy == r->policy &&
			   c.enforce == r->enforce && c.audit == r->audit &&
			   c.log_target == r->log &&
			   c.state == (r->problem ? TRUSTED_FOR_FILE_FAIL_CLOSED :
						    TRUSTED_FOR_FILE_READ) &&
			   !strcmp(c.problem, r->problem ? r->problem : "");

		tap_ok(same, "parse: %s", r->what);
		if (!same)
			printf("#   got %d policy %u enforce %u audit %d log %d state %d problem <%s>\n",
			       got, c.check_policy, c.enforce, c.audit, (int)c.log_target,
			       (int)c.state, c.problem);
	}
}

/*
 * Whatever a reader catches of a file being rewritten in place is a prefix
 * of it: every proper prefix of a complete file must fail closed.
 */
static void parse_prefixes(void)
{
	static const char full[] = H "# strict\npolicy = 3\nenforce = all\naudit = on\n" E;
	size_t len = strlen(full), weaker = 0;
	struct tf_policy_file c;

	for (size_t n = 0; n < len; n++)
		if (tf_policy_parse(full, n, &c) == 0 ||
		    c.state != TRUSTED_FOR_FILE_FAIL_CLOSED || c.enforce != ALL) {
			printf("#   the prefix of %zu bytes parses\n", n);
			weaker++;
		}
	tap_is_int((int)weaker, 0, "parse: none of the %zu proper prefixes of a complete file is valid", len);
	tap_is_int(tf_policy_parse(full, len, &c), 0, "parse: ... and the whole file is");
}

static void parse_sizes(void)
{
	static char big[1024 * 1024];
	char line[300 + sizeof(H E)];
	size_t h = strlen(H), e = strlen(E);
	struct tf_policy_file c;

	memcpy(line, H, h);
	memset(line + h, 'a', 257);
	memcpy(line + h, "# ", 2);
	tap_is_int(tf_policy_parse(line, h + 257, &c), -1, "parse: a 257-byte line fails");
	tap_is_str(c.problem, "line 2: longer than 256 bytes", "parse: ... saying so");
	line[h + 256] = '\n';
	memcpy(line + h + 257, E, e);
	tap_is_int(tf_policy_parse(line, h + 257 + e, &c), 0, "parse: a 256-byte line is fine");
	memset(big, '\n', sizeof(big));
	memcpy(big, H, h);
	tap_is_int(tf_policy_parse(big, sizeof(big), &c), -1, "parse: a 1 MiB file fails");
	tap_is_str(c.problem, "larger than 65536 bytes", "parse: ... saying so");
	tap_is_int(c.enforce, ALL, "parse: ... and enforces everything");
	memcpy(big + TF_POLICY_FILE_MAX - e, E, e);
	tap_is_int(tf_policy_parse(big, TF_POLICY_FILE_MAX, &c), 0,
		   "parse: a file of exactly 64 KiB is fine");
}

struct load_row {
	const char *what;
	const char *content; /* NULL: no file */
	mode_t mode;
	uid_t owner;
	int kind; /* 0 file, 1 symlink, 2 directory, 3 FIFO, 4 1 MiB file */
	enum trusted_for_file_state state;
	const char *problem;
};

static void load_rows(const char *dir, int real_root)
{
	static const struct load_row rows[] = {
		{ "missing file: defaults", NULL, 0, 0, 0, TRUSTED_FOR_FILE_ABSENT, "" },
		{ "root-owned 0644", H "policy = 1\n" E, 0644, 0, 0, TRUSTED_FOR_FILE_READ, "" },
		{ "root-owned 0600", H "policy = 1\n" E, 0600, 0, 0, TRUSTED_FOR_FILE_READ, "" },
		{ "root-owned 0444", H "policy = 1\n" E, 0444, 0, 0, TRUSTED_FOR_FILE_READ, "" },
		{ "owned by a user", H "policy = 1\n" E, 0644, 65534, 0, TRUSTED_FOR_FILE_FAIL_CLOSED, "owned by uid 65534, not root" },
		{ "group-writable", H "policy = 1\n" E, 0664, 0, 0, TRUSTED_FOR_FILE_FAIL_CLOSED, "writable by group or others (mode 0664)" },
		{ "other-writable", H "policy = 1\n" E, 0602, 0, 0, TRUSTED_FOR_FILE_FAIL_CLOSED, "writable by group or others (mode 0602)" },
		{ "a symbolic link", H "policy = 1\n" E, 0644, 0, 1, TRUSTED_FOR_FILE_FAIL_CLOSED, "cannot open: a symbolic link" },
		{ "a directory", "", 0755, 0, 2, TRUSTED_FOR_FILE_FAIL_CLOSED, "not a regular file" },
		{ "a FIFO (must not hang)", "", 0644, 0, 3, TRUSTED_FOR_FILE_FAIL_CLOSED, "not a regular file" },
		{ "a 1 MiB file", "", 0644, 0, 4, TRUSTED_FOR_FILE_FAIL_CLOSED, "larger than 65536 bytes" },
		{ "an empty file (a rewrite caught after O_TRUNC)", "", 0644, 0, 0, TRUSTED_FOR_FILE_FAIL_CLOSED, "empty (incomplete)" },
		{ "a file cut before 'end'", H "enforce = all\n", 0644, 0, 0, TRUSTED_FOR_FILE_FAIL_CLOSED, "no 'end' line (incomplete)" },
		{ "a bad line", H "policy = 1\nsecurebits = off\n" E, 0644, 0, 0, TRUSTED_FOR_FILE_FAIL_CLOSED, "line 3: unknown key 'securebits'" },
	};
	char path[512], target[600], want[700];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct load_row *r = &rows[i];
		struct tf_policy_file c;

		snprintf(path, sizeof(path), "%s/load-%zu.conf", dir, i);
		if (r->owner && !real_root) {
			tap_not_run(r->what, "needs real root to chown");
			continue;
		}
		if (r->kind == 0 && r->content) {
			write_file(path, r->content, r->mode);
			if (chown(path, r->owner, (gid_t)-1) < 0)
				tap_bail("chown");
		} else if (r->kind == 1) {
			snprintf(target, sizeof(target), "%s.target", path);
			write_file(target, r->content, r->mode);
			if (symlink(target, path) < 0)
				tap_bail("symlink");
		} else if (r->kind == 2 && mkdir(path, r->mode) < 0) {
			tap_bail("mkdir");
		} else if (r->kind == 3 && mkfifo(path, r->mode) < 0) {
			tap_bail("mkfifo");
		} else if (r->kind == 4) {
			static char big[1024 * 1024];
			int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

			memset(big, '#', sizeof(big));
			if (fd < 0 || write(fd, big, sizeof(big)) != sizeof(big))
				tap_bail("write");
			close(fd);
		}
		tf_policy_load(path, &c);
		if (r->problem[0])
			snprintf(want, sizeof(want), "%s: %s", path, r->problem);
		else
			want[0] = '\0';
		tap_ok(c.state == r->state && !strcmp(c.problem, want),
		       "load: %s", r->what);
		if (c.state != r->state || strcmp(c.problem, want))
			printf("#   want state %d <%s>, got %d <%s>\n", (int)r->state,
			       want, (int)c.state, c.problem);
		if (r->state == TRUSTED_FOR_FILE_FAIL_CLOSED)
			tap_ok(c.check_policy == 3 && c.enforce == ALL && c.audit,
			       "load: %s fails closed", r->what);
	}
}

/*
 * The race itself: a writer rewrites a strict file in place, as editors and
 * cp(1) do (O_TRUNC, then the content in several writes), while the reader
 * loads it again and again.  Every load must enforce everything: the complete
 * file says so, and whatever part of it the reader catches fails closed.
 * Bounded by the reader's count; the writer runs until it is stopped.
 */
static void rewrite_in_place(const char *path, int real_root)
{
	static const char *const pieces[] = { H, "policy = 3\n",
					       "enforce = all\n", "audit = on\n", E };
	enum { LOADS = 20000 };
	unsigned int weaker = 0, incomplete = 0, complete = 0;
	pid_t writer;
	int status;

	if (!real_root) {
		tap_not_run("load: racing an in-place rewrite", "needs real root");
		return;
	}
	write_file(path, "", 0644);
	writer = fork();
	if (writer < 0)
		tap_bail("fork");
	if (writer == 0) {
		for (;;) {
			int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

			if (fd < 0)
				_exit(1);
			for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
				if (write(fd, pieces[i], strlen(pieces[i])) < 0)
					_exit(1);
			close(fd);
		}
	}
	for (int i = 0; i < LOADS; i++) {
		struct tf_policy_file c;

		tf_policy_load(path, &c);
		if (c.check_policy != 3 || c.enforce != ALL)
			weaker++;
		if (c.state == TRUSTED_FOR_FILE_READ)
			complete++;
		else if (strstr(c.problem, "(incomplete)"))
			incomplete++;
		else
			printf("#   unexpected: %s\n", c.problem);
	}
	kill(writer, SIGKILL);
	waitpid(writer, &status, 0);
	printf("#   %d loads: %u complete, %u incomplete\n", LOADS, complete,
	       incomplete);
	tap_is_int(weaker, 0, "load: racing an in-place rewrite, no load enforces less than the file");
	tap_is_int(complete + incomplete, LOADS, "load: ... every load is the file or fails closed as incomplete");
	/* Otherwise the race was never run and the first case proves nothing. */
	tap_ok(incomplete > 0, "load: ... and the reader did catch the file half-written");
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	       "load: ... the writer kept writing until stopped");
}

/* /proc/self/uid_map as the kernel writes it, and what the loader makes of it. */
static void uid_maps(void)
{
	static const struct {
		const char *what, *map;
		int parses, identity;
		uint32_t inside; /* translated through the map: */
		long long outside; /* -1: unmapped */
	} rows[] = {
		{ "the initial namespace", "         0          0 4294967295\n", 1, 1, 0, 0 },
		{ "unshare -Ur by uid 1000", "         0       1000          1\n", 1, 0, 0, 1000 },
		{ "... where the real root is unmapped", "         0       1000          1\n", 1, 0, 65534, -1 },
		{ "root's unshare -Ur: uid 0 of the parent, maybe not the initial one", "0 0 1\n", 1, 0, 0, 0 },
		{ "a rootless container", "0 1000 1\n1 100000 65536\n", 1, 0, 1000, 100999 },
		{ "identity in two pieces is not the initial map", "0 0 1\n1 1 4294967294\n", 1, 0, 5, 5 },
		{ "a map not yet written", "", 1, 0, 0, -1 },
		{ "no newline", "0 0 4294967295", 0, 0, 0, -1 },
		{ "a number too large", "0 0 4294967296\n", 0, 0, 0, -1 },
		{ "a sign", "0 -1 4294967295\n", 0, 0, 0, -1 },
		{ "two fields", "0 0\n", 0, 0, 0, -1 },
		{ "a fourth field", "0 0 1 1\n", 0, 0, 0, -1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tf_uid_map m;
		uint32_t out = 0;
		int parses = tf_uid_map_parse(rows[i].map, &m) == 0;
		int mapped = parses && tf_uid_map_outside(&m, rows[i].inside, &out) == 0;

		tap_ok(parses == rows[i].parses &&
			       (!parses || (tf_uid_map_is_identity(&m) == rows[i].identity &&
					    (mapped ? (long long)out : -1) == rows[i].outside)),
		       "uid_map: %s", rows[i].what);
	}
}

/*
 * Whether uid 0 here is root of the initial namespace, against the kernel's
 * own maps: yes in this process (whoever runs it); no in a namespace whose
 * map is not written yet; in one mapping the user's own uid to 0, yes only
 * when that user is root.  The whole map, where it is read for a message,
 * agrees: the identity here, not in the namespaces.
 */
static void root_here(const char *where, int expected, int identity)
{
	char why[TRUSTED_FOR_MESSAGE_MAX] = "", why_all[TRUSTED_FOR_MESSAGE_MAX] = "";
	struct tf_uid_map m;
	int root = tf_root_is_initial(why, sizeof(why));
	int all = tf_uid_map_read(&m, why_all, sizeof(why_all)) < 0 ? -1 :
									 tf_uid_map_is_identity(&m);

	tap_ok(root == expected && all == identity,
	       "root of the initial namespace %s: uid 0 is it: %d (expected %d), identity map: %d (expected %d)",
	       where, root, expected, all, identity);
	if (root < 0 || all < 0)
		printf("#   <%s> <%s>\n", why, why_all);
}

static void root_in_userns(void *arg)
{
	char map[64];
	int fd, mapped = arg != NULL;
	uid_t uid = getuid();

	if (unshare(CLONE_NEWUSER) < 0) {
		tap_not_run("uid 0 in a user namespace", "unshare(CLONE_NEWUSER) refused");
		return;
	}
	if (mapped) {
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)uid);
		fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, map, strlen(map)) != (ssize_t)strlen(map))
			tap_bail("uid_map");
		close(fd);
	}
	root_here(mapped ? (uid == 0 ? "in root's namespace mapping 0 to 0"
				     : "in a user's namespace mapping their uid to 0")
			 : "in a namespace not mapped yet",
		  mapped && uid == 0, 0);
}

/*
 * A filter's forged open() answers 0, and answers the same call made again
 * the same way; a real open made again while the first is held never gives
 * the same descriptor.
 */
static void forged_opens(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	errno = 0;
	tap_ok(tf_unforged(0, 0) == -1 && errno == EBADF,
	       "forged open: 0, and 0 again, is refused (EBADF)");
	tap_ok(tf_unforged(0, -1) == -1 && errno == EBADF,
	       "forged open: 0, and an error again, is refused (EBADF)");
	tap_is_int(tf_unforged(0, fd), 0, "a real 0: the open made again gave another descriptor");
	tap_ok(fcntl(fd, F_GETFD) == -1 && errno == EBADF, "... which is closed");
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	tap_is_int(tf_unforged(fd, 0), fd, "a descriptor other than 0 passes");
	errno = 0;
	tap_ok(tf_unforged(-1, 0) == -1 && errno == 0, "a failed open stays failed");
	if (fd >= 0)
		close(fd);
}

/* A file of /proc/self, written in one go. */
static int write_self(const char *name, const char *text)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/proc/self/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/*
 * What a user's own namespace can bind over /proc in place of procfs's
 * root, as uid 65534: a directory of procfs owned by them (their process's,
 * and their network namespace's two that hold an entry named after an
 * interface renamed "self", a directory and a plain file), each told apart
 * from procfs's own link.  In a child that never returns to the real /proc
 * (a sanitizer at exit would look for it).
 */
struct stand_in {
	const char *what, *source, *why;
};

static void proc_stand_in(void *arg)
{
	const struct stand_in *t = arg;
	char why[TRUSTED_FOR_MESSAGE_MAX] = "", source[64];
	int r;

	if (getuid() == 0 && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
			      setresuid(65534, 65534, 65534) < 0 ||
			      /* A change of uid leaves /proc/self root's. */
			      prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0))
		tap_bail("become uid 65534");
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) < 0) {
		tap_not_run(t->what, "unshare(CLONE_NEWUSER) refused");
		return;
	}
	if (write_self("uid_map", "0 65534 1\n") < 0 || write_self("setgroups", "deny") < 0 ||
	    write_self("gid_map", "0 65534 1\n") < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		tap_bail("a user namespace of uid 65534's own");
	if (strstr(t->source, "net") && system("ip link set lo name self") != 0)
		tap_bail("ip link set lo name self");
	snprintf(source, sizeof(source), t->source, (int)getpid());
	if (access(source, F_OK) < 0 && errno == ENOENT) {
		/* dev_snmp6 is IPv6's: the guests' kernels have none. */
		tap_na(t->what, "this kernel has no such procfs directory");
		return;
	}
	if (mount(source, "/proc", NULL, MS_BIND, NULL) < 0)
		tap_bail("bind mount over /proc");
	r = tf_root_is_initial(why, sizeof(why));
	tap_ok(r == -1 && !strcmp(why, t->why), "uid 65534, %s over /proc: %d <%s>", t->what, r, why);
}

static void identity_first_line(void)
{
	static const struct stand_in stand_ins[] = {
		{ "their process's directory", "/proc/%d",
		  "cannot tell the user namespace: /proc/self: No such file or directory" },
		{ "a sysctl directory with their interface \"self\"", "/proc/sys/net/ipv4/conf",
		  "cannot tell the user namespace: /proc/self is not procfs's own link" },
		{ "dev_snmp6, with a file for their interface \"self\"", "/proc/%d/net/dev_snmp6",
		  "cannot tell the user namespace: /proc/self is not procfs's own link" },
	};

	root_here("in this process", 1, 1);
	tap_in_child(root_in_userns, NULL);
	tap_in_child(root_in_userns, "mapped");
	for (size_t i = 0; i < sizeof(stand_ins) / sizeof(stand_ins[0]); i++)
		tap_in_child(proc_stand_in, (void *)&stand_ins[i]);
}

/*
 * A process that only calls trusted_for() never asks for the policy, and
 * must still say, once, why its policy file fails closed.
 */
static char logged[4][TRUSTED_FOR_MESSAGE_MAX + 64];
static int nlogged;

static void keep_log(int priority, const char *line, void *data)
{
	(void)data;
	if (nlogged < 4)
		snprintf(logged[nlogged], sizeof(logged[0]), "%d %s", priority, line);
	nlogged++;
}

/*
 * trusted_for_read_policy_file(): a file judged, never put in force (what
 * trusted-for policy check and install stand on).  A draft of a user's,
 * mode 0664, passes on its content and fails as the installed file would.
 */
static void read_not_in_force(void *arg)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT, now = TRUSTED_FOR_CONFIG_INIT;
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/draft.conf", (const char *)arg);
	write_file(path, "trustedfor-policy 1\npolicy = 2\nenforce = file\naudit = on\nend\n",
		   0664);
	if (chown(path, 65534, 65534) < 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		tap_bail(path);
	tap_is_int(trusted_for_read_policy_file(fd, TRUSTED_FOR_POLICY_CONTENT, &c), 0,
		   "read_policy_file: a draft's content: 0");
	tap_ok(c.file_state == TRUSTED_FOR_FILE_READ && c.check_policy == 2 &&
		       c.check_policy_source == TRUSTED_FOR_SOURCE_FILE &&
		       c.file_enforce == TRUSTED_FOR_ENFORCE_FILE && c.audit && !c.file_path[0],
	       "read_policy_file: ... read: policy 2, enforce file, audit on, no path");
	lseek(fd, 0, SEEK_SET);
	trusted_for_read_policy_file(fd, 0, &c);
	tap_is_str(c.file_problem, "owned by uid 65534, not root",
		   "read_policy_file: the same file as if in place: its owner fails it");
	tap_is_int(c.file_state, TRUSTED_FOR_FILE_FAIL_CLOSED, "read_policy_file: ... failing closed");
	close(fd);
	errno = 0;
	tap_ok(trusted_for_read_policy_file(-1, TRUSTED_FOR_POLICY_CONTENT, &c) == -1 &&
		       errno == EINVAL,
	       "read_policy_file: the installed file by its content alone is EINVAL");
	errno = 0;
	tap_ok(trusted_for_read_policy_file(0, 2, &c) == -1 && errno == EINVAL,
	       "read_policy_file: an unknown flag is EINVAL");
	trusted_for_get_config(&now);
	tap_ok(now.file_state == TRUSTED_FOR_FILE_ABSENT && now.file_enforce == 0,
	       "read_policy_file: nothing it read is in force");
}

/* What the bad file is logged as, for uid 65534 or for root. */
static const char *bad_file_line;

static void seed_call_logs(void *arg)
{
	const char *dir = arg;
	char want[256];
	int fd;

	if (strstr(bad_file_line, "enforcing everything"))
		tap_become_nobody();
	trusted_for_set_log_fn(keep_log, NULL);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (int i = 0; i < 3; i++) {
		errno = 0;
		tap_ok(trusted_for(fd, TRUSTED_FOR_EXECUTION, 0) == -1 && errno == EACCES,
		       "trusted_for() only, call %d: a directory is refused (EACCES)", i + 1);
	}
	close(fd);
	snprintf(want, sizeof(want), "%d %s: /etc/trustedfor.conf: line 2: bad value '9' for policy",
		 LOG_ERR, bad_file_line);
	tap_ok(nlogged == 1 && !strcmp(logged[0], want),
	       "trusted_for() only: the bad policy file is logged once%s",
	       strstr(bad_file_line, "root") ? ", for root with its fix" : "");
	for (int i = 0; i < nlogged && i < 4; i++)
		printf("#   logged <%s>\n", logged[i]);
}

int main(void)
{
	char dir[256];
	int root;

	parse_rows();
	parse_prefixes();
	parse_sizes();
	uid_maps();
	identity_first_line();
	forged_opens();
	root = tap_private_namespace(dir, sizeof(dir));
	if (root < 0)
		tap_not_run("policy file loading", "needs root or user namespaces");
	else {
		char path[512];

		load_rows(dir, root);
		if (!root)
			tap_not_run("trusted_for() only logs the bad policy file",
				    "needs real root: only root's file is read");
		else if (tap_policy_file(dir, "policy = 9\n", 0644, 0) < 0)
			tap_bail("policy file");
		else {
			bad_file_line = "bad policy file, enforcing everything";
			tap_in_child(seed_call_logs, dir);
			bad_file_line = "bad policy file, not enforced for root and group 27 (every other user: "
					"everything enforced); fix it with 'trusted-for policy edit'";
			tap_in_child(seed_call_logs, dir);
		}
		if (root && tap_policy_file(dir, NULL, 0644, 0) == 0)
			tap_in_child(read_not_in_force, dir);
		snprintf(path, sizeof(path), "%s/rewritten.conf", dir);
		rewrite_in_place(path, root);
	}
	return tap_done();
}
