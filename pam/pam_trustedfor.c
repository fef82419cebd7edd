/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pam_trustedfor: a PAM session module that turns enforcement on for a
 * login session.  It sets the exec securebits (and their locks) in the
 * process that opens the session and, if asked, confines it with
 * tf_session_confine() (session/).  Both are inherited across fork() and
 * execve(), so they reach the user's shell when the caller forks the
 * session's processes from the thread that called pam_open_session():
 * login, su and sshd all do (see pam_trustedfor(8)).
 *
 * An administrator who asked for enforcement must never get a session
 * without it: whatever the module cannot do, or cannot understand, fails
 * the session, with one log line that says why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <syslog.h>
#include <unistd.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>
#include <security/pam_modutil.h>

#include "internal.h"
#include "missing.h"
#include "printable.h"
#include "session.h"
#include "trustedfor.h"

struct config {
	unsigned int bits; /* SECBIT_EXEC_* to set, locks included */
	bool confine;
	bool nonroot;
	bool noexec_runtime_dir;
	const char *group;
	const char *unconfined; /* services, comma-separated, that confine leaves out */
};

#define REASON_MAX 512

/* Reasons go between double quotes in the log line: see tf_quoted(). */
static int reason(char *why, const char *text)
{
	snprintf(why, REASON_MAX, "%s", text);
	return -1;
}

static int bad_option(const char *a, char *why)
{
	char q[256];
	const char *hint = !strncmp(a, "group=", 6)	 ? ": give one group= with a name"
			   : !strncmp(a, "unconfined=", 11) ? ": give one unconfined= with service names"
							    : NULL;

	tf_quoted(q, sizeof(q), a);
	snprintf(why, REASON_MAX, "%s '%s'%s", hint ? "option" : "unknown option", q,
		 hint ? hint : "");
	return -1;
}

static int parse(int argc, const char **argv, struct config *c, char *why)
{
	bool lock = false;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "restrict_file"))
			c->bits |= SECBIT_EXEC_RESTRICT_FILE;
		else if (!strcmp(a, "deny_interactive"))
			c->bits |= SECBIT_EXEC_DENY_INTERACTIVE;
		else if (!strcmp(a, "lock"))
			lock = true;
		else if (!strcmp(a, "confine"))
			c->confine = true;
		else if (!strcmp(a, "nonroot"))
			c->nonroot = true;
		else if (!strcmp(a, "noexec_runtime_dir"))
			c->noexec_runtime_dir = true;
		else if (!strncmp(a, "group=", 6) && a[6] && !c->group)
			c->group = a + 6;
		else if (!strncmp(a, "unconfined=", 11) && a[11] && !c->unconfined)
			c->unconfined = a + 11;
		else
			return bad_option(a, why);
	}
	if (lock && !c->bits)
		return reason(why, "option 'lock' without restrict_file or deny_interactive");
	if (!c->bits && !c->confine)
		return reason(why, "nothing to enforce: give restrict_file, deny_interactive or confine");
	if (c->unconfined && !c->confine)
		return reason(why, "option 'unconfined=' without confine");
	if (lock)
		c->bits |= c->bits << 1; /* each lock bit is its bit's neighbour */
	return 0;
}

/* 1 when the user is in the group (primary or supplementary), 0 when not, -1 on error. */
static int in_group(const struct passwd *pw, gid_t gid, char *why)
{
	int n = 64, got;
	gid_t *groups = NULL;

	for (;;) {
		gid_t *more = realloc(groups, (size_t)n * sizeof(*groups));

		if (!more)
			break;
		groups = more;
		got = n;
		if (getgrouplist(pw->pw_name, pw->pw_gid, groups, &got) >= 0) {
			int found = 0;

			for (int i = 0; i < got; i++)
				found |= groups[i] == gid;
			free(groups);
			return found;
		}
		/* got is the number needed; never trust it to shrink. */
		if (got <= n || got > 65536)
			break;
		n = got;
	}
	free(groups);
	return reason(why, "cannot list the groups of the user");
}

/* 1 when the session is in scope, 0 when not, -1 (and why) when unknown. */
static int in_scope(pam_handle_t *pamh, const struct config *c,
		    const struct passwd *pw, char *why)
{
	struct group *gr;

	if (c->nonroot && pw->pw_uid == 0)
		return 0;
	if (!c->group)
		return 1;
	gr = pam_modutil_getgrnam(pamh, c->group);
	if (!gr) {
		char q[256];

		tf_quoted(q, sizeof(q), c->group);
		snprintf(why, REASON_MAX, "group '%s' not found", q);
		return -1;
	}
	return in_group(pw, gr->gr_gid, why);
}

static const char *state(unsigned int bits, unsigned int bit, unsigned int lock)
{
	if (bits & lock)
		return bits & bit ? "on, locked" : "off, locked";
	return bits & bit ? "on" : "off";
}

/* Whether SERVICE is one of LIST's comma-separated names. */
static bool listed(const char *list, const char *service)
{
	size_t n = strlen(service);

	for (const char *p = list;; p++) {
		if (!strncmp(p, service, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		if (!(p = strchr(p, ',')))
			return false;
	}
}

/* The per-mount flags a bind remount must give again, or it clears them. */
static unsigned long mount_flags(unsigned long f)
{
	static const unsigned long map[][2] = {
		{ ST_RDONLY, MS_RDONLY },     { ST_NOSUID, MS_NOSUID },
		{ ST_NODEV, MS_NODEV },	      { ST_NOEXEC, MS_NOEXEC },
		{ ST_NOATIME, MS_NOATIME },   { ST_NODIRATIME, MS_NODIRATIME },
		{ ST_RELATIME, MS_RELATIME },
	};
	unsigned long ms = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (f & map[i][0])
			ms |= map[i][1];
	return ms;
}

/*
 * logind mounts /run/user/UID, a tmpfs the user writes, nosuid,nodev but
 * not noexec: under policy 1 a file copied there runs.  Made noexec for
 * the user's sessions; a directory that is not a mount of its own (no
 * logind) is bound onto itself first, so /run keeps its own options.  No
 * runtime directory: nothing to do.  Anything else refuses the session.
 */
static int runtime_dir_noexec(uid_t uid, char *why)
{
	char dir[64], at[64];
	struct statvfs sv;
	struct statx sx;
	int fd, r = -1;

	snprintf(dir, sizeof(dir), "/run/user/%u", (unsigned int)uid);
	fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		snprintf(why, REASON_MAX, "%s: %s", dir, tf_strerror(errno));
		return -1;
	}
	snprintf(at, sizeof(at), "/proc/self/fd/%d", fd);
	memset(&sx, 0, sizeof(sx));
	if (fstatvfs(fd, &sv) < 0 ||
	    statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) < 0) {
		snprintf(why, REASON_MAX, "%s: %s", dir, tf_strerror(errno));
		goto out;
	}
	if (sv.f_flag & ST_NOEXEC) {
		r = 0;
		goto out;
	}
	if (!(sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    !(sx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
		if (mount(at, at, NULL, MS_BIND, NULL) < 0) {
			snprintf(why, REASON_MAX, "cannot bind %s onto itself: %s", dir,
				 tf_strerror(errno));
			goto out;
		}
		close(fd);
		fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		snprintf(at, sizeof(at), "/proc/self/fd/%d", fd);
	}
	if (fd < 0 || mount(NULL, at, NULL, MS_REMOUNT | MS_BIND | MS_NOEXEC | mount_flags(sv.f_flag),
			    NULL) < 0 ||
	    fstatvfs(fd, &sv) < 0 || !(sv.f_flag & ST_NOEXEC)) {
		snprintf(why, REASON_MAX, "cannot make %s noexec: %s", dir, tf_strerror(errno));
		goto out;
	}
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	return r;
}

#define WHO_MAX 300

/* Root, or a member of the administrators' group (admin_gid): those whom
 * neither a bad policy file nor this module's own failure holds. */
static bool administrator(const struct passwd *pw)
{
	char why[REASON_MAX];

	return pw->pw_uid == 0 ||
	       (tf_admin_gid() >= 0 && in_group(pw, (gid_t)tf_admin_gid(), why) == 1);
}

/* "root and group 27 (sudo)" */
static void administrators(pam_handle_t *pamh, char *out, size_t size)
{
	const struct group *gr =
		tf_admin_gid() < 0 ? NULL : pam_modutil_getgrgid(pamh, (gid_t)tf_admin_gid());

	tf_spared_who(out, size, gr ? gr->gr_name : NULL);
}

/*
 * The policy file, judged now (sshd reads the library once and lives on):
 * nothing when it is good or absent; when bad, what it holds this user to
 * and the command that mends it.  Root and the administrators' group are
 * not held to a bad file (trustedfor.conf(5)), which is all that keeps
 * their logins open.  Only words: the library asks each process itself.
 */
static void policy_note(pam_handle_t *pamh, char *out, size_t size,
			const struct passwd *pw)
{
	struct trusted_for_config c = TRUSTED_FOR_CONFIG_INIT;
	char problem[TRUSTED_FOR_MESSAGE_MAX], who[320];
	bool spared;

	out[0] = '\0';
	if (trusted_for_read_policy_file(-1, 0, &c) < 0 ||
	    c.file_state != TRUSTED_FOR_FILE_FAIL_CLOSED)
		return;
	spared = administrator(pw);
	administrators(pamh, who, sizeof(who));
	tf_quoted(problem, sizeof(problem), c.file_problem);
	snprintf(out, size, " policy_file=\"bad, %s %s: %s; fix: trusted-for policy edit\"",
		 spared ? who : "everything enforced for every user but",
		 spared ? "held to their securebits and TRUSTEDFOR_ENFORCE alone" : who,
		 problem);
}

/* The enforcement (TRUSTED_FOR_ENFORCE_*) that securebits ask for. */
static unsigned int bits_enforce(unsigned int bits)
{
	return (bits & SECBIT_EXEC_RESTRICT_FILE ? TRUSTED_FOR_ENFORCE_FILE : 0) |
	       (bits & SECBIT_EXEC_DENY_INTERACTIVE ? TRUSTED_FOR_ENFORCE_INTERACTIVE : 0);
}

static const char *enforce_value(unsigned int enforce)
{
	static const char *const values[] = { "none", "file", "interactive", "file,interactive" };

	return values[enforce & 3];
}

/* What the policy file enforces (TRUSTED_FOR_ENFORCE_*) where the kernel has no bit. */
static const char *file_state(unsigned int enforce, unsigned int what)
{
	return enforce & what ? "on, by the policy file" : "off";
}

/*
 * A kernel without the exec securebits (before Linux 6.14: Debian 13's
 * 6.12) cannot hold the session to them.  The session is let in only when
 * the policy file, judged now, already enforces at least what the line
 * asks for every process of every user: root's file, which no process of
 * the session can change without root's privileges, and which fails
 * closed in a user namespace.  What a locked bit adds (root inside the
 * session cannot undo it) the file cannot: that is the price, and the
 * log line says what the session relies on.  Anything less refuses the
 * session, naming both fixes.  0, what the file enforces in *has and
 * what the session relies on in kernel; or -1 and why.
 */
static int by_policy_file(unsigned int bits, unsigned int *has_out, char *kernel, char *why)
{
	struct trusted_for_config f = TRUSTED_FOR_CONFIG_INIT;
	unsigned int want = bits_enforce(bits), has;
	char path[256], problem[TRUSTED_FOR_MESSAGE_MAX], said[TRUSTED_FOR_MESSAGE_MAX + 64];

	if (trusted_for_read_policy_file(-1, 0, &f) < 0)
		f.file_state = TRUSTED_FOR_FILE_FAIL_CLOSED;
	tf_quoted(path, sizeof(path), f.file_path);
	has = f.file_state == TRUSTED_FOR_FILE_READ ? f.file_enforce : 0;
	if ((has & want) == want) {
		snprintf(kernel, REASON_MAX,
			 "no exec securebits: the session relies on the policy file (%.200s: enforce = %s)",
			 path, enforce_value(has));
		*has_out = has;
		return 0;
	}
	if (f.file_state == TRUSTED_FOR_FILE_READ) {
		snprintf(said, sizeof(said), "%s: enforce = %s", path, enforce_value(has));
	} else if (f.file_state == TRUSTED_FOR_FILE_ABSENT) {
		snprintf(said, sizeof(said), "%s: absent", path);
	} else {
		/* It may say enforce = file already: the fix is to mend it. */
		tf_quoted(problem, sizeof(problem), f.file_problem);
		snprintf(said, sizeof(said), "bad: %s", problem);
		snprintf(why, REASON_MAX,
			 "this kernel has no exec securebits and the policy file does not enforce %s "
			 "(%.200s); fix: mend it (trusted-for policy edit), with enforce = %s, or a "
			 "kernel with them (Linux 6.14 or later: Debian 13's trixie-backports)",
			 enforce_value(want), said, enforce_value(want));
		return -1;
	}
	snprintf(why, REASON_MAX,
		 "this kernel has no exec securebits and the policy file does not enforce %s (%.200s); "
		 "fix: a kernel with them (Linux 6.14 or later: Debian 13's trixie-backports), "
		 "or enforce = %s in the policy file (trusted-for policy edit)",
		 enforce_value(want), said, enforce_value(want | has));
	return -1;
}

static int enforce_session(pam_handle_t *pamh, int argc, const char **argv,
			   const struct passwd *pw, const char *who, char *why)
{
	struct config c;
	const void *service = NULL;
	unsigned int now = 0, file_enforce = 0;
	const char *confined = "no";
	char note[TRUSTED_FOR_MESSAGE_MAX + 1024], kernel[REASON_MAX] = "";
	bool by_file = false;
	int r;

	if (parse(argc, argv, &c, why) < 0)
		return PAM_SESSION_ERR;
	r = in_scope(pamh, &c, pw, why);
	if (r < 0)
		return PAM_SESSION_ERR;
	if (r == 0) {
		pam_syslog(pamh, LOG_DEBUG, "not in scope %s", who);
		return PAM_IGNORE;
	}
	if (c.noexec_runtime_dir && runtime_dir_noexec(pw->pw_uid, why) < 0)
		return PAM_SESSION_ERR;
	if (c.bits && tf_session_set_bits(c.bits, &now, why, REASON_MAX) < 0) {
		if (!tf_session_no_securebits() ||
		    by_policy_file(c.bits, &file_enforce, kernel, why) < 0)
			return PAM_SESSION_ERR;
		by_file = true;
	}
	/*
	 * A caller that opens the session in a process that goes on needing
	 * user namespaces, ptrace or seccomp filters (systemd-user's manager,
	 * whose units' sandboxing does) is named by the administrator.
	 */
	if (c.confine && c.unconfined &&
	    pam_get_item(pamh, PAM_SERVICE, &service) == PAM_SUCCESS && service &&
	    listed(c.unconfined, service)) {
		c.confine = false;
		confined = "no, unconfined service";
	}
	/*
	 * Inside a confined session (su from an ssh login) the filter refuses
	 * a second one; the session has it already.  Only a filter can fake
	 * the answers tf_session_confined() reads, and a user's own comes
	 * with no_new_privs, under which no caller can open a session.
	 */
	if (c.confine && tf_session_confined()) {
		confined = "inherited";
	} else if (c.confine) {
		if (tf_session_confine() < 0) {
			int err = errno;

			snprintf(why, REASON_MAX, "cannot confine the session: %s",
				 tf_strerror(err));
			return PAM_SESSION_ERR;
		}
		confined = "yes";
	}
	if (!c.bits || by_file) {
		int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

		now = bits < 0 ? 0 : (unsigned int)bits;
	}
	if (by_file) {
		pam_syslog(pamh, LOG_NOTICE,
			   "enforcing %s restrict_file=\"%s\" deny_interactive=\"%s\" confined=\"%s\" securebits=\"0x%x\" kernel=\"%s\"",
			   who, file_state(file_enforce, TRUSTED_FOR_ENFORCE_FILE),
			   file_state(file_enforce, TRUSTED_FOR_ENFORCE_INTERACTIVE), confined, now,
			   kernel);
		return PAM_SUCCESS;
	}
	policy_note(pamh, note, sizeof(note), pw);
	pam_syslog(pamh, LOG_NOTICE,
		   "enforcing %s restrict_file=\"%s\" deny_interactive=\"%s\" confined=\"%s\" securebits=\"0x%x\"%s",
		   who, state(now, SECBIT_EXEC_RESTRICT_FILE, SECBIT_EXEC_RESTRICT_FILE_LOCKED),
		   state(now, SECBIT_EXEC_DENY_INTERACTIVE, SECBIT_EXEC_DENY_INTERACTIVE_LOCKED),
		   confined, now, note);
	return PAM_SUCCESS;
}

/*
 * A session the module cannot enforce as its line asks is refused: for
 * every user but root and the administrators' group, whom this module's
 * own failure (a misspelt option, a kernel without the exec securebits, a
 * filter that does not load) must not lock out, as a bad policy file does
 * not: they can become root and mend it, and on a server where root cannot
 * log in they are the only way in.  They are let in unenforced, with the
 * reason at LOG_ERR.
 */
PAM_EXTERN __attribute__((visibility("default"))) int
pam_sm_open_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	char who[WHO_MAX] = "user=\"\"", why[REASON_MAX] = "", name[256], admins[320];
	const void *item = NULL;
	const struct passwd *pw;
	int r;

	(void)flags;
	if (pam_get_item(pamh, PAM_USER, &item) != PAM_SUCCESS || !item) {
		pam_syslog(pamh, LOG_ERR, "refused %s reason=\"no user in this PAM transaction\"",
			   who);
		return PAM_SESSION_ERR;
	}
	tf_quoted(name, sizeof(name), item);
	pw = pam_modutil_getpwnam(pamh, item);
	if (!pw) {
		pam_syslog(pamh, LOG_ERR, "refused user=\"%s\" reason=\"user not found\"", name);
		return PAM_SESSION_ERR;
	}
	snprintf(who, WHO_MAX, "user=\"%s\" uid=%u", name, (unsigned int)pw->pw_uid);
	r = enforce_session(pamh, argc, argv, pw, who, why);
	if (r != PAM_SESSION_ERR)
		return r;
	if (administrator(pw)) {
		administrators(pamh, admins, sizeof(admins));
		pam_syslog(pamh, LOG_ERR,
			   "not enforced %s reason=\"%s\"; %s are let in to mend it",
			   who, why, admins);
		return PAM_IGNORE;
	}
	pam_syslog(pamh, LOG_ERR, "refused %s reason=\"%s\"", who, why);
	return r;
}

/* Nothing to undo: the bits and the filter end with the session's processes. */
PAM_EXTERN __attribute__((visibility("default"))) int
pam_sm_close_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
