/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-for: would a file be allowed to run as code, and why; the policy in
 * force; and running a command under locked enforcement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/missing.h"
#include "cli.h"
#include "printable.h"

const char *program = "trusted-for";

static const char usage[] =
	"Usage: trusted-for check [--explain] [--policy N] FILE...\n"
	"       trusted-for status\n"
	"       trusted-for scan [--policy N] [--one-file-system] [--quiet] DIR...\n"
	"       trusted-for run [--restrict-file] [--deny-interactive] [--lock [--no-confine]] -- COMMAND [ARG...]\n";

static int usage_error(const char *fmt, const char *arg)
{
	char shown[256];

	tf_printable(shown, sizeof(shown), arg);
	fprintf(stderr, "%s: ", program);
	fprintf(stderr, fmt, shown);
	fprintf(stderr, " (see %s --help)\n", program);
	return EXIT_USAGE;
}

int parse_policy(const char *arg, unsigned int *policy)
{
	if (strlen(arg) != 1 || arg[0] < '0' || arg[0] > '3')
		return -1;
	*policy = (unsigned int)(arg[0] - '0');
	return 0;
}

/* "FILE: not trusted for execution: noexec mount: /mnt/x" */
void print_verdict(FILE *out, const struct trusted_for_verdict *v)
{
	fprintf(out, "%s%s%s", v->message, v->detail[0] ? ": " : "", v->detail);
}

/* Open as an interpreter would; a socket cannot be opened, only looked at. */
static int open_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0 && errno == ENXIO)
		fd = open(path, O_PATH | O_CLOEXEC);
	return fd;
}

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "explain", no_argument, NULL, 'e' },
		{ "policy", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct trusted_for_verdict v;
	unsigned int policy = 0;
	int explain = 0, have_policy = 0, status = EXIT_TRUSTED, c;

	while ((c = getopt_long(argc, argv, "+ep:", opts, NULL)) != -1) {
		if (c == 'e')
			explain = 1;
		else if (c == 'p' && parse_policy(optarg, &policy) == 0)
			have_policy = 1;
		else if (c == 'p')
			return usage_error("check: bad policy '%s' (0..3)", optarg);
		else
			return usage_error("check: bad option '%s'", argv[optind - 1]);
	}
	if (optind == argc)
		return usage_error("check: no file given%s", "");
	for (int i = optind; i < argc; i++) {
		int fd = open_file(argv[i]);

		if (fd < 0) {
			int error = errno;
			char shown[1024];

			tf_printable(shown, sizeof(shown), argv[i]);
			fprintf(stderr, "%s: %s: cannot open: %s\n", program,
				shown, strerror(error));
			status = EXIT_ERROR;
			continue;
		}
		if (have_policy)
			trusted_for_check(fd, policy, argv[i], &v);
		else
			trusted_for_explain(fd, argv[i], &v);
		close(fd);
		if (explain) {
			print_verdict(stdout, &v);
			printf(" (policy %u, %s)\n", v.policy,
			       trusted_for_backend_string(v.backend));
		} else if (!v.trusted) {
			fprintf(stderr, "%s: ", program);
			print_verdict(stderr, &v);
			fputc('\n', stderr);
		}
		if (!v.trusted && status == EXIT_TRUSTED)
			status = EXIT_UNTRUSTED;
	}
	/* A verdict that enforcement obeys is worth as much as its session. */
	if (explain) {
		struct trusted_for_policy p;

		trusted_for_get_policy(&p);
		if (p.enforce)
			print_escapes(stderr, "trusted-for: ", &p);
	}
	return status;
}

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

static const char *on_off_lock(unsigned int bits, unsigned int bit,
			       unsigned int lock)
{
	if (bits & lock)
		return bits & bit ? "on (locked)" : "off (locked)";
	return bits & bit ? "on" : "off";
}

static int cmd_status(int argc, char **argv)
{
	static const char *const targets[] = { "syslog", "stderr", "none" };
	struct trusted_for_policy p;
	struct utsname u;
	char path[512], problem[TRUSTED_FOR_MESSAGE_MAX];

	(void)argv;
	if (argc > 1)
		return usage_error("status: takes no arguments%s", "");
	trusted_for_get_policy(&p);
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
	if (p.policy_source == TRUSTED_FOR_SOURCE_KERNEL &&
	    access("/proc/sys/fs/trusted_for_policy", R_OK) != 0)
		printf("check policy: set by fs.trusted_for_policy, which only root can read\n");
	else
		printf("check policy: %u (%s), from %s\n", p.policy,
		       policy_name(p.policy), source_name(p.policy_source));
	printf("check backend: %s\n", trusted_for_backend_string(p.backend));
	if (p.file_state == TRUSTED_FOR_SOURCE_DEFAULT)
		printf("policy file: %s: absent, defaults apply\n", path);
	else if (p.file_state == TRUSTED_FOR_SOURCE_FILE)
		printf("policy file: %s: trusted\n", path);
	else
		printf("policy file: NOT TRUSTED, failing closed: %s\n",
		       problem);
	if (p.securebits_known)
		printf("securebits: 0x%x, EXEC_RESTRICT_FILE %s, EXEC_DENY_INTERACTIVE %s\n",
		       p.securebits,
		       on_off_lock(p.securebits, SECBIT_EXEC_RESTRICT_FILE,
				   SECBIT_EXEC_RESTRICT_FILE_LOCKED),
		       on_off_lock(p.securebits, SECBIT_EXEC_DENY_INTERACTIVE,
				   SECBIT_EXEC_DENY_INTERACTIVE_LOCKED));
	else
		printf("securebits: 0x%x, no exec securebits in this kernel\n",
		       p.securebits);
	printf("enforcement: %s (policy file: %s; TRUSTEDFOR_ENFORCE: %s)\n",
	       enforce_name(p.enforce), enforce_name(p.file_enforce),
	       enforce_name(p.env_enforce));
	printf("audit: %s, log to %s\n", p.audit ? "on" : "off",
	       targets[p.log_target]);
	print_session(stdout);
	print_escapes(stdout, "", &p);
	return EXIT_TRUSTED;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "restrict-file", no_argument, NULL, 'f' },
		{ "deny-interactive", no_argument, NULL, 'i' },
		{ "lock", no_argument, NULL, 'l' },
		{ "no-confine", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int bits = 0, want;
	int lock = 0, confine = 1, c, old, now;
	char shown[1024];

	while ((c = getopt_long(argc, argv, "+fil", opts, NULL)) != -1) {
		if (c == 'f')
			bits |= SECBIT_EXEC_RESTRICT_FILE;
		else if (c == 'i')
			bits |= SECBIT_EXEC_DENY_INTERACTIVE;
		else if (c == 'l')
			lock = 1;
		else if (c == 'n')
			confine = 0;
		else
			return usage_error("run: bad option '%s'", argv[optind - 1]);
	}
	if (optind == argc)
		return usage_error("run: no command given%s", "");
	if (!bits)
		return usage_error("run: nothing to enforce: give --restrict-file and/or --deny-interactive%s", "");
	if (!lock && !confine)
		return usage_error("run: --no-confine goes with --lock%s", "");
	if (lock)
		bits |= bits << 1; /* each lock bit is its bit's neighbour */
	old = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	want = (unsigned int)old | bits;
	if (old < 0 || prctl(PR_SET_SECUREBITS, want, 0, 0, 0) < 0) {
		int err = errno;
		struct trusted_for_policy p;

		trusted_for_get_policy(&p);
		fprintf(stderr, "%s: run: cannot set the securebits: %s%s\n",
			program, strerror(err),
			!p.securebits_known ?
				" (this kernel has no exec securebits: Linux 6.14 or later needed)" :
				"");
		return EXIT_RUN_FAILED;
	}
	/*
	 * Never run the command if the kernel did not take every bit, nor if
	 * it cannot say (a -1 would read as every bit set).
	 */
	now = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (now < 0) {
		fprintf(stderr, "%s: run: cannot read the securebits back: %s\n",
			program, strerror(errno));
		return EXIT_RUN_FAILED;
	}
	if (((unsigned int)now & want) != want) {
		fprintf(stderr, "%s: run: the kernel did not keep the securebits\n",
			program);
		return EXIT_RUN_FAILED;
	}
	/*
	 * Locked bits hold only in a session that cannot leave them: no new
	 * user namespace (the kernel resets the bits there), no tracer.
	 */
	if (lock && confine && trusted_for_confine_session(0) < 0) {
		fprintf(stderr, "%s: run: cannot confine the session: %s\n",
			program, strerror(errno));
		return EXIT_RUN_FAILED;
	}
	execvp(argv[optind], argv + optind);
	c = errno;
	tf_printable(shown, sizeof(shown), argv[optind]);
	fprintf(stderr, "%s: run: %s: %s\n", program, shown, strerror(c));
	return c == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	/* Bad options are reported by the commands, one line each. */
	opterr = 0;
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "status"))
		return cmd_status(argc - 1, argv + 1);
	if (!strcmp(cmd, "scan"))
		return cmd_scan(argc - 1, argv + 1);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage, stdout);
		return EXIT_TRUSTED;
	}
	if (!strcmp(cmd, "--version")) {
		printf("trusted-for %s\n", TRUSTEDFOR_VERSION);
		return EXIT_TRUSTED;
	}
	return usage_error(*cmd ? "unknown command '%s'" : "no command given%s", cmd);
}
