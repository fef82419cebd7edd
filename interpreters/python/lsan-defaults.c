/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sanitizer builds only.  CPython keeps allocations until the process
 * ends, so every test of trusted-python turns leak detection off with
 * ASAN_OPTIONS; but a launcher installed mode 0711 is non-dumpable from
 * execve(), its /proc/self/environ is root's, and the sanitizer's runtime,
 * which reads its options there before the C library is up, never sees
 * them.  Off by default here, as the tests would set it.
 */
const char *__lsan_default_options(void);

const char *__lsan_default_options(void)
{
	return "detect_leaks=0";
}
