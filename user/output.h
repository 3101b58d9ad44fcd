/* SPDX-License-Identifier: GPL-2.0 */
/* How records, transitions and statistics look: readable lines or JSON. */
#ifndef TLOB_OUTPUT_H
#define TLOB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend.h"

/*
 * 12345678 -> "12.346ms": 3 decimals of the largest unit that keeps the
 * integer part under 1000 (ns, us, ms, s), rounded half up.
 */
const char *tlob_fmt_ns(uint64_t ns, char *buf, size_t len);

/*
 * One JSON object, no newline: every struct tlob_record field by its C
 * name, plus *_name strings for the enums (state/event from the model).
 * Returns the length, or -ENOSPC if buf is too small.
 */
int tlob_record_json(const struct tlob_record *rec, char *buf, size_t len);
int tlob_transition_json(const struct tlob_transition *tr, char *buf, size_t len);
int tlob_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len);
int tlob_spec_json(const struct tlob_binding_spec *spec, char *buf, size_t len);

/*
 * s as the inside of a JSON string (no quotes), in out: RFC 8259 escapes,
 * and every ill-formed UTF-8 sequence replaced by U+FFFD (the same
 * writer as the objects above). A string that does not fit is cut after
 * its last whole character. Returns out.
 */
const char *tlob_json_escape(const char *s, char *out, size_t len);

/*
 * One readable line each, with a newline: into buf (the length, or
 * -ENOSPC), or written to f. comm and tag as they are.
 */
int tlob_record_text(const struct tlob_record *rec, char *buf, size_t len);
int tlob_transition_text(const struct tlob_transition *tr, char *buf, size_t len);
void tlob_record_print(FILE *f, const struct tlob_record *rec);
void tlob_transition_print(FILE *f, const struct tlob_transition *tr);

/* The per-binding summary and its log2 histogram. */
void tlob_stats_print(FILE *f, const struct tlob_binding_stats *st);
/* One binding's statistics on stdout: a JSON object (@json) or readable lines. */
void tlob_stats_emit(const struct tlob_binding_stats *st, bool json);

#endif /* TLOB_OUTPUT_H */
