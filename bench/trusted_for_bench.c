/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted_for_bench: what libtrustedfor's check costs on top of the system
 * calls it is made of.  Each library call is timed side by side with the raw
 * system calls that answer the same question, in interleaved rounds (the
 * order alternates, ABBA), and the median of the rounds is reported, so that
 * frequency drift and background load hit both sides alike.
 *
 * As root the files live on a fresh tmpfs in a private mount namespace;
 * otherwise in $TMPDIR or /tmp, which must not be mounted noexec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"
#include "trustedfor.h"

static int fd_allowed = -1, fd_denied = -1;
static int cur_fd = -1;
static volatile int sink;

static char *const exec_envp[] = { NULL };

/* ---- the raw system calls ---- */

static int raw_execveat(int fd)
{
	/* The same real argv the library passes: the kernel warns about NULL. */
	static char name[] = "trusted_for";
	char *argv[] = { name, NULL };

	return (int)syscall(SYS_execveat, fd, "", argv, exec_envp,
			    AT_EMPTY_PATH | AT_EXECVE_CHECK);
}

/*
 * What the emulation needs at the least, one call each: the access mode
 * (ETXTBSY), the file type, the mount flags and the filesystem type, and
 * the execute permission.
 */
static int raw_emulation(int fd)
{
	struct stat st;
	struct statfs sfs;
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fstat(fd, &st) < 0 || fstatfs(fd, &sfs) < 0)
		return -1;
	if (!S_ISREG(st.st_mode) || (sfs.f_flags & ST_NOEXEC)) {
		errno = EACCES;
		return -1;
	}
	return (int)syscall(SYS_faccessat2, fd, "", X_OK,
			    AT_EMPTY_PATH | AT_EACCESS);
}

/* ---- the operations timed; each returns 0 or -1 with errno ---- */

static int op_raw_execveat(void)
{
	return raw_execveat(cur_fd);
}

static int op_lib_trusted_for(void)
{
	return trusted_for(cur_fd, TRUSTED_FOR_EXECUTION, 0);
}

static int op_raw_emulation(void)
{
	return raw_emulation(cur_fd);
}

/* What trusted_for() does on a kernel without AT_EXECVE_CHECK. */
static int op_lib_answer_emulated(void)
{
	return tf_answer(cur_fd, TRUSTED_FOR_POLICY_ALL,
			 TRUSTED_FOR_BACKEND_EMULATED);
}

/* The same check with its verdict: reason, detail, message. */
static int op_lib_emulation(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	return tf_check(cur_fd, TRUSTED_FOR_POLICY_ALL,
			TRUSTED_FOR_BACKEND_EMULATED, NULL, &v);
}

/* trusted_for() with a verdict; a kernel denial is explained by emulation. */
static int op_lib_explain(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	return trusted_for_explain(cur_fd, NULL, &v);
}

/* The pieces the library adds to the system calls, one at a time. */
static int op_fcntl_getfl(void)
{
	return fcntl(cur_fd, F_GETFL) < 0 ? -1 : 0;
}

static int op_fstat(void)
{
	struct stat st;

	return fstat(cur_fd, &st);
}

static int op_fstatfs(void)
{
	struct statfs sfs;

	return fstatfs(cur_fd, &sfs);
}

static int op_fstatvfs(void)
{
	struct statvfs sv;

	return fstatvfs(cur_fd, &sv);
}

static int op_faccessat2(void)
{
	return (int)syscall(SYS_faccessat2, cur_fd, "", X_OK,
			    AT_EMPTY_PATH | AT_EACCESS);
}

/* Read at every enforcement decision (the securebits change at run time). */
static int op_securebits(void)
{
	sink = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	return 0;
}

static int op_geteuid(void)
{
	sink = (int)geteuid();
	return 0;
}

static int op_policy_check(void)
{
	enum trusted_for_backend backend;
	unsigned int policy;

	tf_config_check(&policy, &backend);
	sink = (int)policy + (int)backend;
	return 0;
}

/* A verdict's bookkeeping around the system calls: no system calls. */
static int op_bookkeeping(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	memset(&v, 0, sizeof(v));
	snprintf(v.message, sizeof(v.message), "%s: trusted for execution",
		 "(descriptor)");
	sink = v.message[0];
	__asm__ volatile("" : : "r"(&v) : "memory");
	return 0;
}

/* ---- timing ---- */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double time_batch(int (*op)(void), int fd, long n)
{
	long long t0, t1;

	cur_fd = fd;
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		op();
	t1 = now_ns();
	return (double)(t1 - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int rounds = 201;
static double batch_ms = 1.0;

/* Enough calls per batch for about batch_ms of the slower side. */
static long batch_size(int (*a)(void), int (*b)(void), int fd)
{
	double ns_a = time_batch(a, fd, 200), ns_b = time_batch(b, fd, 200);
	double slow = ns_a > ns_b ? ns_a : ns_b;
	long n = (long)(batch_ms * 1e6 / (slow > 1 ? slow : 1));

	return n < 10 ? 10 : n;
}

struct pair {
	double a, b, ratio; /* medians: ns/call of each side, paired ratio */
};

static struct pair measure_pair(int (*a)(void), int (*b)(void), int fd)
{
	double *ta = calloc((size_t)rounds, sizeof(double));
	double *tb = calloc((size_t)rounds, sizeof(double));
	double *tr = calloc((size_t)rounds, sizeof(double));
	long n = batch_size(a, b, fd);
	struct pair p;

	if (!ta || !tb || !tr) {
		perror("calloc");
		exit(1);
	}
	time_batch(a, fd, n / 4 + 1); /* warm both paths up */
	time_batch(b, fd, n / 4 + 1);
	for (int r = 0; r < rounds; r++) {
		if (r % 2 == 0) {
			ta[r] = time_batch(a, fd, n);
			tb[r] = time_batch(b, fd, n);
		} else {
			tb[r] = time_batch(b, fd, n);
			ta[r] = time_batch(a, fd, n);
		}
		tr[r] = tb[r] / ta[r];
	}
	p.a = median(ta, rounds);
	p.b = median(tb, rounds);
	p.ratio = median(tr, rounds);
	free(ta);
	free(tb);
	free(tr);
	return p;
}

static double measure_one(int (*op)(void), int fd)
{
	struct pair p = measure_pair(op, op, fd);

	return (p.a + p.b) / 2;
}

/* ---- setup ---- */

static char dir[256];
static int on_tmpfs;

static int make_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/trustedfor-bench.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return -1;
	}
	/* As root: a fresh exec tmpfs that no one else sees. */
	if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
	    mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") == 0)
		on_tmpfs = 1;
	return 0;
}

static int make_file(const char *name, mode_t mode)
{
	static const char script[] = "#!/bin/sh\nexit 0\n";
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, script, sizeof(script) - 1) < 0 ||
	    fchmod(fd, mode) < 0 || close(fd) < 0) {
		perror(path);
		return -1;
	}
	/* As an interpreter opens a script; no writer is left open (ETXTBSY). */
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void cleanup(void)
{
	char path[512];

	if (fd_allowed >= 0)
		close(fd_allowed);
	if (fd_denied >= 0)
		close(fd_denied);
	if (on_tmpfs) {
		umount2(dir, MNT_DETACH);
	} else {
		snprintf(path, sizeof(path), "%s/allowed", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/denied", dir);
		unlink(path);
	}
	rmdir(dir);
}

/* Both sides must give the same answer, or the comparison means nothing. */
static int expect(const char *what, int (*op)(void), int fd, int want_errno)
{
	int r, err;

	cur_fd = fd;
	errno = 0;
	r = op();
	err = r < 0 ? errno : 0;
	if (err == want_errno)
		return 0;
	fprintf(stderr, "trusted_for_bench: %s: expected %s, got %s\n", what,
		want_errno ? strerror(want_errno) : "success",
		err ? strerror(err) : "success");
	return -1;
}

static void pin_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void row(const char *name, struct pair p)
{
	printf("| %-38s | %9.0f | %9.0f | %6.3f | %6.3f | %+8.0f |\n", name,
	       p.a, p.b, p.b / p.a, p.ratio, p.b - p.a);
}

#ifdef TRUSTED_FOR_SYSCALL_NR
static int op_raw_syscall(void)
{
	return (int)syscall(TRUSTED_FOR_SYSCALL_NR, cur_fd, TRUSTED_FOR_EXECUTION, 0);
}

/*
 * Makes the call give action, on fd alone unless fd is -1: fd in the low 32
 * bits of the first argument, what the kernel reads of an int.  Everything
 * else is allowed, calls of other architectures too.
 */
static int answer(uint32_t action, int fd)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	int r = f ? seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW) : -ENOMEM;

	if (!r && fd == -1)
		r = seccomp_rule_add(f, action, TRUSTED_FOR_SYSCALL_NR, 0);
	else if (!r)
		r = seccomp_rule_add(f, action, TRUSTED_FOR_SYSCALL_NR, 1,
				     SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (uint32_t)fd));
	if (!r)
		r = seccomp_load(f);
	seccomp_release(f);
	return r;
}

/*
 * The patched kernel's trusted_for() is not on this kernel: seccomp
 * filters answer its number instead (0 for the allowed file, EACCES for the
 * denied one), for the raw call and the library alike, so both sides pay
 * the filters and the difference is what the library adds around the call.
 * Two filters, since libseccomp gives a call that no rule matches the
 * filter's default (allowed): the call fails with EACCES, and a newer one,
 * whose error the kernel takes, answers 0 for the allowed file.
 * In a child: the filters and the pretended kernel are for good.
 */
static void syscall_backend_rows(void)
{
	struct tf_kernel k = { .patched = 1 };
	struct pair ya, yd;
	pid_t pid;
	int r;

	fflush(stdout);
	pid = fork();
	if (pid != 0) {
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return;
	}
	r = answer(SCMP_ACT_ERRNO(EACCES), -1);
	if (!r)
		r = answer(SCMP_ACT_ERRNO(0), fd_allowed);
	if (r < 0) {
		fprintf(stderr, "trusted_for_bench: seccomp: %s\n", strerror(-r));
		_exit(1);
	}
	tf_kernel_override(&k);
	trusted_for_reload_policy_file();
	if (expect("faked trusted_for(), mode 0755", op_raw_syscall, fd_allowed, 0) ||
	    expect("faked trusted_for(), mode 0644", op_raw_syscall, fd_denied, EACCES) ||
	    expect("trusted_for() on the faked call, 0755", op_lib_trusted_for, fd_allowed, 0) ||
	    expect("trusted_for() on the faked call, 0644", op_lib_trusted_for, fd_denied, EACCES))
		_exit(1);
	ya = measure_pair(op_raw_syscall, op_lib_trusted_for, fd_allowed);
	yd = measure_pair(op_raw_syscall, op_lib_trusted_for, fd_denied);
	printf("\nthe patched kernel's system call, answered by a seccomp filter (both sides pay it)\n\n");
	printf("| %-38s | %9s | %9s | %6s | %6s | %8s |\n", "case", "raw ns",
	       "lib ns", "ratio", "paired", "extra ns");
	printf("|%.40s|%.11s|%.11s|%.8s|%.8s|%.10s|\n",
	       "----------------------------------------", "-----------",
	       "-----------", "--------", "--------", "----------");
	row("syscall 463 vs trusted_for(), 0755", ya);
	row("syscall 463 vs trusted_for(), 0644", yd);
	fflush(stdout);
	_exit(0);
}
#endif

static void usage(void)
{
	fprintf(stderr,
		"Usage: trusted_for_bench [-r ROUNDS] [-t BATCH_MS] [-n]\n"
		"  -r  interleaved rounds per measurement (default 201)\n"
		"  -t  milliseconds per batch (default 1)\n"
		"  -n  do not pin to one CPU\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct trusted_for_config pol = TRUSTED_FOR_CONFIG_INIT;
	struct pair ea, ed, sa, sd, ma, md, xa, xd;
	int pin = 1, c, ok = 0;

	while ((c = getopt(argc, argv, "r:t:nh")) != -1) {
		if (c == 'r')
			rounds = atoi(optarg);
		else if (c == 't')
			batch_ms = atof(optarg);
		else if (c == 'n')
			pin = 0;
		else
			usage();
	}
	if (rounds < 1 || batch_ms <= 0)
		usage();
	if (pin)
		pin_cpu();
	if (make_dir() < 0)
		return 1;
	fd_allowed = make_file("allowed", 0755);
	fd_denied = make_file("denied", 0644);
	if (fd_allowed < 0 || fd_denied < 0) {
		cleanup();
		return 1;
	}

	trusted_for_get_config(&pol);
	printf("files: %s, %s\n", dir,
	       on_tmpfs ? "fresh tmpfs in a private mount namespace" :
			  "not a private tmpfs (run as root for one)");
	printf("policy: %u (%s), backend of trusted_for(): %s\n", pol.check_policy,
	       pol.file_path, trusted_for_backend_string(pol.backend));
	printf("rounds: %d interleaved (ABBA), about %.1f ms per batch, "
	       "median of rounds; %s\n\n", rounds, batch_ms,
	       pin ? "pinned to one CPU" : "not pinned");
	if (pol.check_policy != TRUSTED_FOR_POLICY_ALL ||
	    pol.backend != TRUSTED_FOR_BACKEND_EXECVE_CHECK) {
		fprintf(stderr,
			"trusted_for_bench: trusted_for() does not use execveat(AT_EXECVE_CHECK) "
			"with policy 3 here (a policy file, an old kernel?): cannot compare\n");
		cleanup();
		return 1;
	}
	ok |= expect("raw execveat, mode 0755", op_raw_execveat, fd_allowed, 0);
	ok |= expect("raw execveat, mode 0644", op_raw_execveat, fd_denied, EACCES);
	ok |= expect("trusted_for(), mode 0755", op_lib_trusted_for, fd_allowed, 0);
	ok |= expect("trusted_for(), mode 0644", op_lib_trusted_for, fd_denied, EACCES);
	ok |= expect("raw emulation, mode 0755", op_raw_emulation, fd_allowed, 0);
	ok |= expect("raw emulation, mode 0644", op_raw_emulation, fd_denied, EACCES);
	ok |= expect("emulation, mode 0755", op_lib_emulation, fd_allowed, 0);
	ok |= expect("emulation, mode 0644", op_lib_emulation, fd_denied, EACCES);
	ok |= expect("emulated answer, mode 0755", op_lib_answer_emulated, fd_allowed, 0);
	ok |= expect("emulated answer, mode 0644", op_lib_answer_emulated, fd_denied, EACCES);
	ok |= expect("trusted_for_explain(), mode 0755", op_lib_explain, fd_allowed, 0);
	ok |= expect("trusted_for_explain(), mode 0644", op_lib_explain, fd_denied, EACCES);
	if (ok) {
		cleanup();
		return 1;
	}

	ea = measure_pair(op_raw_execveat, op_lib_trusted_for, fd_allowed);
	ed = measure_pair(op_raw_execveat, op_lib_trusted_for, fd_denied);
	sa = measure_pair(op_raw_emulation, op_lib_answer_emulated, fd_allowed);
	sd = measure_pair(op_raw_emulation, op_lib_answer_emulated, fd_denied);
	ma = measure_pair(op_raw_emulation, op_lib_emulation, fd_allowed);
	md = measure_pair(op_raw_emulation, op_lib_emulation, fd_denied);
	xa = measure_pair(op_raw_execveat, op_lib_explain, fd_allowed);
	xd = measure_pair(op_raw_execveat, op_lib_explain, fd_denied);

	printf("ns per call; ratio = library / raw (of the medians, and the median of the per-round ratios)\n\n");
	printf("| %-38s | %9s | %9s | %6s | %6s | %8s |\n", "case", "raw ns",
	       "lib ns", "ratio", "paired", "extra ns");
	printf("|%.40s|%.11s|%.11s|%.8s|%.8s|%.10s|\n",
	       "----------------------------------------", "-----------",
	       "-----------", "--------", "--------", "----------");
	row("execveat vs trusted_for(), 0755", ea);
	row("execveat vs trusted_for(), 0644", ed);
	row("syscalls vs emulated answer, 0755", sa);
	row("syscalls vs emulated answer, 0644", sd);
	printf("|%.40s|%.11s|%.11s|%.8s|%.8s|%.10s|\n",
	       "-- with a verdict ----------------------", "-----------",
	       "-----------", "--------", "--------", "----------");
	row("syscalls vs emulated tf_check, 0755", ma);
	row("syscalls vs emulated tf_check, 0644", md);
	row("execveat vs trusted_for_explain, 0755", xa);
	row("execveat vs trusted_for_explain, 0644", xd);

#ifdef TRUSTED_FOR_SYSCALL_NR
	syscall_backend_rows();
#endif
	printf("\nwhat the extra pieces cost, ns per call (0755 file unless noted)\n\n");
	printf("| %-56s | %7s |\n", "piece", "ns");
	printf("|%.58s|%.9s|\n",
	       "----------------------------------------------------------",
	       "---------");
	printf("| %-56s | %7.0f |\n", "tf_config_check() (policy read, per call)",
	       measure_one(op_policy_check, fd_allowed));
	printf("| %-56s | %7.0f |\n", "memset(verdict) + snprintf (a verdict's bookkeeping)",
	       measure_one(op_bookkeeping, fd_allowed));
	printf("| %-56s | %7.0f |\n", "prctl(PR_GET_SECUREBITS) (every enforcement decision)",
	       measure_one(op_securebits, fd_allowed));
	printf("| %-56s | %7.0f |\n", "fcntl(F_GETFL)",
	       measure_one(op_fcntl_getfl, fd_allowed));
	printf("| %-56s | %7.0f |\n", "fstat()",
	       measure_one(op_fstat, fd_allowed));
	printf("| %-56s | %7.0f |\n", "fstatfs()",
	       measure_one(op_fstatfs, fd_allowed));
	printf("| %-56s | %7.0f |\n", "fstatvfs() (one more fstatfs inside glibc)",
	       measure_one(op_fstatvfs, fd_allowed));
	printf("| %-56s | %7.0f |\n", "faccessat2(X_OK, AT_EACCESS), 0755",
	       measure_one(op_faccessat2, fd_allowed));
	printf("| %-56s | %7.0f |\n", "faccessat2(X_OK, AT_EACCESS), 0644",
	       measure_one(op_faccessat2, fd_denied));
	printf("| %-56s | %7.0f |\n", "geteuid() (the \"uid N\" detail)",
	       measure_one(op_geteuid, fd_allowed));
	printf("| %-56s | %7.0f |\n", "emulated tf_check() on a denial (explains a kernel no)",
	       measure_one(op_lib_emulation, fd_denied));
	cleanup();
	return 0;
}
