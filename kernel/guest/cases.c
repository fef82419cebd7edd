// SPDX-License-Identifier: GPL-2.0
/*
 * The cases of the in-guest test: docs/semantics.md section 5's policy
 * matrix through the three interfaces, the argument checks, and the two
 * sysctls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/openat2.h>
#include <linux/trusted-for.h>

#include "guest.h"

#define E EACCES

enum kind {
	PATH,	     /* a file system object opened by its path */
	PATH_O_PATH, /* one that cannot be opened for reading: O_PATH */
	PIPE,	     /* a pipe, reopened through /proc/self/fd */
	SOCKET,	     /* one end of a socketpair() */
	MEMFD,	     /* a memfd, with its mode set to .mode */
};

struct object {
	const char *name;
	enum kind kind;
	const char *path;
	mode_t mode;
	/* expected errno of trusted_for() under policy 0, 1, 2, 3 */
	int expect[4];
	/* what open() itself fails with, for an object that cannot be opened */
	int open_err;
};

/*
 * docs/semantics.md section 5: for the four mount/file variants, policy 1 gives
 * {0, 0, E, E}, policy 2 {0, E, 0, E} and policy 3 {0, E, E, E}; anything
 * that is not a regular file, or lives on procfs, is E under any non-zero
 * policy; a memfd is judged by its mode alone (its mount is not noexec).
 */
/* clang-format off */
static const struct object objects[] = {
	{ "exec-mount/x-file",   PATH, EXEC_DIR "/x",    0, { 0, 0, 0, 0 }, 0 },
	{ "exec-mount/nx-file",  PATH, EXEC_DIR "/nx",   0, { 0, 0, E, E }, 0 },
	{ "noexec-mount/x-file", PATH, NOEXEC_DIR "/x",  0, { 0, E, 0, E }, 0 },
	{ "noexec-mount/nx-file", PATH, NOEXEC_DIR "/nx", 0, { 0, E, E, E }, 0 },
	{ "directory",           PATH, EXEC_DIR "/dir",  0, { 0, E, E, E }, 0 },
	{ "fifo",                PATH, EXEC_DIR "/fifo", 0, { 0, E, E, E }, 0 },
	{ "char-device",         PATH, "/dev/null",      0, { 0, E, E, E }, 0 },
	{ "block-device",        PATH_O_PATH, EXEC_DIR "/blk", 0, { 0, E, E, E },
	  ENXIO },
	{ "procfs-file",         PATH, "/proc/self/status", 0, { 0, E, E, E }, 0 },
	{ "pipe-via-proc",       PIPE, NULL,             0, { 0, E, E, E }, 0 },
	{ "socket",              SOCKET, NULL,           0, { 0, E, E, E }, ENXIO },
	{ "memfd-0755",          MEMFD, NULL,        0755, { 0, 0, 0, 0 }, 0 },
	{ "memfd-0644",          MEMFD, NULL,        0644, { 0, 0, E, E }, 0 },
};
/* clang-format on */

#define N_OBJECTS (sizeof(objects) / sizeof(objects[0]))

/*
 * Open @o; @path receives a name for it that openat2() and faccessat2()
 * can use.  Returns the descriptor, or -1 with errno.
 */
static int open_object(const struct object *o, char *path, size_t len)
{
	int fd, p[2], s[2];

	switch (o->kind) {
	case PATH:
		snprintf(path, len, "%s", o->path);
		return open(o->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	case PATH_O_PATH:
		snprintf(path, len, "%s", o->path);
		return open(o->path, O_PATH | O_CLOEXEC);
	case PIPE:
		if (pipe(p))
			return -1;
		snprintf(path, len, "/proc/self/fd/%d", p[0]);
		return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	case SOCKET:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s))
			return -1;
		snprintf(path, len, "/proc/self/fd/%d", s[0]);
		return s[0];
	case MEMFD:
		fd = memfd_create("tfk", MFD_CLOEXEC);
		if (fd < 0 || write(fd, "#!/bin/sh\n", 10) != 10 ||
		    fchmod(fd, o->mode))
			return -1;
		snprintf(path, len, "/proc/self/fd/%d", fd);
		return fd;
	}
	errno = EINVAL;
	return -1;
}

struct matrix_case {
	int policy;
	uid_t uid;
	const struct object *o;
};

static void matrix_child(void *arg)
{
	const struct matrix_case *c = arg;
	const struct object *o = c->o;
	const char *user = c->uid ? "nobody" : "root";
	int want = o->expect[c->policy];
	int want_open = want ? want : o->open_err;
	int sys, may, acc_fd, acc_path;
	char path[64];
	int fd;

	if (c->uid && (become_user(c->uid) || prctl(PR_SET_DUMPABLE, 1))) {
		report(0, "policy %d %s %s: dropping to uid %u: %s", c->policy,
		       user, o->name, c->uid, strerror(errno));
		return;
	}
	fd = open_object(o, path, sizeof(path));
	if (fd < 0) {
		report(0, "policy %d %s %s: opening: %s", c->policy, user,
		       o->name, strerror(errno));
		return;
	}

	sys = kernel_trusted_for(fd, TRUSTED_FOR_EXECUTION, 0);
	expect(want, sys, "policy %d %s %s: trusted_for()", c->policy, user,
	       o->name);

	/* Yama's open_mayexec_enforce is set to the same value as the policy.
	 */
	may = open_mayexec(path, O_RDONLY | O_NONBLOCK);
	expect(want_open, may, "policy %d %s %s: openat2(O_MAYEXEC)", c->policy,
	       user, o->name);

	/* EXECVE_OK makes every check, whatever the policy. */
	acc_fd = access_execve_ok(fd, "", AT_EMPTY_PATH);
	expect(o->expect[3], acc_fd,
	       "policy %d %s %s: faccessat2(fd, \"\", EXECVE_OK, "
	       "AT_EMPTY_PATH)",
	       c->policy, user, o->name);
	acc_path = access_execve_ok(AT_FDCWD, path, 0);
	expect(o->expect[3], acc_path,
	       "policy %d %s %s: faccessat2(path, EXECVE_OK)", c->policy, user,
	       o->name);

	if (c->policy == 3)
		report(sys == may && sys == acc_fd && sys == acc_path,
		       "policy 3 %s %s: the three interfaces agree "
		       "(trusted_for %s, O_MAYEXEC %s, EXECVE_OK %s)",
		       user, o->name, errname(sys), errname(may),
		       errname(acc_fd));
}

void run_matrix(void)
{
	static const uid_t users[] = {0, NOBODY};
	struct matrix_case c;
	unsigned int u, i;

	for (c.policy = 0; c.policy <= 3; c.policy++) {
		set_policy(c.policy);
		for (u = 0; u < 2; u++) {
			c.uid = users[u];
			for (i = 0; i < N_OBJECTS; i++) {
				c.o = &objects[i];
				in_child(c.o->name, matrix_child, &c);
			}
		}
	}
}

/* Arguments: usage, flags, descriptors; at policy 0 and 3. */
static void bad_arguments(void *arg)
{
	int policy = *(int *)arg;
	int fd = open(EXEC_DIR "/x", O_RDONLY | O_CLOEXEC);
	int closed = dup(fd);
	static const struct {
		const char *what;
		int usage;
		unsigned int flags;
		int want;
	} rows[] = {
		{"usage 0", 0, 0, EINVAL},
		{"usage 2", 2, 0, EINVAL},
		{"usage -1", -1, 0, EINVAL},
		{"flags 1", TRUSTED_FOR_EXECUTION, 1, EINVAL},
		{"flags 0x80000000", TRUSTED_FOR_EXECUTION, 0x80000000, EINVAL},
		{"usage TRUSTED_FOR_EXECUTION, flags 0", TRUSTED_FOR_EXECUTION,
		 0, 0},
	};
	unsigned int i;

	close(closed);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		expect(rows[i].want,
		       kernel_trusted_for(fd, rows[i].usage, rows[i].flags),
		       "policy %d trusted_for(x-file, %s)", policy,
		       rows[i].what);
	expect(EBADF, kernel_trusted_for(-1, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(-1)", policy);
	expect(EBADF, kernel_trusted_for(4000, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(unused fd 4000)", policy);
	expect(EBADF, kernel_trusted_for(closed, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(closed fd)", policy);
	expect(EINVAL, kernel_trusted_for(-1, 0, 0),
	       "policy %d trusted_for(-1, usage 0): arguments before the "
	       "descriptor",
	       policy);
	expect(EINVAL, access_mode(fd, "", EXECVE_OK << 1, AT_EMPTY_PATH),
	       "policy %d faccessat2(mode 16): unknown mode bits still refused",
	       policy);
	expect(0, access_mode(fd, "", EXECVE_OK | R_OK, AT_EMPTY_PATH),
	       "policy %d faccessat2(x-file, EXECVE_OK | R_OK)", policy);
	close(fd);
}

/* O_PATH descriptors are judged by the file they name. */
static void opath(void *unused)
{
	static const struct {
		const char *path;
		int want;
	} rows[] = {
		{EXEC_DIR "/x", 0},
		{EXEC_DIR "/nx", E},
		{NOEXEC_DIR "/x", E},
		{EXEC_DIR "/dir", E},
	};
	struct open_how how = {.flags = O_PATH | O_MAYEXEC};
	unsigned int i;
	int fd;

	(void)unused;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		fd = open(rows[i].path, O_PATH | O_CLOEXEC);
		expect(rows[i].want,
		       kernel_trusted_for(fd, TRUSTED_FOR_EXECUTION, 0),
		       "policy 3 trusted_for(O_PATH %s)", rows[i].path);
		expect(rows[i].want, access_execve_ok(fd, "", AT_EMPTY_PATH),
		       "faccessat2(O_PATH %s, EXECVE_OK, AT_EMPTY_PATH)",
		       rows[i].path);
		close(fd);
	}
	fd = syscall(SYS_openat2, AT_FDCWD, EXEC_DIR "/x", &how, sizeof(how));
	expect(EINVAL, fd < 0 ? errno : 0, "openat2(O_PATH | O_MAYEXEC)");
}

/* O_MAYEXEC: openat2() only, and not a file status flag afterwards. */
static void mayexec_flag(void *unused)
{
	struct open_how how = {.flags = O_RDONLY | O_MAYEXEC};
	int fd, fl;

	(void)unused;
	fd = open(NOEXEC_DIR "/nx", O_RDONLY | O_MAYEXEC | O_CLOEXEC);
	expect(0, fd < 0 ? errno : 0,
	       "policy 3 open(noexec nx-file, O_MAYEXEC): open() ignores the "
	       "flag");
	if (fd >= 0)
		close(fd);
	fd = openat(AT_FDCWD, NOEXEC_DIR "/nx", O_RDONLY | O_MAYEXEC);
	expect(0, fd < 0 ? errno : 0,
	       "policy 3 openat(noexec nx-file, O_MAYEXEC): openat() ignores "
	       "the flag");
	if (fd >= 0)
		close(fd);
	fd = syscall(SYS_openat2, AT_FDCWD, EXEC_DIR "/x", &how, sizeof(how));
	fl = fd < 0 ? 0 : fcntl(fd, F_GETFL);
	report(fd >= 0 && fl >= 0 && !(fl & O_MAYEXEC),
	       "openat2(x-file, O_MAYEXEC) succeeds and F_GETFL does not "
	       "report O_MAYEXEC (flags 0%o)",
	       fl);
	if (fd >= 0)
		close(fd);
}

/* A file open for writing is ETXTBSY, like execve(), under a non-zero policy.
 */
static void writers(void *arg)
{
	int policy = *(int *)arg;
	int want = policy ? ETXTBSY : 0;
	int rw = open(EXEC_DIR "/w", O_RDWR | O_CLOEXEC);
	int ro = open(EXEC_DIR "/w", O_RDONLY | O_CLOEXEC);
	int wo;

	expect(want, kernel_trusted_for(rw, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(O_RDWR fd)", policy);
	expect(want, kernel_trusted_for(ro, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(O_RDONLY fd, another writer open)",
	       policy);
	expect(want, open_mayexec(EXEC_DIR "/w", O_RDONLY),
	       "policy %d openat2(O_MAYEXEC), another writer open", policy);
	expect(ETXTBSY, access_execve_ok(ro, "", AT_EMPTY_PATH),
	       "policy %d faccessat2(EXECVE_OK), another writer open", policy);
	close(rw);
	expect(0, kernel_trusted_for(ro, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(O_RDONLY fd) after the writer closed",
	       policy);
	expect(want, open_mayexec(EXEC_DIR "/w", O_RDWR),
	       "policy %d openat2(O_MAYEXEC | O_RDWR)", policy);
	wo = open(EXEC_DIR "/w", O_WRONLY | O_CLOEXEC);
	expect(want, kernel_trusted_for(wo, TRUSTED_FOR_EXECUTION, 0),
	       "policy %d trusted_for(O_WRONLY fd)", policy);
	close(wo);
	close(ro);
}

/* The check reads nothing: the offset stays where the reader left it. */
static void offset(void *unused)
{
	char buf[3];
	int fd = open(EXEC_DIR "/x", O_RDONLY | O_CLOEXEC);

	(void)unused;
	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		report(0, "offset: read: %s", strerror(errno));
	expect(0, kernel_trusted_for(fd, TRUSTED_FOR_EXECUTION, 0),
	       "policy 3 trusted_for(x-file after reading 3 bytes)");
	report(lseek(fd, 0, SEEK_CUR) == 3,
	       "trusted_for() leaves the file offset at 3");
	close(fd);
}

/*
 * trusted_for() and EXECVE_OK judge with the effective credentials, as
 * execve() does; X_OK keeps access()'s real ones.  owner-x is 0744, root's.
 */
static void credentials(void *arg)
{
	int real_nobody = *(int *)arg;
	const char *who =
		real_nobody ? "ruid nobody euid root" : "ruid root euid nobody";
	int want = real_nobody ? 0 : E;
	int fd = open(EXEC_DIR "/owner-x", O_RDONLY | O_CLOEXEC);

	if (real_nobody ? setresuid(NOBODY, 0, 0) : setresuid(0, NOBODY, 0)) {
		report(0, "%s: setresuid: %s", who, strerror(errno));
		return;
	}
	expect(want, kernel_trusted_for(fd, TRUSTED_FOR_EXECUTION, 0),
	       "policy 3 %s trusted_for(0744 root file)", who);
	expect(want, access_execve_ok(fd, "", AT_EMPTY_PATH),
	       "%s faccessat2(0744 root file, EXECVE_OK)", who);
	expect(want ? 0 : E,
	       access_mode(AT_FDCWD, EXEC_DIR "/owner-x", X_OK, 0),
	       "%s faccessat2(0744 root file, X_OK): real ids, as before", who);
	close(fd);
}

void run_special(void)
{
	int p, r;

	for (p = 0; p <= 3; p += 3) {
		set_policy(p);
		in_child("bad arguments", bad_arguments, &p);
		in_child("writers", writers, &p);
	}
	set_policy(3);
	in_child("O_PATH", opath, NULL);
	in_child("O_MAYEXEC flag", mayexec_flag, NULL);
	in_child("offset", offset, NULL);
	for (r = 0; r <= 1; r++)
		in_child("credentials", credentials, &r);
}

/* The sysctls: mode, range, and the capability each one needs. */

static void without_cap(void *arg)
{
	int cap = *(int *)arg;
	const char *mine = cap == CAP_SYS_ADMIN ? FS_POLICY : YAMA_POLICY;
	const char *theirs = cap == CAP_SYS_ADMIN ? YAMA_POLICY : FS_POLICY;
	const char *name =
		cap == CAP_SYS_ADMIN ? "CAP_SYS_ADMIN" : "CAP_MAC_ADMIN";
	int value = -1, err;

	if (drop_caps(&cap, 1)) {
		report(0, "dropping %s: %s", name, strerror(errno));
		return;
	}
	expect(EPERM, write_file(mine, "0\n"), "root without %s writes %s",
	       name, mine);
	err = read_int(mine, &value);
	report(!err && value == 2,
	       "%s unchanged after the refused write "
	       "(reads %d, %s)",
	       mine, value, errname(err));
	expect(0, write_file(theirs, "2\n"),
	       "root without %s may still write %s", name, theirs);
}

static void unprivileged_sysctl(void *unused)
{
	int value;

	(void)unused;
	if (become_user(NOBODY)) {
		report(0, "become nobody: %s", strerror(errno));
		return;
	}
	expect(EACCES, write_file(FS_POLICY, "0\n"),
	       "nobody writes " FS_POLICY " (mode 0644)");
	/* Libraries confirm the call's answers against it (docs/semantics.md). */
	expect(0, read_int(FS_POLICY, &value), "nobody reads " FS_POLICY);
	expect(EACCES, write_file(YAMA_POLICY, "0\n"),
	       "nobody writes " YAMA_POLICY " (mode 0644)");
	expect(0, read_int(YAMA_POLICY, &value), "nobody reads " YAMA_POLICY);
}

static void mode_is(const char *path, mode_t want)
{
	struct stat st;

	if (stat(path, &st)) {
		report(0, "stat %s: %s", path, strerror(errno));
		return;
	}
	report((st.st_mode & 07777) == want, "%s has mode 0%o (want 0%o)", path,
	       st.st_mode & 07777, want);
}

void run_sysctl(void)
{
	static const char *const bad[] = {"4", "-1", "8", "x"};
	static const int caps[] = {CAP_SYS_ADMIN, CAP_MAC_ADMIN};
	unsigned int i, j;
	int value, err;

	mode_is(FS_POLICY, 0644);
	mode_is(YAMA_POLICY, 0644);
	set_policy(2);
	for (i = 0; i < 2; i++) {
		const char *path = i ? YAMA_POLICY : FS_POLICY;

		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++)
			expect(EINVAL, write_file(path, bad[j]),
			       "root writes %s to %s", bad[j], path);
		value = -1;
		err = read_int(path, &value);
		report(!err && value == 2,
		       "%s unchanged after out-of-range "
		       "writes (reads %d, %s)",
		       path, value, errname(err));
		for (j = 0; j <= 3; j++) {
			char buf[4];

			snprintf(buf, sizeof(buf), "%u\n", j);
			expect(0, write_file(path, buf), "root writes %u to %s",
			       j, path);
		}
	}
	set_policy(2);
	for (i = 0; i < 2; i++)
		in_child("without capability", without_cap, (void *)&caps[i]);
	in_child("unprivileged sysctl", unprivileged_sysctl, NULL);
}
