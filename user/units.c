// SPDX-License-Identifier: GPL-2.0
/*
 * Number-with-unit parsing. Done by hand because it is a few lines and no
 * library on the target has it; the grammar is NUMBER[.FRACTION]UNIT.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tlob_abi.h"
#include "units.h"

struct unit {
	const char *name;
	uint64_t ns;
};

static const struct unit budget_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	{ NULL, 0 },
};

static const struct unit duration_units[] = {
	{ "ms", 1000000 }, { "s", 1000000000ULL }, { "m", 60000000000ULL },
	{ "h", 3600000000000ULL }, { "d", 86400000000000ULL }, { NULL, 0 },
};

/* Whole part, fraction digits and unit; exact or -EINVAL/-ERANGE. */
static int parse_scaled(const char *s, const struct unit *units,
			uint64_t bare_ns, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, frac_div = 1, mult = 0;
	const char *p = s;
	int digits = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++, digits++) {
			if (frac_div >= 1000000000000000000ULL)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_div *= 10;
		}
	}
	if (!digits)
		return -EINVAL;
	if (!*p) {
		mult = bare_ns;
	} else {
		for (const struct unit *u = units; u->name; u++)
			if (!strcmp(p, u->name))
				mult = u->ns;
	}
	if (!mult)
		return -EINVAL;
	if (whole > UINT64_MAX / mult)
		return -ERANGE;
	/* The fraction must name whole nanoseconds. */
	if ((frac * mult) % frac_div)
		return -EINVAL;
	*out = whole * mult + frac * mult / frac_div;
	return 0;
}

/* A duration in budget units within min..max, which range names in err. */
static int parse_ranged(const char *what, const char *s, uint64_t min, uint64_t max,
			const char *range, const char *example, uint64_t *ns,
			char *err, size_t len)
{
	uint64_t v;
	int ret;

	ret = parse_scaled(s, budget_units, 1, &v);
	if (ret == -EINVAL) {
		snprintf(err, len,
			 "invalid %s '%s' (a number with ns, us, ms or s, e.g. %s)",
			 what, s ? s : "", example);
		return ret;
	}
	if (ret || v < min || v > max) {
		snprintf(err, len, "%s '%s' is out of range (%s)", what, s, range);
		return -ERANGE;
	}
	*ns = v;
	return 0;
}

int tlob_parse_bound(const char *what, const char *s, uint64_t *ns, char *err, size_t len)
{
	return parse_ranged(what, s, TLOB_BUDGET_MIN_NS, TLOB_BUDGET_MAX_NS, "1us..1h",
			    "10ms", ns, err, len);
}

int tlob_parse_period(const char *s, uint64_t *ns, char *err, size_t len)
{
	return parse_ranged("period", s, TLOB_PERIOD_MIN_NS, TLOB_BUDGET_MAX_NS, "100us..1h",
			    "100ms", ns, err, len);
}

int tlob_parse_budget(const char *s, uint64_t *ns, char *err, size_t len)
{
	return tlob_parse_bound("budget", s, ns, err, len);
}

int tlob_parse_duration(const char *s, uint64_t *ns, char *err, size_t len)
{
	uint64_t v;
	int ret;

	ret = parse_scaled(s, duration_units, 1000000000ULL, &v);
	if (ret || !v) {
		snprintf(err, len,
			 "invalid duration '%s' (e.g. 500ms, 30s, 2m, 1h)", s ? s : "");
		return ret ? ret : -EINVAL;
	}
	*ns = v;
	return 0;
}

const char *tlob_budget_unit(uint64_t ns, uint64_t *count)
{
	const struct unit *u;
	const struct unit *best = &budget_units[0];

	for (u = budget_units; u->name; u++)
		if (ns && ns % u->ns == 0)
			best = u;
	*count = ns / best->ns;
	return best->name;
}

const char *tlob_fmt_budget(uint64_t ns, char *buf, size_t len)
{
	uint64_t n;
	const char *unit = tlob_budget_unit(ns, &n);

	snprintf(buf, len, "%" PRIu64 "%s", n, unit);
	return buf;
}
