/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for status: the check policy, the enforcement in force and where
 * each comes from, what the kernel offers, and the machine's ways around it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "escapes.h"
#include "internal.h"
#include "interpreters.h"
#include "places.h"
#include "printable.h"
#include "session.h"

static const char *policy_name(unsigned int policy)
{
	static const char *const names[] = { "no checks", "mount", "file",
					     "mount and file" };
	return names[policy & 3];
}

static const char *enforce_name(unsigned int enforce)
{
	static const char *const names[] = { "none", "file", "interactive",
					     "file, interactive" };
	return names[enforce & 3];
}

static const char *source_name(enum trusted_for_source source)
{
	switch (source) {
	case TRUSTED_FOR_SOURCE_DEFAULT: return "default";
	case TRUSTED_FOR_SOURCE_FILE: return "policy file";
	case TRUSTED_FOR_SOURCE_FAIL_CLOSED: return "bad policy file, failing closed";
	case TRUSTED_FOR_SOURCE_KERNEL: return "fs.trusted_for_policy";
	}
	return "unknown";
}

static const char *on_off_lock(unsigned int bits, unsigned int bit)
{
	if (bits & TF_SECBIT_LOCKS(bit))
		return bits & bit ? "on (locked)" : "off (locked)";
	return bits & bit ? "on" : "off";
}

/* "root and group 27 (sudo)": the administrators' group by name too. */
static void spared_who(char *who, size_t size)
{
	const struct group *gr = tf_admin_gid() < 0 ? NULL : getgrgid((gid_t)tf_admin_gid());

	tf_spared_who(who, size, gr ? gr->gr_name : NULL);
}

/* Who it binds and who it does not. */
static void print_bad_file(const char *problem)
{
	char who[320];

	spared_who(who, sizeof(who));
	printf("policy file: NOT TRUSTED, failing closed: %s\n"
	       "bad policy file: every user but %s: everything enforced, policy 3; "
	       "%s: the securebits and TRUSTEDFOR_ENFORCE alone; "
	       "fix it with: trusted-for policy edit\n",
	       problem, who, who);
}

/* Whether this process is in a user namespace, or cannot tell. */
static bool in_user_namespace(void)
{
	struct tf_uid_map m;
	char why[TRUSTED_FOR_MESSAGE_MAX];

	return tf_uid_map_read(&m, why, sizeof(why)) < 0 || !tf_uid_map_is_identity(&m);
}

/*
 * Without the exec securebits, pam_trustedfor holds a session to what the
 * policy file enforces for every user, or refuses it (pam_trustedfor(8)):
 * which of its options a session gets, and how to get the rest.
 */
static void print_pam_without_bits(const struct trusted_for_config *p)
{
	static const char kernel[] = "a kernel with them (Linux 6.14 or later: Debian 13's trixie-backports)";
	unsigned int has = p->file_state == TRUSTED_FOR_FILE_READ ? p->file_enforce : 0;
	char who[320], refused[128] = "";

	/* A bad file may well say enforce = file: the fix is to mend it, not
	 * to add what it says already.  (In a user namespace the file fails
	 * closed for being seen from there, not for what it says; the module
	 * reads it from the initial one.) */
	if (!has && p->file_state == TRUSTED_FOR_FILE_FAIL_CLOSED && !in_user_namespace()) {
		spared_who(who, sizeof(who));
		printf("pam_trustedfor: refuses every session whose line asks restrict_file or "
		       "deny_interactive (%s are let in unenforced): this kernel has no exec "
		       "securebits and the policy file is bad, which enforces nothing for a "
		       "session; fix: mend it (trusted-for policy edit), with enforce = file, or %s\n",
		       who, kernel);
		return;
	}
	if (!has) {
		spared_who(who, sizeof(who));
		printf("pam_trustedfor: refuses every session whose line asks restrict_file or "
		       "deny_interactive (%s are let in unenforced): this kernel has no exec "
		       "securebits and the policy file enforces nothing; fix: %s, or enforce = file "
		       "in the policy file (trusted-for policy edit)\n",
		       who, kernel);
		return;
	}
	if (has != (TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE))
		snprintf(refused, sizeof(refused),
			 " a line that asks %s is refused (enforce = file,interactive to accept it);",
			 has & TRUSTED_FOR_ENFORCE_FILE ? "deny_interactive" : "restrict_file");
	printf("pam_trustedfor: sessions rely on the policy file (enforce = %s): this kernel has no "
	       "exec securebits;%s root can change the file, even from inside a session, where "
	       "locked bits would hold; for the bits: %s\n",
	       has & TRUSTED_FOR_ENFORCE_INTERACTIVE ?
		       (has & TRUSTED_FOR_ENFORCE_FILE ? "file,interactive" : "interactive") :
		       "file",
	       refused, kernel);
}

static int cmd_status(int argc, char **argv)
{
	static const char *const targets[] = { "syslog", "stderr", "none" };
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;
	struct utsname u;
	char path[512], problem[TRUSTED_FOR_MESSAGE_MAX];
	int verbose = 0, c;

	while ((c = getopt_long(argc, argv, "+v", opts, NULL)) != -1) {
		if (c != 'v')
			return usage_error("status: bad option '%s'", argv[optind - 1]);
		verbose = 1;
	}
	if (optind < argc)
		return usage_error("status: takes no arguments");
	trusted_for_get_config(&p);
	tf_printable(path, sizeof(path), p.file_path);
	tf_printable(problem, sizeof(problem), p.file_problem);
	uname(&u);
	printf("kernel: Linux %s\n", u.release);
	if (p.probe_error)
		printf("AT_EXECVE_CHECK: unknown (the probe failed: %s); checks use it and fail closed\n",
		       p.probe_error == EPROTO ? "answered 0, which no kernel does" :
						 strerror(p.probe_error));
	else
		printf("AT_EXECVE_CHECK: %s\n", p.execve_check ? "yes" : "no");
	printf("trusted_for() system call: %s\n",
	       p.patched_kernel ? "yes (patched kernel)" : "no");
	if (p.check_policy_source == TRUSTED_FOR_SOURCE_KERNEL &&
	    access("/proc/sys/fs/trusted_for_policy", R_OK) != 0)
		printf("check policy: set by fs.trusted_for_policy, which only root can read\n");
	else
		printf("check policy: %u (%s), from %s\n", p.check_policy,
		       policy_name(p.check_policy), source_name(p.check_policy_source));
	printf("check backend: %s\n", trusted_for_backend_string(p.backend));
	if (p.file_state == TRUSTED_FOR_FILE_ABSENT)
		printf("policy file: %s: absent, defaults apply\n", path);
	else if (p.file_state == TRUSTED_FOR_FILE_READ)
		printf("policy file: %s: trusted\n", path);
	else
		print_bad_file(problem);
	if (p.securebits_known)
		printf("securebits: 0x%x, EXEC_RESTRICT_FILE %s, EXEC_DENY_INTERACTIVE %s\n",
		       p.securebits,
		       on_off_lock(p.securebits, SECBIT_EXEC_RESTRICT_FILE),
		       on_off_lock(p.securebits, SECBIT_EXEC_DENY_INTERACTIVE));
	else
		printf("securebits: 0x%x, no exec securebits in this kernel\n",
		       p.securebits);
	printf("enforcement: %s (policy file: %s; TRUSTEDFOR_ENFORCE: %s)\n",
	       enforce_name(p.enforce), enforce_name(p.file_enforce),
	       enforce_name(p.env_enforce));
	printf("audit: %s, log to %s\n", p.audit ? "on" : "off",
	       targets[p.log_target]);
	if (!p.securebits_known)
		print_pam_without_bits(&p);
	print_session(stdout);
	print_escapes(stdout, "", &p);
	print_places(stdout, &p, verbose);
	if (print_interpreters(stdout, verbose) < 0) {
		cli_error("status: out of memory listing the interpreters on PATH");
		return EXIT_ERROR;
	}
	return EXIT_TRUSTED;
}

const struct command status_command = {
	"status", cmd_status, "[--verbose]",
	"the policy and enforcement in force, where they come from, the kernel's features"
};
