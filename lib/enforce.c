/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The enforcement layer: turns a check into "run it" or "refuse it" as
 * docs/semantics.md section 3's table says, and is the one place that writes the audit log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"
#include "printable.h"

static const char *enforced_by(const struct tf_config *p,
			       unsigned int bit)
{
	unsigned int secbit = bit == TRUSTED_FOR_ENFORCE_FILE ?
				      SECBIT_EXEC_RESTRICT_FILE :
				      SECBIT_EXEC_DENY_INTERACTIVE;

	if (p->securebits & secbit)
		return "securebits";
	if (p->file_enforce & bit)
		return p->file_state == TRUSTED_FOR_FILE_FAIL_CLOSED ?
			       "bad policy file" :
			       "policy file";
	if (p->env_enforce & bit)
		return "TRUSTEDFOR_ENFORCE";
	if (p->process_enforce & bit)
		return "interpreter";
	return "none";
}

/*
 * Log values are quoted (tf_quoted()); a name may hold quotes, newlines or
 * worse, and a long one keeps its tail.  The name is the caller's word for
 * the file: the path the descriptor resolves to and its device and inode
 * say which file it really was.
 */
static void log_verdict(const struct trusted_for_verdict *v, int fd,
			const char *kind, const char *name, const char *by)
{
	char qname[512], qdetail[512], raw[4096], qexe[512], qpath[512] = "";
	char where[64] = "";
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", raw, sizeof(raw) - 1);

	raw[n > 0 ? n : 0] = '\0';
	tf_quoted(qexe, sizeof(qexe), raw);
	tf_quoted(qname, sizeof(qname), name);
	tf_quoted(qdetail, sizeof(qdetail), v->detail);
	if (fd >= 0) {
		char self[32];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		n = readlink(self, raw, sizeof(raw) - 1);
		raw[n > 0 ? n : 0] = '\0';
		tf_quoted(qpath, sizeof(qpath), raw);
		if (fstat(fd, &st) == 0)
			snprintf(where, sizeof(where), " dev=%u:%u ino=%llu",
				 major(st.st_dev), minor(st.st_dev),
				 (unsigned long long)st.st_ino);
	}
	tf_log(v->allowed ? LOG_NOTICE : LOG_WARNING,
	       "%s %s=\"%s\" reason=\"%s\" detail=\"%s\" policy=%u enforced-by=\"%s\" pid=%d exe=\"%s\"%s%s%s%s",
	       v->allowed ? "audit" : "refused", kind, qname,
	       trusted_for_reason_string(v->reason), qdetail, v->check_policy, by,
	       (int)getpid(), qexe, fd >= 0 ? " path=\"" : "", qpath,
	       fd >= 0 ? "\"" : "", where);
}

/*
 * A process that enforces must not have its memory written by another
 * process of the same user: /proc/PID/mem, ptrace and process_vm_writev()
 * follow the ptrace access rules, which refuse a non-dumpable target to
 * anyone without CAP_SYS_PTRACE.  An execve() makes the new program
 * dumpable again, so each program protects itself: before main() when its
 * securebits or environment ask for enforcement (protect_from_start), and
 * at its first enforced decision otherwise (a policy file is not read
 * before main()), in both cases before any code it allows runs.
 *
 * The prctl()'s 0 is one return value, which a filter of the user's own
 * gives as well, which would leave the launcher dumpable and its memory
 * open.  The kernel's own word is the owner procfs
 * shows for the process's memory file, read into a buffer poisoned as
 * "dumpable": its effective uid while dumpable, root of its namespace (or
 * of the initial one) once not.  A process of effective uid 0 needs no
 * such word: only root or a holder of CAP_SYS_PTRACE could write it.  The
 * two owners show alike only in a namespace that maps no uid 0, where root
 * shows as the overflow uid, and only for a process that shows as that uid
 * too ("unshare -U", mapped or not, by uid 65534).  A user's own namespace
 * is one, whose processes the user reaches whatever they are: there, and
 * only where uid 0 is not the initial root (userns.c), it is taken as
 * done.  Otherwise every enforced decision fails closed.
 * 1: protected, -1: not confirmed, 0: not asked yet.
 */
static atomic_int memory_state;

static int memory_closed(void)
{
	uid_t r = (uid_t)-1, e = (uid_t)-1, s = (uid_t)-1;
	char why[TRUSTED_FOR_MESSAGE_MAX];
	struct statx sx;

	if (getresuid(&r, &e, &s) < 0 || e == (uid_t)-1)
		return 0;
	if (e == 0)
		return 1;
	memset(&sx, 0, sizeof(sx));
	sx.stx_uid = e;
	if (syscall(SYS_statx, AT_FDCWD, "/proc/self/mem", 0, STATX_UID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_UID))
		return 0;
	return sx.stx_uid != e || tf_root_is_initial(why, sizeof(why)) == 0;
}

static void protect_memory(unsigned int enforce)
{
	if (!enforce || atomic_load(&memory_state))
		return;
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	atomic_store(&memory_state, memory_closed() ? 1 : -1);
}

__attribute__((constructor)) static void protect_from_start(void)
{
	int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	const char *env = getenv("TRUSTEDFOR_ENFORCE");
	unsigned int from_env = 0;

	/* As the configuration layer reads it: what does not parse enforces. */
	if (env && *env && tf_enforce_parse(env, &from_env) < 0)
		from_env = 1;
	protect_memory(from_env || (bits > 0 && (bits & (SECBIT_EXEC_RESTRICT_FILE |
							 SECBIT_EXEC_DENY_INTERACTIVE))));
}

/* What another process could rewrite is no answer: see protect_memory(). */
static void refuse_exposed(struct trusted_for_verdict *v, const char *name)
{
	char shown[256];

	v->trusted = false;
	v->reason = TRUSTED_FOR_ERROR;
	v->error = EACCES;
	snprintf(v->detail, sizeof(v->detail),
		 "its memory is not confirmed closed to its user's other processes "
		 "(PR_SET_DUMPABLE 0 did not show)");
	tf_printable(shown, sizeof(shown), name);
	snprintf(v->message, sizeof(v->message), "%.200s: not trusted for execution: %s",
		 shown, v->detail);
}

static int decide(struct trusted_for_verdict *v, const struct tf_config *p,
		  unsigned int bit, int fd, const char *kind, const char *name)
{
	v->enforce = p->enforce;
	if ((p->enforce & bit) && atomic_load(&memory_state) < 0)
		refuse_exposed(v, name);
	v->allowed = v->trusted || !(p->enforce & bit);
	if (!v->trusted && (!v->allowed || p->audit))
		log_verdict(v, fd, kind, name, enforced_by(p, bit));
	if (v->allowed)
		return 0;
	errno = EACCES;
	return -1;
}

static int allow_interactive(int fd, const char *name,
			     struct trusted_for_verdict *v);

/*
 * Code typed, piped or passed in, though named as a file: a pipe, a FIFO,
 * a socket or a terminal, or a file the kernel makes of the process itself
 * (procfs's cmdline and environ are argv and the environment).  The
 * buffers are poisoned with the answer that makes it interactive.
 */
static int typed_in(int fd)
{
	struct statfs sfs;
	struct stat st;

	memset(&st, 0, sizeof(st));
	memset(&sfs, 0, sizeof(sfs));
	sfs.f_type = PROC_SUPER_MAGIC;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 1;
	return fstatfs(fd, &sfs) < 0 || tf_kernel_internal_fs(sfs.f_type) != NULL;
}

static int allow_file(int fd, const char *name, struct trusted_for_verdict *v)
{
	struct tf_config p;

	tf_config_get(&p, NULL, 0);
	protect_memory(p.enforce);
	if (!name)
		name = "(descriptor)";
	tf_check(fd, p.check_policy, p.backend, name, v);
	if (decide(v, &p, TRUSTED_FOR_ENFORCE_FILE, fd, "file", name) < 0)
		return -1;
	/*
	 * A pipe, a FIFO, a socket or a terminal named as a file (lua
	 * /dev/stdin, sh <(...), python3 /dev/tty) is code typed or piped in:
	 * interactive code, which DENY_INTERACTIVE refuses even when files are
	 * not enforced; so is /proc/self/cmdline.  Such a file never passes the
	 * check but under policy 0, where everything does: there every file
	 * needs the look.
	 */
	if ((!v->trusted || p.check_policy == 0) && typed_in(fd))
		return allow_interactive(fd, name, v);
	return 0;
}

static int allow_interactive(int fd, const char *name,
			     struct trusted_for_verdict *v)
{
	struct tf_config p;
	int r;

	tf_config_get(&p, NULL, 0);
	protect_memory(p.enforce);
	if (!name)
		name = fd < 0 ? "(interactive)" : "(descriptor)";
	if (fd >= 0) {
		/* stdin that passes the check is code from a checked file. */
		tf_check_stream(fd, p.check_policy, p.backend, name, v);
	} else {
		memset(v, 0, sizeof(*v));
		v->check_policy = p.check_policy;
		v->backend = p.backend;
		v->reason = TRUSTED_FOR_INTERACTIVE;
		v->error = EACCES;
	}
	if (!v->trusted) {
		/* Zeroed: all of it is copied into the caller's verdict. */
		char why[sizeof(v->detail)] = { 0 };

		/* The check's reason, e.g. a pipe, goes into the detail. */
		snprintf(why, sizeof(why), "%.64s%s%.180s",
			 fd < 0 ? "" : trusted_for_reason_string(v->reason),
			 fd >= 0 && v->detail[0] ? ": " : "", v->detail);
		memcpy(v->detail, why, sizeof(v->detail));
		v->reason = TRUSTED_FOR_INTERACTIVE;
	}
	r = decide(v, &p, TRUSTED_FOR_ENFORCE_INTERACTIVE, fd, "interactive", name);
	if (!v->trusted) {
		char shown[256];

		tf_printable(shown, sizeof(shown), name);
		snprintf(v->message, sizeof(v->message), "%s: interactive code %s%s%.200s",
			 shown, v->allowed ? "allowed (not enforced)" : "refused",
			 v->detail[0] ? ": " : "", v->detail);
	}
	return r;
}

/*
 * The launcher's own finding against a code file (a shared object that is
 * not the file mapped, code compiled under a file's name that is not its
 * content) is a failed check like any other: the same message, the same
 * enforcement bit, the same log line.
 */
static int allow_failed_file(int fd, const char *name, const char *why,
			     struct trusted_for_verdict *v)
{
	struct tf_config p;
	char shown[256];

	tf_config_get(&p, NULL, 0);
	protect_memory(p.enforce);
	if (!name)
		name = "(descriptor)";
	memset(v, 0, sizeof(*v));
	v->check_policy = p.check_policy;
	v->backend = p.backend;
	v->reason = TRUSTED_FOR_ERROR;
	v->error = EACCES;
	tf_printable(v->detail, sizeof(v->detail), why ? why : "no reason given");
	tf_printable(shown, sizeof(shown), name);
	snprintf(v->message, sizeof(v->message),
		 "%.250s: not trusted for execution: %.220s", shown, v->detail);
	return decide(v, &p, TRUSTED_FOR_ENFORCE_FILE, fd, "file", name);
}

/*
 * The public faces: the caller's verdict gets what its size holds.  A
 * caller built with this header holds all of it: its verdict is filled
 * where it is, without a second one to copy (an interpreter decides for
 * every file it reads), unless the name lies inside it, which filling it
 * would wipe before it is read.  Every decision fills the whole verdict;
 * its size is the caller's again afterwards, as the copy leaves it.
 */
static int hand_over(int (*decide)(int, const char *, struct trusted_for_verdict *),
		     int fd, const char *name, struct trusted_for_verdict *v)
{
	struct trusted_for_verdict full;
	int r;

	if (tf_abi_accepts(v, TRUSTED_FOR_VERDICT_SIZE_1) < 0)
		return -1;
	if (v->size == sizeof(*v) &&
	    (uintptr_t)name - (uintptr_t)v >= sizeof(*v)) {
		r = decide(fd, name, v);
		v->size = sizeof(*v);
		return r;
	}
	return tf_verdict_out(v, &full, decide(fd, name, &full));
}

TF_EXPORT int trusted_for_allow_file(int fd, const char *name,
				     struct trusted_for_verdict *v)
{
	return hand_over(allow_file, fd, name, v);
}

TF_EXPORT int trusted_for_allow_interactive(int fd, const char *name,
					    struct trusted_for_verdict *v)
{
	return hand_over(allow_interactive, fd, name, v);
}

TF_EXPORT int trusted_for_allow_failed_file(int fd, const char *name,
					    const char *why,
					    struct trusted_for_verdict *v)
{
	struct trusted_for_verdict full;

	if (tf_abi_accepts(v, TRUSTED_FOR_VERDICT_SIZE_1) < 0)
		return -1;
	return tf_verdict_out(v, &full, allow_failed_file(fd, name, why, &full));
}
