/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulation's wrong answers, one table row each: the execute permission
 * with more than 256 supplementary groups, with more than 1024 ACL entries,
 * an ACL shorter than its header, CAP_DAC_OVERRIDE on a file whose owner is
 * not mapped in the caller's user namespace, and faccessat2 filtered with
 * EPERM or ENOSYS; a file on mqueue (a pseudo-filesystem the kernel never
 * executes from, which fstatvfs() does not call noexec) and a deleted tmpfs
 * file opened for writing, dressed up as a memfd.  Where the kernel's check
 * can judge the same file, the emulation must give its answer.
 */
#include "../tap.h"

#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "internal.h"
#include "missing.h"

#define NOBODY 65534
#define OWNER 1		  /* owns the fixture's files: never the caller */
#define FOREIGN 1234	  /* an owner a user namespace will not map */
#define MANY_GROUPS 300	  /* more than the 256 the emulation once read */
#define LAST_GROUP (10000 + MANY_GROUPS - 1)
#define MANY_ENTRIES 1100 /* more than the 1024 the emulation once read */

static char dir[256];
static int execve_check;

static void path_of(char *buf, size_t size, const char *mnt, const char *name)
{
	snprintf(buf, size, "%s/%s/%s", dir, mnt, name);
}

/* A large access ACL: many named users, the caller's with or without x. */
static void set_big_acl(const char *path, uid_t caller, int caller_x)
{
	struct { uint32_t version; struct { uint16_t tag, perm; uint32_t id; } e[MANY_ENTRIES + 8]; } acl;
	size_t n = 0;
	int placed = 0;

	acl.version = 2;
	acl.e[n].tag = 0x01, acl.e[n].perm = 6, acl.e[n++].id = (uint32_t)-1;
	for (uint32_t id = 20000; n < MANY_ENTRIES; id++) {
		if (!placed && id > caller) {
			acl.e[n].tag = 0x02, acl.e[n].perm = caller_x ? 5 : 4;
			acl.e[n++].id = caller;
			placed = 1;
		}
		acl.e[n].tag = 0x02, acl.e[n].perm = 5, acl.e[n++].id = id;
	}
	if (!placed) {
		acl.e[n].tag = 0x02, acl.e[n].perm = caller_x ? 5 : 4;
		acl.e[n++].id = caller;
	}
	acl.e[n].tag = 0x04, acl.e[n].perm = 4, acl.e[n++].id = (uint32_t)-1;
	acl.e[n].tag = 0x10, acl.e[n].perm = 7, acl.e[n++].id = (uint32_t)-1;
	acl.e[n].tag = 0x20, acl.e[n].perm = 4, acl.e[n++].id = (uint32_t)-1;
	if (setxattr(path, "system.posix_acl_access", &acl, 4 + n * 8, 0) < 0)
		tap_bail("setxattr ACL");
}

static void make_file(const char *mnt, const char *name, uid_t uid, gid_t gid,
		      mode_t mode)
{
	char path[512];

	path_of(path, sizeof(path), mnt, name);
	write_file(path, "#!/bin/sh\n", mode);
	if (chown(path, uid, gid) < 0 || chmod(path, mode) < 0)
		tap_bail("chown");
}

static void make_fixture(void)
{
	static const char *const mnts[] = { "exec", "noexec" };
	char path[512];

	tap_exec_noexec_mounts(dir);
	for (int m = 0; m < 2; m++) {
		make_file(mnts[m], "x", OWNER, OWNER, 0755);
		make_file(mnts[m], "nx", OWNER, OWNER, 0644);
		/* Group bits decide: x for the group only, or for others only. */
		make_file(mnts[m], "group-x", OWNER, LAST_GROUP, 0754);
		make_file(mnts[m], "other-x", OWNER, LAST_GROUP, 0745);
		make_file(mnts[m], "foreign", FOREIGN, FOREIGN, 0744);
		for (int who = 0; who < 2; who++) {
			uid_t caller = who ? NOBODY : 0;

			for (int x = 0; x < 2; x++) {
				char name[64];

				snprintf(name, sizeof(name), "acl-%u-%s",
					 (unsigned int)caller, x ? "x" : "nx");
				make_file(mnts[m], name, OWNER, OWNER, 0644);
				path_of(path, sizeof(path), mnts[m], name);
				set_big_acl(path, caller, x);
			}
		}
	}
}

/* The emulation's answer under policy 2, and the kernel's where it can. */
static void expect_file(const char *who, const char *name, int want,
			int kernel_too)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char path[512];

	for (int m = 0; m < 2; m++) {
		const char *mnt = m ? "noexec" : "exec";
		int fd;

		path_of(path, sizeof(path), mnt, name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			tap_bail(path);
		tf_check(fd, 2, TRUSTED_FOR_BACKEND_EMULATED, name, &v);
		tap_is_int(v.error, want, "%s: %s mount, %s: emulated, policy 2", who,
			   mnt, name);
		if (want == EACCES)
			tap_is_int(v.reason, TRUSTED_FOR_NO_EXEC_PERMISSION,
				   "%s: %s mount, %s: reason no execute permission",
				   who, mnt, name);
		if (!m && kernel_too && execve_check) {
			tf_check(fd, 3, TRUSTED_FOR_BACKEND_EXECVE_CHECK, name, &v);
			tap_is_int(v.error, want, "%s: exec mount, %s: AT_EXECVE_CHECK agrees",
				   who, name);
		} else if (!m && kernel_too) {
			tap_na(name, tap_kernel_lacks("execve-check"));
		}
		close(fd);
	}
}

static void drop_capabilities(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (syscall(SYS_capset, &hdr, data) < 0)
		tap_bail("capset");
}

/* uid 0 without capabilities, or uid 65534: the bits decide. */
static void become(int nobody)
{
	if (nobody) {
		/* Dumpable again, so that its /proc files stay its own. */
		if (setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
		    setresuid(NOBODY, NOBODY, NOBODY) < 0 ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			tap_bail("setresuid");
	} else {
		drop_capabilities();
	}
}

static void many_groups(void *arg)
{
	int nobody = *(int *)arg;
	const char *who = nobody ? "uid 65534" : "uid 0, no capabilities";
	gid_t groups[MANY_GROUPS];

	for (int i = 0; i < MANY_GROUPS; i++)
		groups[i] = (gid_t)(10000 + i);
	if (setgroups(MANY_GROUPS, groups) < 0)
		tap_bail("setgroups");
	become(nobody);
	tap_is_int(getgroups(0, NULL), MANY_GROUPS, "%s: %d supplementary groups", who,
		   MANY_GROUPS);
	expect_file(who, "group-x", 0, 1);
	expect_file(who, "other-x", EACCES, 1);
	expect_file(who, "x", 0, 1);
	expect_file(who, "nx", EACCES, 1);
}

static void big_acl(void *arg)
{
	int nobody = *(int *)arg;
	const char *who = nobody ? "uid 65534" : "uid 0, no capabilities";
	char name[64];

	become(nobody);
	snprintf(name, sizeof(name), "acl-%u-x", nobody ? NOBODY : 0);
	expect_file(who, name, 0, 1);
	snprintf(name, sizeof(name), "acl-%u-nx", nobody ? NOBODY : 0);
	expect_file(who, name, EACCES, 1);
}

/* An ACL the kernel could never store, in buffers of exactly its size. */
static void acl_bounds(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 11, 13 };
	struct stat st = { .st_uid = OWNER, .st_gid = OWNER, .st_mode = S_IFREG | 0755 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *acl = malloc(sizes[i] ? sizes[i] : 1);

		if (!acl)
			tap_bail("malloc");
		memset(acl, 0, sizes[i] ? sizes[i] : 1);
		if (sizes[i] >= 4)
			acl[0] = 2;
		tap_is_int(tf_acl_allows(acl, sizes[i], &st), -1,
			   "an ACL of %zu bytes is malformed, read within its bounds",
			   sizes[i]);
		free(acl);
	}
}

/*
 * In a new user namespace, with every capability there.  A helper left in
 * the parent namespace writes the maps, so that root can map a range.
 */
static void enter_userns(const char *map)
{
	char path[64], line[64], byte = 0;
	pid_t self = getpid(), helper;
	int go[2], status;

	if (pipe(go) < 0)
		tap_bail("pipe");
	helper = fork();
	if (helper < 0)
		tap_bail("fork");
	if (helper == 0) {
		int ok = read(go[0], &byte, 1) == 1;

		snprintf(line, sizeof(line), "%s\n", map);
		snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)self);
		ok = ok && write_proc(path, "deny") == 0;
		snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)self);
		ok = ok && write_proc(path, line) == 0;
		snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)self);
		ok = ok && write_proc(path, line) == 0;
		_exit(ok ? 0 : 1);
	}
	if (unshare(CLONE_NEWUSER) < 0)
		tap_bail("unshare(CLONE_NEWUSER)");
	if (write(go[1], &byte, 1) != 1 || waitpid(helper, &status, 0) < 0 ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		tap_bail("write the id maps");
	close(go[0]);
	close(go[1]);
}

struct userns_case {
	int nobody;
	const char *map;
	int want;
};

static void dac_override(void *arg)
{
	const struct userns_case *c = arg;
	char who[128];

	if (c->nobody)
		become(1);
	enter_userns(c->map);
	snprintf(who, sizeof(who), "%s, user namespace mapping \"%s\"",
		 c->nobody ? "uid 65534" : "root", c->map);
	expect_file(who, "foreign", c->want, 1);
}

static void filter_faccessat2(int error)
{
	scmp_filter_ctx f = tap_filter_new(SCMP_ACT_ALLOW);
	int r = seccomp_rule_add(f, SCMP_ACT_ERRNO((uint32_t)error), SCMP_SYS(faccessat2), 0);

	if (tap_filter_load(f, r) < 0)
		tap_bail("seccomp");
}

struct filter_case {
	int nobody;
	int error;
};

static void filtered(void *arg)
{
	const struct filter_case *c = arg;
	char who[128];

	become(c->nobody);
	filter_faccessat2(c->error);
	snprintf(who, sizeof(who), "%s, faccessat2 answers %s",
		 c->nobody ? "uid 65534" : "uid 0, no capabilities",
		 c->error == EPERM ? "EPERM" : "ENOSYS");
	errno = 0;
	tap_ok(syscall(SYS_faccessat2, AT_FDCWD, "/", X_OK, 0) < 0 && errno == c->error,
	       "%s: the filter is in place", who);
	expect_file(who, "x", 0, 0);
	expect_file(who, "nx", EACCES, 0);
	expect_file(who, "group-x", EACCES, 0);
	expect_file(who, "other-x", 0, 0);
}

/* Pseudo-filesystems: the kernel-internal ones are never trusted. */
static void mqueue(void *arg)
{
	int nobody = *(int *)arg;
	const char *who = nobody ? "uid 65534" : "root";
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char path[512];
	int fd;

	if (nobody)
		become(1);
	snprintf(path, sizeof(path), "%s/mq/queue", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tap_bail(path);
	for (unsigned int policy = 1; policy < 4; policy++) {
		tf_check(fd, policy, TRUSTED_FOR_BACKEND_EMULATED, "queue", &v);
		tap_is_int(v.error, EACCES, "%s: mqueue file, mode 0755: emulated, policy %u",
			   who, policy);
		tap_is_int(v.reason, TRUSTED_FOR_KERNEL_INTERNAL,
			   "%s: ... reason kernel-internal file", who);
		tap_is_str(v.detail, "mqueue", "%s: ... detail names the filesystem", who);
	}
	if (execve_check) {
		tf_check(fd, 3, TRUSTED_FOR_BACKEND_EXECVE_CHECK, "queue", &v);
		tap_is_int(v.error, EACCES, "%s: mqueue file: AT_EXECVE_CHECK agrees", who);
	} else {
		tap_na("mqueue file", tap_kernel_lacks("execve-check"));
	}
	close(fd);
}

static void filesystem_table(void)
{
	static const struct { long magic; int code; const char *what; } rows[] = {
		{ 0x01021997, 1, "9p (a guest sharing the host's root)" },
		{ 0x65735546, 1, "fuse and virtiofs" },
		{ 0x01021994, 1, "tmpfs" },
		{ 0xef53, 1, "ext4" },
		{ 0x794c7630, 1, "overlayfs" },
		{ 0x19800202, 0, "mqueue" },
		{ 0x9fa0, 0, "procfs" },
		{ 0x958458f6, 0, "hugetlbfs" },
		{ 0x12345678, 0, "an unknown filesystem" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		tap_is_int(tf_fs_holds_code(rows[i].magic), rows[i].code,
			   "%s %s code", rows[i].what,
			   rows[i].code ? "holds" : "does not hold");
}

/*
 * A deleted tmpfs file, opened for writing, whose /proc/self/fd link reads
 * "/memfd:...": the kernel sees a writer (ETXTBSY), and so must the
 * emulation; a real memfd is still judged by its mode alone.
 */
static void fake_memfd(void *arg)
{
	int nobody = *(int *)arg;
	const char *who = nobody ? "uid 65534" : "root";
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char path[512], link[64], target[128] = "";
	int fd, memfd;

	snprintf(path, sizeof(path), "%s/jail", dir);
	if (chroot(path) < 0 || chdir("/") < 0)
		tap_bail("chroot");
	if (nobody)
		become(1);
	snprintf(path, sizeof(path), "/memfd:%s", nobody ? "nobody" : "root");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || unlink(path) < 0)
		tap_bail(path);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (readlink(link, target, sizeof(target) - 1) < 0)
		tap_bail(link);
	tap_ok(!strncmp(target, "/memfd:", 7), "%s: the deleted file's link reads %s",
	       who, target);
	tf_check(fd, 3, TRUSTED_FOR_BACKEND_EMULATED, "fake", &v);
	tap_is_int(v.error, ETXTBSY, "%s: fake memfd opened O_RDWR: emulated: ETXTBSY", who);
	tap_is_int(v.reason, TRUSTED_FOR_WRITE_OPEN, "%s: ... reason open for writing", who);
	if (execve_check) {
		tf_check(fd, 3, TRUSTED_FOR_BACKEND_EXECVE_CHECK, "fake", &v);
		tap_is_int(v.error, ETXTBSY, "%s: fake memfd: AT_EXECVE_CHECK agrees", who);
	} else {
		tap_na("fake memfd", tap_kernel_lacks("execve-check"));
	}
	close(fd);
	memfd = memfd_create("x", MFD_CLOEXEC);
	if (memfd < 0 || fchmod(memfd, 0755) < 0)
		tap_bail("memfd_create");
	tf_check(memfd, 3, TRUSTED_FOR_BACKEND_EMULATED, "memfd", &v);
	tap_is_int(v.error, 0, "%s: a real memfd, mode 0755, O_RDWR: emulated: trusted", who);
	close(memfd);
}

/*
 * A file opened for writing on a filesystem that cannot hold a memfd (the
 * build's own disk beside this program, not the tmpfs of the other cases):
 * the emulation looks for a memfd only on a tmpfs or a ramfs, and must
 * refuse the writer all the same.  Under policy 2, which asks nothing of
 * the filesystem, so that the answer is the same on whatever disk it is.
 */
static void write_open_on_disk(void)
{
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;
	int fd;

	if (n < 0)
		tap_bail("readlink /proc/self/exe");
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		tap_bail("the program's directory");
	strcpy(slash, "/write-open.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || fchmod(fd, 0755) < 0 || unlink(path) < 0)
		tap_bail(path);
	tf_check(fd, 2, TRUSTED_FOR_BACKEND_EMULATED, "w", &v);
	tap_is_int(v.error, ETXTBSY, "opened for writing beside this program: emulated: ETXTBSY");
	tap_is_int(v.reason, TRUSTED_FOR_WRITE_OPEN, "... reason open for writing");
	close(fd);
}

static void make_pseudo_fixture(void)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/mq", dir);
	if (mkdir(path, 0755) < 0 || mount("mq", path, "mqueue", 0, NULL) < 0)
		tap_bail("mount mqueue");
	snprintf(path, sizeof(path), "%s/mq/queue", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0755);
	if (fd < 0 || fchmod(fd, 0755) < 0)
		tap_bail(path);
	close(fd);
	snprintf(path, sizeof(path), "%s/jail", dir);
	if (mkdir(path, 0755) < 0 || mount("jail", path, "tmpfs", 0, "mode=0755") < 0)
		tap_bail("mount the jail");
	snprintf(path, sizeof(path), "%s/jail/proc", dir);
	if (mkdir(path, 0755) < 0 || mount("proc", path, "proc", 0, NULL) < 0)
		tap_bail("mount proc in the jail");
	for (int nobody = 0; nobody < 2; nobody++) {
		snprintf(path, sizeof(path), "%s/jail/memfd:%s", dir,
			 nobody ? "nobody" : "root");
		write_file(path, "#!/bin/sh\n", 0755);
		if (chown(path, nobody ? NOBODY : 0, nobody ? NOBODY : 0) < 0)
			tap_bail("chown");
	}
	snprintf(path, sizeof(path), "%s/jail", dir);
	if (chmod(path, 01777) < 0)
		tap_bail("chmod");
}

static void run(const char *what, void (*fn)(void *), void *arg)
{
	int status = tap_in_child(fn, arg);

	if (!WIFEXITED(status) || WEXITSTATUS(status))
		tap_ok(0, "%s: the child ran to its end", what);
}

int main(void)
{
	struct tf_kernel k;
	int root;

	setvbuf(stdout, NULL, _IOLBF, 0);
	acl_bounds();
	root = tap_private_namespace(dir, sizeof(dir));
	if (root <= 0) {
		tap_not_run("the emulation's permission cases", "needs root");
		return tap_done();
	}
	tf_kernel_probe(&k);
	execve_check = !tap_kernel_lacks("execve-check");
	make_fixture();
	make_pseudo_fixture();
	filesystem_table();
	write_open_on_disk();
	for (int nobody = 0; nobody < 2; nobody++) {
		run("many groups", many_groups, &nobody);
		run("big ACL", big_acl, &nobody);
		run("mqueue", mqueue, &nobody);
		run("fake memfd", fake_memfd, &nobody);
		for (int e = 0; e < 2; e++) {
			struct filter_case c = { nobody, e ? ENOSYS : EPERM };

			run("faccessat2 filtered", filtered, &c);
		}
	}
	{
		static const struct userns_case cases[] = {
			{ 0, "0 0 1", EACCES },	   /* the owner is not mapped */
			{ 0, "0 0 2000", 0 },	   /* it is: the capability acts */
			{ 1, "0 65534 1", EACCES },
		};
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			run("CAP_DAC_OVERRIDE in a user namespace", dac_override,
			    (void *)&cases[i]);
	}
	return tap_done();
}
