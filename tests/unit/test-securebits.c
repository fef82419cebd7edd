/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * docs/semantics.md section 5's securebits cases: both exec bits can be set and cleared
 * without privileges, are inherited across fork and execve, and once locked
 * cannot be cleared (EPERM).
 */
#include "../tap.h"

#include <grp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/wait.h>

#include "internal.h"
#include "missing.h"

#define BOTH (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)
#define LOCKS (SECBIT_EXEC_RESTRICT_FILE_LOCKED | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED)

static int self_copy = -1;

/*
 * A copy of this program in a memfd, made while still root: after the drop
 * to uid 65534 the build directory may be out of reach (a clone in /root).
 */
static void copy_self(void)
{
	struct stat st;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	self_copy = memfd_create("test-securebits", MFD_CLOEXEC);
	if (in < 0 || self_copy < 0 || fstat(in, &st) < 0 ||
	    sendfile(self_copy, in, NULL, (size_t)st.st_size) != st.st_size)
		tap_bail("copy /proc/self/exe");
	close(in);
}

/* The bits a freshly executed child sees, as its exit status. */
static int bits_after_execve(void)
{
	char *argv[] = { "test-securebits", "--print-bits", NULL };
	char *envp[] = { NULL };
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		fexecve(self_copy, argv, envp);
		_exit(255);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	int bits;

	if (argc == 2 && !strcmp(argv[1], "--print-bits"))
		return (prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) & 0xf00) >> 8;
	setvbuf(stdout, NULL, _IOLBF, 0);
	copy_self();
	if (geteuid() == 0 &&
	    (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
	     setresuid(65534, 65534, 65534) < 0))
		tap_bail("drop to uid 65534");
	bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (prctl(PR_SET_SECUREBITS, bits | BOTH, 0, 0, 0) < 0 && errno == EPERM) {
		const char *why = tap_kernel_lacks("exec-securebits");

		if (why) {
			tap_na("the exec securebits", why);
			return tap_done();
		}
	}
	tap_is_int(prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) & 0xf00, BOTH,
		   "uid %u sets both exec bits", (unsigned int)getuid());
	tap_is_int(bits_after_execve(), BOTH >> 8, "a child sees them after fork and execve");
	tap_is_int(prctl(PR_SET_SECUREBITS, bits & ~BOTH, 0, 0, 0), 0,
		   "uid %u clears them", (unsigned int)getuid());
	tap_is_int(bits_after_execve(), 0, "a child sees them cleared");
	tap_is_int(prctl(PR_SET_SECUREBITS, bits | BOTH | LOCKS, 0, 0, 0), 0,
		   "set and lock both");
	errno = 0;
	tap_ok(prctl(PR_SET_SECUREBITS, bits | LOCKS, 0, 0, 0) == -1 && errno == EPERM,
	       "clearing locked bits fails with EPERM");
	errno = 0;
	tap_ok(prctl(PR_SET_SECUREBITS, bits | BOTH, 0, 0, 0) == -1 && errno == EPERM,
	       "unlocking fails with EPERM");
	tap_is_int(bits_after_execve(), (BOTH | LOCKS) >> 8,
		   "a child inherits the bits and their locks");
	return tap_done();
}
