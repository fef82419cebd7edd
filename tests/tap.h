/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TAP for the C tests: one "ok N - what" line a case, "1..N" at the end.
 * Failing cases print what was expected and what came, at the calling line.
 */
#ifndef TRUSTEDFOR_TAP_H
#define TRUSTEDFOR_TAP_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "missing.h"

static int tap_n, tap_failed;

static inline void __attribute__((format(printf, 2, 3))) tap_ok(int pass, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!pass)
		tap_failed++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * A case that could not run, reported as a skip: tests/run.py, the one
 * place that decides, counts it as a failure under CI (CI=true or
 * TRUSTEDFOR_NO_SKIP=1).
 */
static inline void tap_not_run(const char *what, const char *why)
{
	tap_n++;
	printf("ok %d - %s # SKIP not run: %s\n", tap_n, what, why);
	fflush(stdout);
}

#define tap_is_int(got, want, ...)                                            \
	do {                                                                  \
		long long g_ = (long long)(got), w_ = (long long)(want);      \
		tap_ok(g_ == w_, __VA_ARGS__);                                \
		if (g_ != w_)                                                 \
			printf("#   %s:%d: want %lld, got %lld\n", __FILE__,  \
			       __LINE__, w_, g_);                             \
	} while (0)

#define tap_is_str(got, want, ...)                                            \
	do {                                                                  \
		const char *g_ = (got), *w_ = (want);                         \
		int same_ = g_ && w_ && !strcmp(g_, w_);                      \
		tap_ok(same_, __VA_ARGS__);                                   \
		if (!same_)                                                   \
			printf("#   %s:%d: want <%s>, got <%s>\n", __FILE__,  \
			       __LINE__, w_ ? w_ : "(null)",                  \
			       g_ ? g_ : "(null)");                           \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

static inline void tap_bail(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(2);
}

/*
 * A test's seccomp filter, made with libseccomp as the session's
 * confinement is.  tap_filter_new(other) allows every call and gives a call
 * of another architecture other (i386's numbers would name other calls);
 * the test adds its rules, in x86_64's numbers, with seccomp_rule_add().
 * tap_filter_load(f, r), r being what adding the rules returned, installs
 * the filter for good, no_new_privs first, and frees it: 0, or -1 with
 * errno set.  x32's calls come in as x86_64 with numbers of their own: no
 * rule is about them, so they are allowed, as any call no rule matches
 * (libseccomp alone would give them other).
 */
static inline scmp_filter_ctx tap_filter_new(uint32_t other)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);

	if (f && seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, other) < 0) {
		seccomp_release(f);
		return NULL;
	}
	return f;
}

static inline int tap_filter_load(scmp_filter_ctx f, int r)
{
	scmp_filter_ctx x32 = NULL;
	uint32_t other;

	/* x32 without rules: added last, as a rule applies to every architecture there. */
	if (!r)
		r = seccomp_attr_get(f, SCMP_FLTATR_ACT_BADARCH, &other);
	if (!r) {
		x32 = tap_filter_new(other);
		r = x32 ? seccomp_arch_remove(x32, SCMP_ARCH_NATIVE) : -ENOMEM;
	}
	if (!r)
		r = seccomp_arch_add(x32, SCMP_ARCH_X32);
	if (!r) {
		r = seccomp_merge(f, x32); /* which takes x32 */
		x32 = r ? x32 : NULL;
	}
	if (!r)
		r = seccomp_load(f);
	seccomp_release(x32);
	seccomp_release(f);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

/* This process as uid and gid 65534 without supplementary groups, or bail out. */
static inline void tap_become_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
	    setresuid(65534, 65534, 65534) < 0)
		tap_bail("become uid 65534");
}

/*
 * A case that does not apply to the running kernel (Debian 12's 6.1 has no
 * AT_EXECVE_CHECK and no exec securebits).  Decide it with
 * tap_kernel_lacks(), a probe of the running kernel, never with its version.
 * tests/run.py counts it apart: neither passed, nor failed, nor skipped.
 */
static inline void tap_na(const char *what, const char *why)
{
	tap_n++;
	printf("ok %d - %s # N/A not applicable on this kernel: %s\n", tap_n, what, why);
	fflush(stdout);
}

/*
 * Probes the running kernel for FEATURE; NULL when it has it, otherwise why
 * not, for tap_na().  The probes are the tests' own, independent of the
 * library's (which is what the tests check):
 *   "execve-check"         execveat(AT_EXECVE_CHECK), Linux 6.14
 *   "exec-securebits"      SECBIT_EXEC_RESTRICT_FILE/DENY_INTERACTIVE, 6.14
 *   "trusted-for-syscall"  the patched kernel's trusted_for() (kernel/)
 *   "landlock"             Landlock, enabled at boot
 *   "mount-id-unique"      statx(STATX_MNT_ID_UNIQUE) and statmount(), 6.8
 * An unknown feature is a bug in the test: it aborts.
 */
static inline const char *tap_kernel_lacks(const char *feature)
{
	if (!strcmp(feature, "execve-check")) {
		char *argv[] = { "tap-probe", NULL }, *envp[] = { NULL };

		/* Older kernels reject the unknown flag before the bad fd. */
		errno = 0;
		syscall(SYS_execveat, -1, "", argv, envp, AT_EMPTY_PATH | AT_EXECVE_CHECK);
		return errno == EINVAL ? "no AT_EXECVE_CHECK (execveat: EINVAL)" : NULL;
	}
	if (!strcmp(feature, "exec-securebits")) {
		/* In a child: a success must not stay with the caller.  Older
		 * kernels refuse unknown bits with EPERM, even to root. */
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			int bits = prctl(PR_GET_SECUREBITS);

			_exit(bits >= 0 && prctl(PR_SET_SECUREBITS,
					bits | SECBIT_EXEC_RESTRICT_FILE |
					SECBIT_EXEC_DENY_INTERACTIVE) == 0 ? 0 : 1);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			tap_bail("probing the exec securebits");
		return WIFEXITED(status) && WEXITSTATUS(status) == 0
			? NULL : "no exec securebits (PR_SET_SECUREBITS: EPERM)";
	}
	if (!strcmp(feature, "trusted-for-syscall")) {
		struct statfs sfs;

		return statfs(TRUSTED_FOR_KERNEL_POLICY_PATH, &sfs) == 0 &&
		       sfs.f_type == PROC_SUPER_MAGIC
			? NULL : "no trusted_for() system call (not the patched kernel)";
	}
	if (!strcmp(feature, "landlock")) {
		return syscall(SYS_landlock_create_ruleset, NULL, 0,
			       LANDLOCK_CREATE_RULESET_VERSION) >= 1
			? NULL : "no Landlock (landlock_create_ruleset failed)";
	}
	if (!strcmp(feature, "mount-id-unique")) {
		struct statx stx;

		memset(&stx, 0, sizeof(stx));
		return statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, &stx) == 0 &&
		       (stx.stx_mask & STATX_MNT_ID_UNIQUE)
			? NULL : "no unique mount ids (statx: no STATX_MNT_ID_UNIQUE)";
	}
	printf("Bail out! unknown kernel feature '%s'\n", feature);
	exit(2);
}

/*
 * Runs fn(arg) in a child process of its own (the library reads its policy
 * once per process; a child can drop privileges or install filters for
 * good).  The child's TAP lines continue the parent's numbering and its
 * failures count.  Returns the child's wait status.
 */
static inline int tap_in_child(void (*fn)(void *), void *arg)
{
	static int *shared;
	int status;
	pid_t pid;

	if (!shared) {
		shared = mmap(NULL, 2 * sizeof(int), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (shared == MAP_FAILED)
			tap_bail("mmap");
	}
	shared[0] = tap_n;
	shared[1] = 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork");
	if (pid == 0) {
		tap_failed = 0;
		fn(arg);
		shared[0] = tap_n;
		shared[1] = tap_failed;
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		tap_bail("waitpid");
	tap_n = shared[0];
	tap_failed += shared[1];
	return status;
}

static inline void write_file(const char *path, const char *content, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || write(fd, content, strlen(content)) < 0 ||
	    fchmod(fd, mode) < 0 || close(fd) < 0)
		tap_bail(path);
}

static inline int write_proc(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int r = fd >= 0 && write(fd, content, strlen(content)) >= 0 ? 0 : -1;

	if (fd >= 0)
		close(fd);
	return r;
}

static char tap_tmp[256];

/* The tmpfs goes with the namespace; its empty directory must go too. */
static inline void tap_cleanup(void)
{
	umount2(tap_tmp, MNT_DETACH);
	rmdir(tap_tmp);
}

/*
 * A private mount namespace (a user namespace too when not root) with a
 * fresh tmpfs at *dir.  Returns 1 when the process is real root, 0 when it
 * runs as a mapped root in a user namespace, -1 when neither is possible.
 */
static inline int tap_private_namespace(char *dir, size_t size)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	int root = geteuid() == 0;
	char map[64];

	if (unshare(CLONE_NEWNS | (root ? 0 : CLONE_NEWUSER)) < 0)
		return -1;
	if (!root) {
		snprintf(map, sizeof(map), "0 %u 1", (unsigned int)uid);
		if (write_proc("/proc/self/setgroups", "deny") < 0 ||
		    write_proc("/proc/self/uid_map", map) < 0)
			return -1;
		snprintf(map, sizeof(map), "0 %u 1", (unsigned int)gid);
		if (write_proc("/proc/self/gid_map", map) < 0)
			return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	snprintf(dir, size, "/tmp/trustedfor-test.XXXXXX");
	if (!mkdtemp(dir) || mount("trustedfor-test", dir, "tmpfs", 0, "mode=0755") < 0)
		return -1;
	snprintf(tap_tmp, sizeof(tap_tmp), "%s", dir);
	atexit(tap_cleanup);
	return root;
}

/* dir/exec and dir/noexec, fresh tmpfs mounts, the second one noexec. */
static inline void tap_exec_noexec_mounts(const char *dir)
{
	char path[512];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, i ? "noexec" : "exec");
		if (mkdir(path, 0755) < 0 ||
		    mount(i ? "noexec" : "exec", path, "tmpfs", i ? MS_NOEXEC : 0,
			  "mode=0755") < 0)
			tap_bail(path);
	}
}

/* dir/where/script, opened to be checked, or bail out. */
static inline int tap_open_script(const char *dir, const char *where)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s/script", dir, where);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tap_bail(path);
	return fd;
}

/*
 * An overlay on /etc holding a policy file (content NULL: none at all).
 * content is the settings, each line with its newline; the completeness
 * markers are added here.
 */
static inline int tap_policy_file(const char *dir, const char *content, mode_t mode,
			   uid_t owner)
{
	static int mounted;
	char upper[512], work[512], opts[1200], file[4096];

	if (!mounted) {
		snprintf(upper, sizeof(upper), "%s/etc-upper", dir);
		snprintf(work, sizeof(work), "%s/etc-work", dir);
		snprintf(opts, sizeof(opts), "lowerdir=/etc,upperdir=%s,workdir=%s",
			 upper, work);
		if (mkdir(upper, 0755) < 0 || mkdir(work, 0755) < 0 ||
		    mount("trustedfor-etc", "/etc", "overlay", 0, opts) < 0)
			return -1;
		mounted = 1;
	}
	unlink("/etc/trustedfor.conf");
	if (!content)
		return 0;
	/* The settings between the completeness markers, trustedfor.conf(5). */
	snprintf(file, sizeof(file), "trustedfor-policy 1\n%send\n", content);
	write_file("/etc/trustedfor.conf", file, mode);
	return chown("/etc/trustedfor.conf", owner, (gid_t)-1);
}

#endif
