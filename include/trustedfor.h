/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtrustedfor: is the content of a file descriptor trusted for execution,
 * and should an interpreter run it?
 *
 * Conventions: every function that returns int returns 0 on success and -1
 * with errno set on failure or denial.  Any -1 from a check means "not
 * trusted".
 *
 * Words: the "check policy" (0..3) says which checks a descriptor must pass;
 * "enforcement" says whether a failed check blocks; the "policy file"
 * (trustedfor.conf(5)) sets both; the "configuration" is everything in force.
 *
 * ABI: the two structs a caller allocates begin with their size, which the
 * caller sets (TRUSTED_FOR_VERDICT_INIT, TRUSTED_FOR_CONFIG_INIT); fields are
 * only ever appended.  trusted_for(3), ABI STABILITY, gives the rules.
 */
#ifndef TRUSTEDFOR_H
#define TRUSTEDFOR_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRUSTED_FOR_EXECUTION 1

/* The check policy: which checks a descriptor must pass. */
#define TRUSTED_FOR_POLICY_MOUNT 1 /* the mount is not noexec */
#define TRUSTED_FOR_POLICY_FILE 2  /* execute permission for the caller */
#define TRUSTED_FOR_POLICY_ALL 3

/* Enforcement: whether a failed check blocks. */
#define TRUSTED_FOR_ENFORCE_FILE 1	  /* refuse code files that fail */
#define TRUSTED_FOR_ENFORCE_INTERACTIVE 2 /* refuse code not from a checked file */

/*
 * The seed call.  0 when the file behind fd is trusted for usage under the
 * effective check policy, else -1 with errno: EACCES (not trusted), EINVAL
 * (bad usage or flags), EBADF (not an open descriptor), ETXTBSY (open for
 * writing) or any other error, which is a denial too.
 */
int trusted_for(int fd, int usage, unsigned int flags);

/* Why a descriptor is or is not trusted. */
enum trusted_for_reason {
	TRUSTED_FOR_TRUSTED = 0,
	TRUSTED_FOR_NOEXEC_MOUNT,	/* the mount is noexec */
	TRUSTED_FOR_NO_EXEC_PERMISSION, /* no execute permission */
	TRUSTED_FOR_NOT_REGULAR,	/* directory, FIFO, socket, device */
	TRUSTED_FOR_KERNEL_INTERNAL,	/* procfs, sysfs and other kernel files */
	TRUSTED_FOR_WRITE_OPEN,		/* open for writing (ETXTBSY) */
	TRUSTED_FOR_KERNEL_DENIED,	/* the kernel's exec check (an LSM) */
	TRUSTED_FOR_BAD_DESCRIPTOR,	/* EBADF */
	TRUSTED_FOR_INTERACTIVE,	/* code that is not a checked file */
	TRUSTED_FOR_ERROR,		/* the check itself failed: a denial */
	TRUSTED_FOR_FOREIGN_MOUNT,	/* a mount of another mount namespace */
};
/*
 * The highest value this header knows.  Enumerations grow at the end: a
 * newer library may answer a value above it, which is a reason for "not
 * trusted" all the same (trusted_for_reason_string() names it).
 */
#define TRUSTED_FOR_REASON_MAX TRUSTED_FOR_FOREIGN_MOUNT

/* Which mechanism answered a check (0 is none). */
enum trusted_for_backend {
	TRUSTED_FOR_BACKEND_SYSCALL = 1,  /* the patched kernel's trusted_for() */
	TRUSTED_FOR_BACKEND_EXECVE_CHECK, /* execveat(AT_EXECVE_CHECK) */
	TRUSTED_FOR_BACKEND_EMULATED,	  /* fstatfs, fstat, faccessat */
};
#define TRUSTED_FOR_BACKEND_MAX TRUSTED_FOR_BACKEND_EMULATED

#define TRUSTED_FOR_MESSAGE_MAX 512

struct trusted_for_verdict {
	/* The caller's sizeof(struct trusted_for_verdict); the library never
	 * writes past it, nor changes it. */
	unsigned int size;
	bool trusted; /* the check passed */
	bool allowed; /* enforcement lets the code run */
	int error;    /* 0, or the errno the check failed with */
	enum trusted_for_reason reason;
	enum trusted_for_backend backend;
	unsigned int check_policy; /* the check policy that was applied */
	unsigned int enforce;	   /* the enforcement that was in force */
	/* "NAME: not trusted for execution: noexec mount" */
	char message[TRUSTED_FOR_MESSAGE_MAX];
	/* the concrete cause: "/mnt/x" (mount point), "uid 1000", "FIFO" */
	char detail[256];
	/* Fields added later go here; 0 must mean "not known" in each. */
};
/* The size of the first layout, the smallest the library accepts. */
#define TRUSTED_FOR_VERDICT_SIZE_1 796
#define TRUSTED_FOR_VERDICT_INIT                           \
	{                                                  \
		.size = sizeof(struct trusted_for_verdict) \
	}

/*
 * Check fd against an explicit check policy (0..3) and explain the answer.
 * name is used in the message only.  Returns 0 when trusted, else -1 with
 * errno as trusted_for() would set it; v is filled either way.  Every call
 * that takes a verdict fails with EINVAL, and writes nothing, when v is NULL
 * or v->size is below TRUSTED_FOR_VERDICT_SIZE_1: a refusal.
 */
int trusted_for_check(int fd, unsigned int policy, const char *name,
		      struct trusted_for_verdict *v);

/* Like trusted_for_check(), with the effective policy and backend. */
int trusted_for_explain(int fd, const char *name, struct trusted_for_verdict *v);

/*
 * Enforcement for interpreters.  Both return 0 when the code may run and
 * -1 with errno EACCES when it must be refused; v holds the reason and a
 * one-line message.  Every failed check is logged when it is refused or
 * when auditing is on.
 *
 * trusted_for_allow_file(): code read from fd (a script, a module).
 * trusted_for_allow_interactive(): code that is not a checked file: a -c
 * string, a REPL, stdin.  fd is the descriptor the code comes from (stdin),
 * which is allowed if it is a regular file that passes the check (even
 * under policy 0, a pipe or a terminal never is), or -1 when there is none.
 */
int trusted_for_allow_file(int fd, const char *name,
			   struct trusted_for_verdict *v);
int trusted_for_allow_interactive(int fd, const char *name,
				  struct trusted_for_verdict *v);

/*
 * A code file that failed a check of the launcher's own, for the reason
 * why (the shared object mapped is not the file opened; code compiled
 * under a file's name is not that file's content): decided and logged as
 * a file that failed trusted_for_allow_file()'s check.  fd is the file's
 * descriptor, or -1.  Returns 0 when files are not enforced, else -1 with
 * errno EACCES; v's message is "NAME: not trusted for execution: WHY".
 */
int trusted_for_allow_failed_file(int fd, const char *name, const char *why,
				  struct trusted_for_verdict *v);

/* Raise this process's enforcement (TRUSTED_FOR_ENFORCE_*); never lowers. */
int trusted_for_strengthen(unsigned int enforce);

/* The configuration in force, and where each part came from. */
/* of the check policy */
enum trusted_for_source {
	TRUSTED_FOR_SOURCE_DEFAULT = 0, /* no policy file */
	TRUSTED_FOR_SOURCE_FILE,	/* the policy file */
	TRUSTED_FOR_SOURCE_FAIL_CLOSED, /* the policy file is bad: enforce all */
	TRUSTED_FOR_SOURCE_KERNEL,	/* /proc/sys/fs/trusted_for_policy */
};
#define TRUSTED_FOR_SOURCE_MAX TRUSTED_FOR_SOURCE_KERNEL

/* of the policy file */
enum trusted_for_file_state {
	TRUSTED_FOR_FILE_ABSENT = 0,  /* none: the defaults apply */
	TRUSTED_FOR_FILE_READ,	      /* read and honoured */
	TRUSTED_FOR_FILE_FAIL_CLOSED, /* bad: every check, all enforcement, but
				       not for root (trustedfor.conf(5)) */
};
#define TRUSTED_FOR_FILE_STATE_MAX TRUSTED_FOR_FILE_FAIL_CLOSED

enum trusted_for_log_target {
	TRUSTED_FOR_LOG_SYSLOG = 0,
	TRUSTED_FOR_LOG_STDERR,
	TRUSTED_FOR_LOG_NONE,
};
#define TRUSTED_FOR_LOG_MAX TRUSTED_FOR_LOG_NONE

struct trusted_for_config {
	/* The caller's sizeof(struct trusted_for_config), as in a verdict. */
	unsigned int size;
	unsigned int check_policy; /* effective check policy, 0..3 */
	enum trusted_for_source check_policy_source;
	enum trusted_for_backend backend; /* what trusted_for() uses */
	bool execve_check;		  /* the kernel has AT_EXECVE_CHECK */
	bool patched_kernel;		  /* the kernel has trusted_for() */
	unsigned int file_enforce;	  /* enforcement from the policy file */
	unsigned int env_enforce;	  /* from TRUSTEDFOR_ENFORCE */
	unsigned int process_enforce;	  /* from trusted_for_strengthen() */
	bool securebits_known;		  /* the kernel has the exec securebits */
	unsigned int securebits;	  /* prctl(PR_GET_SECUREBITS) */
	unsigned int enforce;		  /* all of the above, combined */
	bool audit;
	enum trusted_for_log_target log_target;
	enum trusted_for_file_state file_state;
	char file_path[256];
	char file_problem[TRUSTED_FOR_MESSAGE_MAX]; /* why it failed closed */
	int probe_error;			    /* AT_EXECVE_CHECK's probe could not tell: errno */

	/* Fields added later go here; 0 must mean "not known" in each. */
};
#define TRUSTED_FOR_CONFIG_SIZE_1 828
#define TRUSTED_FOR_CONFIG_INIT                           \
	{                                                 \
		.size = sizeof(struct trusted_for_config) \
	}

/*
 * Fill c with the configuration as the next decision would see it.  0, or
 * -1 with EINVAL (nothing written) when c is NULL or c->size is below
 * TRUSTED_FOR_CONFIG_SIZE_1.
 */
int trusted_for_get_config(struct trusted_for_config *c);

/*
 * What the next decision would enforce (trusted_for_config's enforce) and
 * whether it would log a failed check (its audit): the question of an
 * interpreter that does nothing else when the answers are 0 and false.
 * Unlike trusted_for_get_config(), it leaves the kernel unprobed.  0, or
 * -1 with EINVAL (nothing written) when either pointer is NULL.
 */
int trusted_for_get_enforcement(unsigned int *enforce, bool *audit);

/* Read the policy file again (it is read once per process otherwise). */
int trusted_for_reload_policy_file(void);

/*
 * Judge a policy file by the library's own rules without putting it in
 * force.  fd -1: the system's file, opened as every process opens it (its
 * absence, owner and mode count; file_path names it, and so does a
 * problem).  fd >= 0: the file open there, read from its current offset,
 * owner and mode included unless flags holds TRUSTED_FOR_POLICY_CONTENT
 * (a file not in place yet).  Fills the file's fields of c: check_policy
 * and its source, file_enforce (and enforce, the same), audit, log_target,
 * file_state and file_problem; the others are 0.  0, or -1 with EINVAL
 * (nothing written) for a bad c, fd or flags.  A bad file is 0 with
 * file_state TRUSTED_FOR_FILE_FAIL_CLOSED.
 */
#define TRUSTED_FOR_POLICY_CONTENT 1U
int trusted_for_read_policy_file(int fd, unsigned int flags,
				 struct trusted_for_config *c);

/* Short English names, for messages and tools. */
const char *trusted_for_reason_string(enum trusted_for_reason reason);
const char *trusted_for_backend_string(enum trusted_for_backend backend);

/*
 * Where log lines go.  The default follows the policy file's log target
 * (syslog unless it says otherwise).  fn == NULL restores the default.
 * priority is a syslog priority (LOG_WARNING for a refusal, LOG_NOTICE for
 * an audited failure, LOG_ERR for a bad policy file).
 */
typedef void (*trusted_for_log_fn)(int priority, const char *line, void *data);
int trusted_for_set_log_fn(trusted_for_log_fn fn, void *data);

#ifdef __cplusplus
}
#endif

#endif
