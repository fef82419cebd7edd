/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the parts of the in-guest test program (kernel/guest/). */
#ifndef TFK_GUEST_H
#define TFK_GUEST_H

#include <stdnoreturn.h>
#include <sys/types.h>

/*
 * The series' new constants.  glibc's <fcntl.h> cannot be mixed with the
 * kernel's <asm/fcntl.h>, so these two are repeated from the series'
 * include/uapi/asm-generic/fcntl.h and include/uapi/linux/fcntl.h.
 */
#ifndef O_MAYEXEC
#define O_MAYEXEC 040000000
#endif
#ifndef EXECVE_OK
#define EXECVE_OK 8
#endif

#define FS_POLICY   "/proc/sys/fs/trusted_for_policy"
#define YAMA_POLICY "/proc/sys/kernel/yama/open_mayexec_enforce"
#define EXEC_DIR    "/mnt/exec"
#define NOEXEC_DIR  "/mnt/noexec"
#define NOBODY	    65534

/* init.c */
const char *errname(int err);
void report(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void expect(int want, int got, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int kernel_trusted_for(int fd, int usage, unsigned int flags);
int open_mayexec(const char *path, int flags);
int access_mode(int dfd, const char *path, int mode, int flags);
int access_execve_ok(int dfd, const char *path, int flags);
int write_file(const char *path, const char *value);
int read_int(const char *path, int *value);
void set_policy(int policy);
int drop_caps(const int *caps, int n);
int become_user(uid_t uid);
void in_child(const char *what, void (*fn)(void *), void *arg);
noreturn void finish(int status);

/* cases.c */
void run_matrix(void);
void run_special(void);
void run_sysctl(void);

/* selftest.c */
void run_selftest(void);

/* library.c */
void run_library(void);

/* bench.c */
void run_bench(void);

#endif /* TFK_GUEST_H */
