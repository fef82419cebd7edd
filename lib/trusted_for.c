/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The seed call and the public faces of the check. */
#define _GNU_SOURCE
#include <errno.h>

#include "internal.h"

TF_EXPORT int trusted_for(int fd, int usage, unsigned int flags)
{
	enum trusted_for_source source;
	enum trusted_for_backend backend;
	unsigned int policy;

	if (usage != TRUSTED_FOR_EXECUTION || flags != 0) {
		errno = EINVAL;
		return -1;
	}
	tf_effective_policy(&policy, &source, &backend);
	return tf_answer(fd, policy, backend);
}

TF_EXPORT int trusted_for_explain(int fd, const char *name,
				  struct trusted_for_verdict *v)
{
	enum trusted_for_source source;
	enum trusted_for_backend backend;
	unsigned int policy;

	tf_effective_policy(&policy, &source, &backend);
	/* Only to explain: the kernel's call applies the sysctl's value. */
	if (source == TRUSTED_FOR_SOURCE_KERNEL)
		tf_kernel_policy(&policy);
	return tf_check(fd, policy, backend, name, v);
}

TF_EXPORT int trusted_for_check(int fd, unsigned int policy, const char *name,
				struct trusted_for_verdict *v)
{
	struct tf_kernel k;

	tf_kernel_probe(&k);
	return tf_check(fd, policy,
			policy == TRUSTED_FOR_POLICY_ALL && k.execve_check ?
				TRUSTED_FOR_BACKEND_EXECVE_CHECK :
				TRUSTED_FOR_BACKEND_EMULATED,
			name, v);
}

TF_EXPORT const char *trusted_for_reason_string(enum trusted_for_reason reason)
{
	switch (reason) {
	case TRUSTED_FOR_TRUSTED: return "trusted";
	case TRUSTED_FOR_NOEXEC_MOUNT: return "noexec mount";
	case TRUSTED_FOR_NO_EXEC_PERMISSION: return "no execute permission";
	case TRUSTED_FOR_NOT_REGULAR: return "not a regular file";
	case TRUSTED_FOR_KERNEL_INTERNAL: return "kernel-internal file";
	case TRUSTED_FOR_WRITE_OPEN: return "open for writing";
	case TRUSTED_FOR_KERNEL_DENIED: return "refused by the kernel's exec check";
	case TRUSTED_FOR_BAD_DESCRIPTOR: return "bad file descriptor";
	case TRUSTED_FOR_INTERACTIVE: return "interactive code";
	case TRUSTED_FOR_ERROR: return "check failed";
	}
	return "unknown reason";
}

TF_EXPORT const char *trusted_for_backend_string(enum trusted_for_backend backend)
{
	switch (backend) {
	case TRUSTED_FOR_BACKEND_AUTO: return "auto";
	case TRUSTED_FOR_BACKEND_SYSCALL: return "trusted_for() system call";
	case TRUSTED_FOR_BACKEND_EXECVE_CHECK: return "execveat(AT_EXECVE_CHECK)";
	case TRUSTED_FOR_BACKEND_EMULATED: return "emulation";
	}
	return "unknown backend";
}
