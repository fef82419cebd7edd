/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * docs/semantics.md section 5's check matrix, against every backend this kernel has,
 * as root and as an unprivileged uid: mount exec/noexec x mode 0700/0600,
 * memfd, directory, FIFO, sockets, a pipe reopened through /proc/self/fd, a
 * character device, a procfs file, O_PATH, O_WRONLY and O_RDWR descriptors,
 * bad descriptors.  With AT_EXECVE_CHECK the emulation must give the
 * kernel's answer, errno and reason, on every case.
 */
#include "../tap.h"

#include <grp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "internal.h"

#define UNPRIVILEGED 65534
#define E EACCES
#define T ETXTBSY
#define B EBADF

enum kind {
	EXEC_0700, EXEC_0600, NOEXEC_0700, NOEXEC_0600, MEMFD_0700, MEMFD_0600,
	DIRECTORY, FIFO, SOCKET, SOCKET_PATH, PIPE_PROC, CHARDEV, PROCFS,
	OPATH_0700, OPATH_0600, WRONLY_0700, RDWR_0700, BAD_FD, CLOSED_FD,
	KINDS
};

static const struct {
	const char *what;
	int error[4]; /* under policy 0, 1, 2, 3 */
	enum trusted_for_reason reason; /* under policy 3 */
} cases[KINDS] = {
	[EXEC_0700] = { "exec mount, mode 0700", { 0, 0, 0, 0 }, TRUSTED_FOR_TRUSTED },
	[EXEC_0600] = { "exec mount, mode 0600", { 0, 0, E, E }, TRUSTED_FOR_NO_EXEC_PERMISSION },
	[NOEXEC_0700] = { "noexec mount, mode 0700", { 0, E, 0, E }, TRUSTED_FOR_NOEXEC_MOUNT },
	[NOEXEC_0600] = { "noexec mount, mode 0600", { 0, E, E, E }, TRUSTED_FOR_NOEXEC_MOUNT },
	[MEMFD_0700] = { "memfd, mode 0700", { 0, 0, 0, 0 }, TRUSTED_FOR_TRUSTED },
	/* Any user writes a memfd: policy 1 judges it by its mode too. */
	[MEMFD_0600] = { "memfd, mode 0600", { 0, E, E, E }, TRUSTED_FOR_NO_EXEC_PERMISSION },
	[DIRECTORY] = { "directory", { 0, E, E, E }, TRUSTED_FOR_NOT_REGULAR },
	[FIFO] = { "FIFO", { 0, E, E, E }, TRUSTED_FOR_NOT_REGULAR },
	[SOCKET] = { "socket", { 0, E, E, E }, TRUSTED_FOR_NOT_REGULAR },
	[SOCKET_PATH] = { "bound socket through O_PATH", { 0, E, E, E }, TRUSTED_FOR_NOT_REGULAR },
	[PIPE_PROC] = { "pipe reopened through /proc/self/fd", { 0, E, E, E }, TRUSTED_FOR_NOT_REGULAR },
	[CHARDEV] = { "character device /dev/null", { 0, E, E, E }, TRUSTED_FOR_NOT_REGULAR },
	[PROCFS] = { "procfs file /proc/self/status", { 0, E, E, E }, TRUSTED_FOR_KERNEL_INTERNAL },
	[OPATH_0700] = { "O_PATH descriptor, mode 0700", { 0, 0, 0, 0 }, TRUSTED_FOR_TRUSTED },
	[OPATH_0600] = { "O_PATH descriptor, mode 0600", { 0, 0, E, E }, TRUSTED_FOR_NO_EXEC_PERMISSION },
	[WRONLY_0700] = { "O_WRONLY descriptor, mode 0700", { 0, T, T, T }, TRUSTED_FOR_WRITE_OPEN },
	[RDWR_0700] = { "O_RDWR descriptor, mode 0700", { 0, T, T, T }, TRUSTED_FOR_WRITE_OPEN },
	[BAD_FD] = { "descriptor -1", { B, B, B, B }, TRUSTED_FOR_BAD_DESCRIPTOR },
	[CLOSED_FD] = { "a closed descriptor", { B, B, B, B }, TRUSTED_FOR_BAD_DESCRIPTOR },
};

static char dir[256];
static int pipe_fds[2];

static int open_kind(enum kind k)
{
	char path[512];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	switch (k) {
	case EXEC_0700: case OPATH_0700: case WRONLY_0700: case RDWR_0700:
		snprintf(path, sizeof(path), "%s/exec/x", dir);
		return open(path, k == OPATH_0700 ? O_PATH :
				  k == WRONLY_0700 ? O_WRONLY :
				  k == RDWR_0700 ? O_RDWR : O_RDONLY);
	case EXEC_0600: case OPATH_0600:
		snprintf(path, sizeof(path), "%s/exec/nx", dir);
		return open(path, k == OPATH_0600 ? O_PATH : O_RDONLY);
	case NOEXEC_0700:
		snprintf(path, sizeof(path), "%s/noexec/x", dir);
		return open(path, O_RDONLY);
	case NOEXEC_0600:
		snprintf(path, sizeof(path), "%s/noexec/nx", dir);
		return open(path, O_RDONLY);
	case MEMFD_0700: case MEMFD_0600:
		fd = memfd_create("trustedfor-test", MFD_CLOEXEC);
		if (fd >= 0 && fchmod(fd, k == MEMFD_0700 ? 0700 : 0600) < 0)
			tap_bail("fchmod memfd");
		return fd;
	case DIRECTORY:
		snprintf(path, sizeof(path), "%s/exec", dir);
		return open(path, O_RDONLY | O_DIRECTORY);
	case FIFO:
		snprintf(path, sizeof(path), "%s/exec/fifo", dir);
		return open(path, O_RDONLY | O_NONBLOCK);
	case SOCKET:
		return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	case SOCKET_PATH:
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%.90s/exec/sock", dir);
		return open(sun.sun_path, O_PATH);
	case PIPE_PROC:
		snprintf(path, sizeof(path), "/proc/self/fd/%d", pipe_fds[0]);
		return open(path, O_RDONLY | O_NONBLOCK);
	case CHARDEV:
		return open("/dev/null", O_RDONLY);
	case PROCFS:
		return open("/proc/self/status", O_RDONLY);
	case BAD_FD:
		return -1;
	case CLOSED_FD:
		fd = open("/dev/null", O_RDONLY);
		close(fd);
		return fd;
	case KINDS:
		break;
	}
	return -1;
}

static void make_fixture(uid_t owner)
{
	char path[512];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int s;

	tap_exec_noexec_mounts(dir);
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir,
			 i < 2 ? "exec" : "noexec", i % 2 ? "nx" : "x");
		write_file(path, "#!/bin/sh\necho run\n", i % 2 ? 0600 : 0700);
		if (chown(path, owner, owner) < 0)
			tap_bail("chown");
	}
	snprintf(path, sizeof(path), "%s/exec/fifo", dir);
	if (mkfifo(path, 0600) < 0 || chown(path, owner, owner) < 0)
		tap_bail("mkfifo");
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%.90s/exec/sock", dir);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		tap_bail("bind");
}

static void check_matrix(const char *who, int execve_check)
{
	for (int k = 0; k < KINDS; k++) {
		struct trusted_for_verdict emulated = TRUSTED_FOR_VERDICT_INIT;
		struct trusted_for_verdict kernel = TRUSTED_FOR_VERDICT_INIT;

		for (unsigned int policy = 0; policy < 4; policy++) {
			int fd = open_kind(k), want = cases[k].error[policy];

			if (fd < 0 && k != BAD_FD && k != CLOSED_FD)
				tap_bail(cases[k].what);
			tf_check(fd, policy, TRUSTED_FOR_BACKEND_EMULATED, "f", &emulated);
			tap_is_int(emulated.error, want, "%s: emulated, policy %u: %s",
				   who, policy, cases[k].what);
			if (fd >= 0)
				close(fd);
		}
		tap_is_int(emulated.reason, cases[k].reason,
			   "%s: emulated, policy 3: %s: reason %s", who,
			   cases[k].what, trusted_for_reason_string(cases[k].reason));
		if (!execve_check) {
			tap_na(cases[k].what, tap_kernel_lacks("execve-check"));
			continue;
		}
		int fd = open_kind(k);

		tf_check(fd, 3, TRUSTED_FOR_BACKEND_EXECVE_CHECK, "f", &kernel);
		if (fd >= 0)
			close(fd);
		tap_is_int(kernel.error, cases[k].error[3],
			   "%s: AT_EXECVE_CHECK: %s", who, cases[k].what);
		tap_ok(kernel.error == emulated.error && kernel.reason == emulated.reason,
		       "%s: emulation agrees with the kernel: %s", who, cases[k].what);
	}
}

/* What the emulation cannot see, and what the kernel must not change. */
static void check_kernel_only(const char *who, int execve_check)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char path[512], byte;
	int fd, writer;

	snprintf(path, sizeof(path), "%s/exec/x", dir);
	fd = open(path, O_RDONLY);
	writer = open(path, O_WRONLY);
	if (execve_check) {
		tf_check(fd, 3, TRUSTED_FOR_BACKEND_EXECVE_CHECK, "f", &v);
		tap_is_int(v.error, ETXTBSY, "%s: AT_EXECVE_CHECK: another writer: ETXTBSY", who);
		tap_is_int(v.reason, TRUSTED_FOR_WRITE_OPEN, "%s: ... reason: open for writing", who);
	}
	tf_check(fd, 3, TRUSTED_FOR_BACKEND_EMULATED, "f", &v);
	tap_is_int(v.error, 0, "%s: emulated: another writer is not visible (documented limit)", who);
	close(writer);
	if (read(fd, &byte, 1) != 1)
		tap_bail("read");
	tf_check(fd, 3, execve_check ? TRUSTED_FOR_BACKEND_EXECVE_CHECK :
				       TRUSTED_FOR_BACKEND_EMULATED, "f", &v);
	tap_is_int(lseek(fd, 0, SEEK_CUR), 1, "%s: the check does not move the file offset", who);
	close(fd);
}

static void check_messages(const char *who, uid_t uid)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char path[512], want[600];
	int fd;

	snprintf(path, sizeof(path), "%s/noexec/x", dir);
	fd = open(path, O_RDONLY);
	trusted_for_check(fd, 3, "evil.py", &v);
	close(fd);
	tap_is_str(v.message, "evil.py: not trusted for execution: noexec mount",
		   "%s: message for a noexec mount", who);
	snprintf(want, sizeof(want), "%s/noexec", dir);
	tap_is_str(v.detail, want, "%s: detail names the mount point", who);
	snprintf(path, sizeof(path), "%s/exec/nx", dir);
	fd = open(path, O_RDONLY);
	trusted_for_check(fd, 3, "lib.py", &v);
	close(fd);
	tap_is_str(v.message, "lib.py: not trusted for execution: no execute permission",
		   "%s: message for a file without execute permission", who);
	snprintf(want, sizeof(want), "uid %u", (unsigned int)uid);
	tap_is_str(v.detail, want, "%s: detail names the uid", who);
	fd = open_kind(PIPE_PROC);
	trusted_for_check(fd, 1, "a\nb\033[2Jc", &v);
	tap_is_str(v.message, "a?b?[2Jc: not trusted for execution: not a regular file",
		   "%s: a message is one line, whatever the name holds", who);
	close(fd);
	tap_is_str(v.detail, "FIFO or pipe", "%s: detail names the file type", who);
}

static void check_seed_contract(const char *who)
{
	int fd = open_kind(EXEC_0700);

	errno = 0;
	tap_ok(trusted_for(fd, 0, 0) == -1 && errno == EINVAL, "%s: usage 0: EINVAL", who);
	errno = 0;
	tap_ok(trusted_for(fd, 2, 0) == -1 && errno == EINVAL, "%s: usage 2: EINVAL", who);
	errno = 0;
	tap_ok(trusted_for(fd, TRUSTED_FOR_EXECUTION, 1) == -1 && errno == EINVAL,
	       "%s: flags 1: EINVAL", who);
	errno = 0;
	tap_ok(trusted_for(-1, 0, 0) == -1 && errno == EINVAL,
	       "%s: usage is checked before the descriptor", who);
	errno = 0;
	tap_ok(trusted_for(-1, TRUSTED_FOR_EXECUTION, 0) == -1 && errno == EBADF,
	       "%s: descriptor -1: EBADF", who);
	errno = 0;
	tap_ok(trusted_for(fd, TRUSTED_FOR_EXECUTION, 0) == 0 && errno == 0,
	       "%s: an executable file on an exec mount is trusted", who);
	close(fd);
}

struct variant {
	const char *who;
	int drop;
	int execve_check;
};

static void variant(void *arg)
{
	const struct variant *v = arg;

	if (v->drop && (setgroups(0, NULL) < 0 ||
			setresgid(UNPRIVILEGED, UNPRIVILEGED, UNPRIVILEGED) < 0 ||
			setresuid(UNPRIVILEGED, UNPRIVILEGED, UNPRIVILEGED) < 0))
		tap_bail("drop privileges");
	/* The pipe belongs to whoever made it: make it as this uid. */
	if (pipe(pipe_fds) < 0)
		tap_bail("pipe");
	check_matrix(v->who, v->execve_check);
	check_kernel_only(v->who, v->execve_check);
	check_messages(v->who, geteuid());
	check_seed_contract(v->who);
}

static void run_variant(const char *who, int drop, int execve_check)
{
	struct variant v = { who, drop, execve_check };
	int status = tap_in_child(variant, &v);

	if (!WIFEXITED(status) || WEXITSTATUS(status))
		tap_ok(0, "%s: the variant ran to its end", who);
}

int main(void)
{
	int root, execve_check;

	setvbuf(stdout, NULL, _IOLBF, 0);
	root = tap_private_namespace(dir, sizeof(dir));
	if (root < 0) {
		tap_not_run("check-call matrix", "needs root or user namespaces");
		return tap_done();
	}
	/* The tests' own probe decides what applies, not the library's. */
	execve_check = !tap_kernel_lacks("execve-check");
	make_fixture(root ? UNPRIVILEGED : 0);
	run_variant("root", 0, execve_check);
	if (root)
		run_variant("uid 65534", 1, execve_check);
	else
		tap_not_run("the matrix as an unprivileged uid", "needs real root to switch uid");
	return tap_done();
}
