/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The public structs' growth rules (trusted_for(3), ABI STABILITY): each
 * begins with the size its caller was built with.  The library fills a
 * struct of its own size and hands over what both know: never a byte past
 * the caller's size, and nothing of a field the library does not know, which
 * the caller's initializer left 0 ("not known").
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

_Static_assert(sizeof(struct trusted_for_verdict) >= TRUSTED_FOR_VERDICT_SIZE_1 &&
		       offsetof(struct trusted_for_verdict, detail) + 256 ==
			       TRUSTED_FOR_VERDICT_SIZE_1,
	       "the first verdict layout never changes");
_Static_assert(sizeof(struct trusted_for_config) >= TRUSTED_FOR_CONFIG_SIZE_1 &&
		       offsetof(struct trusted_for_config, probe_error) + sizeof(int) ==
			       TRUSTED_FOR_CONFIG_SIZE_1,
	       "the first configuration layout never changes");

int tf_abi_accepts(const void *caller, unsigned int first_size)
{
	unsigned int size;

	if (!caller) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&size, caller, sizeof(size));
	if (size < first_size) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void tf_abi_copy(void *caller, const void *full, size_t full_size)
{
	unsigned int size;

	memcpy(&size, caller, sizeof(size));
	/* The caller's size stays as it was; what follows is ours. */
	memcpy((char *)caller + sizeof(size), (const char *)full + sizeof(size),
	       (size < full_size ? size : full_size) - sizeof(size));
}

int tf_verdict_out(struct trusted_for_verdict *v,
		   const struct trusted_for_verdict *full, int r)
{
	int error = errno;

	tf_abi_copy(v, full, sizeof(*full));
	errno = error;
	return r;
}
