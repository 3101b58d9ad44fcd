/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logical supervision (an `l` line: its syntax in kernel/shared/README.md,
 * "the monitor line", parsed by kernel/shared/tlob_parse.c; the user's view
 * in docs/guide.md, "Logical supervision"): a user's deterministic automaton in
 * rvgen's DOT dialect, its events mapped to symbols of one binary,
 *
 *   tlob mon --model flow.dot -e init=/usr/bin/app:app_init \
 *            -e begin=/usr/bin/app:frame_begin -e end=/usr/bin/app:frame_end \
 *            [--per process|task] [--tolerance K/W] [--tag NAME]
 *
 * read and validated by rvgen's own code (rvgen/model.h: the same
 * "FILE:LINE: message" errors, determinism and reachability included),
 * then turned into the spec of one logical binding (spec->logic, its
 * table), which monline.c writes as the `l` line. Its records
 * (struct tlob_logic_record and the tlob:logic event's names) as a line
 * or a JSON object, and a logical binding's statistics.
 */
#ifndef TLOB_LOGIC_H
#define TLOB_LOGIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend/backend.h"

/* One logical binding as the command line gives it (params.c). */
struct tlob_logic_args {
	const char *model;		/* --model FILE; NULL: none */
	const char **events;		/* -e EVENT=PATH:SYMBOL, in the order given */
	size_t nr_events;
	const char *per;		/* --per process|task; NULL: process */
	const char *tolerance;		/* --tolerance K/W; NULL: none */
	const char *tag;		/* --tag NAME; NULL: none */
};

/*
 * args -> spec (zeroed first), everything checked: the -e syntax and the
 * terms (SYNTAX, "tlob: " and exit 2), the model (MODEL: err is
 * "FILE:LINE: message", rvgen's or one of logical supervision's, printed
 * as it is, exit 2; MODEL_FILE when it cannot be read, exit 1), every
 * event mapped and every -e an event of the model, one file, distinct
 * offsets (SYNTAX), each symbol resolved and checked as a section's START
 * (LOOKUP, exit 1), and the `l` line no longer than the module takes
 * (SYNTAX, naming its size). flags: enum tlob_section_flags (FORCE).
 * Returns an enum tlob_section_err.
 */
int tlob_logic_build(const struct tlob_logic_args *args, unsigned int flags,
		     struct tlob_binding_spec *spec, char *err, size_t len);

/*
 * One record, a line with a newline, for a violation only:
 *   LOGIC ORDER      pid=8 comm=a model=flow state=s event=end (not allowed)
 *   LOGIC TIMING     pid=8 comm=a model=flow state=s event=end clock=41.000ms (outside its guard)
 *   LOGIC TIMING     pid=8 comm=a model=flow state=s clock=40.012ms (past the state's invariant)
 *   LOGIC INCOMPLETE pid=8 comm=a model=flow state=run (exit)
 * (tag=NAME before state= when there is one; (tolerated) after a
 * violation tolerance= held back; a TIMING record without an event is the
 * module's timer finding a state held past its invariant). An instance's
 * quiet end (ok, aborted) is "" in text. Or {"type":"logic",...} for
 * every record, "event":"" where there is none. No printf-family call
 * (jbuf.h). The length, or -ENOSPC.
 */
int tlob_logic_text(const struct tlob_logic_record *r, const struct tlob_logic_names *n,
		    char *buf, size_t len);
int tlob_logic_json(const struct tlob_logic_record *r, const struct tlob_logic_names *n,
		    char *buf, size_t len);

/* A violation: ORDER, INCOMPLETE or TIMING (not OK, not ABORTED). */
bool tlob_logic_violation(const struct tlob_logic_record *r);

/*
 * A logical binding as tlob_spec_json() and tlob_stats_json() write a
 * section ({"type":"binding"|"stats",...,"kind":"logic",...}), and its
 * statistics as tlob_stats_print() does (no histogram: with_zeros changes
 * nothing).
 */
int tlob_logic_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len);
int tlob_logic_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len);
void tlob_logic_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros);

#endif /* TLOB_LOGIC_H */
