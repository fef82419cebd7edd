/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The check: is the file behind a descriptor trusted for execution under a
 * check policy?  Three backends answer it: the patched kernel's trusted_for()
 * system call, execveat(AT_EXECVE_CHECK), and an emulation from statx(),
 * fstatfs() and the execute permission.  Only this file and the ones it calls
 * (exec_permission.c, mount_point.c, mount_namespace.c) ask the kernel
 * about the checked file; above them, enforce.c looks at the descriptor
 * only to name the file in a log line and to tell a pipe from a file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"
#include "printable.h"

/*
 * The probe's answer, packed in one word and published whole without a
 * lock: two threads that find it unknown both probe, and get the same
 * answer.  (pthread_once() would end in a futex wake-up, one system call
 * more at every process's first decision.)  probe_error is an errno.
 */
#define KERNEL_KNOWN 1U
#define KERNEL_EXECVE_CHECK 2U
#define KERNEL_PATCHED 4U
static atomic_uint kernel_word;

/*
 * The system call number of the patched kernel belongs to another call in
 * later mainline kernels, so the kernel must prove it is the patched one: its
 * sysctl must be procfs's own file, which no mount stands in for (a user can
 * plant a file of their own there, or bind another procfs file that reads
 * "0", in a mount namespace of their own), and the kernel must not be a
 * mainline 6.14 or later, recognised by AT_EXECVE_CHECK (asked first: it is
 * known, and spares those kernels a lookup in /proc/sys at every start).
 */
int tf_kernel_sysctl_present(void)
{
#ifdef TRUSTED_FOR_SYSCALL_NR
	int fd = tf_proc_open(TRUSTED_FOR_KERNEL_POLICY_IN_PROC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
#else
	return 0;
#endif
}

/*
 * Linux before 6.14 has no AT_EXECVE_CHECK.  The buffer is poisoned: a
 * filter that answers uname() with 0 and fills nothing reads as "not
 * older", which fails closed.  So does the UNAME26 personality, which
 * makes uname() say 2.6 on any kernel (setarch --uname-2.6).
 */
static int kernel_older_than_6_14(void)
{
	struct utsname u;
	unsigned int major, minor;
	int persona = personality(0xffffffff);

	if (persona < 0 || (persona & UNAME26))
		return 0;
	memset(&u, 0, sizeof(u));
	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major < 6 || (major == 6 && minor < 14);
}

static void probe(struct tf_kernel *kernel)
{
	/*
	 * A kernel with AT_EXECVE_CHECK gets as far as the bad descriptor
	 * (EBADF); an older one rejects the unknown flag first (EINVAL), one
	 * without execveat() has no such call (ENOSYS).  Nothing is executed.
	 */
	char *argv[] = { "trustedfor-probe", NULL };
	char *envp[] = { NULL };
	long r;
	int error;

	errno = 0;
	r = syscall(SYS_execveat, -1, "", argv, envp, AT_EMPTY_PATH | AT_EXECVE_CHECK);
	error = r < 0 ? errno : 0;
	/*
	 * Only EBADF means "available", and EINVAL or ENOSYS mean "absent"
	 * only on a kernel that is older than the flag: from a seccomp filter
	 * on 6.14 and later, falling back to the emulation would silently
	 * skip the LSMs.  Anything else, 0 above all (no kernel answers 0 for
	 * descriptor -1, a filter does), leaves the question open: every
	 * check through this backend then fails with probe_error.
	 */
	if (error == EBADF) {
		kernel->execve_check = 1;
		kernel->probe_error = 0;
	} else if ((error == EINVAL || error == ENOSYS) && kernel_older_than_6_14()) {
		kernel->execve_check = 0;
		kernel->probe_error = 0;
	} else {
		kernel->execve_check = 1;
		kernel->probe_error = error ? error : EPROTO;
	}
	kernel->patched = !kernel->execve_check && tf_kernel_sysctl_present();
}

static unsigned int kernel_pack(const struct tf_kernel *k)
{
	return KERNEL_KNOWN | (k->execve_check ? KERNEL_EXECVE_CHECK : 0) |
	       (k->patched ? KERNEL_PATCHED : 0) | (unsigned int)k->probe_error << 8;
}

void tf_kernel_probe(struct tf_kernel *k)
{
	unsigned int word = atomic_load(&kernel_word);

	if (!(word & KERNEL_KNOWN)) {
		unsigned int none = 0;

		probe(k);
		word = kernel_pack(k);
		/* The first answer published stays (a test's override too). */
		if (!atomic_compare_exchange_strong(&kernel_word, &none, word))
			word = none;
	}
	k->execve_check = !!(word & KERNEL_EXECVE_CHECK);
	k->patched = !!(word & KERNEL_PATCHED);
	k->probe_error = (int)(word >> 8);
}

/* Tests only: pretend to run on another kernel.  Not exported. */
void tf_kernel_override(const struct tf_kernel *k)
{
	atomic_store(&kernel_word, kernel_pack(k));
}

/* The patched kernel's fs.trusted_for_policy; 3 when it cannot be read. */
int tf_kernel_policy(unsigned int *policy)
{
	char buf[16] = "";
	int fd = tf_proc_open(TRUSTED_FOR_KERNEL_POLICY_IN_PROC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	*policy = TRUSTED_FOR_POLICY_ALL;
	if (n < 2 || buf[0] < '0' || buf[0] > '3' || buf[1] != '\n')
		return -1;
	*policy = (unsigned int)(buf[0] - '0');
	return 0;
}

enum trusted_for_backend tf_backend_for(unsigned int policy, int kernel_policy)
{
	struct tf_kernel kernel;

	tf_kernel_probe(&kernel);
	if (kernel_policy && kernel.patched)
		return TRUSTED_FOR_BACKEND_SYSCALL;
	if (policy == TRUSTED_FOR_POLICY_ALL && kernel.execve_check)
		return TRUSTED_FOR_BACKEND_EXECVE_CHECK;
	return TRUSTED_FOR_BACKEND_EMULATED;
}

static const char *file_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "directory";
	case S_IFIFO: return "FIFO or pipe";
	case S_IFSOCK: return "socket";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFLNK: return "symbolic link";
	case S_IFREG: return "regular file";
	}
	return "unknown file type";
}

/*
 * Every memfd lives on the kernel's internal tmpfs, whose device number no
 * mount shows and no other file gets: a name reading "/memfd:", a zero link
 * count and working seals can all be had on a deleted tmpfs file of one's
 * own, but that device only through memfd_create().  Learnt once from a
 * memfd of our own; 0 when it cannot be (then no descriptor is a memfd).
 */
static dev_t memfd_device(void)
{
	static _Atomic dev_t known;
	dev_t dev = known;
	struct stat st;
	int fd;

	if (dev)
		return dev;
	/* A 0 forged by a filter would name another file's device.
	 * NOEXEC_SEAL: vm.memfd_noexec = 2 refuses a memfd without it. */
	fd = TF_UNFORGED(memfd_create("trustedfor-probe", MFD_CLOEXEC | MFD_NOEXEC_SEAL));
	if (fd < 0 && errno == EINVAL)
		fd = TF_UNFORGED(memfd_create("trustedfor-probe", MFD_CLOEXEC));
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0)
		known = dev = st.st_dev;
	close(fd);
	return dev;
}

/*
 * The kernel refuses a file someone holds open for writing, which a process
 * cannot see; it can see its own descriptor's mode.  A memfd is writable
 * without counting as a writer (the kernel allocates it as a pseudo file),
 * so the kernel judges it by its mode alone, and so does the emulation.
 *
 * That internal mount is a tmpfs (a ramfs in a kernel built without shmem):
 * a file on any other filesystem is no memfd, and the probe, which creates
 * and frees an inode, is left to the processes that meet such files.
 */
static int is_memfd(const struct stat *st, const struct statfs *sfs)
{
	unsigned int type = (unsigned int)sfs->f_type;
	dev_t memfd;

	if (type != TMPFS_MAGIC && type != RAMFS_MAGIC)
		return 0;
	memfd = memfd_device();
	return memfd && st->st_dev == memfd;
}

static int opened_for_writing(int fl, const struct stat *st,
			      const struct statfs *sfs)
{
	if ((fl & O_PATH) || (fl & O_ACCMODE) == O_RDONLY)
		return 0;
	return !is_memfd(st, sfs);
}

static int deny(struct trusted_for_verdict *v, enum trusted_for_reason reason,
		int error)
{
	v->reason = reason;
	v->error = error;
	return -1;
}

/*
 * The emulation.  Errors come in the kernel's order so that the verdicts
 * match execveat(AT_EXECVE_CHECK): EACCES for the file type, then the mount,
 * then the permission, and only then ETXTBSY for a write-open descriptor.
 */
static int emulate(int fd, unsigned int policy, struct trusted_for_verdict *v,
		   int explain)
{
	struct stat st;
	struct statfs sfs;
	const char *internal;
	uint64_t mount_id;
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0 && policy == 0)
		return 0;
	/* Poisoned with what denies: a faked 0 that fills nothing denies. */
	memset(&sfs, 0, sizeof(sfs));
	sfs.f_flags = ST_NOEXEC;
	if (fl < 0 || tf_file_status(fd, "", AT_EMPTY_PATH, &st, &mount_id) < 0 ||
	    fstatfs(fd, &sfs) < 0)
		return deny(v, errno == EBADF ? TRUSTED_FOR_BAD_DESCRIPTOR : TRUSTED_FOR_ERROR, errno);
	if (!S_ISREG(st.st_mode)) {
		if (explain)
			snprintf(v->detail, sizeof(v->detail), "%s",
				 file_type(st.st_mode));
		return deny(v, TRUSTED_FOR_NOT_REGULAR, EACCES);
	}
	internal = tf_kernel_internal_fs(sfs.f_type);
	if (internal) {
		if (explain)
			snprintf(v->detail, sizeof(v->detail), "%s", internal);
		return deny(v, TRUSTED_FOR_KERNEL_INTERNAL, EACCES);
	}
	if ((policy & TRUSTED_FOR_POLICY_MOUNT) && (sfs.f_flags & ST_NOEXEC))
		return deny(v, TRUSTED_FOR_NOEXEC_MOUNT, EACCES);
	if ((policy & TRUSTED_FOR_POLICY_MOUNT) && !tf_fs_holds_code(sfs.f_type)) {
		if (explain)
			snprintf(v->detail, sizeof(v->detail),
				 "filesystem type 0x%lx, not known to hold code",
				 (unsigned long)(unsigned int)sfs.f_type);
		return deny(v, TRUSTED_FOR_NOEXEC_MOUNT, EACCES);
	}
	if ((policy & TRUSTED_FOR_POLICY_MOUNT) && !is_memfd(&st, &sfs)) {
		int where = tf_mount_namespace_of(mount_id);

		if (where < 0)
			return deny(v, TRUSTED_FOR_ERROR, errno);
		if (where == TF_MOUNT_NAMESPACE_OTHER)
			return deny(v, TRUSTED_FOR_FOREIGN_MOUNT, EACCES);
	}
	/*
	 * A memfd's mount is the kernel's own, which every user writes to:
	 * the mount check cannot vouch for it, so a memfd is judged by its
	 * mode under policy 1 too, as the kernel's check judges it (and
	 * vm.memfd_noexec = 2 keeps the execute bit off).
	 */
	if ((policy & TRUSTED_FOR_POLICY_FILE) ||
	    ((policy & TRUSTED_FOR_POLICY_MOUNT) && is_memfd(&st, &sfs))) {
		const char *why;
		int r = tf_exec_permission(fd, &st, sfs.f_flags & ST_NOEXEC, &why);

		if (r < 0 && errno == EACCES) {
			if (explain)
				snprintf(v->detail, sizeof(v->detail), "uid %u",
					 (unsigned int)geteuid());
			return deny(v, TRUSTED_FOR_NO_EXEC_PERMISSION, EACCES);
		}
		if (r < 0) {
			int error = errno;

			if (explain && why)
				snprintf(v->detail, sizeof(v->detail), "%s", why);
			return deny(v, TRUSTED_FOR_ERROR, error);
		}
	}
	if (opened_for_writing(fl, &st, &sfs))
		return deny(v, TRUSTED_FOR_WRITE_OPEN, ETXTBSY);
	return 0;
}

/*
 * A "yes" from the kernel's check is one return value, which a seccomp
 * filter or a tracer can fake.  What the kernel's yes implies must then be
 * true of the file, seen through calls that fill buffers: a regular file
 * that its mode and ACL let the caller execute (execve() wants an execute
 * bit even for root), not on a noexec mount or a kernel-internal
 * filesystem.  The buffers are poisoned with the
 * answer that denies, so a filter that fakes one of these calls with 0 and
 * fills nothing denies too.  An LSM's refusal leaves no such trace: against
 * a filter that fakes only it, see trusted_for(3), BUGS.  The patched
 * kernel's call checks what its policy says, and only that is confirmed:
 * under policy 0 it trusts every descriptor.
 */
static int confirm_allowed(int fd, unsigned int policy)
{
	const char *why;
	struct stat st;
	struct statfs sfs;
	uint64_t mount_id;

	if (!(policy & TRUSTED_FOR_POLICY_ALL))
		return 0;
	memset(&sfs, 0, sizeof(sfs));
	sfs.f_flags = ST_NOEXEC;
	if (tf_file_status(fd, "", AT_EMPTY_PATH, &st, &mount_id) < 0 ||
	    fstatfs(fd, &sfs) < 0)
		return -1;
	/* As emulate() judges, whatever answered: never a file on the kernel's
	 * own filesystems; under the mount bit, never one on a filesystem not
	 * known to hold code, and a memfd (which the patched call at policy 1
	 * passes on its mount) by its mode. */
	if (!S_ISREG(st.st_mode) || tf_kernel_internal_fs(sfs.f_type) ||
	    /* 1: the permission from the mode and ACL alone, no faccessat2(). */
	    (((policy & TRUSTED_FOR_POLICY_FILE) || is_memfd(&st, &sfs)) &&
	     tf_exec_permission(fd, &st, 1, &why) < 0) ||
	    ((policy & TRUSTED_FOR_POLICY_MOUNT) &&
	     ((sfs.f_flags & ST_NOEXEC) || !tf_fs_holds_code(sfs.f_type)))) {
		errno = EACCES;
		return -1;
	}
	/* The kernel accepts another namespace's exec mount; this does not. */
	if ((policy & TRUSTED_FOR_POLICY_MOUNT) && !is_memfd(&st, &sfs)) {
		int where = tf_mount_namespace_of(mount_id);

		if (where < 0)
			return -1;
		if (where == TF_MOUNT_NAMESPACE_OTHER) {
			errno = EACCES;
			return -1;
		}
	}
	return 0;
}

static int kernel_check(int fd, unsigned int policy, enum trusted_for_backend backend)
{
	/* A real argv: the kernel warns about a NULL one.  Nothing runs, so
	 * a constant name costs less than formatting "/dev/fd/N". */
	static char name[] = "trusted_for";
	char *argv[] = { name, NULL };
	char *envp[] = { NULL };
	struct tf_kernel kernel;
	int r;

	if (backend == TRUSTED_FOR_BACKEND_SYSCALL) {
#ifdef TRUSTED_FOR_SYSCALL_NR
		r = (int)syscall(TRUSTED_FOR_SYSCALL_NR, fd, TRUSTED_FOR_EXECUTION, 0);
#else
		errno = ENOSYS;
		return -1;
#endif
	} else {
		tf_kernel_probe(&kernel);
		/* The probe was answered by something else than a kernel. */
		if (kernel.probe_error) {
			errno = kernel.probe_error;
			return -1;
		}
		r = (int)syscall(SYS_execveat, fd, "", argv, envp,
				 AT_EMPTY_PATH | AT_EXECVE_CHECK);
	}
	return r == 0 ? confirm_allowed(fd, policy) : -1;
}

/*
 * The kernel says only EACCES; the emulation, run afterwards, finds which
 * check failed.  If none did, an LSM's exec hook refused the file.
 */
static void explain_kernel_denial(int fd, unsigned int policy,
				  struct trusted_for_verdict *v)
{
	int error = errno;
	struct trusted_for_verdict why = { 0 };

	v->error = error;
	if (error == EBADF) {
		v->reason = TRUSTED_FOR_BAD_DESCRIPTOR;
	} else if (error == ETXTBSY) {
		v->reason = TRUSTED_FOR_WRITE_OPEN;
	} else if (error != EACCES) {
		v->reason = TRUSTED_FOR_ERROR;
	} else if (emulate(fd, policy, &why, 1) < 0 && why.error == EACCES) {
		v->reason = why.reason;
		memcpy(v->detail, why.detail, sizeof(v->detail));
	} else {
		v->reason = TRUSTED_FOR_KERNEL_DENIED;
		snprintf(v->detail, sizeof(v->detail), "an LSM or IMA");
	}
}

/*
 * Messages are one line a terminal shows as text: a name's or a mount
 * point's control characters become '?', and a long one keeps its tail.
 */
static void describe(struct trusted_for_verdict *v, int fd, const char *raw)
{
	static const char trusted[] = ": trusted for execution";
	char mnt[4096], name[256];

	/*
	 * A shell says this for every file it sources: no snprintf() here
	 * (in a shell between two files, printf's code is cold, and cost
	 * as much as a system call).  The name fits: 255 bytes and the
	 * words are well within the message.
	 */
	if (v->trusted) {
		size_t n;

		_Static_assert(sizeof(name) + sizeof(trusted) <= sizeof(v->message),
			       "the name and the words fit the message");
		tf_printable(v->message, sizeof(name), raw);
		n = strlen(v->message);
		memcpy(v->message + n, trusted, sizeof(trusted));
		return;
	}
	if ((v->reason == TRUSTED_FOR_NOEXEC_MOUNT || v->reason == TRUSTED_FOR_FOREIGN_MOUNT) &&
	    !v->detail[0] &&
	    tf_mount_point(fd, mnt, sizeof(mnt)) == 0)
		tf_printable(v->detail, sizeof(v->detail), mnt);
	if (v->reason == TRUSTED_FOR_ERROR && !v->detail[0])
		snprintf(v->detail, sizeof(v->detail), "%s",
			 tf_strerror(v->error));
	tf_printable(name, sizeof(name), raw);
	snprintf(v->message, sizeof(v->message),
		 "%s: not trusted for execution: %s", name,
		 trusted_for_reason_string(v->reason));
}

/*
 * Code read from a stream (stdin) is code from a checked file only if it is a
 * regular file: a pipe or a terminal never is, not even under policy 0,
 * which otherwise trusts every descriptor.
 */
int tf_check_stream(int fd, unsigned int policy, enum trusted_for_backend backend,
		    const char *name, struct trusted_for_verdict *v)
{
	const char *internal = NULL;
	struct statfs sfs;
	struct stat st;
	int known;

	if (tf_check(fd, policy, backend, name, v) < 0 || policy != 0)
		return v->trusted ? 0 : -1;
	/* Poisoned: a filter that fakes success without filling them fails. */
	memset(&st, 0, sizeof(st));
	memset(&sfs, 0, sizeof(sfs));
	sfs.f_type = PROC_SUPER_MAGIC;
	known = fstat(fd, &st) == 0;
	/* procfs's cmdline and environ are argv and the environment. */
	if (known && S_ISREG(st.st_mode)) {
		if (fstatfs(fd, &sfs) < 0)
			internal = "a filesystem that cannot be asked";
		else if (!(internal = tf_kernel_internal_fs(sfs.f_type)))
			return 0;
	}
	v->trusted = 0;
	v->reason = internal ? TRUSTED_FOR_KERNEL_INTERNAL : TRUSTED_FOR_NOT_REGULAR;
	v->error = EACCES;
	snprintf(v->detail, sizeof(v->detail), "%s",
		 internal ? internal : known ? file_type(st.st_mode) :
					       tf_strerror(errno));
	describe(v, fd, name);
	errno = EACCES;
	return -1;
}

/*
 * The answer alone, for trusted_for(): 0, or -1 with errno, and not one
 * system call more than the backend needs.
 */
int tf_answer(int fd, unsigned int policy, enum trusted_for_backend backend)
{
	struct trusted_for_verdict scratch;

	if (backend != TRUSTED_FOR_BACKEND_EMULATED)
		return kernel_check(fd, policy, backend);
	if (emulate(fd, policy, &scratch, 0) == 0)
		return 0;
	errno = scratch.error;
	return -1;
}

/* The answer with its reason, its detail and a message naming the file. */
int tf_check(int fd, unsigned int policy, enum trusted_for_backend backend,
	     const char *name, struct trusted_for_verdict *v)
{
	int r;

	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	v->check_policy = policy;
	v->backend = backend;
	if (!name)
		name = "(descriptor)";
	if (policy > TRUSTED_FOR_POLICY_ALL ||
	    (backend != TRUSTED_FOR_BACKEND_EMULATED &&
	     backend != TRUSTED_FOR_BACKEND_SYSCALL &&
	     backend != TRUSTED_FOR_BACKEND_EXECVE_CHECK)) {
		r = deny(v, TRUSTED_FOR_ERROR, EINVAL);
	} else if (backend == TRUSTED_FOR_BACKEND_EMULATED) {
		r = emulate(fd, policy, v, 1);
	} else {
		r = kernel_check(fd, policy, backend);
		if (r < 0)
			explain_kernel_denial(fd, policy, v);
	}
	v->trusted = r == 0;
	describe(v, fd, name);
	errno = v->error;
	return v->trusted ? 0 : -1;
}
