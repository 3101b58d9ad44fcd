/* SPDX-License-Identifier: GPL-2.0 */
/* Names of the ABI's enums and of the generated model's states/events. */
#ifndef TLOB_NAMES_H
#define TLOB_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

const char *tlob_kind_name(unsigned int kind);
const char *tlob_verdict_name(unsigned int verdict);
const char *tlob_abort_name(unsigned int reason);
const char *tlob_detector_name(unsigned int detector);
/* From the generated model (kernel/shared/tlob_model.h); "?" when out of range. */
const char *tlob_state_name(unsigned int state);
const char *tlob_event_name(unsigned int event);
/* Name -> enum value; -1 if unknown. */
int tlob_state_by_name(const char *name);
int tlob_event_by_name(const char *name);
unsigned int tlob_nr_states(void);
unsigned int tlob_nr_events(void);

/*
 * What a record shows of the model (tlob_abi.h): the time of each state a
 * window is open in (every state that is not final), the count of each
 * event that happens only inside a window (none of its transitions leaves
 * or enters a final state).
 */
bool tlob_state_timed(unsigned int state);
bool tlob_event_counted(unsigned int event);
/*
 * Their field names in trace events and JSON: "STATE_ns"; "EVENTs", but
 * "preemptions" for preempt. Into buf, which is returned.
 */
const char *tlob_time_field(unsigned int state, char *buf, size_t len);
const char *tlob_count_field(unsigned int event, char *buf, size_t len);

#endif /* TLOB_NAMES_H */
