/* SPDX-License-Identifier: GPL-2.0 */
/* Budgets and durations as people type them: 10ms, 1.5s, 250us, 5000ns. */
#ifndef TLOB_UNITS_H
#define TLOB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * "10ms" -> 10000000. Units ns, us, ms, s; a bare number is ns (as in the
 * kernel's threshold=NS). Fractions are allowed ("1.5ms") if they give a
 * whole number of ns. Range: TLOB_BUDGET_MIN_NS..TLOB_BUDGET_MAX_NS.
 * Returns 0, -EINVAL (malformed) or -ERANGE (out of range); err gets a
 * one-line reason either way.
 */
int tlob_parse_budget(const char *s, uint64_t *ns, char *err, size_t len);
/* The same for another bound of a section (min=): WHAT names it in err. */
int tlob_parse_bound(const char *what, const char *s, uint64_t *ns, char *err, size_t len);
/*
 * An alive binding's reference cycle (alive=PERIOD): the same units,
 * range TLOB_PERIOD_MIN_NS..TLOB_BUDGET_MAX_NS (100us..1h).
 */
int tlob_parse_period(const char *s, uint64_t *ns, char *err, size_t len);

/* "30s", "2m", "1h", "500ms"; a bare number is seconds (as rtla's -d). */
int tlob_parse_duration(const char *s, uint64_t *ns, char *err, size_t len);

/* 10000000 -> "10ms" (exact: the largest unit that divides it). */
const char *tlob_fmt_budget(uint64_t ns, char *buf, size_t len);
/* The same as a count and a unit: 10000000 -> 10, returns "ms". */
const char *tlob_budget_unit(uint64_t ns, uint64_t *count);

#endif /* TLOB_UNITS_H */
