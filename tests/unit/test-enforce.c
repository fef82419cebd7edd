/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The enforcement layer: docs/semantics.md section 3's table of modes, the policy file
 * and the environment (which only ever tighten), and the audit log.  Each
 * case runs in a child of its own, because the library reads the policy file
 * and the environment once per process.
 */
#include "../tap.h"

#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <syslog.h>

#include "internal.h"
#include "missing.h"

#define RESTRICT SECBIT_EXEC_RESTRICT_FILE
#define DENY SECBIT_EXEC_DENY_INTERACTIVE

static char dir[256];
static char log_lines[8][4096];
static int log_priority[8], log_count;

static void capture_log(int priority, const char *line, void *data)
{
	(void)data;
	if (log_count < 8) {
		log_priority[log_count] = priority;
		snprintf(log_lines[log_count], sizeof(log_lines[0]), "%s", line);
	}
	log_count++;
}

static int open_script(const char *where)
{
	return tap_open_script(dir, where);
}

/* Runs fn in a child with the securebits, environment and policy given. */
struct setting {
	const char *what;
	unsigned int bits;
	const char *env;
	void (*fn)(const char *what);
};

/* Who the child is: 0 as the test runs, else uid 65534; in the
 * administrators' group (admin_gid) beside, or in a user namespace of its
 * own that maps that gid onto its own. */
static uid_t child_uid;
static enum { NO_GROUP, ADMIN_GROUP, ADMIN_GID_IN_USERNS } child_group;
/* A filter for the child's library to meet, or none. */
static void (*child_filter)(void);

/* What any user can do: a namespace whose gid_map carries the user's own
 * gid to the administrators' gid, and that gid taken. */
static void become_admin_gid_in_userns(void)
{
	char map[64];

	/* As a process the user started would be (the change of uid made
	 * this one non-dumpable, its /proc/self root's). */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0 || unshare(CLONE_NEWUSER) < 0)
		tap_bail("unshare(CLONE_NEWUSER) as uid 65534");
	snprintf(map, sizeof(map), "%ld 65534 1\n", tf_admin_gid());
	if (write_proc("/proc/self/setgroups", "deny") < 0 ||
	    write_proc("/proc/self/gid_map", map) < 0 ||
	    write_proc("/proc/self/uid_map", "65534 65534 1\n") < 0 ||
	    setresgid((gid_t)tf_admin_gid(), (gid_t)tf_admin_gid(), (gid_t)tf_admin_gid()) < 0 ||
	    getgid() != (gid_t)tf_admin_gid())
		tap_bail("the administrators' gid in a user namespace");
}

static void child(void *arg)
{
	const struct setting *s = arg;

	if (child_group == ADMIN_GROUP) {
		gid_t admin = (gid_t)tf_admin_gid();

		if (setgroups(1, &admin) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			tap_bail("uid 65534 in the administrators' group");
	} else if (child_uid) {
		tap_become_nobody();
	}
	if (child_group == ADMIN_GID_IN_USERNS)
		become_admin_gid_in_userns();
	if (child_filter)
		child_filter();
	if (s->env)
		setenv("TRUSTEDFOR_ENFORCE", s->env, 1);
	if (s->bits && prctl(PR_SET_SECUREBITS, s->bits, 0, 0, 0) < 0)
		tap_bail("PR_SET_SECUREBITS");
	trusted_for_set_log_fn(capture_log, NULL);
	s->fn(s->what);
}

/* Runs fn in a child with the securebits, environment and policy given. */
static void in_child(const char *what, unsigned int bits, const char *env,
		     const char *policy_file, void (*fn)(const char *what))
{
	struct setting s = { what, bits, env, fn };
	int status;

	if (tap_policy_file(dir, policy_file, 0644, 0) < 0)
		tap_bail("policy file");
	status = tap_in_child(child, &s);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		tap_ok(0, "%s: the child ran to its end", what);
}

static unsigned int mode_bits;

/* docs/semantics.md section 3: what each of the four modes lets through. */
static void decision_table(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	int restrict_file = !!(mode_bits & RESTRICT), deny = !!(mode_bits & DENY);
	int fd, p[2];

	fd = open_script("exec");
	tap_is_int(trusted_for_allow_file(fd, "good", &v), 0,
		   "%s: a file that passes runs", what);
	close(fd);
	fd = open_script("noexec");
	tap_is_int(trusted_for_allow_file(fd, "evil", &v), restrict_file ? -1 : 0,
		   "%s: a file that fails %s", what, restrict_file ? "is refused" : "runs");
	tap_is_str(v.message, "evil: not trusted for execution: noexec mount",
		   "%s: ... and the verdict says why", what);
	tap_is_int(v.trusted, 0, "%s: ... checked either way", what);
	close(fd);
	tap_is_int(trusted_for_allow_interactive(-1, "-c", &v), deny ? -1 : 0,
		   "%s: -c %s", what, deny ? "is refused" : "runs");
	tap_is_str(v.message, deny ? "-c: interactive code refused" :
				     "-c: interactive code allowed (not enforced)",
		   "%s: ... with the message", what);
	fd = open_script("exec");
	tap_is_int(trusted_for_allow_interactive(fd, "<stdin>", &v), 0,
		   "%s: stdin that passes the check runs", what);
	close(fd);
	fd = open_script("noexec");
	tap_is_int(trusted_for_allow_interactive(fd, "<stdin>", &v), deny ? -1 : 0,
		   "%s: stdin that fails the check %s", what, deny ? "is refused" : "runs");
	close(fd);
	if (pipe(p) < 0)
		tap_bail("pipe");
	tap_is_int(trusted_for_allow_interactive(p[0], "<stdin>", &v), deny ? -1 : 0,
		   "%s: a pipe on stdin %s", what, deny ? "is refused" : "runs");
	if (deny)
		tap_is_str(v.message,
			   "<stdin>: interactive code refused: not a regular file: FIFO or pipe",
			   "%s: ... with the message", what);
	tap_is_int(log_count, restrict_file + 3 * deny,
		   "%s: every refusal is logged, nothing else (audit off)", what);
}

static int evil_refused(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	int fd = open_script("noexec"), r;

	r = trusted_for_allow_file(fd, "evil", &v);
	close(fd);
	return r == -1 && errno == EACCES && !v.allowed;
}

static int interactive_refused(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	return trusted_for_allow_interactive(-1, "-c", &v) == -1;
}

static void refused_both(const char *what)
{
	tap_ok(evil_refused(), "%s: a failing file is refused", what);
	tap_ok(interactive_refused(), "%s: interactive code is refused", what);
}

static void refused_file_only(const char *what)
{
	tap_ok(evil_refused(), "%s: a failing file is refused", what);
	tap_ok(!interactive_refused(), "%s: interactive code runs", what);
}

static void allowed_both(const char *what)
{
	tap_ok(!evil_refused(), "%s: a failing file runs", what);
	tap_ok(!interactive_refused(), "%s: interactive code runs", what);
}

static void refused_interactive_only(const char *what)
{
	tap_ok(!evil_refused(), "%s: a failing file runs", what);
	tap_ok(interactive_refused(), "%s: interactive code is refused", what);
}

static void strengthen(const char *what)
{
	tap_ok(!evil_refused(), "%s: before: a failing file runs", what);
	tap_is_int(trusted_for_strengthen(TRUSTED_FOR_ENFORCE_FILE), 0,
		   "%s: raising file enforcement", what);
	tap_ok(evil_refused(), "%s: after: a failing file is refused", what);
	tap_is_int(trusted_for_strengthen(0), 0, "%s: raising nothing", what);
	tap_ok(evil_refused(), "%s: ... lowers nothing", what);
	errno = 0;
	tap_ok(trusted_for_strengthen(4) == -1 && errno == EINVAL,
	       "%s: an unknown bit is EINVAL", what);
	tap_ok(!interactive_refused(), "%s: interactive code still runs", what);
}

static void log_refusal(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char want[2048], exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd = open_script("noexec");
	struct stat st;

	exe[n > 0 ? n : 0] = '\0';
	if (fstat(fd, &st) < 0)
		tap_bail("fstat");
	trusted_for_allow_file(fd, "evil \"x\"\n.py", &v);
	close(fd);
	snprintf(want, sizeof(want),
		 "refused file=\"evil \\x22x\\x22\\x0a.py\" reason=\"noexec mount\" detail=\"%s/noexec\" policy=3 enforced-by=\"securebits\" pid=%d exe=\"%s\" path=\"%s/noexec/script\" dev=%u:%u ino=%llu",
		 dir, (int)getpid(), exe, dir, major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino);
	tap_is_int(log_count, 1, "%s: one line for one refusal", what);
	tap_is_str(log_lines[0], want, "%s: the line, quotes and newline escaped", what);
	tap_is_int(log_priority[0], LOG_WARNING, "%s: at LOG_WARNING", what);
}

/*
 * A launcher's own finding against a file (trusted_for_allow_failed_file)
 * reads, enforces and logs as a failed check.
 */
static void failed_file(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	int enforced = strcmp(what, "a launcher's own finding, files enforced") == 0;
	const char *want_log = enforced ?
		"refused file=\"lib\\x1b.so\" reason=\"check failed\" detail=\"not the file that was mapped\" policy=3 enforced-by=\"TRUSTEDFOR_ENFORCE\" pid=" :
		"audit file=\"lib\\x1b.so\" reason=\"check failed\" detail=\"not the file that was mapped\" policy=3 enforced-by=\"none\" pid=";

	errno = 0;
	tap_is_int(trusted_for_allow_failed_file(-1, "lib\033.so", "not the file that was mapped", &v),
		   enforced ? -1 : 0, "%s: %s", what, enforced ? "refused" : "allowed");
	tap_is_int(enforced ? errno : 0, enforced ? EACCES : 0, "%s: ... EACCES when refused", what);
	tap_is_str(v.message, "lib?.so: not trusted for execution: not the file that was mapped",
		   "%s: ... the message, made printable", what);
	tap_is_int(v.reason, TRUSTED_FOR_ERROR, "%s: ... a failed check's reason", what);
	tap_is_int(v.allowed, !enforced, "%s: ... and the verdict's decision", what);
	tap_is_int(log_count, 1, "%s: ... logged once", what);
	tap_ok(log_count && !strncmp(log_lines[0], want_log, strlen(want_log)),
	       "%s: ... as a failed check: %s", what, log_count ? log_lines[0] : "(none)");
}

/* Names longer than a message or a log value keep their tail. */
static void long_names(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char name[700], want[700], *value, *end;
	int fd = open_script("noexec");

	memset(name, 0, sizeof(name));
	for (int i = 0; i < 15; i++)
		strcat(name, "/a-directory-name-of-forty-characters-xx");
	strcat(name, "/evil.py");
	trusted_for_allow_file(fd, name, &v);
	snprintf(want, sizeof(want), "\xe2\x80\xa6%s: not trusted for execution: noexec mount",
		 name + strlen(name) - (6 * 40 + 8));
	tap_is_str(v.message, want, "%s: a 608-byte name keeps its tail in the message", what);
	value = strstr(log_lines[0], "file=\"");
	end = value ? strstr(value + 6, "\" reason=") : NULL;
	snprintf(want, sizeof(want), "file=\"\xe2\x80\xa6%s\"", name + strlen(name) - (12 * 40 + 8));
	tap_ok(value && end && (size_t)(end - value - 6) <= 511 &&
	       !strncmp(value, want, strlen(want)),
	       "%s: ... and in the log line, at most 511 bytes", what);
	if (!(value && end && !strncmp(value, want, strlen(want))))
		printf("#   want <%s>\n#   got  <%s>\n", want, log_lines[0]);
	tap_ok(strstr(log_lines[0], " path=\"") && strstr(log_lines[0], "/noexec/script\" dev="),
	       "%s: ... which names the resolved path too", what);
	trusted_for_allow_interactive(-1, "\033]0;title\a\xc2\x9b" "2J", &v);
	tap_is_str(v.message, "?]0;title???2J: interactive code refused",
		   "%s: an interactive name's escapes become '?'", what);
	close(fd);
}

/*
 * A verdict of the caller's own size is filled where it is: a name read
 * from that same verdict must be read before it is overwritten, and every
 * path leaves the size as the caller set it.
 */
static void name_in_verdict(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	int fd = open_script("exec");

	tap_is_int(trusted_for_allow_file(fd, "good", &v), 0, "%s: a file that passes runs", what);
	tap_is_int(trusted_for_allow_file(fd, v.message, &v), 0,
		   "%s: ... and again, named by the verdict's own message", what);
	tap_is_str(v.message, "good: trusted for execution: trusted for execution",
		   "%s: ... which was read before the verdict was filled", what);
	tap_is_int(v.size, (int)sizeof(v), "%s: ... the size as it was", what);
	tap_is_int(trusted_for_allow_interactive(-1, "-c", &v), 0, "%s: -c runs", what);
	tap_is_str(v.message, "-c: interactive code allowed (not enforced)",
		   "%s: ... with the message", what);
	tap_is_int(v.size, (int)sizeof(v), "%s: ... the size as it was", what);
	close(fd);
}

static void log_audit(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	int fd = open_script("noexec");

	tap_is_int(trusted_for_allow_file(fd, "evil", &v), 0, "%s: the file runs", what);
	close(fd);
	tap_is_int(log_count, 1, "%s: the failed check is logged", what);
	tap_ok(!strncmp(log_lines[0], "audit file=\"evil\" reason=\"noexec mount\"", 39),
	       "%s: as an audit line", what);
	tap_is_int(log_priority[0], LOG_NOTICE, "%s: at LOG_NOTICE", what);
}

static void log_bad_policy(const char *what)
{
	tap_ok(evil_refused(), "%s: a failing file is refused", what);
	tap_is_str(log_count >= 1 ? log_lines[0] : "(nothing logged)",
		   "bad policy file, enforcing everything: /etc/trustedfor.conf: line 2: unknown key 'enforcement'",
		   "%s: the reason is logged first", what);
	tap_is_int(log_priority[0], LOG_ERR, "%s: at LOG_ERR", what);
}

/* Root is not held to a bad file: it is logged as such, and nothing more. */
static void root_bad_policy(const char *what)
{
	allowed_both(what);
	tap_is_str(log_count >= 1 ? log_lines[0] : "(nothing logged)",
		   "bad policy file, not enforced for root and group 27 (every other user: everything "
		   "enforced); fix it with 'trusted-for policy edit': /etc/trustedfor.conf: "
		   "line 4: content after 'end'",
		   "%s: the reason is logged, and the fix", what);
	tap_is_int(log_priority[0], LOG_ERR, "%s: at LOG_ERR", what);
}

/* An administrator is not held to a bad file either; said so, once. */
static void admin_bad_policy(const char *what)
{
	char want[TRUSTED_FOR_MESSAGE_MAX];

	tap_ok(getuid() == 65534 && geteuid() == 65534, "%s: the child is uid 65534", what);
	allowed_both(what);
	snprintf(want, sizeof(want),
		 "bad policy file, not enforced for root and group %ld (every other user: "
		 "everything enforced); fix it with 'trusted-for policy edit': "
		 "/etc/trustedfor.conf: line 4: content after 'end'",
		 tf_admin_gid());
	tap_is_str(log_count >= 1 ? log_lines[0] : "(nothing logged)", want,
		   "%s: the reason is logged, and the fix", what);
}

/* The gid a user's own namespace gives is not the administrators' group. */
static void userns_admin_bad_policy(const char *what)
{
	tap_ok(getgid() == (gid_t)tf_admin_gid(), "%s: the child's gid is %ld there", what,
	       tf_admin_gid());
	refused_both(what);
	/* There the file is not root's either, another reason for the same. */
	tap_is_str(log_count >= 1 ? log_lines[0] : "(nothing logged)",
		   "bad policy file, enforcing everything: /etc/trustedfor.conf: owned by "
		   "uid 65534 here, uid 65534 in the parent user namespace (uid_map 65534 "
		   "65534 1): only root of the initial one counts",
		   "%s: logged as everyone's bad file", what);
}

/* getresuid() answered 0 by a filter, its outputs unwritten. */
static void forge_getresuid(void)
{
	scmp_filter_ctx f = tap_filter_new(SCMP_ACT_ALLOW);
	int r = seccomp_rule_add(f, SCMP_ACT_ERRNO(0), SCMP_SYS(getresuid), 0);

	if (tap_filter_load(f, r) < 0)
		tap_bail("seccomp");
}

static void forged_root(const char *what)
{
	uid_t r = 1, e = 1, s = 1;

	tap_ok(getresuid(&r, &e, &s) == 0 && r == 1 && e == 1,
	       "%s: the filter answers 0 and writes nothing", what);
	refused_both(what);
	tap_is_str(log_count >= 1 ? log_lines[0] : "(nothing logged)",
		   "bad policy file, enforcing everything: /etc/trustedfor.conf: "
		   "line 4: content after 'end'",
		   "%s: logged as everyone's bad file", what);
}

static void log_bad_policy_escapes(const char *what)
{
	tap_ok(evil_refused(), "%s: a failing file is refused", what);
	tap_is_str(log_count >= 1 ? log_lines[0] : "(nothing logged)",
		   "bad policy file, enforcing everything: /etc/trustedfor.conf: line 2: unknown key '??2Jkey'",
		   "%s: the key is quoted without its C1 control", what);
}

static void policy_zero(const char *what)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	int p[2];

	tap_ok(!evil_refused(), "%s: policy 0 trusts a noexec file, even enforced", what);
	tap_ok(interactive_refused(), "%s: ... but interactive code is still refused", what);
	if (pipe(p) < 0)
		tap_bail("pipe");
	tap_is_int(trusted_for_allow_interactive(p[0], "<stdin>", &v), -1,
		   "%s: ... and so is a pipe on stdin, which policy 0 trusts", what);
	tap_is_str(v.message, "<stdin>: interactive code refused: not a regular file: FIFO or pipe",
		   "%s: ... saying why", what);
}

/*
 * trusted_for_get_enforcement(): what trusted_for_get_config() says in
 * enforce and audit, without the kernel probe.  Asked first, in a process
 * that execveat() kills (the probe's call), it must leave it alive.
 */
static unsigned int want_enforce, strengthen_by;
static bool want_audit;

static void kill_on_execveat(void)
{
	scmp_filter_ctx f = tap_filter_new(SCMP_ACT_KILL_PROCESS);
	int r = seccomp_rule_add(f, SCMP_ACT_KILL_PROCESS, SCMP_SYS(execveat), 0);

	if (tap_filter_load(f, r) < 0)
		tap_bail("seccomp");
}

static void enforcement(const char *what)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT;
	struct answer {
		int r;
		unsigned int enforce;
		bool audit;
	} *got = mmap(NULL, sizeof(*got), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	unsigned int enforce = 7;
	bool audit = true;
	int status;
	pid_t pid;

	if (got == MAP_FAILED)
		tap_bail("mmap");
	got->r = -2;
	if (strengthen_by && trusted_for_strengthen(strengthen_by) < 0)
		tap_bail("trusted_for_strengthen");
	pid = fork();
	if (pid < 0)
		tap_bail("fork");
	if (pid == 0) {
		kill_on_execveat();
		got->r = trusted_for_get_enforcement(&got->enforce, &got->audit);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		tap_bail("waitpid");
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "%s: get_enforcement() leaves the kernel unprobed (status %#x)", what, status);
	tap_is_int(got->r, 0, "%s: ... returns 0", what);
	tap_is_int((int)got->enforce, (int)want_enforce, "%s: ... enforce", what);
	tap_is_int(got->audit, want_audit, "%s: ... audit", what);
	tap_is_int(trusted_for_get_config(&c), 0, "%s: get_config() returns 0", what);
	tap_is_int((int)c.enforce, (int)want_enforce, "%s: ... the same enforce", what);
	tap_is_int(c.audit, want_audit, "%s: ... the same audit", what);
	errno = 0;
	tap_ok(trusted_for_get_enforcement(NULL, &audit) == -1 && errno == EINVAL,
	       "%s: get_enforcement(NULL, ...) is EINVAL", what);
	errno = 0;
	tap_ok(trusted_for_get_enforcement(&enforce, NULL) == -1 && errno == EINVAL &&
		       enforce == 7,
	       "%s: ... and (..., NULL) too, writing nothing", what);
	munmap(got, sizeof(*got));
}

static void enforcement_in_child(const char *what, unsigned int bits, const char *env,
				 const char *policy_file, unsigned int enforce, bool audit)
{
	want_enforce = enforce;
	want_audit = audit;
	in_child(what, bits, env, policy_file, enforcement);
}

/*
 * Root of the initial user namespace under a bad file: held to what the
 * securebits, TRUSTEDFOR_ENFORCE and the program say, and to nothing else;
 * uid 65534 with getresuid() forged to 0 is not root.
 */
static void root_cases(const char *lacks_securebits)
{
	const char *bad = "enforce = none\nend\n";

	in_child("bad policy file, root", 0, NULL, bad, root_bad_policy);
	enforcement_in_child("enforcement: a bad policy file, root", 0, NULL, bad, 0, true);
	in_child("bad policy file, root, TRUSTEDFOR_ENFORCE=file", 0, "file", bad,
		 refused_file_only);
	if (lacks_securebits) {
		tap_na("bad policy file, root, both securebits", lacks_securebits);
	} else {
		in_child("bad policy file, root, both securebits", RESTRICT | DENY, NULL, bad,
			 refused_both);
		in_child("bad policy file, root, DENY_INTERACTIVE", DENY, NULL, bad,
			 refused_interactive_only);
	}
	child_uid = 65534;
	child_group = ADMIN_GROUP;
	in_child("bad policy file, uid 65534 in the administrators' group", 0, NULL, bad,
		 admin_bad_policy);
	enforcement_in_child("enforcement: a bad policy file, the administrators' group", 0,
			     NULL, bad, 0, true);
	if (!lacks_securebits)
		in_child("bad policy file, the administrators' group, both securebits",
			 RESTRICT | DENY, NULL, bad, refused_both);
	child_group = ADMIN_GID_IN_USERNS;
	in_child("bad policy file, uid 65534 with the administrators' gid in a user namespace",
		 0, NULL, bad, userns_admin_bad_policy);
	child_group = NO_GROUP;
	in_child("bad policy file, uid 65534 outside the administrators' group", 0, NULL, bad,
		 refused_both);
	child_filter = forge_getresuid;
	in_child("bad policy file, uid 65534, getresuid() forged to 0", 0, NULL, bad,
		 forged_root);
	child_filter = NULL;
	child_uid = 0;
}

int main(void)
{
	static const struct {
		const char *what;
		unsigned int bits;
	} modes[] = {
		{ "no securebits", 0 },
		{ "RESTRICT_FILE", RESTRICT },
		{ "DENY_INTERACTIVE", DENY },
		{ "both securebits", RESTRICT | DENY },
	};
	char path[512];
	int root;

	setvbuf(stdout, NULL, _IOLBF, 0);
	root = tap_private_namespace(dir, sizeof(dir));
	if (root < 0) {
		tap_not_run("enforcement", "needs root or user namespaces");
		return tap_done();
	}
	tap_exec_noexec_mounts(dir);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s/script", dir, i ? "noexec" : "exec");
		write_file(path, "+\n", 0755);
	}
	const char *why = tap_kernel_lacks("exec-securebits");

	if (why) {
		tap_na("securebits table", why);
	} else {
		for (int i = 0; i < 4; i++) {
			mode_bits = modes[i].bits;
			in_child(modes[i].what, modes[i].bits, NULL, NULL, decision_table);
		}
		in_child("TRUSTEDFOR_ENFORCE=none under both securebits", RESTRICT | DENY,
			 "none", NULL, refused_both);
		in_child("policy file enforce = none under RESTRICT_FILE", RESTRICT,
			 NULL, "enforce = none\n", refused_file_only);
		in_child("log a refusal", RESTRICT, NULL, NULL, log_refusal);
		in_child("long names", RESTRICT | DENY, NULL, NULL, long_names);
		in_child("policy 0 under both securebits", RESTRICT | DENY, NULL,
			 "policy = 0\n", policy_zero);
		enforcement_in_child("enforcement: RESTRICT_FILE", RESTRICT, NULL, NULL,
				     TRUSTED_FOR_ENFORCE_FILE, false);
		enforcement_in_child("enforcement: DENY_INTERACTIVE", DENY, NULL, NULL,
				     TRUSTED_FOR_ENFORCE_INTERACTIVE, false);
	}
	enforcement_in_child("enforcement: nothing", 0, NULL, NULL, 0, false);
	enforcement_in_child("enforcement: TRUSTEDFOR_ENFORCE=interactive", 0, "interactive",
			     NULL, TRUSTED_FOR_ENFORCE_INTERACTIVE, false);
	enforcement_in_child("enforcement: policy file enforce = file, audit = on", 0, NULL,
			     "enforce = file\naudit = on\n", TRUSTED_FOR_ENFORCE_FILE, true);
	/* A bad file holds every user but root to everything (as the test
	 * runs in a user namespace of its own, root there too). */
	child_uid = root ? 65534 : 0;
	enforcement_in_child("enforcement: a bad policy file", 0, NULL, "policy = 1\r\n",
			     TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE, true);
	child_uid = 0;
	strengthen_by = TRUSTED_FOR_ENFORCE_INTERACTIVE;
	enforcement_in_child("enforcement: strengthened, policy file enforce = file", 0, NULL,
			     "enforce = file\n",
			     TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE, false);
	strengthen_by = 0;
	in_child("a launcher's own finding, files enforced", 0, "file",
		 "log = stderr\n", failed_file);
	in_child("a launcher's own finding, audited only", 0, NULL,
		 "audit = on\nlog = stderr\n", failed_file);
	in_child("nothing enforced", 0, NULL, NULL, allowed_both);
	in_child("TRUSTEDFOR_ENFORCE=file", 0, "file", NULL, refused_file_only);
	in_child("TRUSTEDFOR_ENFORCE=file,interactive", 0, "file,interactive", NULL,
		 refused_both);
	in_child("TRUSTEDFOR_ENFORCE that does not parse", 0, "off", NULL, refused_both);
	in_child("TRUSTEDFOR_ENFORCE empty", 0, "", NULL, allowed_both);
	in_child("policy file enforce = file", 0, NULL, "enforce = file\n",
		 refused_file_only);
	in_child("policy file enforce = all with TRUSTEDFOR_ENFORCE=none", 0, "none",
		 "enforce = all\n", refused_both);
	child_uid = root ? 65534 : 0;
	in_child("bad policy file with TRUSTEDFOR_ENFORCE=none", 0, "none",
		 "enforcement = none\n", log_bad_policy);
	in_child("bad policy file whose key holds a C1 control", 0, "none",
		 "\xc2\x9b" "2Jkey = none\n", log_bad_policy_escapes);
	in_child("bad policy file", 0, NULL, "policy = 1\r\n", refused_both);
	child_uid = 0;
	if (root)
		root_cases(why);
	else
		tap_not_run("a bad policy file and root", "needs real root");
	in_child("trusted_for_strengthen()", 0, NULL, NULL, strengthen);
	in_child("audit on", 0, NULL, "audit = on\n", log_audit);
	in_child("the verdict's own message as the name", 0, NULL, NULL, name_in_verdict);
	return tap_done();
}
