// SPDX-License-Identifier: GPL-2.0
/*
 * The test program of the trusted_for kernel series.  It runs as /init in a
 * QEMU guest booted by kernel/check.sh, prints one line per case on the
 * console and a summary, then powers the guest off:
 *
 *   tfk: ok - <case>
 *   tfk: FAIL - <case>: expected <errno>, got <errno>
 *   tfk: SUMMARY <passed> passed, <failed> failed
 *
 * With "bench" on the kernel command line (after "--"), it runs the
 * benchmark of bench.c instead.
 *
 * Every case that depends on the credentials runs in its own forked
 * process; counters live in a shared mapping so children can report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/openat2.h>
#include <linux/trusted-for.h> /* the series' uapi header, from headers_install */

#include "guest.h"

/*
 * The series' number; libtrustedfor hard-codes the same one, so a change
 * here must be made there too.
 */
_Static_assert(__NR_trusted_for == 463, "trusted_for is 463 on x86_64");

struct counters {
	atomic_int passed;
	atomic_int failed;
};
static struct counters *counters;

const char *errname(int err)
{
	static char buf[16];
	const char *name;

	if (err == 0)
		return "0";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* One line per case, written with a single write() so lines never mix. */
void report(int ok, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "tfk: %s - ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		return;
	atomic_fetch_add(ok ? &counters->passed : &counters->failed, 1);
}

/* Compare an errno (0 for success) with the expected one and report. */
void expect(int want, int got, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (want == got)
		report(1, "%s: %s", what, errname(got));
	else
		report(0, "%s: expected %s, got %s", what, errname(want),
		       errname(got));
}

static int err_of(long ret)
{
	return ret < 0 ? errno : 0;
}

/* The three interfaces, each returning 0 or an errno. */

int kernel_trusted_for(int fd, int usage, unsigned int flags)
{
	return err_of(syscall(__NR_trusted_for, fd, usage, flags));
}

int open_mayexec(const char *path, int flags)
{
	struct open_how how = {.flags = flags | O_MAYEXEC};
	int fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int access_mode(int dfd, const char *path, int mode, int flags)
{
	return err_of(syscall(SYS_faccessat2, dfd, path, mode, flags));
}

int access_execve_ok(int dfd, const char *path, int flags)
{
	return access_mode(dfd, path, EXECVE_OK, flags);
}

/* Sysctl helpers: 0 or errno, like everything else here. */

int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, value, strlen(value)) < 0)
		err = errno;
	close(fd);
	return err;
}

int read_int(const char *path, int *value)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? errno : EIO;
	*value = atoi(buf);
	return 0;
}

/* Set both policies; the harness cannot go on without it. */
void set_policy(int policy)
{
	char value[8];

	snprintf(value, sizeof(value), "%d\n", policy);
	if (write_file(FS_POLICY, value) || write_file(YAMA_POLICY, value)) {
		report(0, "setting the policies to %d: %s", policy,
		       strerror(errno));
		finish(1);
	}
}

/* Drop every capability in @drop from the effective and permitted sets. */
int drop_caps(const int *drop, int n)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	if (syscall(SYS_capget, &hdr, data))
		return errno;
	for (i = 0; i < n; i++) {
		data[drop[i] / 32].effective &= ~(1U << (drop[i] % 32));
		data[drop[i] / 32].permitted &= ~(1U << (drop[i] % 32));
	}
	return syscall(SYS_capset, &hdr, data) ? errno : 0;
}

int become_user(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return errno;
	return 0;
}

/* Run @fn in a child and wait; a child that dies is a failure. */
void in_child(const char *what, void (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		report(0, "%s: fork: %s", what, strerror(errno));
		return;
	}
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		report(0, "%s: child ended with status 0x%x", what, status);
}

static void must(int ok, const char *what)
{
	if (!ok) {
		report(0, "setup: %s: %s", what, strerror(errno));
		finish(1);
	}
}

static void make_file(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	must(fd >= 0, path);
	must(write(fd, "#!/bin/sh\n", 10) == 10, path);
	must(close(fd) == 0, path);
	must(chmod(path, mode) == 0, path);
}

/*
 * The file system the cases use: a tmpfs mounted exec and one mounted
 * noexec, each with a file that has execute bits and one that has none.
 */
static void setup(void)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	int sock;

	mkdir("/proc", 0555);
	mkdir("/dev", 0755);
	mkdir("/mnt", 0755);
	must(mount("proc", "/proc", "proc", 0, NULL) == 0, "mount /proc");
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY)
		must(0, "mount /dev");
	must(mkdir(EXEC_DIR, 0755) == 0, EXEC_DIR);
	must(mkdir(NOEXEC_DIR, 0755) == 0, NOEXEC_DIR);
	must(mount("tmpfs", EXEC_DIR, "tmpfs", 0, "mode=0755") == 0,
	     "mount exec tmpfs");
	must(mount("tmpfs", NOEXEC_DIR, "tmpfs", MS_NOEXEC, "mode=0755") == 0,
	     "mount noexec tmpfs");
	make_file(EXEC_DIR "/x", 0755);
	make_file(EXEC_DIR "/nx", 0644);
	make_file(NOEXEC_DIR "/x", 0755);
	make_file(NOEXEC_DIR "/nx", 0644);
	make_file(EXEC_DIR "/owner-x", 0744);
	make_file(EXEC_DIR "/w", 0755);
	must(mkdir(EXEC_DIR "/dir", 0755) == 0, "mkdir");
	must(mkfifo(EXEC_DIR "/fifo", 0666) == 0, "mkfifo");
	/* The guest has no block layer: opening the node fails with ENXIO. */
	must(mknod(EXEC_DIR "/blk", S_IFBLK | 0666, makedev(7, 0)) == 0,
	     "mknod");
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	must(sock >= 0, "socket");
	strcpy(sun.sun_path, EXEC_DIR "/sock");
	must(bind(sock, (struct sockaddr *)&sun, sizeof(sun)) == 0, "bind");
}

noreturn void finish(int status)
{
	printf("tfk: SUMMARY %d passed, %d failed\n",
	       atomic_load(&counters->passed), atomic_load(&counters->failed));
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached when the guest cannot power off: panic instead. */
	_exit(status);
}

int main(int argc, char **argv)
{
	int i, bench = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	counters = mmap(NULL, sizeof(*counters), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED) {
		perror("tfk: mmap");
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "bench"))
			bench = 1;

	setup();
	if (bench) {
		run_bench();
		finish(0);
	}
	printf("tfk: trusted_for series test, kernel with "
	       "fs.trusted_for_policy\n");
	run_matrix();
	run_special();
	run_sysctl();
	run_selftest();
	run_library();
	finish(0);
}
