/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-lua started with no argv at all (argc 0: execve() with an empty
 * argv, which kernels before 5.18 pass on as it is).  Linux 6.18 turns it
 * into one empty argument, so the launcher's main() is called directly: it
 * is built into this test as trusted_lua_main().  The slot before argv is
 * NULL, as a caller's memory may be: reading argv[-1] crashes.
 */
#include "../tap.h"

#include <sys/wait.h>

int trusted_lua_main(int argc, char **argv);

static char *slots[] = { NULL, NULL, NULL };

int main(void)
{
	int status, null;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pid = fork();
	if (pid < 0)
		tap_bail("fork");
	if (pid == 0) {
		/* No script: the launcher reads stdin, here empty. */
		null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, STDIN_FILENO) < 0)
			_exit(99);
		unsetenv("LUA_INIT");
		unsetenv("LUA_INIT_5_4");
		_exit(trusted_lua_main(0, slots + 1));
	}
	if (waitpid(pid, &status, 0) < 0)
		tap_bail("waitpid");
	tap_ok(WIFEXITED(status), "argc 0: trusted-lua exits, no signal (%d)",
	       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	tap_is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
		   "argc 0: it runs empty stdin and exits 0, as lua does");
	return tap_done();
}
