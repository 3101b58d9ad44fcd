// SPDX-License-Identifier: GPL-2.0
/* Budget and duration units, and the budget's printed form. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "tap.h"

static void budget_ok(const char *s, uint64_t want)
{
	char err[128] = "", name[128];
	uint64_t ns = 0;
	int ret = tlob_parse_budget(s, &ns, err, sizeof(err));

	snprintf(name, sizeof(name), "budget '%s' = %" PRIu64 "ns", s, want);
	if (!tap_ok(ret == 0 && ns == want, name))
		printf("#   ret=%d ns=%" PRIu64 " err=%s\n", ret, ns, err);
}

static void budget_bad(const char *s, int want_ret, const char *want_msg)
{
	char err[128] = "", name[128];
	uint64_t ns = 0;
	int ret = tlob_parse_budget(s, &ns, err, sizeof(err));

	snprintf(name, sizeof(name), "budget '%s' rejected with %s", s,
		 want_ret == -ERANGE ? "ERANGE" : "EINVAL");
	tap_ok(ret == want_ret, name);
	snprintf(name, sizeof(name), "budget '%s' message", s);
	tap_like(err, want_msg, name);
}

static void duration_ok(const char *s, uint64_t want)
{
	char err[128] = "", name[128];
	uint64_t ns = 0;

	snprintf(name, sizeof(name), "duration '%s' = %" PRIu64 "ns", s, want);
	tap_ok(!tlob_parse_duration(s, &ns, err, sizeof(err)) && ns == want, name);
}

/* A count: the digits and nothing else, in its range. */
static void count_tests(void)
{
	static const struct tlob_num pid = {
		"pid", TLOB_NUM_COUNT, 1, INT32_MAX, "a process id, 1..2147483647"
	};
	static const char *const bad[] = {
		"", " 7", "+7", "-1", "7\n", "7 ", "0x10", "1e3", "7.0", "7ms", "\t7",
	};
	char err[128], name[128];
	uint64_t v = 0;

	tap_ok(!tlob_parse_num(&pid, "42", &v, err, sizeof(err)) && v == 42, "pid '42' = 42");
	tap_ok(!tlob_parse_num(&pid, "2147483647", &v, err, sizeof(err)) && v == 2147483647,
	       "pid at its maximum");
	tap_ok(!tlob_parse_num(&pid, "007", &v, err, sizeof(err)) && v == 7,
	       "leading zeros are decimal, not octal");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "pid '%s' rejected", bad[i]);
		tap_ok(tlob_parse_num(&pid, bad[i], &v, err, sizeof(err)) == -EINVAL, name);
	}
	tap_ok(!strncmp(err, "invalid pid '\\", 14) && !strchr(err, '\t') &&
	       strstr(err, "7' (a process id, 1..2147483647)"),
	       "... the message names the text (escaped) and the range");
	tap_ok(tlob_parse_num(&pid, "0", &v, err, sizeof(err)) == -ERANGE, "pid 0 out of range");
	tap_ok(tlob_parse_num(&pid, "2147483648", &v, err, sizeof(err)) == -ERANGE,
	       "pid above its maximum out of range");
	tap_ok(tlob_parse_u64("18446744073709551615", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX,
	       "u64: 2^64-1");
	tap_ok(tlob_parse_u64("18446744073709551616", 0, UINT64_MAX, &v) == -ERANGE,
	       "u64: 2^64 overflows");
	tap_ok(tlob_parse_u64("99999999999999999999999", 0, UINT64_MAX, &v) == -ERANGE,
	       "u64: far above 2^64");
	tap_ok(tlob_parse_u64("-1", 0, UINT64_MAX, &v) == -EINVAL, "u64: a sign is no digit");
}

/* Numbers from the environment: read as any other count, refused with the name. */
static void env_numbers(void)
{
	static const char *const bad[] = { " 5", "-1", "5s", "0x10", "18446744073709551616", "0", "3601" };
	uint64_t v = 42;
	char err[160];

	unsetenv("TLOB_TEST_NUM");
	tap_ok(tlob_env_u64("TLOB_TEST_NUM", 1, 3600, &v, err, sizeof(err)) == 1 && v == 42,
	       "env: unset leaves the default");
	setenv("TLOB_TEST_NUM", "", 1);
	tap_ok(tlob_env_u64("TLOB_TEST_NUM", 1, 3600, &v, err, sizeof(err)) == 1 && v == 42,
	       "env: empty leaves the default");
	setenv("TLOB_TEST_NUM", "30", 1);
	tap_ok(tlob_env_u64("TLOB_TEST_NUM", 1, 3600, &v, err, sizeof(err)) == 0 && v == 30,
	       "env: 30 is 30");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[64];

		v = 42;
		setenv("TLOB_TEST_NUM", bad[i], 1);
		snprintf(name, sizeof(name), "env: '%s' refused, default kept", bad[i]);
		tap_ok(tlob_env_u64("TLOB_TEST_NUM", 1, 3600, &v, err, sizeof(err)) < 0 && v == 42,
		       name);
	}
	tap_ok(strstr(err, "TLOB_TEST_NUM=3601: give 1..3600") != NULL,
	       "env: the message names the variable, its value and the range");
	unsetenv("TLOB_TEST_NUM");
}

int main(void)
{
	char buf[32], err[128];
	uint64_t ns;

	env_numbers();

	budget_ok("10ms", 10000000);
	budget_ok("5ms", 5000000);
	budget_ok("250us", 250000);
	budget_ok("1us", 1000);
	budget_ok("1000", 1000);
	budget_ok("1000ns", 1000);
	budget_ok("2s", 2000000000);
	budget_ok("1.5ms", 1500000);
	budget_ok("0.001s", 1000000);
	budget_ok("3600s", 3600000000000ULL);
	budget_ok("3600000000000", 3600000000000ULL);

	budget_bad("999ns", -ERANGE, "out of range (1us..1h)");
	budget_bad("999", -ERANGE, "out of range (1us..1h)");
	budget_bad("0", -ERANGE, "out of range");
	budget_bad("3601s", -ERANGE, "out of range");
	budget_bad("3600000000001", -ERANGE, "out of range");
	budget_bad("99999999999999999999999s", -ERANGE, "out of range");
	budget_bad("10", -ERANGE, "out of range");
	budget_bad("", -EINVAL, "invalid budget");
	budget_bad("ms", -EINVAL, "invalid budget");
	budget_bad("10 ms", -EINVAL, "invalid budget");
	budget_bad("10msec", -EINVAL, "invalid budget");
	budget_bad("-5ms", -EINVAL, "invalid budget");
	budget_bad("1.0000001us", -EINVAL, "invalid budget");
	/* every unit for every duration: the documented 1us..1h takes 1h */
	budget_ok("1h", 3600000000000ULL);
	budget_ok("60m", 3600000000000ULL);
	budget_ok("0.5h", 1800000000000ULL);
	budget_ok("1.5m", 90000000000ULL);
	budget_ok("10m", 600000000000ULL);
	budget_bad("1.0000001h", -ERANGE, "out of range (1us..1h)");
	/* 18446744073.9s is above 2^64 ns: refused, not wrapped to ~190ms */
	budget_bad("18446744073.9s", -ERANGE, "out of range");
	budget_bad("18446744073.709551616s", -ERANGE, "out of range");
	budget_bad("18446744074s", -ERANGE, "out of range");
	budget_bad("213503.99d", -ERANGE, "out of range");
	/* trailing zeros of any length are exact; a non-zero digit below a ns is not */
	budget_ok("0.100000000000000000s", 100000000);
	budget_ok("0.1000000000000000000000000000000000000000s", 100000000);
	budget_ok("1.000000001s", 1000000001);
	budget_bad("1.0000000001s", -EINVAL, "finer than a nanosecond");
	budget_bad("0.0000000000000000000000001s", -EINVAL, "finer than a nanosecond");
	budget_bad("1.5ns", -EINVAL, "finer than a nanosecond");
	budget_ok("0.00001d", 864000000);
	budget_ok("0.0000000000125d", 1080);
	budget_bad("0.0000000000000001d", -EINVAL, "finer than a nanosecond");
	/* nothing but the digits, a '.' between digits and the unit */
	budget_bad(" 10ms", -EINVAL, "invalid budget ' 10ms'");
	budget_bad("+10ms", -EINVAL, "invalid budget");
	budget_bad("10ms\n", -EINVAL, "invalid budget");
	budget_bad(".5ms", -EINVAL, "invalid budget");
	budget_bad("5.ms", -EINVAL, "invalid budget");
	budget_bad("1..5ms", -EINVAL, "invalid budget");
	budget_bad("0x10ms", -EINVAL, "invalid budget");
	budget_bad("99999999999999999999999xs", -EINVAL, "invalid budget");

	duration_ok("30", 30000000000ULL);
	duration_ok("30s", 30000000000ULL);
	duration_ok("500ms", 500000000ULL);
	duration_ok("2m", 120000000000ULL);
	duration_ok("1h", 3600000000000ULL);
	duration_ok("1.5s", 1500000000ULL);
	duration_ok("365d", 365 * 86400000000000ULL);
	duration_ok("0.5d", 43200000000000ULL);
	duration_ok("1.000000000000000000000s", 1000000000ULL);
	tap_ok(tlob_parse_duration("0", &ns, err, sizeof(err)) == -ERANGE, "duration 0 rejected");
	/* -d 213503.99d is above 2^64 ns: refused, not wrapped to 662s */
	tap_ok(tlob_parse_duration("213503.99d", &ns, err, sizeof(err)) == -ERANGE,
	       "duration 213503.99d rejected");
	tap_like(err, "duration '213503.99d' is out of range (1ns..365d)",
		 "... the message names the text and the range");
	tap_ok(tlob_parse_duration("366d", &ns, err, sizeof(err)) == -ERANGE,
	       "duration above 365d rejected");
	tap_ok(tlob_parse_duration("18446744074", &ns, err, sizeof(err)) == -ERANGE,
	       "a bare duration above 2^64 ns rejected");
	tap_ok(tlob_parse_duration("5x", &ns, err, sizeof(err)) == -EINVAL, "duration 5x rejected");
	tap_like(err, "invalid duration '5x'", "duration message names the argument");

	count_tests();

	tap_is_str(tlob_fmt_budget(10000000, buf, sizeof(buf)), "10ms", "10000000 prints as 10ms");
	tap_is_str(tlob_fmt_budget(3600000000000ULL, buf, sizeof(buf)), "3600s",
		   "a budget prints in ns, us, ms or s (1h as 3600s)");
	tap_is_str(tlob_fmt_budget(1500000, buf, sizeof(buf)), "1500us", "1500000 prints as 1500us");
	tap_is_str(tlob_fmt_budget(2000000000, buf, sizeof(buf)), "2s", "2e9 prints as 2s");
	tap_is_str(tlob_fmt_budget(1001, buf, sizeof(buf)), "1001ns", "1001 prints as 1001ns");
	return tap_done();
}
