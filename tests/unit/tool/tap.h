/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP for the tool's C unit tests: ok(), is_str(), is_u64(), done(). */
#ifndef TLOB_TEST_TAP_H
#define TLOB_TEST_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *name)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
	if (!cond)
		tap_failed++;
	return cond;
}

static inline int tap_is_str(const char *got, const char *want, const char *name)
{
	int ok = tap_ok(got && want && !strcmp(got, want), name);

	if (!ok)
		printf("#   got:      '%s'\n#   expected: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return ok;
}

static inline int tap_is_u64(uint64_t got, uint64_t want, const char *name)
{
	int ok = tap_ok(got == want, name);

	if (!ok)
		printf("#   got:      %" PRIu64 "\n#   expected: %" PRIu64 "\n", got, want);
	return ok;
}

static inline int tap_like(const char *got, const char *needle, const char *name)
{
	int ok = tap_ok(got && strstr(got, needle), name);

	if (!ok)
		printf("#   '%s'\n#   does not contain '%s'\n", got ? got : "(null)", needle);
	return ok;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
