// SPDX-License-Identifier: GPL-2.0
/*
 * Number-with-unit parsing. Done by hand because no library on the target
 * reads these units (strtoull() takes blanks, signs and wraps); the
 * grammar is DIGITS[.DIGITS][UNIT] for a duration and DIGITS for a count,
 * read in one pass with every multiplication checked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/utils.h"
#include "tlob_abi.h"

struct unit {
	const char *name;
	uint64_t ns;
};

/* A budget prints with the first NR_FMT_UNITS (tlob_fmt_budget()). */
static const struct unit units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000ULL },
	{ "m", 60000000000ULL }, { "h", 3600000000000ULL }, { "d", 86400000000000ULL },
	{ NULL, 0 },
};
#define NR_FMT_UNITS	4

/*
 * A fraction's significant digits beyond which no unit above leaves whole
 * nanoseconds (a day is 2^16 * 3^3 * 5^11 ns, so at most 16 are ever
 * whole); 10^19 still fits in 64 bits.
 */
#define FRAC_DIGITS_MAX	19

/* Internal verdict: a fraction finer than a nanosecond (an -EINVAL outside). */
#define FINER_THAN_NS	(-EDOM)

/* DIGITS[.DIGITS] as read, before the unit scales it. */
struct decimal {
	uint64_t whole;
	uint64_t frac;			/* the fraction's digits up to its last non-zero one */
	unsigned int frac_digits;	/* how many those are */
	bool overflow;			/* whole does not fit in 64 bits */
	bool finer;			/* a non-zero digit past FRAC_DIGITS_MAX */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The whole part at *p, moved past it; false when there is no digit. */
static bool read_whole(const char **p, struct decimal *d)
{
	const char *s = *p;

	if (!is_digit(*s))
		return false;
	for (; is_digit(*s); s++)
		if (__builtin_mul_overflow(d->whole, 10, &d->whole) ||
		    __builtin_add_overflow(d->whole, (uint64_t)(*s - '0'), &d->whole))
			d->overflow = true;
	*p = s;
	return true;
}

/*
 * The fraction's digits after the '.' at *p, moved past them; false when
 * there is none. Trailing zeros are not kept, so any number of them reads
 * as the same value.
 */
static bool read_fraction(const char **p, struct decimal *d)
{
	const char *s = *p;
	unsigned int pos = 0;

	if (!is_digit(*s))
		return false;
	for (; is_digit(*s); s++) {
		pos++;
		if (*s == '0')
			continue;
		if (pos > FRAC_DIGITS_MAX) {
			d->finer = true;
			continue;
		}
		for (; d->frac_digits < pos; d->frac_digits++)
			d->frac *= 10;
		d->frac += (uint64_t)(*s - '0');
	}
	*p = s;
	return true;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * d * mult exactly: -ERANGE when it does not fit, FINER_THAN_NS when it is
 * not a whole number. With p = 10^frac_digits and g = gcd(mult, p), the
 * fraction's share frac * mult / p is whole iff (p / g) divides frac, and
 * below mult, so no step overflows.
 */
static int scale(const struct decimal *d, uint64_t mult, uint64_t *out)
{
	uint64_t p = 1, g, whole, part;

	for (unsigned int i = 0; i < d->frac_digits; i++)
		p *= 10;
	g = gcd(mult, p);
	if (d->frac % (p / g))
		return FINER_THAN_NS;
	part = d->frac / (p / g) * (mult / g);
	if (d->overflow || __builtin_mul_overflow(d->whole, mult, &whole) ||
	    __builtin_add_overflow(whole, part, out))
		return -ERANGE;
	return 0;
}

/* The unit's ns, or 0 when @s names none; an empty @s is @bare's. */
static uint64_t unit_ns(const char *s, uint64_t bare)
{
	if (!*s)
		return bare;
	for (const struct unit *u = units; u->name; u++)
		if (!strcmp(s, u->name))
			return u->ns;
	return 0;
}

/*
 * The value of @s as @kind reads it: 0, -EINVAL, -ERANGE (it does not fit
 * in 64 bits) or FINER_THAN_NS. Malformed text is -EINVAL whatever its
 * digits would give.
 */
static int parse_value(enum tlob_num_kind kind, const char *s, uint64_t *out)
{
	struct decimal d = { 0 };
	const char *p = s ? s : "";
	uint64_t mult;

	if (!read_whole(&p, &d))
		return -EINVAL;
	if (kind == TLOB_NUM_COUNT) {
		if (*p)
			return -EINVAL;
		mult = 1;
	} else {
		if (*p == '.') {
			p++;
			if (!read_fraction(&p, &d))
				return -EINVAL;
		}
		mult = unit_ns(p, kind == TLOB_NUM_S ? 1000000000ULL : 1);
		if (!mult)
			return -EINVAL;
	}
	if (d.finer)
		return d.overflow ? -ERANGE : FINER_THAN_NS;
	return scale(&d, mult, out);
}

/* The reason @s was refused (@ret from parse_value() or the range check). */
static void explain(const struct tlob_num *num, const char *s, int ret, char *err,
		    size_t len)
{
	const char *shown = TLOB_SHOWN(s ? s : "");

	if (num->kind == TLOB_NUM_COUNT)
		snprintf(err, len, "invalid %s '%s' (%s)", num->what, shown, num->range);
	else if (ret == -ERANGE)
		snprintf(err, len, "%s '%s' is out of range (%s)", num->what, shown, num->range);
	else if (ret == FINER_THAN_NS)
		snprintf(err, len, "invalid %s '%s' (finer than a nanosecond)", num->what, shown);
	else
		snprintf(err, len, "invalid %s '%s' (a number with ns, us, ms, s, m, h or d, "
			 "e.g. 10ms; a bare number is %s)", num->what, shown,
			 num->kind == TLOB_NUM_S ? "seconds" : "ns");
}

int tlob_parse_num(const struct tlob_num *num, const char *s, uint64_t *out,
		   char *err, size_t len)
{
	uint64_t v;
	int ret = parse_value(num->kind, s, &v);

	if (!ret && (v < num->min || v > num->max))
		ret = -ERANGE;
	if (ret) {
		explain(num, s, ret, err, len);
		return ret == -ERANGE ? -ERANGE : -EINVAL;
	}
	*out = v;
	return 0;
}

int tlob_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const struct tlob_num num = { "number", TLOB_NUM_COUNT, min, max, "" };

	return tlob_parse_num(&num, s, out, NULL, 0);
}

int tlob_env_u64(const char *name, uint64_t min, uint64_t max, uint64_t *out,
		 char *err, size_t len)
{
	const char *s = getenv(name);
	int ret;

	if (!s || !*s)
		return 1;
	ret = tlob_parse_u64(s, min, max, out);
	if (ret)
		snprintf(err, len, "%s=%s: give %" PRIu64 "..%" PRIu64, name, TLOB_SHOWN(s),
			 min, max);
	return ret;
}

int tlob_parse_bound(const char *what, const char *s, uint64_t *ns, char *err, size_t len)
{
	const struct tlob_num num = {
		what, TLOB_NUM_NS, TLOB_BUDGET_MIN_NS, TLOB_BUDGET_MAX_NS, "1us..1h"
	};

	return tlob_parse_num(&num, s, ns, err, len);
}

int tlob_parse_period(const char *s, uint64_t *ns, char *err, size_t len)
{
	static const struct tlob_num num = {
		"period", TLOB_NUM_NS, TLOB_PERIOD_MIN_NS, TLOB_BUDGET_MAX_NS, "100us..1h"
	};

	return tlob_parse_num(&num, s, ns, err, len);
}

int tlob_parse_budget(const char *s, uint64_t *ns, char *err, size_t len)
{
	return tlob_parse_bound("budget", s, ns, err, len);
}

int tlob_parse_duration(const char *s, uint64_t *ns, char *err, size_t len)
{
	static const struct tlob_num num = {
		"duration", TLOB_NUM_S, 1, TLOB_DURATION_MAX_NS, "1ns..365d"
	};

	return tlob_parse_num(&num, s, ns, err, len);
}

const char *tlob_budget_unit(uint64_t ns, uint64_t *count)
{
	const struct unit *best = &units[0];

	for (const struct unit *u = units; u < units + NR_FMT_UNITS; u++)
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
