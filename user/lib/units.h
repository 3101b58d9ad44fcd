/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numbers people type: budgets and durations (10ms, 1.5s, 250us, 2h)
 * and counts (a pid, KiB, a number of tasks). Every such number the tool
 * reads goes through tlob_parse_num(), which refuses what would wrap,
 * anything but the digits, a fraction finer than a nanosecond, and a
 * value outside the number's range, with a message naming the text.
 */
#ifndef TLOB_UNITS_H
#define TLOB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* The longest tlob mon -d, stats --interval and the like: 365 days. */
#define TLOB_DURATION_MAX_NS	(365 * 86400000000000ULL)

enum tlob_num_kind {
	TLOB_NUM_COUNT,		/* decimal digits, nothing else */
	TLOB_NUM_NS,		/* NUMBER[.FRACTION][UNIT]; a bare number is ns */
	TLOB_NUM_S,		/* the same; a bare number is seconds (as rtla's -d) */
};

/* What a number is, for tlob_parse_num(). */
struct tlob_num {
	const char *what;	/* its name in messages: "budget", "--bpf-tasks" */
	enum tlob_num_kind kind;
	uint64_t min, max;	/* inclusive, in ns for a duration */
	const char *range;	/* min..max as a person reads it: "1us..1h" */
};

/*
 * s -> *out. Units ns, us, ms, s, m, h, d; a fraction ("1.5ms") is taken
 * when it is a whole number of ns (trailing zeros of any length are fine).
 * Returns 0, -EINVAL (malformed, or finer than a ns) or -ERANGE (outside
 * min..max, overflow included); err gets a one-line reason either way.
 * *out is written only on success.
 */
int tlob_parse_num(const struct tlob_num *num, const char *s, uint64_t *out,
		   char *err, size_t len);

/* A decimal count in min..max with no message: 0, -EINVAL or -ERANGE. */
int tlob_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * The environment variable NAME as a decimal count in min..max: 1 when it
 * is unset or empty (*out untouched), 0 when read, -EINVAL or -ERANGE with
 * "NAME=VALUE: give MIN..MAX" in err.
 */
int tlob_env_u64(const char *name, uint64_t min, uint64_t max, uint64_t *out,
		 char *err, size_t len);

/* A budget: TLOB_NUM_NS in TLOB_BUDGET_MIN_NS..TLOB_BUDGET_MAX_NS (1us..1h). */
int tlob_parse_budget(const char *s, uint64_t *ns, char *err, size_t len);
/* The same for another bound of a section (min=): WHAT names it in err. */
int tlob_parse_bound(const char *what, const char *s, uint64_t *ns, char *err, size_t len);
/*
 * An alive binding's reference cycle (alive=PERIOD): the same units,
 * range TLOB_PERIOD_MIN_NS..TLOB_BUDGET_MAX_NS (100us..1h).
 */
int tlob_parse_period(const char *s, uint64_t *ns, char *err, size_t len);

/* "30s", "2m", "1h", "500ms": TLOB_NUM_S in 1ns..TLOB_DURATION_MAX_NS. */
int tlob_parse_duration(const char *s, uint64_t *ns, char *err, size_t len);

/* 10000000 -> "10ms" (exact: the largest of ns, us, ms, s that divides it). */
const char *tlob_fmt_budget(uint64_t ns, char *buf, size_t len);
/* The same as a count and a unit: 10000000 -> 10, returns "ms". */
const char *tlob_budget_unit(uint64_t ns, uint64_t *count);

#endif /* TLOB_UNITS_H */
