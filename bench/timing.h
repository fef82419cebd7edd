/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the in-process benchmarks time with: a monotonic clock and medians. */
#ifndef TRUSTEDFOR_BENCH_TIMING_H
#define TRUSTEDFOR_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

static inline double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v. */
static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

#endif
