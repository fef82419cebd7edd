/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program built against the first published header (trustedfor-1.h, a
 * frozen copy), run against today's library: every answer exact, and not a
 * byte written past the structs it knows (trusted_for(3), ABI STABILITY).
 */
#include "../tap.h"

#include "trustedfor-1.h"

#define CANARY 0xa5

static char dir[256];

/* Each struct as this program knows it, with guard bytes right after. */
static struct {
	struct trusted_for_verdict v;
	unsigned char guard[64];
} vg;
static struct {
	struct trusted_for_config c;
	unsigned char guard[64];
} cg;

static int guards_intact(const unsigned char *g)
{
	for (int i = 0; i < 64; i++)
		if (g[i] != CANARY)
			return 0;
	return 1;
}

static void quiet(int priority, const char *line, void *data)
{
	(void)priority;
	(void)line;
	(void)data;
}

static int open_script(const char *where)
{
	return tap_open_script(dir, where);
}

static void verdicts(int root)
{
	char mnt[300];
	int fd = open_script("noexec");

	snprintf(mnt, sizeof(mnt), "%s/noexec", dir);
	memset(vg.guard, CANARY, sizeof(vg.guard));
	vg.v.size = sizeof(vg.v);
	errno = 0;
	tap_is_int(trusted_for_check(fd, TRUSTED_FOR_POLICY_MOUNT, "evil", &vg.v), -1,
		   "check, policy 1, noexec mount: refused");
	tap_is_int(errno, EACCES, "... errno EACCES");
	tap_is_int(vg.v.reason, TRUSTED_FOR_NOEXEC_MOUNT, "... reason: noexec mount");
	tap_is_int(vg.v.check_policy, 1, "... check policy 1");
	tap_is_str(vg.v.message, "evil: not trusted for execution: noexec mount",
		   "... the message");
	tap_is_str(vg.v.detail, mnt, "... the detail: the mount point");
	tap_is_int(vg.v.size, (int)sizeof(vg.v), "... the size is left as it was");
	tap_ok(guards_intact(vg.guard), "... nothing written past the verdict");

	errno = 0;
	tap_is_int(trusted_for_allow_file(fd, "evil", &vg.v), -1,
		   "allow_file, files enforced, noexec mount: refused");
	tap_is_int(errno, EACCES, "... errno EACCES");
	tap_ok(!vg.v.trusted && !vg.v.allowed, "... not trusted, not allowed");
	tap_is_int(vg.v.check_policy, 3, "... check policy 3");
	tap_is_int(vg.v.enforce & TRUSTED_FOR_ENFORCE_FILE, TRUSTED_FOR_ENFORCE_FILE,
		   "... files enforced");
	tap_is_str(vg.v.message, "evil: not trusted for execution: noexec mount",
		   "... the message");
	tap_ok(guards_intact(vg.guard), "... nothing written past the verdict");
	close(fd);

	fd = open_script("exec");
	tap_is_int(trusted_for_allow_file(fd, "good", &vg.v), 0,
		   "allow_file, files enforced, 0755 on an exec mount: runs");
	tap_ok(vg.v.trusted && vg.v.allowed && vg.v.reason == TRUSTED_FOR_TRUSTED,
	       "... trusted, allowed, reason 0");
	tap_is_str(vg.v.message, "good: trusted for execution", "... the message");
	tap_ok(guards_intact(vg.guard), "... nothing written past the verdict");
	close(fd);

	/* Without root, the absent policy file fails closed: all enforced. */
	tap_is_int(trusted_for_allow_interactive(-1, "-c", &vg.v), root ? 0 : -1,
		   "allow_interactive: %s", root ? "not enforced, runs" : "enforced, refused");
	tap_is_int(vg.v.reason, TRUSTED_FOR_INTERACTIVE, "... reason: interactive");
	tap_is_str(vg.v.message, root ? "-c: interactive code allowed (not enforced)" :
					"-c: interactive code refused",
		   "... the message");
	tap_ok(guards_intact(vg.guard), "... nothing written past the verdict");
}

static void config(int root)
{
	memset(cg.guard, CANARY, sizeof(cg.guard));
	cg.c.size = sizeof(cg.c);
	tap_is_int(trusted_for_get_config(&cg.c), 0, "get_config: 0");
	tap_is_int(cg.c.check_policy, 3, "... check policy 3");
	tap_is_int(cg.c.process_enforce, TRUSTED_FOR_ENFORCE_FILE,
		   "... the process's enforcement: files");
	tap_is_int(cg.c.file_state, root ? TRUSTED_FOR_FILE_ABSENT : TRUSTED_FOR_FILE_FAIL_CLOSED,
		   "... no policy file: %s", root ? "absent" : "fails closed in a user namespace");
	tap_is_str(cg.c.file_path, "/etc/trustedfor.conf", "... the policy file's path");
	tap_is_int(cg.c.size, (int)sizeof(cg.c), "... the size is left as it was");
	tap_ok(guards_intact(cg.guard), "... nothing written past the configuration");
}

int main(void)
{
	int root;

	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_is_int((int)sizeof(struct trusted_for_verdict), TRUSTED_FOR_VERDICT_SIZE_1,
		   "the first verdict is %d bytes", TRUSTED_FOR_VERDICT_SIZE_1);
	tap_is_int((int)sizeof(struct trusted_for_config), TRUSTED_FOR_CONFIG_SIZE_1,
		   "the first configuration is %d bytes", TRUSTED_FOR_CONFIG_SIZE_1);
	root = tap_private_namespace(dir, sizeof(dir));
	if (root < 0) {
		tap_not_run("a first-header program", "needs root or user namespaces");
		return tap_done();
	}
	if (tap_policy_file(dir, NULL, 0644, 0) < 0)
		tap_bail("no policy file");
	tap_exec_noexec_mounts(dir);
	for (int i = 0; i < 2; i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s/script", dir, i ? "noexec" : "exec");
		write_file(path, "+\n", 0755);
	}
	trusted_for_set_log_fn(quiet, NULL);
	if (trusted_for_strengthen(TRUSTED_FOR_ENFORCE_FILE) < 0)
		tap_bail("trusted_for_strengthen");
	unsetenv("TRUSTEDFOR_ENFORCE");
	verdicts(root);
	config(root);
	return tap_done();
}
