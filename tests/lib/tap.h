/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP for the host tests written in C: ok() prints one test line and
 * counts it; the test prints its plan ("1..tests") and exits non-zero
 * when failed.
 */
#ifndef TLOB_TEST_TAP_H
#define TLOB_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tests, failed;

static int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	failed += !cond;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

#endif /* TLOB_TEST_TAP_H */
