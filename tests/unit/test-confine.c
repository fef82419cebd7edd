/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tf_session_confine() (session/confine.c): each way out is refused with its exact
 * errno after the call, on the native x86_64 ABI and through the i386 and
 * x32 entry points, as root and as uid 65534; and each one works in a
 * control process without the filter, so that the test can fail.
 */
#include "../tap.h"
#include <signal.h>

#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "session.h"
#include "trustedfor.h"

#define X32_BIT 0x40000000L
#define I386_UNSHARE 310

struct attempt {
	const char *what;
	long (*fn)(void);
	long control; /* errno without the filter, 0 for success */
	long confined; /* errno under the filter */
};

/*
 * Controls that depend on the kernel's build: -1, success or ENOSYS (no
 * such ABI); NO_I386, success or death by SIGSEGV, which is what int 0x80
 * does on a kernel without the i386 entry point (IA32 emulation off):
 * there the confined attempt must die the same way.
 */
#define NO_I386 (-2)
#define KILLED_BY(sig) (1000 + (sig))

/* Each attempt returns 0 or an errno, and never leaves a process behind. */
static long result(long r)
{
	return r < 0 ? errno : 0;
}

static long try_unshare(void)
{
	return result(unshare(CLONE_NEWUSER));
}

static long try_clone(void)
{
	long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return result(pid);
}

/* Bad arguments: the kernel says EINVAL, the filter answers first. */
static long try_clone3(void)
{
	return result(syscall(SYS_clone3, NULL, 0));
}

static long setns_own(unsigned long nstype)
{
	int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	long r = result(syscall(SYS_setns, fd, nstype));

	close(fd);
	return r;
}

/* Joining one's own user namespace is EINVAL: the filter must say EPERM. */
static long try_setns_user(void) { return setns_own(CLONE_NEWUSER); }
static long try_setns_any(void) { return setns_own(0); }
/* setns() takes an int: the upper half of the register must not matter. */
static long try_setns_high(void) { return setns_own(0xdead00000000UL); }

static long try_traceme(void)
{
	return result(ptrace(PTRACE_TRACEME, 0, NULL, NULL));
}

static long try_vm_writev(void)
{
	static char here[4], there[4] = "abc";
	struct iovec local = { there, sizeof(there) }, remote = { here, sizeof(here) };

	return result(process_vm_writev(getpid(), &local, 1, &remote, 1, 0));
}

static long try_listener(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return errno;
	return result(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			      SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog));
}

/* A plain filter, which could answer PR_GET_SECUREBITS or open() with 0. */
static long try_plain_filter(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return errno;
	return result(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog));
}

static long try_prctl_filter(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return errno;
	return result(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0));
}

/* unshare() through the i386 entry point of a 64-bit process. */
static long try_i386_unshare(void)
{
	long r = I386_UNSHARE;

	__asm__ volatile("int $0x80" : "+a"(r) : "b"(CLONE_NEWUSER) : "memory");
	return r < 0 ? -r : 0;
}

/* unshare() with the x32 bit: the kernel's answer is ENOSYS without x32. */
static long try_x32_unshare(void)
{
	return result(syscall(X32_BIT | SYS_unshare, CLONE_NEWUSER));
}

static const struct attempt attempts[] = {
	{ "unshare(CLONE_NEWUSER)", try_unshare, 0, EPERM },
	{ "clone(CLONE_NEWUSER)", try_clone, 0, EPERM },
	{ "clone3()", try_clone3, EINVAL, ENOSYS },
	{ "setns(user namespace, CLONE_NEWUSER)", try_setns_user, EINVAL, EPERM },
	{ "setns(user namespace, 0)", try_setns_any, EINVAL, EPERM },
	{ "setns(user namespace, 0 with the upper half set)", try_setns_high, EINVAL, EPERM },
	{ "ptrace(PTRACE_TRACEME)", try_traceme, 0, EPERM },
	{ "process_vm_writev()", try_vm_writev, 0, EPERM },
	{ "seccomp(SECCOMP_FILTER_FLAG_NEW_LISTENER)", try_listener, 0, EPERM },
	{ "seccomp(SECCOMP_SET_MODE_FILTER), a plain filter", try_plain_filter, 0, EPERM },
	{ "prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)", try_prctl_filter, 0, EPERM },
	{ "i386 int 0x80 unshare(CLONE_NEWUSER)", try_i386_unshare, NO_I386, EPERM },
	{ "x32 unshare(CLONE_NEWUSER)", try_x32_unshare, -1, EPERM },
};

/* Runs one attempt in a process of its own; its result is the exit status. */
static long attempt(const struct attempt *a, int confine)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		/* A sanitizer's handler would turn a fault into an exit status. */
		signal(SIGSEGV, SIG_DFL);
		if (confine && tf_session_confine() < 0)
			_exit(255);
		_exit((int)a->fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		tap_bail("fork");
	return WIFEXITED(status) ? WEXITSTATUS(status) : KILLED_BY(WTERMSIG(status));
}

static void *thread(void *arg)
{
	return arg;
}

static int status_field(const char *name)
{
	char line[256];
	int value = -1;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)))
			value = atoi(line + strlen(name));
	if (f)
		fclose(f);
	return value;
}

static void cases(void *arg)
{
	int root = arg != NULL;
	char who[32];
	pthread_t t;
	void *back = NULL;

	if (!root && geteuid() == 0 && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		      setresuid(65534, 65534, 65534) < 0))
		tap_bail("drop to uid 65534");
	snprintf(who, sizeof(who), root ? "root" : "uid %u", (unsigned int)getuid());
	for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++) {
		const struct attempt *a = &attempts[i];
		long control = attempt(a, 0);

		if (a->control >= 0 && control != a->control)
			tap_not_run(a->what, "the control does not behave as expected");
		else if (a->control == NO_I386 && control == KILLED_BY(SIGSEGV))
			tap_is_int(attempt(a, 1), KILLED_BY(SIGSEGV),
				   "%s: %s, confined: dies as unconfined, this kernel has no i386 entry",
				   a->what, who);
		else if (a->control == NO_I386 && control != 0)
			tap_is_int(control, 0, "%s: control, %s", a->what, who);
		else if (a->control == -1 && control != 0 && control != ENOSYS)
			tap_is_int(control, ENOSYS, "%s: control, %s", a->what, who);
		else if (a->control == -1)
			tap_is_int(attempt(a, 1), a->confined, "%s: %s, confined (%s)", a->what, who,
				   control == 0 ? "this kernel runs x32: the control succeeds"
						: "this kernel has no x32: the filter answers first");
		else
			tap_is_int(attempt(a, 1), a->confined, "%s: %s, confined", a->what, who);
	}
	tap_is_int(status_field("Seccomp:"), 0, "%s: no filter before the call", who);
	tap_is_int(tf_session_confine(), 0, "%s: confines", who);
	tap_is_int(status_field("Seccomp:"), SECCOMP_MODE_FILTER, "%s: a filter is in place", who);
	tap_is_int(status_field("NoNewPrivs:"), !root,
		   "%s: no_new_privs %s", who, root ? "left off" : "set, as the kernel requires");
	static int token;

	tap_ok(pthread_create(&t, NULL, thread, &token) == 0 &&
		       pthread_join(t, &back) == 0 && back == &token,
	       "%s: threads still start (libc falls back from clone3)", who);
	tap_is_int(attempt(&attempts[0], 0), EPERM, "%s: a child inherits the filter", who);
	/* With CAP_SETPCAP (root), CAP_SYS_PTRACE leaves the bounding set. */
	tap_is_int(prctl(PR_CAPBSET_READ, CAP_SYS_PTRACE, 0, 0, 0), !root,
		   "%s: CAP_SYS_PTRACE %s the bounding set", who,
		   root ? "is out of" : "stays in (it was never usable)");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() == 0)
		tap_in_child(cases, "root");
	else
		tap_not_run("confinement as root", "not root");
	tap_in_child(cases, NULL);
	return tap_done();
}
