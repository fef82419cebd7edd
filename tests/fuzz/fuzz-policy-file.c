/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the policy-file parser.  Beyond not crashing, every
 * input must either parse to values in range or fail closed completely.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define ALL (TRUSTED_FOR_ENFORCE_FILE | TRUSTED_FOR_ENFORCE_INTERACTIVE)
#define H "trustedfor-policy 1\n"
#define E "end\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_policy_file c;
	int r = tf_policy_parse((const char *)data, size, &c);

	if (r == 0 && (c.state != TRUSTED_FOR_FILE_READ || c.check_policy > 3 ||
		       c.enforce > ALL || c.problem[0]))
		abort();
	if (r < 0 && (c.state != TRUSTED_FOR_FILE_FAIL_CLOSED || c.check_policy != 3 ||
		      c.enforce != ALL || !c.audit || !c.problem[0] ||
		      c.log_target == TRUSTED_FOR_LOG_NONE))
		abort();
	if (r != 0 && r != -1)
		abort();
	/* Only a complete file parses, and cutting one byte makes it incomplete. */
	if (r == 0 && (size < sizeof(H E) - 1 || memcmp(data, H, sizeof(H) - 1) ||
		       memcmp(data + size - sizeof(E) + 1, E, sizeof(E) - 1) ||
		       tf_policy_parse((const char *)data, size - 1, &c) == 0))
		abort();
	/* A NUL, CR or control byte anywhere must be refused. */
	for (size_t i = 0; i < size; i++)
		if ((data[i] < ' ' && data[i] != '\t' && data[i] != '\n') ||
		    data[i] == 0x7f)
			if (r == 0)
				abort();
	return 0;
}
