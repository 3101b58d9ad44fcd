/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A supervision kind as one type: a section held to a budget (and a
 * minimum time), an alive binding's checkpoints, a logical binding's
 * model. Whatever shows a binding or its statistics asks the binding's
 * kind (tlob_kind_of()), so a new kind is one more struct tlob_kind and
 * one line in tlob_kind_of(), not a branch in every caller.
 */
#ifndef TLOB_KIND_H
#define TLOB_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend/backend.h"

struct tlob_kind {
	/* A binding as {"type":"binding",...}; its length, or -ENOSPC. */
	int (*spec_json)(const struct tlob_binding_spec *s, char *buf, size_t len);
	/* Its statistics as {"type":"stats",...}; its length, or -ENOSPC. */
	int (*stats_json)(const struct tlob_binding_stats *st, char *buf, size_t len);
	/*
	 * Its statistics as readable lines; @with_zeros: a histogram's empty
	 * buckets between its filled ones too (a kind without one ignores it).
	 */
	void (*stats_print)(FILE *f, const struct tlob_binding_stats *st, bool with_zeros);
};

extern const struct tlob_kind tlob_kind_section;
extern const struct tlob_kind tlob_kind_alive;
extern const struct tlob_kind tlob_kind_logic;

const struct tlob_kind *tlob_kind_of(const struct tlob_binding_spec *s);

/* The binding's kind's spec_json, stats_json and stats_print. */
int tlob_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len);
int tlob_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len);
void tlob_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros);
/*
 * One binding's statistics on f: a JSON object (@json) or readable lines
 * (@with_zeros as tlob_stats_print()'s).
 */
void tlob_stats_emit(FILE *f, const struct tlob_binding_stats *st, bool json, bool with_zeros);

#endif /* TLOB_KIND_H */
