/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The patched kernel's trusted_for() system call, before a patched kernel is
 * at hand: a seccomp filter plays the kernel.  It answers the call with
 * chosen errors, checks that the library passes usage 1 and flags 0, and
 * kills the process if the library issues the call on a kernel it has not
 * recognised as the patched one (kernel/ boots the real thing).
 */
#include "../tap.h"

#include <stddef.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "internal.h"
#include "missing.h"

#ifdef TRUSTED_FOR_SYSCALL_NR

static char dir[256];
enum { ALLOWED, NOEXEC, BUSY, LSM, MEMFD, FILES };
static int fds[FILES];
static const uint32_t answers[FILES] = { SCMP_ACT_ERRNO(0), SCMP_ACT_ERRNO(EACCES),
					 SCMP_ACT_ERRNO(ETXTBSY), SCMP_ACT_ERRNO(EACCES),
					 SCMP_ACT_ERRNO(0) };

/*
 * The call's arguments are an int and two unsigned ints: the kernel reads
 * their low 32 bits, and so do these rules.
 */
#define LOW_EQ(arg, v) SCMP_CMP((arg), SCMP_CMP_MASKED_EQ, 0xffffffffu, (uint32_t)(v))

/* The call kills unless argument arg is v: a rule for each bit that can differ. */
static int kill_unless(scmp_filter_ctx f, unsigned int arg, uint32_t v)
{
	int r = 0;

	for (uint32_t bit = 1; bit && !r; bit <<= 1)
		r = seccomp_rule_add(f, SCMP_ACT_KILL_PROCESS, TRUSTED_FOR_SYSCALL_NR, 1,
				     SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, bit, ~v & bit));
	return r;
}

static void load(scmp_filter_ctx f, int r)
{
	if (tap_filter_load(f, r) < 0)
		tap_bail("seccomp");
}

/*
 * Without answers, the call kills.  With them, it fails with EBADF, kills
 * unless its usage is 1 and its flags 0, and on the test's descriptors
 * gives their answers: three filters, since a call that no rule of a
 * libseccomp filter matches gets the filter's default (allowed here), and
 * an argument is compared only for equality under a mask.  The kernel runs
 * every filter and takes the strictest action, of two errors the newest
 * filter's.
 */
static void install_filter(int answer_calls)
{
	scmp_filter_ctx f = tap_filter_new(SCMP_ACT_ALLOW);
	int r;

	if (!answer_calls) {
		load(f, seccomp_rule_add(f, SCMP_ACT_KILL_PROCESS, TRUSTED_FOR_SYSCALL_NR, 0));
		return;
	}
	load(f, seccomp_rule_add(f, SCMP_ACT_ERRNO(EBADF), TRUSTED_FOR_SYSCALL_NR, 0));
	f = tap_filter_new(SCMP_ACT_ALLOW);
	r = kill_unless(f, 1, TRUSTED_FOR_EXECUTION);
	load(f, r ? r : kill_unless(f, 2, 0));
	f = tap_filter_new(SCMP_ACT_ALLOW);
	r = 0;
	for (int i = 0; i < FILES && !r; i++)
		r = seccomp_rule_add(f, answers[i], TRUSTED_FOR_SYSCALL_NR, 1, LOW_EQ(0, fds[i]));
	load(f, r);
}

static void open_files(void)
{
	static const char *const names[MEMFD] = { "exec/ok", "noexec/x", "exec/busy", "exec/lsm" };
	char path[512];

	/* Mode 0644: the patched call at policy 1 checks only the mount. */
	fds[MEMFD] = memfd_create("script", MFD_CLOEXEC);
	if (fds[MEMFD] < 0 || fchmod(fds[MEMFD], 0644) < 0)
		tap_bail("memfd");
	for (int i = 0; i < MEMFD; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			tap_bail(path);
	}
}

static void fake_sysctl(const char *value)
{
	if (mount("fake-sysctl", "/proc/sys/fs", "tmpfs", 0, "mode=0755") < 0)
		tap_bail("mount over /proc/sys/fs");
	write_file("/proc/sys/fs/trusted_for_policy", value, 0644);
}

static void child(void *fn)
{
	if (unshare(CLONE_NEWNS) < 0)
		tap_bail("unshare");
	open_files();
	((void (*)(void))fn)();
}

static void in_child(void (*fn)(void), const char *what, int want_signal)
{
	int status = tap_in_child(child, (void *)fn);

	if (want_signal)
		tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "%s", what);
	else
		tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", what);
}

static void exercise_everything(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;

	for (int i = 0; i < FILES; i++) {
		trusted_for(fds[i], TRUSTED_FOR_EXECUTION, 0);
		trusted_for_explain(fds[i], "f", &v);
		trusted_for_allow_file(fds[i], "f", &v);
		trusted_for_allow_interactive(fds[i], "f", &v);
	}
	trusted_for_get_config(&p);
}

static void stock_kernel(void)
{
	struct tf_kernel k;

	install_filter(0);
	tf_kernel_probe(&k);
	tap_is_int(k.patched, 0, "this kernel is not taken for the patched one");
	exercise_everything();
}

/* On the patched kernel itself (kernel/userspace.sh's guest): the real call. */
static void real_patched_kernel(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	unsigned int policy;
	struct tf_kernel k;

	tf_kernel_probe(&k);
	tap_is_int(k.patched, 1, "this kernel is taken for the patched one");
	tap_ok(tf_kernel_policy(&policy) == 0, "fs.trusted_for_policy reads");
	errno = 0;
	tap_ok(trusted_for(fds[ALLOWED], TRUSTED_FOR_EXECUTION, 0) == 0,
	       "the kernel trusts a file on an exec mount");
	errno = 0;
	if (policy & 1)
		tap_ok(trusted_for(fds[NOEXEC], TRUSTED_FOR_EXECUTION, 0) == -1 && errno == EACCES,
		       "the kernel refuses a file on a noexec mount: EACCES");
	else
		tap_ok(trusted_for(fds[NOEXEC], TRUSTED_FOR_EXECUTION, 0) == 0,
		       "the kernel trusts a file on a noexec mount: its policy has no mount check");
	tap_ok(trusted_for_allow_file(fds[ALLOWED], "ok", &v) == 0 &&
		       v.backend == TRUSTED_FOR_BACKEND_SYSCALL,
	       "the verdict names the system call as its backend");
}

static void planted_sysctl(void)
{
	struct tf_kernel k;

	fake_sysctl("3\n");
	tap_is_int(tf_kernel_sysctl_present(), 0, "a trusted_for_policy file on a tmpfs is not proof");
	install_filter(0);
	tf_kernel_probe(&k);
	tap_is_int(k.patched, 0, "... nor taken for the patched kernel");
	exercise_everything();
}

/*
 * Another procfs file (one of the real sysctls) bound over the path, on the
 * real one or on a planted one: still procfs, so only the way the path is
 * resolved (no mount crossed) can tell.
 */
static void bound_procfs_sysctl(void)
{
	char saved[512];
	unsigned int policy = 0;

	snprintf(saved, sizeof(saved), "%s/exec/sysctl", dir);
	write_file(saved, "", 0644);
	if (mount("/proc/sys/fs/protected_regular", saved, NULL, MS_BIND, NULL) < 0)
		tap_bail("bind /proc/sys/fs/protected_regular");
	if (access(TRUSTED_FOR_KERNEL_POLICY_PATH, F_OK) < 0)
		fake_sysctl("");
	if (mount(saved, TRUSTED_FOR_KERNEL_POLICY_PATH, NULL, MS_BIND, NULL) < 0)
		tap_bail("bind over " TRUSTED_FOR_KERNEL_POLICY_PATH);
	tap_is_int(tf_kernel_sysctl_present(), 0,
		   "a procfs file bound over trusted_for_policy is not proof");
	tap_ok(tf_kernel_policy(&policy) == -1 && policy == 3,
	       "... nor read as the policy: 3, the strictest");
	install_filter(0);
	exercise_everything();
}

/*
 * A filter makes openat2() "succeed" with 0, which is the process's stdin:
 * here another procfs file, opened close-on-exec as a launcher opens its
 * script when stdin was closed, and fcntl() says that 0 is closed, which
 * a filter can say as easily.  With fds 0..2 closed, as a daemon has them, a
 * real open may return 0 and must still count.
 */
static void forged_stdin(void)
{
	scmp_filter_ctx f;
	int real, r;

	if (close(0) < 0 || close(1) < 0 || close(2) < 0)
		_exit(3);
	real = tf_proc_open("self/uid_map");
	if (real < 0 || real > 2)
		_exit(4); /* fds closed: a real open returns one of 0..2, and counts */
	close(real);
	if (open("/proc/sys/fs/protected_regular", O_RDONLY | O_CLOEXEC) != 0)
		_exit(5);
	f = tap_filter_new(SCMP_ACT_ALLOW);
	r = seccomp_rule_add(f, SCMP_ACT_ERRNO(0), SCMP_SYS(openat2), 0);
	if (!r)
		r = seccomp_rule_add(f, SCMP_ACT_ERRNO(EBADF), SCMP_SYS(fcntl), 0);
	if (tap_filter_load(f, r) < 0)
		_exit(6);
	errno = 0;
	_exit(tf_proc_open("sys/fs/trusted_for_policy") == -1 && errno == EBADF ? 0 : 7);
}

/*
 * setarch --uname-2.6 makes uname() say 2.6 on any kernel, and a filter
 * answers the probe with EINVAL, as a kernel older than AT_EXECVE_CHECK
 * would: the library must not fall back to the emulation on that word.
 */
static void uname26(void)
{
	scmp_filter_ctx f = tap_filter_new(SCMP_ACT_ALLOW);
	int r = seccomp_rule_add(f, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(execveat), 0);
	struct tf_kernel k;

	if (personality(UNAME26) < 0 || tap_filter_load(f, r) < 0)
		tap_bail("UNAME26 and a filter");
	tf_kernel_probe(&k);
	tap_is_int(k.probe_error, EINVAL, "under UNAME26, EINVAL from the probe leaves it open");
	errno = 0;
	tap_ok(trusted_for(fds[ALLOWED], TRUSTED_FOR_EXECUTION, 0) == -1 && errno == EINVAL,
	       "... and the check fails closed");
}

static void killed_if_called(void)
{
	struct tf_kernel k = { .patched = 1 };

	install_filter(0);
	tf_kernel_override(&k);
	trusted_for(fds[ALLOWED], TRUSTED_FOR_EXECUTION, 0);
	tap_ok(0, "the filter did not catch the system call");
}

/*
 * The filter answers 0 for fds[MEMFD]; at policy 1 the library refuses it
 * all the same, with the emulation's reason.
 */
static void refused_at_policy_1(const char *what, enum trusted_for_reason reason,
				const char *why)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char want[256];

	errno = 0;
	tap_ok(tf_check(fds[MEMFD], 1, TRUSTED_FOR_BACKEND_SYSCALL, "f", &v) == -1 &&
		       errno == EACCES && v.reason == reason,
	       "policy 1: the call's 0 for %s is not trusted", what);
	snprintf(want, sizeof(want), "f: not trusted for execution: %s", why);
	tap_is_str(v.message, want, "... refused as the emulation refuses it");
}

static void patched_kernel(void)
{
	struct tf_kernel k = { .patched = 1, .execve_check = 0 };
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;

	fake_sysctl("1\n");
	install_filter(1);
	tf_kernel_override(&k);
	trusted_for_get_config(&p);
	tap_ok(p.patched_kernel && p.backend == TRUSTED_FOR_BACKEND_SYSCALL,
	       "the patched kernel's call is the backend");
	tap_ok(p.check_policy == 3 && p.check_policy_source == TRUSTED_FOR_SOURCE_KERNEL,
	       "the kernel's policy, but a planted \"1\" is not read: 3, the strictest");
	errno = 0;
	tap_ok(trusted_for(fds[ALLOWED], TRUSTED_FOR_EXECUTION, 0) == 0,
	       "the kernel's 0 is trusted");
	errno = 0;
	tap_ok(trusted_for(fds[NOEXEC], TRUSTED_FOR_EXECUTION, 0) == -1 && errno == EACCES,
	       "the kernel's EACCES is EACCES");
	trusted_for_explain(fds[NOEXEC], "x", &v);
	tap_is_str(v.message, "x: not trusted for execution: noexec mount",
		   "... explained by the policy's checks");
	errno = 0;
	tap_ok(trusted_for(fds[BUSY], TRUSTED_FOR_EXECUTION, 0) == -1 && errno == ETXTBSY,
	       "the kernel's ETXTBSY is ETXTBSY");
	trusted_for_explain(fds[BUSY], "busy", &v);
	tap_is_int(v.reason, TRUSTED_FOR_WRITE_OPEN, "... reason open for writing");
	trusted_for_explain(fds[LSM], "lsm", &v);
	tap_is_str(v.message, "lsm: not trusted for execution: refused by the kernel's exec check",
		   "a refusal the policy checks cannot explain is the kernel's (an LSM)");
	errno = 0;
	tap_ok(trusted_for(fds[ALLOWED], 0, 0) == -1 && errno == EINVAL,
	       "a bad usage never reaches the kernel");
	tap_ok(trusted_for_allow_file(fds[ALLOWED], "ok", &v) == 0 &&
		       v.backend == TRUSTED_FOR_BACKEND_SYSCALL,
	       "enforcement asks the kernel too");
	refused_at_policy_1("a memfd without the execute bit", TRUSTED_FOR_NO_EXEC_PERMISSION,
			    "no execute permission");
}

/*
 * hugetlbfs, which the mount check does not know to hold code: the patched
 * call at policy 1 passes a file there, its confirmation does not.
 */
static void unknown_filesystem(void)
{
	struct tf_kernel k = { .patched = 1, .execve_check = 0 };
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/huge", dir);
	if (mkdir(path, 0755) < 0)
		tap_bail(path);
	if (mount("trustedfor-test", path, "hugetlbfs", 0, NULL) < 0) {
		if (errno == ENODEV)
			tap_na("policy 1: a file on hugetlbfs", "no hugetlbfs");
		else
			tap_not_run("policy 1: a file on hugetlbfs", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/huge/x", dir);
	/* Empty: hugetlbfs takes no write(). */
	fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0755);
	/* The filter answers 0 for the descriptor numbered as the memfd. */
	if (fd < 0 || dup2(fd, fds[MEMFD]) < 0)
		tap_bail(path);
	install_filter(1);
	tf_kernel_override(&k);
	refused_at_policy_1("a file on hugetlbfs", TRUSTED_FOR_NOEXEC_MOUNT, "noexec mount");
}

int main(void)
{
	char path[512];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tap_private_namespace(dir, sizeof(dir)) < 0) {
		tap_not_run("system call backend", "needs root or user namespaces");
		return tap_done();
	}
	tap_exec_noexec_mounts(dir);
	snprintf(path, sizeof(path), "%s/exec/ok", dir);
	write_file(path, "+\n", 0755);
	snprintf(path, sizeof(path), "%s/noexec/x", dir);
	write_file(path, "+\n", 0755);
	snprintf(path, sizeof(path), "%s/exec/busy", dir);
	write_file(path, "+\n", 0755);
	snprintf(path, sizeof(path), "%s/exec/lsm", dir);
	write_file(path, "+\n", 0755);
	in_child(killed_if_called, "the filter kills a process that issues the call", 1);
	if (tap_kernel_lacks("trusted-for-syscall"))
		in_child(stock_kernel, "on this kernel, the whole API never issues the system call",
			 0);
	else
		in_child(real_patched_kernel, "the real system call answered", 0);
	in_child(planted_sysctl, "with a planted sysctl file, the whole API never issues it", 0);
	in_child(bound_procfs_sysctl, "with a procfs file bound there, the whole API never issues it",
		 0);
	in_child(uname26, "UNAME26 and a forged EINVAL", 0);
	in_child(forged_stdin, "a forged openat2() of 0 is refused, a real one of 0 counts", 0);
	in_child(patched_kernel, "the simulated patched kernel answered every call", 0);
	in_child(unknown_filesystem, "a filesystem not known to hold code", 0);
	return tap_done();
}

#else

int main(void)
{
	tap_not_run("system call backend", "the patched system call is x86_64 only");
	return tap_done();
}

#endif
