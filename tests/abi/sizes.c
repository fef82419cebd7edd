/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The size rules of trusted_for(3), ABI STABILITY, from today's header: a
 * struct too small (or no size set) is refused and left alone; a struct
 * larger than the library's (a program built against a newer header) gets
 * the fields the library knows, exactly as a struct of its own size would,
 * and the rest stays as the caller left it; the enumerations' names.
 */
#include "../tap.h"

#include "trustedfor.h"

#define POISON 0x5a
#define CANARY 0xa5

static struct trusted_for_verdict poisoned_verdict(unsigned int size)
{
	struct trusted_for_verdict v;

	memset(&v, POISON, sizeof(v));
	v.size = size;
	return v;
}

static int untouched(const void *s, size_t n)
{
	const unsigned char *b = s;

	/* Everything after the size field. */
	for (size_t i = sizeof(unsigned int); i < n; i++)
		if (b[i] != POISON)
			return 0;
	return 1;
}

typedef int (*verdict_fn)(int fd, struct trusted_for_verdict *v);

static int do_check(int fd, struct trusted_for_verdict *v)
{
	return trusted_for_check(fd, 3, "x", v);
}

static int do_explain(int fd, struct trusted_for_verdict *v)
{
	return trusted_for_explain(fd, "x", v);
}

static int do_allow_file(int fd, struct trusted_for_verdict *v)
{
	return trusted_for_allow_file(fd, "x", v);
}

static int do_allow_interactive(int fd, struct trusted_for_verdict *v)
{
	return trusted_for_allow_interactive(fd, "x", v);
}

static const struct {
	const char *name;
	verdict_fn fn;
} calls[] = {
	{ "trusted_for_check", do_check },
	{ "trusted_for_explain", do_explain },
	{ "trusted_for_allow_file", do_allow_file },
	{ "trusted_for_allow_interactive", do_allow_interactive },
};

static void too_small(int fd)
{
	static const unsigned int sizes[] = { 0, sizeof(unsigned int),
					      TRUSTED_FOR_VERDICT_SIZE_1 - 1 };

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			struct trusted_for_verdict v = poisoned_verdict(sizes[j]);
			int r;

			errno = 0;
			r = calls[i].fn(fd, &v);
			tap_ok(r == -1 && errno == EINVAL && untouched(&v, sizeof(v)) &&
				       v.size == sizes[j],
			       "%s, size %u: -1 EINVAL, nothing written", calls[i].name,
			       sizes[j]);
		}
		errno = 0;
		tap_ok(calls[i].fn(fd, NULL) == -1 && errno == EINVAL,
		       "%s, no verdict: -1 EINVAL", calls[i].name);
	}
}

/* A newer header's verdict: today's fields, then ones the library lacks. */
struct grown_verdict {
	struct trusted_for_verdict v;
	unsigned char future[64];
};

static void grown(int fd)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct trusted_for_verdict ours = TRUSTED_FOR_VERDICT_INIT;
		struct grown_verdict g;
		int r_ours, r_grown, e_ours, e_grown;

		memset(&g, 0, sizeof(g));
		memset(g.future, CANARY, sizeof(g.future));
		g.v.size = sizeof(g);
		errno = 0;
		r_ours = calls[i].fn(fd, &ours);
		e_ours = errno;
		errno = 0;
		r_grown = calls[i].fn(fd, &g.v);
		e_grown = errno;
		tap_ok(r_ours == r_grown && e_ours == e_grown,
		       "%s, a larger struct: the same answer (%d, errno %d)",
		       calls[i].name, r_grown, e_grown);
		tap_ok(!memcmp((char *)&ours + sizeof(ours.size),
			       (char *)&g.v + sizeof(g.v.size),
			       sizeof(ours) - sizeof(ours.size)),
		       "%s, a larger struct: the same fields", calls[i].name);
		tap_ok(g.v.size == sizeof(g), "%s, a larger struct: its size left as it was",
		       calls[i].name);
		tap_ok(g.future[0] == CANARY && !memcmp(g.future, g.future + 1,
							sizeof(g.future) - 1),
		       "%s, a larger struct: the fields the library lacks untouched",
		       calls[i].name);
	}
}

static void config_sizes(void)
{
	struct trusted_for_config ours = TRUSTED_FOR_CONFIG_INIT, small;
	struct {
		struct trusted_for_config c;
		unsigned char future[64];
	} g;

	memset(&small, POISON, sizeof(small));
	small.size = TRUSTED_FOR_CONFIG_SIZE_1 - 1;
	errno = 0;
	tap_ok(trusted_for_get_config(&small) == -1 && errno == EINVAL &&
		       untouched(&small, sizeof(small)),
	       "trusted_for_get_config, size %u: -1 EINVAL, nothing written",
	       TRUSTED_FOR_CONFIG_SIZE_1 - 1);
	errno = 0;
	tap_ok(trusted_for_get_config(NULL) == -1 && errno == EINVAL,
	       "trusted_for_get_config, no struct: -1 EINVAL");
	memset(&g, 0, sizeof(g));
	memset(g.future, CANARY, sizeof(g.future));
	g.c.size = sizeof(g);
	tap_ok(trusted_for_get_config(&ours) == 0 && trusted_for_get_config(&g.c) == 0,
	       "trusted_for_get_config, its own size and a larger one: 0");
	tap_ok(!memcmp((char *)&ours + sizeof(ours.size), (char *)&g.c + sizeof(g.c.size),
		       sizeof(ours) - sizeof(ours.size)) &&
		       g.c.size == sizeof(g),
	       "trusted_for_get_config, a larger struct: the same fields, its size kept");
	tap_ok(g.future[0] == CANARY && !memcmp(g.future, g.future + 1, sizeof(g.future) - 1),
	       "trusted_for_get_config, a larger struct: the fields the library lacks untouched");
}

static void names(void)
{
	for (int r = 0; r <= TRUSTED_FOR_REASON_MAX; r++)
		tap_ok(strcmp(trusted_for_reason_string((enum trusted_for_reason)r),
			      "unknown reason") != 0,
		       "reason %d has a name: %s", r,
		       trusted_for_reason_string((enum trusted_for_reason)r));
	tap_is_str(trusted_for_reason_string((enum trusted_for_reason)(TRUSTED_FOR_REASON_MAX + 1)),
		   "unknown reason", "a reason above TRUSTED_FOR_REASON_MAX is named as unknown");
	for (int b = 1; b <= TRUSTED_FOR_BACKEND_MAX; b++)
		tap_ok(strcmp(trusted_for_backend_string((enum trusted_for_backend)b),
			      "unknown backend") != 0,
		       "backend %d has a name: %s", b,
		       trusted_for_backend_string((enum trusted_for_backend)b));
	tap_is_str(trusted_for_backend_string((enum trusted_for_backend)0),
		   "unknown backend", "backend 0 is none");
	tap_is_str(trusted_for_backend_string((enum trusted_for_backend)(TRUSTED_FOR_BACKEND_MAX + 1)),
		   "unknown backend", "a backend above TRUSTED_FOR_BACKEND_MAX is named as unknown");
}

static void quiet(int priority, const char *line, void *data)
{
	(void)priority;
	(void)line;
	(void)data;
}

int main(void)
{
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fd < 0)
		tap_bail("/proc/self/status");
	trusted_for_set_log_fn(quiet, NULL);
	too_small(fd);
	grown(fd);
	config_sizes();
	names();
	return tap_done();
}
