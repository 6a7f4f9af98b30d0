/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the bench_* programs: the error exit, which names the
 * program (define BENCH_NAME before including this), the monotonic clock
 * in ns, and the median of a sample of timings.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef BENCH_NAME
#error "define BENCH_NAME (the program's name, for its messages) first"
#endif

/* "BENCH_NAME: WHAT: strerror(errno)" on stderr, exit status 1. */
static inline void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, BENCH_NAME ": %s: %s\n", what, strerror(errno));
	exit(1);
}

/* CLOCK_MONOTONIC, in ns. */
static inline double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @v[0..@n-1], @n > 0; sorts @v in place. */
static inline double median(double *v, long n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif /* BENCH_COMMON_H */
