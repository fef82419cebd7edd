/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy-file parser and loader: every row one input, one exact result. */
#include "../tap.h"

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

static const struct row rows[] = {
	{ "empty file", "", 0, 3, 0, 0, SYSLOG, NULL },
	{ "comments and blank lines", "# a comment\n\n   \n\t# indented\n", 0, 3, 0, 0, SYSLOG, NULL },
	{ "policy 0", "policy = 0\n", 0, 0, 0, 0, SYSLOG, NULL },
	{ "policy 1", "policy = 1\n", 0, 1, 0, 0, SYSLOG, NULL },
	{ "policy 2 without spaces or final newline", "policy=2", 0, 2, 0, 0, SYSLOG, NULL },
	{ "tabs and spaces around key and value", "  policy\t=\t1  \n", 0, 1, 0, 0, SYSLOG, NULL },
	{ "enforce file", "enforce = file\n", 0, 3, TRUSTED_FOR_ENFORCE_FILE, 0, SYSLOG, NULL },
	{ "enforce interactive", "enforce = interactive\n", 0, 3, TRUSTED_FOR_ENFORCE_INTERACTIVE, 0, SYSLOG, NULL },
	{ "enforce both", "enforce = file,interactive\n", 0, 3, ALL, 0, SYSLOG, NULL },
	{ "enforce all", "enforce = all\n", 0, 3, ALL, 0, SYSLOG, NULL },
	{ "enforce none", "enforce = none\n", 0, 3, 0, 0, SYSLOG, NULL },
	{ "audit on", "audit = on\n", 0, 3, 0, 1, SYSLOG, NULL },
	{ "audit off", "audit = off\n", 0, 3, 0, 0, SYSLOG, NULL },
	{ "log stderr", "log = stderr\n", 0, 3, 0, 0, STDERR, NULL },
	{ "log none", "log = none\n", 0, 3, 0, 0, NONE, NULL },
	{ "a whole file", "# Debian\npolicy = 1\nenforce = file\naudit = on\nlog = syslog\n", 0, 1, TRUSTED_FOR_ENFORCE_FILE, 1, SYSLOG, NULL },
	{ "UTF-8 in a comment", "# politique d\xc3\xa9" "faut\npolicy = 1\n", 0, 1, 0, 0, SYSLOG, NULL },
	{ "policy out of range", "policy = 4\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value '4' for policy" },
	{ "policy not a number", "policy = mount\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value 'mount' for policy" },
	{ "policy with two digits", "policy = 01\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value '01' for policy" },
	{ "empty value", "policy =\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value '' for policy" },
	{ "trailing comment", "policy = 1 # mount\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value '1 # mount' for policy" },
	{ "no equals sign", "policy 1\n", 0, 3, ALL, 1, SYSLOG, "line 1: expected key = value" },
	{ "unknown key", "# ok\nbackend = emulated\n", 0, 3, ALL, 1, SYSLOG, "line 2: unknown key 'backend'" },
	{ "keys are case-sensitive", "Policy = 1\n", 0, 3, ALL, 1, SYSLOG, "line 1: unknown key 'Policy'" },
	{ "empty key", "= 1\n", 0, 3, ALL, 1, SYSLOG, "line 1: unknown key ''" },
	{ "duplicate key", "policy = 1\npolicy = 1\n", 0, 3, ALL, 1, SYSLOG, "line 2: duplicate key 'policy'" },
	{ "duplicate key, other value", "enforce = none\naudit = on\nenforce = file\n", 0, 3, ALL, 1, SYSLOG, "line 3: duplicate key 'enforce'" },
	{ "bad enforce word", "enforce = files\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value 'files' for enforce" },
	{ "empty enforce item", "enforce = file,,interactive\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value 'file,,interactive' for enforce" },
	{ "spaces inside an enforce list", "enforce = file, interactive\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value 'file, interactive' for enforce" },
	{ "bad audit value", "audit = yes\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value 'yes' for audit" },
	{ "bad log target", "log = /var/log/x\n", 0, 3, ALL, 1, SYSLOG, "line 1: bad value '/var/log/x' for log" },
	{ "a bad file keeps logging to stderr", "log = stderr\nbogus\n", 0, 3, ALL, 1, STDERR, "line 2: expected key = value" },
	{ "a bad file never logs to nowhere", "log = none\nbogus\n", 0, 3, ALL, 1, SYSLOG, "line 2: expected key = value" },
	{ "CRLF line ends", "policy = 1\r\n", 0, 3, ALL, 1, SYSLOG, "line 1: carriage return" },
	{ "NUL byte", "policy = 1\n\0policy = 0\n", 22, 3, ALL, 1, SYSLOG, "line 2: NUL byte" },
	{ "NUL byte hiding the rest of a value", "policy = 1\0 0\n", 14, 3, ALL, 1, SYSLOG, "line 1: NUL byte" },
	{ "escape character", "policy = 1\x1b[2K\n", 0, 3, ALL, 1, SYSLOG, "line 1: control character" },
	{ "DEL character", "policy = 1\x7f\n", 0, 3, ALL, 1, SYSLOG, "line 1: control character" },
};

static void parse_rows(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct tf_config c;
		size_t len = r->len ? r->len : strlen(r->input);
		int got = tf_policy_parse(r->input, len, &c);
		int same = got == (r->problem ? -1 : 0) && c.policy == r->policy &&
			   c.enforce == r->enforce && c.audit == r->audit &&
			   c.log_target == r->log &&
			   c.state == (r->problem ? TRUSTED_FOR_SOURCE_FAIL_CLOSED :
						    TRUSTED_FOR_SOURCE_FILE) &&
			   !strcmp(c.problem, r->problem ? r->problem : "");

		tap_ok(same, "parse: %s", r->what);
		if (!same)
			printf("#   got %d policy %u enforce %u audit %d log %d state %d problem <%s>\n",
			       got, c.policy, c.enforce, c.audit, (int)c.log_target,
			       (int)c.state, c.problem);
	}
}

static void parse_sizes(void)
{
	static char big[1024 * 1024];
	char line[300];
	struct tf_config c;

	memset(line, 'a', sizeof(line));
	memcpy(line, "# ", 2);
	tap_is_int(tf_policy_parse(line, 257, &c), -1, "parse: a 257-byte line fails");
	tap_is_str(c.problem, "line 1: longer than 256 bytes", "parse: ... saying so");
	line[256] = '\n';
	tap_is_int(tf_policy_parse(line, 257, &c), 0, "parse: a 256-byte line is fine");
	memset(big, '\n', sizeof(big));
	tap_is_int(tf_policy_parse(big, sizeof(big), &c), -1, "parse: a 1 MiB file fails");
	tap_is_str(c.problem, "larger than 65536 bytes", "parse: ... saying so");
	tap_is_int(c.enforce, ALL, "parse: ... and enforces everything");
	tap_is_int(tf_policy_parse(big, TF_POLICY_FILE_MAX, &c), 0,
		   "parse: a file of exactly 64 KiB is fine");
}

struct load_row {
	const char *what;
	const char *content; /* NULL: no file */
	mode_t mode;
	uid_t owner;
	int kind; /* 0 file, 1 symlink, 2 directory, 3 FIFO, 4 1 MiB file */
	enum trusted_for_source state;
	const char *problem;
};

static void load_rows(const char *dir, int real_root)
{
	static const struct load_row rows[] = {
		{ "missing file: defaults", NULL, 0, 0, 0, TRUSTED_FOR_SOURCE_DEFAULT, "" },
		{ "root-owned 0644", "policy = 1\n", 0644, 0, 0, TRUSTED_FOR_SOURCE_FILE, "" },
		{ "root-owned 0600", "policy = 1\n", 0600, 0, 0, TRUSTED_FOR_SOURCE_FILE, "" },
		{ "root-owned 0444", "policy = 1\n", 0444, 0, 0, TRUSTED_FOR_SOURCE_FILE, "" },
		{ "owned by a user", "policy = 1\n", 0644, 65534, 0, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "owned by uid 65534, not root" },
		{ "group-writable", "policy = 1\n", 0664, 0, 0, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "writable by group or others (mode 0664)" },
		{ "other-writable", "policy = 1\n", 0602, 0, 0, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "writable by group or others (mode 0602)" },
		{ "a symbolic link", "policy = 1\n", 0644, 0, 1, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "cannot open: a symbolic link" },
		{ "a directory", "", 0755, 0, 2, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "not a regular file" },
		{ "a FIFO (must not hang)", "", 0644, 0, 3, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "not a regular file" },
		{ "a 1 MiB file", "", 0644, 0, 4, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "larger than 65536 bytes" },
		{ "a bad line", "policy = 1\nsecurebits = off\n", 0644, 0, 0, TRUSTED_FOR_SOURCE_FAIL_CLOSED, "line 2: unknown key 'securebits'" },
	};
	char path[512], target[600], want[700];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct load_row *r = &rows[i];
		struct tf_config c;

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
		if (r->state == TRUSTED_FOR_SOURCE_FAIL_CLOSED)
			tap_ok(c.policy == 3 && c.enforce == ALL && c.audit,
			       "load: %s fails closed", r->what);
	}
}

int main(void)
{
	char dir[256];
	int root;

	parse_rows();
	parse_sizes();
	root = tap_private_namespace(dir, sizeof(dir));
	if (root < 0)
		tap_not_run("policy file loading", "needs root or user namespaces");
	else
		load_rows(dir, root);
	return tap_done();
}
