/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How alive supervision looks (an `a` binding, models/alive.dot): its
 * judged reference cycles (struct tlob_alive_record, the module's
 * tlob:alive_cycle) as a line or a JSON object, and an alive binding's
 * terms and statistics. output.c's functions for bindings and statistics
 * call these for an alive spec, so every command shows both kinds.
 */
#ifndef TLOB_ALIVE_H
#define TLOB_ALIVE_H

#include <stddef.h>
#include <stdio.h>

#include "backend/backend.h"

/*
 * One cycle, a line with a newline:
 *   alive ok       app-812 tgid=812 binding=3 tag=hb period=100ms checkpoints=10 expect=8..12
 *   ALIVE TOO FEW  app-812 tgid=812 binding=3 tag=hb period=100ms checkpoints=2 expect=8..12
 *                  detector=hrtimer latency=12.000us
 * (one line), ALIVE TOO MANY likewise, "alive aborted ... reason=exit";
 * cycles=N after the period when the record covers N cycles without a
 * checkpoint, (tolerated) after a violation held back by tolerance=.
 * Or {"type":"alive_cycle",...}: every field by its C name, plus
 * verdict_name, detector_name and abort_reason_name. No printf-family
 * call, as for windows (jbuf.h). The length, or -ENOSPC.
 */
int tlob_alive_text(const struct tlob_alive_record *r, char *buf, size_t len);
int tlob_alive_json(const struct tlob_alive_record *r, char *buf, size_t len);

/* A violation: too few or too many checkpoints (not ok, not aborted). */
bool tlob_alive_violation(const struct tlob_alive_record *r);

/* "period=100ms expect=10±2 per process" (expect=10 without a margin), into buf. */
const char *tlob_alive_terms(const struct tlob_binding_spec *s, char *buf, size_t len);

/*
 * An alive binding as tlob_spec_json() and tlob_stats_json() write a
 * section ({"type":"binding"|"stats",...,"kind":"alive",...}), and its
 * statistics as tlob_stats_print() does, checkpoints per cycle for the
 * elapsed times (no histogram: with_zeros changes nothing).
 */
int tlob_alive_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len);
int tlob_alive_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len);
void tlob_alive_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros);

#endif /* TLOB_ALIVE_H */
