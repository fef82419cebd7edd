/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The seed call and the public faces of the check. */
#define _GNU_SOURCE
#include <errno.h>

#include "internal.h"

TF_EXPORT int trusted_for(int fd, int usage, unsigned int flags)
{
	enum trusted_for_backend backend;
	unsigned int policy;

	if (usage != TRUSTED_FOR_EXECUTION || flags != 0) {
		errno = EINVAL;
		return -1;
	}
	tf_config_check(&policy, &backend);
	return tf_answer(fd, policy, backend);
}

TF_EXPORT int trusted_for_explain(int fd, const char *name,
				  struct trusted_for_verdict *v)
{
	struct trusted_for_verdict full;
	struct tf_config p;

	if (tf_abi_accepts(v, TRUSTED_FOR_VERDICT_SIZE_1) < 0)
		return -1;
	tf_config_get(&p, NULL, 0);
	return tf_verdict_out(v, &full, tf_check(fd, p.check_policy, p.backend, name, &full));
}

TF_EXPORT int trusted_for_check(int fd, unsigned int policy, const char *name,
				struct trusted_for_verdict *v)
{
	struct trusted_for_verdict full;

	if (tf_abi_accepts(v, TRUSTED_FOR_VERDICT_SIZE_1) < 0)
		return -1;
	return tf_verdict_out(v, &full, tf_check(fd, policy, tf_backend_for(policy, 0), name, &full));
}
