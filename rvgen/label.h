/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The label grammar of the rvgen DOT dialect. cgraph hands over label
 * strings; these functions split them on the two characters "\n" and
 * read invariants ("clk < BOUND", "clk <= BOUND"), resets ("reset(clk)")
 * and guards ("env OP value", joined by && or ||).
 */
#ifndef RVGEN_LABEL_H
#define RVGEN_LABEL_H

#include "grammar.h"

/* Splits LABEL on "\n"; returns a NULL-terminated array, NULL on ENOMEM. */
char **label_split(const char *label, int *count);
void label_free_split(char **parts);
/* Frees the strings of n comparisons and the array. */
void rv_cmps_free(struct rv_cmp *cmp, int n);

/* "name[\ninvariant]" of state NODE; fills inv. */
int label_state(const char *node, const char *label, int line,
		struct rv_invariant *inv, struct rv_error *err);
/*
 * One "event[;reset(env)][;guard]" piece; fills event, reset, guard and
 * the guard's comparisons (cmp, ncmp).
 */
int label_event(const char *piece, int line, struct rv_transition *t,
		struct rv_error *err);

#endif /* RVGEN_LABEL_H */
