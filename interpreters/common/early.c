/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The earliest guards' own system calls and refusal (early.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "early.h"

extern ElfW(Dyn) _DYNAMIC[];

EARLY long early_syscall(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
#else
#error "initfirst_guard.c: no system call stub for this architecture"
#endif
}

EARLY static void say(const char *s, long n)
{
	early_syscall(SYS_write, 2, (long)s, n, 0);
}

/* The name as the loader has it, a byte it cannot show as '?'. */
EARLY static void say_printable(const char *s)
{
	while (*s) {
		long n = 0;

		while (s[n] >= 0x20 && s[n] < 0x7f)
			n++;
		if (n)
			say(s, n);
		s += n;
		if (*s) {
			say("?", 1);
			s++;
		}
	}
}

static char cmdline[256];

EARLY static const char *last_component(const char *path)
{
	const char *name = path;
	long i;

	for (i = 0; path[i]; i++)
		if (path[i] == '/' && path[i + 1])
			name = path + i + 1;
	return name;
}

/*
 * The last component of the command's first word: the launcher's argv[0],
 * or the loader's when it was run as a program (ld.so --preload X ...).
 */
EARLY static const char *program_name(void)
{
	const char *name = "trusted-launcher";
	long fd, n;

	fd = early_syscall(SYS_openat, AT_FDCWD, (long)"/proc/self/cmdline",
			   O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return name;
	n = early_syscall(SYS_read, fd, (long)cmdline, sizeof(cmdline) - 1, 0);
	early_syscall(SYS_close, fd, 0, 0, 0);
	if (n <= 0 || !cmdline[0])
		return name;
	cmdline[n] = '\0';
	return last_component(cmdline);
}

EARLY _Noreturn void early_refuse(const char *object, const char *why)
{
	say_printable(program_name());
	say(": ", 2);
	say_printable(object);
	say(": not trusted for execution: ", 29);
	say_printable(why);
	say("\n", 1);
	for (;;)
		early_syscall(SYS_exit_group, 126, 0, 0, 0);
}


EARLY int early_starts_with(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (*s != *prefix)
			return 0;
	return 1;
}

EARLY int early_has_slash(const char *s)
{
	for (; s && *s; s++)
		if (*s == '/')
			return 1;
	return 0;
}

EARLY int early_in_system_directory(const char *path)
{
	static const char *const dirs[] = { "/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/",
					    "/usr/local/" };
	size_t i;

	for (i = 0; path[i]; i++)
		if (path[i] == '/' && path[i + 1] == '.')
			return 0;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (early_starts_with(path, dirs[i]))
			return 1;
	return 0;
}

EARLY const struct link_map *early_objects(void)
{
	const struct r_debug *r = NULL;
	const ElfW(Dyn) *d;

	for (d = _DYNAMIC; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_DEBUG)
			r = (const struct r_debug *)d->d_un.d_ptr;
	return r ? r->r_map : NULL;
}

/* /proc/self/maps, whole. */
static char maps[65536];

EARLY static unsigned long hex(const char **p)
{
	unsigned long v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned long)(c - 'a' + 10);
		else
			return v;
	}
}

/* The range of "[vdso]" in /proc/self/maps: 0, or -1 when not known. */
EARLY static int vdso_range(unsigned long *start, unsigned long *end)
{
	long fd, n, len = 0;
	const char *line, *p;

	fd = early_syscall(SYS_openat, AT_FDCWD, (long)"/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	while (len < (long)sizeof(maps) - 1 &&
	       (n = early_syscall(SYS_read, fd, (long)(maps + len), (long)sizeof(maps) - 1 - len, 0)) > 0)
		len += n;
	early_syscall(SYS_close, fd, 0, 0, 0);
	if (len <= 0 || len >= (long)sizeof(maps) - 1)
		return -1;
	maps[len] = '\0';
	for (line = maps; *line; line = *p ? p + 1 : p) {
		for (p = line; *p && *p != '\n'; p++)
			;
		if (p - line > 7 && early_starts_with(p - 6, "[vdso]")) {
			const char *q = line;

			*start = hex(&q);
			if (*q++ != '-')
				return -1;
			*end = hex(&q);
			return 0;
		}
	}
	return -1;
}

EARLY int early_in_vdso(const char *name)
{
	/* The vDSO stays where the kernel mapped it: read once. */
	static int known;
	static unsigned long start, end;

	if (!known && vdso_range(&start, &end) == 0)
		known = 1;
	return name && known && (unsigned long)name >= start && (unsigned long)name < end;
}
