/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trusted-for check: would each file be allowed to run as code, and why. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "escapes.h"

/* Open as an interpreter would; a socket cannot be opened, only looked at. */
static int open_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0 && errno == ENXIO)
		fd = open(path, O_PATH | O_CLOEXEC);
	return fd;
}

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "explain", no_argument, NULL, 'e' },
		{ "policy", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;
	unsigned int policy = 0;
	int explain = 0, have_policy = 0, status = EXIT_TRUSTED, c;

	while ((c = getopt_long(argc, argv, "+ep:", opts, NULL)) != -1) {
		if (c == 'e')
			explain = 1;
		else if (c == 'p' && parse_policy(optarg, &policy) == 0)
			have_policy = 1;
		else if (c == 'p')
			return usage_error("check: bad policy '%s' (0..3)", optarg);
		else
			return usage_error("check: bad option '%s'", argv[optind - 1]);
	}
	if (optind == argc)
		return usage_error("check: no file given");
	for (int i = optind; i < argc; i++) {
		int fd = open_file(argv[i]);

		if (fd < 0) {
			cli_error("%s: cannot open: %s", argv[i], strerror(errno));
			status = EXIT_ERROR;
			continue;
		}
		if (have_policy)
			trusted_for_check(fd, policy, argv[i], &v);
		else
			trusted_for_explain(fd, argv[i], &v);
		close(fd);
		if (explain) {
			print_verdict(stdout, &v);
			printf(" (policy %u, %s)\n", v.check_policy,
			       trusted_for_backend_string(v.backend));
		} else if (!v.trusted) {
			fprintf(stderr, "%s: ", program);
			print_verdict(stderr, &v);
			fputc('\n', stderr);
		}
		if (!v.trusted && status == EXIT_TRUSTED)
			status = EXIT_UNTRUSTED;
	}
	/* A verdict that enforcement obeys is worth as much as its session. */
	if (explain) {
		struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;

		trusted_for_get_config(&p);
		if (p.enforce)
			print_escapes(stderr, "trusted-for: ", &p);
	}
	return status;
}

const struct command check_command = {
	"check", cmd_check, "[--explain] [--policy N] FILE...",
	"would each FILE be allowed to run as code, and why"
};
