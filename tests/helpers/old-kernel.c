/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * old-kernel COMMAND [ARG...]: runs COMMAND, as root, with the answers of
 * Linux 6.12 (Debian 13's kernel), which has neither AT_EXECVE_CHECK nor
 * the exec securebits, on a newer kernel, for every process below it:
 *
 *   execveat() with AT_EXECVE_CHECK   EINVAL, an unknown flag
 *   prctl(PR_SET_SECUREBITS) with     EPERM: 6.12's cap_task_prctl()
 *   any SECBIT_EXEC_* bit             refuses a bit it does not know
 *   uname()                           the kernel's answer, with the release
 *                                     "6.12.0-old-kernel"
 *
 * PR_GET_SECUREBITS needs nothing: no exec bit can be set.  The library
 * believes an EINVAL to its probe only on a kernel that says it is older
 * than 6.14, and only a filter's user notification can say so: this
 * program serves the notifications of uname(), writing the answer into the
 * caller's buffer through /proc/PID/mem, until no process is left under
 * the filter, then exits with COMMAND's status.
 *
 * The filter is loaded without no_new_privs (root's, as a login program's
 * would be: su, login and the PAM module behave as they do outside it);
 * that needs CAP_SYS_ADMIN, and writing the callers' memory needs root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "missing.h"

#define OLD_RELEASE "6.12.0-old-kernel"

static int die(const char *what)
{
	fprintf(stderr, "old-kernel: %s: %s\n", what, strerror(errno));
	return 1;
}

static int send_fd(int sock, int fd)
{
	char byte = 0, control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	struct cmsghdr *c;

	memset(control, 0, sizeof(control));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char byte, control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* The filter of 6.12's answers, in this process; its listener's descriptor. */
static int load_filter(void)
{
	static const unsigned int bits[] = { SECBIT_EXEC_RESTRICT_FILE, SECBIT_EXEC_RESTRICT_FILE_LOCKED,
					     SECBIT_EXEC_DENY_INTERACTIVE,
					     SECBIT_EXEC_DENY_INTERACTIVE_LOCKED };
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc, fd;

	if (!ctx)
		return -1;
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(execveat), 1,
				      SCMP_A4(SCMP_CMP_MASKED_EQ, AT_EXECVE_CHECK, AT_EXECVE_CHECK));
	for (size_t i = 0; rc == 0 && i < sizeof(bits) / sizeof(bits[0]); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 2,
				      SCMP_A0(SCMP_CMP_EQ, PR_SET_SECUREBITS),
				      SCMP_A1(SCMP_CMP_MASKED_EQ, bits[i], bits[i]));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(uname), 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	fd = rc == 0 ? seccomp_notify_fd(ctx) : -1;
	seccomp_release(ctx);
	if (rc < 0)
		errno = -rc;
	return fd;
}

/* Answers one uname(): the kernel's own, with 6.12's release. */
static void answer(int listener, struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	struct utsname u;
	char mem[64];
	int fd;

	resp->id = req->id;
	resp->val = 0;
	resp->error = -EFAULT;
	resp->flags = 0;
	snprintf(mem, sizeof(mem), "/proc/%u/mem", req->pid);
	fd = open(mem, O_WRONLY | O_CLOEXEC);
	/* The caller may have died and its pid gone to another process. */
	if (fd >= 0 && seccomp_notify_id_valid(listener, req->id) == 0 && uname(&u) == 0) {
		snprintf(u.release, sizeof(u.release), "%s", OLD_RELEASE);
		if (pwrite(fd, &u, sizeof(u), (off_t)req->data.args[0]) == (ssize_t)sizeof(u))
			resp->error = 0;
	}
	if (fd >= 0)
		close(fd);
}

/*
 * Serves until no process is left under the filter (its listener hangs
 * up), reaping COMMAND meanwhile: a zombie still counts as the filter's.
 * COMMAND's wait status, or -1.
 */
static int serve(int listener, pid_t child)
{
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int pidfd = (int)syscall(SYS_pidfd_open, child, 0), status = -1;

	if (pidfd < 0 || seccomp_notify_alloc(&req, &resp) < 0)
		return -1;
	for (;;) {
		struct pollfd p[2] = { { listener, POLLIN, 0 }, { pidfd, POLLIN, 0 } };

		if (poll(p, pidfd < 0 ? 1 : 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pidfd >= 0 && p[1].revents) {
			if (waitpid(child, &status, 0) < 0)
				break;
			close(pidfd);
			pidfd = -1;
		}
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		memset(req, 0, sizeof(*req));
		if (seccomp_notify_receive(listener, req) < 0)
			continue; /* the caller died meanwhile */
		answer(listener, req, resp);
		seccomp_notify_respond(listener, resp);
	}
	seccomp_notify_free(req, resp);
	if (pidfd >= 0) {
		close(pidfd);
		if (waitpid(child, &status, 0) < 0)
			status = -1;
	}
	return status;
}

int main(int argc, char **argv)
{
	int sv[2], status, listener;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: old-kernel COMMAND [ARG...]\n");
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return die("socketpair");
	child = fork();
	if (child < 0)
		return die("fork");
	if (child == 0) {
		close(sv[0]);
		listener = load_filter();
		if (listener < 0 || send_fd(sv[1], listener) < 0) {
			die("cannot load the filter");
			_exit(1);
		}
		close(listener);
		close(sv[1]);
		execvp(argv[1], argv + 1);
		perror("old-kernel: exec");
		_exit(127);
	}
	close(sv[1]);
	listener = recv_fd(sv[0]);
	close(sv[0]);
	if (listener < 0) {
		waitpid(child, &status, 0);
		return 1;
	}
	status = serve(listener, child);
	if (status < 0)
		return die("serve the filter's notifications");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
