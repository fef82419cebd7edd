// SPDX-License-Identifier: GPL-2.0
/*
 * libtrustedfor inside the guest.  check.sh compiles the project's lib/ sources
 * into /init, so these cases run the library exactly as interpreters use it:
 *
 *  - on this (patched) kernel it must find /proc/sys/fs/trusted_for_policy,
 *    choose the trusted_for() system call, and give the kernel's verdicts;
 *  - a seccomp filter that makes system call 463 fail proves that the
 *    library really issues it (and that it treats the odd error as a denial);
 *  - with the sysctl hidden (a tmpfs over /proc/sys/fs, as on a stock
 *    kernel) a seccomp filter kills the process on 463: the library must
 *    never issue that number on a kernel that has not proved it is ours.
 *
 * Each case runs in a fresh child, so that the library probes the kernel
 * anew (it caches what it finds once per process).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/trusted-for.h>
#include <seccomp.h>

#include "guest.h"


#include "trustedfor.h"

static const char *const files[] = {
	EXEC_DIR "/x",	 EXEC_DIR "/nx",   NOEXEC_DIR "/x", NOEXEC_DIR "/nx",
	EXEC_DIR "/dir", EXEC_DIR "/fifo", "/dev/null",	    "/proc/self/status",
};
#define N_FILES (sizeof(files) / sizeof(files[0]))

static void quiet(int priority, const char *line, void *data)
{
	(void)priority;
	(void)line;
	(void)data;
}

/*
 * Make system call 463 return @action; everything else is allowed, calls
 * of other architectures too.  0, or an errno value.
 */
static int filter_trusted_for(uint32_t action)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	int r = f ? seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW) : -ENOMEM;

	if (!r)
		r = seccomp_rule_add(f, action, __NR_trusted_for, 0);
	if (!r)
		r = seccomp_load(f);
	seccomp_release(f);
	return -r;
}

static int lib_trusted_for(int fd)
{
	return trusted_for(fd, TRUSTED_FOR_EXECUTION, 0) ? errno : 0;
}

struct lib_case {
	int policy;
	uid_t uid;
};

/* The library's verdicts equal the kernel's, and come from the kernel. */
static void same_verdicts(void *arg)
{
	const struct lib_case *c = arg;
	const char *user = c->uid ? "nobody" : "root";
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	unsigned int i;

	trusted_for_set_log_fn(quiet, NULL);
	if (c->uid && become_user(c->uid)) {
		report(0, "libtrustedfor %s: %s", user, strerror(errno));
		return;
	}
	for (i = 0; i < N_FILES; i++) {
		int fd = open(files[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		int kern = kernel_trusted_for(fd, TRUSTED_FOR_EXECUTION, 0);
		int lib = lib_trusted_for(fd);

		expect(kern, lib,
		       "policy %d %s libtrustedfor trusted_for(%s) "
		       "gives the kernel's verdict",
		       c->policy, user, files[i]);
		if (i == 0) {
			int ok;

			trusted_for_explain(fd, files[i], &v);
			ok = v.backend == TRUSTED_FOR_BACKEND_SYSCALL;
			/*
			 * A library that opens FS_POLICY to detect the patched
			 * kernel misses it wherever the file cannot be read.
			 */
			report(ok,
			       "policy %d %s libtrustedfor answers with the "
			       "trusted_for() system call (it used: %s)%s",
			       c->policy, user,
			       trusted_for_backend_string(v.backend),
			       ok || !c->uid ? ""
					     : "; detect " FS_POLICY
					       " without opening it");
		}
		close(fd);
	}
}

/* A seccomp filter makes 463 fail with ENOTUNIQ: the library must see it. */
static void reaches_kernel(void *unused)
{
	int fd = open(EXEC_DIR "/x", O_RDONLY | O_CLOEXEC);
	int err;

	(void)unused;
	trusted_for_set_log_fn(quiet, NULL);
	err = filter_trusted_for(SCMP_ACT_ERRNO(ENOTUNIQ));
	if (err) {
		report(0, "libtrustedfor: installing the seccomp filter: %s",
		       strerror(err));
		return;
	}
	expect(ENOTUNIQ, lib_trusted_for(fd),
	       "policy 3 libtrustedfor issues system call 463 (made to fail "
	       "with ENOTUNIQ) and denies the x-file");
	close(fd);
}

/*
 * A stock kernel: no /proc/sys/fs/trusted_for_policy, and a process that
 * dies if it ever issues 463.  The library must answer without it.
 */
static void stock_kernel(void *arg)
{
	int hide = *(int *)arg;
	struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;
	unsigned int i;
	char got[256] = "";
	size_t n = 0;
	int err;

	trusted_for_set_log_fn(quiet, NULL);
	if (hide && (unshare(CLONE_NEWNS) ||
		     mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		     mount("tmpfs", "/proc/sys/fs", "tmpfs", 0, NULL))) {
		report(0, "libtrustedfor: hiding %s: %s", FS_POLICY,
		       strerror(errno));
		return;
	}
	err = filter_trusted_for(SCMP_ACT_KILL_PROCESS);
	if (err) {
		report(0, "libtrustedfor: installing the seccomp filter: %s",
		       strerror(err));
		return;
	}
	trusted_for_get_config(&p);
	for (i = 0; i < N_FILES; i++) {
		int fd = open(files[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);

		n += snprintf(got + n, sizeof(got) - n, "%s%s", i ? " " : "",
			      errname(lib_trusted_for(fd)));
		close(fd);
	}
	/* Only reached if 463 was never issued. */
	report(hide,
	       "libtrustedfor with %s %s never issues system call 463 "
	       "(patched_kernel=%d, backend %s, verdicts %s)",
	       FS_POLICY, hide ? "hidden" : "visible", p.patched_kernel,
	       trusted_for_backend_string(p.backend), got);
	_exit(hide ? 0 : 3);
}

void run_library(void)
{
	struct lib_case c;
	int hide, status;
	pid_t pid;

	/* Every user's library follows the administrator's policy. */
	for (c.policy = 0; c.policy <= 3; c.policy++) {
		set_policy(c.policy);
		c.uid = 0;
		in_child("libtrustedfor verdicts", same_verdicts, &c);
		c.uid = NOBODY;
		in_child("libtrustedfor verdicts", same_verdicts, &c);
	}
	set_policy(3);
	in_child("libtrustedfor reaches the kernel", reaches_kernel, NULL);

	hide = 1;
	in_child("libtrustedfor on a stock kernel", stock_kernel, &hide);

	/* The filter works: with the sysctl visible, 463 kills the process. */
	hide = 0;
	pid = fork();
	if (pid == 0)
		stock_kernel(&hide);
	waitpid(pid, &status, 0);
	report(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
	       "control: with %s visible the same filter kills the library's "
	       "process (status 0x%x)",
	       FS_POLICY, status);
}

