// SPDX-License-Identifier: GPL-2.0
/* The one place the trace events are instantiated. */
#include <linux/build_bug.h>
#include <linux/stddef.h>

#include "tlob.h"

/*
 * tlob_record_class names the time of every state a window is open in
 * (running, sleeping, waiting) and the count of every event inside one
 * (preempt, sleep, switch_in, wakeup), as the model had them when it was
 * written: a model with other states or events needs those fields there
 * first (the rest of the module, the BPF programs and the tool follow the
 * model by themselves), then this check.
 */
static_assert(state_max_tlob == 4 && event_max_tlob == 7,
	      "models/tlob.dot changed: give tlob_record_class its fields");
/* What a backend writes is all it set: no tail padding (tlob_abi.h). */
static_assert(offsetof(struct tlob_record, tag) + TLOB_TAG_LEN ==
	      sizeof(struct tlob_record));
static_assert(offsetof(struct tlob_alive_record, tag) + TLOB_TAG_LEN ==
	      sizeof(struct tlob_alive_record));
static_assert(offsetof(struct tlob_logic_record, tag) + TLOB_TAG_LEN ==
	      sizeof(struct tlob_logic_record));
/* tlob:logic's state and event are u8 indices, TLOB_LOGIC_NONE for none. */
static_assert(TLOB_LOGIC_NONE == 0xff && TLOB_LOGIC_STATES_MAX < 0xff &&
	      TLOB_LOGIC_EVENTS_MAX < 0xff);

/* violation_detail prints TLOB_DIAG_RAN entries, one by one. */
static_assert(TLOB_DIAG_RAN == 4,
	      "tlob_abi.h changed TLOB_DIAG_RAN: print that many in violation_detail");
/* Its frame counts are u8 and its ran_* arrays hold each entry. */
static_assert(TLOB_DIAG_USTACK <= 255 && TLOB_DIAG_KSTACK <= 255);

#define CREATE_TRACE_POINTS
#include "tlob_trace.h"
