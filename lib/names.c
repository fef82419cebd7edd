/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Short English names of the public enumerations, for messages and tools. */
#include "internal.h"

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
	case TRUSTED_FOR_FOREIGN_MOUNT: return "mount of another mount namespace";
	}
	return "unknown reason";
}

TF_EXPORT const char *trusted_for_backend_string(enum trusted_for_backend backend)
{
	switch (backend) {
	case TRUSTED_FOR_BACKEND_SYSCALL: return "trusted_for() system call";
	case TRUSTED_FOR_BACKEND_EXECVE_CHECK: return "execveat(AT_EXECVE_CHECK)";
	case TRUSTED_FOR_BACKEND_EMULATED: return "emulation";
	}
	return "unknown backend";
}
