/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cost of one option for the loader's variables, measured by
 * bench/loaders/startup.sh: a static entry stub (no dynamic loader runs for
 * it, so LD_* cannot act on it) that would judge the environment and then
 * execute the real, dynamically linked launcher.  This stub only removes
 * the loader's variables and executes argv[1]: the decision itself costs
 * next to nothing beside the second execve().  Never installed.
 */
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char **in, **out;

	if (argc < 2)
		return 2;
	for (in = out = environ; *in; in++)
		if (strncmp(*in, "LD_", 3) && strncmp(*in, "GCONV_PATH=", 11))
			*out++ = *in;
	*out = NULL;
	execv(argv[1], argv + 1);
	return 127;
}
