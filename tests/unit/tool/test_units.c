// SPDX-License-Identifier: GPL-2.0
/* Budget and duration units, and the budget's printed form. */
#include <errno.h>

#include "tap.h"
#include "units.h"

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

int main(void)
{
	char buf[32], err[128];
	uint64_t ns;

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
	budget_bad("10m", -EINVAL, "invalid budget");

	duration_ok("30", 30000000000ULL);
	duration_ok("30s", 30000000000ULL);
	duration_ok("500ms", 500000000ULL);
	duration_ok("2m", 120000000000ULL);
	duration_ok("1h", 3600000000000ULL);
	duration_ok("1.5s", 1500000000ULL);
	tap_ok(tlob_parse_duration("0", &ns, err, sizeof(err)) == -EINVAL, "duration 0 rejected");
	tap_ok(tlob_parse_duration("5x", &ns, err, sizeof(err)) == -EINVAL, "duration 5x rejected");
	tap_like(err, "invalid duration '5x'", "duration message names the argument");

	tap_is_str(tlob_fmt_budget(10000000, buf, sizeof(buf)), "10ms", "10000000 prints as 10ms");
	tap_is_str(tlob_fmt_budget(1500000, buf, sizeof(buf)), "1500us", "1500000 prints as 1500us");
	tap_is_str(tlob_fmt_budget(2000000000, buf, sizeof(buf)), "2s", "2e9 prints as 2s");
	tap_is_str(tlob_fmt_budget(1001, buf, sizeof(buf)), "1001ns", "1001 prints as 1001ns");
	return tap_done();
}
