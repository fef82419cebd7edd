/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A real LSM decision: Landlock refuses LANDLOCK_ACCESS_FS_EXECUTE beneath a
 * directory.  Policy 3 on a kernel with AT_EXECVE_CHECK must honour it (why
 * it uses the kernel's check: docs/semantics.md section 2), explain it as the kernel's
 * refusal, and trusted-for must say so; the emulation cannot see LSMs.
 */
#include "../tap.h"

#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "internal.h"

static int allow_execute_beneath(int ruleset, const char *path)
{
	struct landlock_path_beneath_attr rule = {
		.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE,
		.parent_fd = open(path, O_PATH | O_CLOEXEC),
	};
	int r;

	if (rule.parent_fd < 0)
		return -1;
	r = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
			 &rule, 0);
	close(rule.parent_fd);
	return r;
}

/* Only /usr, the build tree and dir/allowed may hold executed files now. */
static void restrict_execution(const char *dir, const char *build)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE,
	};
	char allowed[512];
	int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);

	snprintf(allowed, sizeof(allowed), "%s/allowed", dir);
	if (ruleset < 0 || allow_execute_beneath(ruleset, "/usr") < 0 ||
	    allow_execute_beneath(ruleset, build) < 0 ||
	    allow_execute_beneath(ruleset, allowed) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		tap_bail("landlock");
	close(ruleset);
}

/* Runs trusted-for check --explain FILE; returns its stdout and status. */
static int explain(const char *cli, const char *file, char *out, size_t size)
{
	int p[2], status;
	ssize_t n, total = 0;
	pid_t pid;

	if (pipe(p) < 0)
		tap_bail("pipe");
	pid = fork();
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execl(cli, "trusted-for", "check", "--explain", file, (char *)NULL);
		_exit(255);
	}
	close(p[1]);
	while ((n = read(p[0], out + total, size - 1 - (size_t)total)) > 0)
		total += n;
	out[total] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	const char *build = getenv("TF_BUILD");
	char dir[256], path[512], cli[512], out[1024], want[1024];
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	struct tf_kernel k;
	int abi, fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);
	tf_kernel_probe(&k);
	if (!build) {
		tap_not_run("Landlock", "TF_BUILD is not set");
		return tap_done();
	}
	if (abi < 1) {
		tap_not_run("Landlock", "Landlock is not enabled in this kernel");
		return tap_done();
	}
	/* The point here is the kernel's check seeing the LSM. */
	if (tap_kernel_lacks("execve-check")) {
		tap_na("Landlock through AT_EXECVE_CHECK", tap_kernel_lacks("execve-check"));
		return tap_done();
	}
	if (tap_private_namespace(dir, sizeof(dir)) < 0) {
		tap_not_run("Landlock", "needs root or user namespaces");
		return tap_done();
	}
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, i ? "denied" : "allowed");
		if (mkdir(path, 0755) < 0)
			tap_bail("mkdir");
		snprintf(path, sizeof(path), "%s/%s/x", dir, i ? "denied" : "allowed");
		write_file(path, "+\n", 0755);
	}
	snprintf(cli, sizeof(cli), "%s/tools/trusted-for", build);
	if (!realpath(build, path))
		tap_bail("realpath");
	restrict_execution(dir, path);

	snprintf(path, sizeof(path), "%s/allowed/x", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	tap_is_int(trusted_for_check(fd, 3, "x", &v), 0,
		   "Landlock ABI %d: an executable file where execution is allowed is trusted", abi);
	close(fd);
	snprintf(path, sizeof(path), "%s/denied/x", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	errno = 0;
	tap_ok(trusted_for_check(fd, 3, "x", &v) == -1 && errno == EACCES,
	       "Landlock refuses FS_EXECUTE: policy 3 is EACCES");
	tap_is_str(v.message, "x: not trusted for execution: refused by the kernel's exec check",
		   "... explained as the kernel's own refusal");
	tap_is_int(v.backend, TRUSTED_FOR_BACKEND_EXECVE_CHECK, "... by AT_EXECVE_CHECK");
	tf_check(fd, 3, TRUSTED_FOR_BACKEND_EMULATED, "x", &v);
	tap_is_int(v.error, 0, "the emulation cannot see the LSM (why policy 3 uses the kernel)");
	tap_is_int(trusted_for_check(fd, 1, "x", &v), 0,
		   "policy 1 alone is the mount check, which passes");
	close(fd);
	snprintf(want, sizeof(want),
		 "%s: not trusted for execution: refused by the kernel's exec check: an LSM or IMA (policy 3, execveat(AT_EXECVE_CHECK))\n",
		 path);
	tap_is_int(explain(cli, path, out, sizeof(out)), 1, "trusted-for check: status 1");
	tap_is_str(out, want, "trusted-for check --explain names the kernel's exec check");
	return tap_done();
}
