/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel-probe FEATURE: tap_kernel_lacks() for the shell tests (lib.sh's
 * kernel_lacks).  Exit 0: the running kernel has FEATURE.  Exit 1: it does
 * not, and stdout says why.
 */
#include "tap.h"

int main(int argc, char **argv)
{
	const char *why;

	if (argc != 2) {
		fprintf(stderr, "usage: kernel-probe FEATURE\n");
		return 2;
	}
	why = tap_kernel_lacks(argv[1]);
	if (!why)
		return 0;
	puts(why);
	return 1;
}
