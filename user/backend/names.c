// SPDX-License-Identifier: GPL-2.0
/*
 * Names for output and for decoding events that carry names instead of
 * numbers. State and event names come from the generated model header, so
 * the tool can never disagree with the kernel about them; so do the names
 * of a record's times and counts (tlob_abi.h), which are made from them.
 */
#include <stdio.h>
#include <string.h>

#include "backend/names.h"
#include "tlob_abi.h"
#include "tlob_model.h"

#define NAME_OR_Q(arr, i) ((i) < sizeof(arr) / sizeof(arr[0]) && arr[i] ? arr[i] : "?")

const char *tlob_kind_name(unsigned int kind)
{
	static const char *const n[] = {
		[TLOB_REC_VIOLATION] = "violation",
		[TLOB_REC_WINDOW] = "window",
		[TLOB_REC_DROPPED] = "dropped",
	};
	return NAME_OR_Q(n, kind);
}

const char *tlob_verdict_name(unsigned int verdict)
{
	static const char *const n[] = {
		[TLOB_VERDICT_OK] = "ok",
		[TLOB_VERDICT_OVER_BUDGET] = "over_budget",
		[TLOB_VERDICT_MODEL_ERROR] = "model_error",
		[TLOB_VERDICT_ABORTED] = "aborted",
		[TLOB_VERDICT_EARLY] = "early",
		[TLOB_VERDICT_TOO_FEW] = "too_few",
		[TLOB_VERDICT_TOO_MANY] = "too_many",
		[TLOB_VERDICT_ORDER] = "order",
		[TLOB_VERDICT_INCOMPLETE] = "incomplete",
		[TLOB_VERDICT_TIMING] = "timing",
	};
	return NAME_OR_Q(n, verdict);
}

const char *tlob_abort_name(unsigned int reason)
{
	static const char *const n[] = {
		[TLOB_ABORT_NONE] = "none",
		[TLOB_ABORT_EXIT] = "exit",
		[TLOB_ABORT_EXEC] = "exec",
		[TLOB_ABORT_UNBIND] = "unbind",
		[TLOB_ABORT_DISABLE] = "disable",
	};
	return NAME_OR_Q(n, reason);
}

const char *tlob_detector_name(unsigned int detector)
{
	static const char *const n[] = {
		[TLOB_DETECT_NONE] = "none",
		[TLOB_DETECT_HRTIMER] = "hrtimer",
		[TLOB_DETECT_BPF_TIMER] = "bpf_timer",
		[TLOB_DETECT_SAMPLE] = "sample",
		[TLOB_DETECT_STOP] = "stop",
		[TLOB_DETECT_SCHED] = "sched",
		[TLOB_DETECT_CHECKPOINT] = "checkpoint",
	};
	return NAME_OR_Q(n, detector);
}

const char *tlob_state_name(unsigned int state)
{
	return state < state_max_tlob ? automaton_tlob.state_names[state] : "?";
}

const char *tlob_event_name(unsigned int event)
{
	return event < event_max_tlob ? automaton_tlob.event_names[event] : "?";
}

int tlob_state_by_name(const char *name)
{
	for (int i = 0; i < state_max_tlob; i++)
		if (!strcmp(automaton_tlob.state_names[i], name))
			return i;
	return -1;
}

int tlob_event_by_name(const char *name)
{
	for (int i = 0; i < event_max_tlob; i++)
		if (!strcmp(automaton_tlob.event_names[i], name))
			return i;
	return -1;
}

unsigned int tlob_nr_states(void)
{
	return state_max_tlob;
}

unsigned int tlob_nr_events(void)
{
	return event_max_tlob;
}

bool tlob_state_timed(unsigned int state)
{
	return state < state_max_tlob && !automaton_tlob.final_states[state];
}

bool tlob_event_counted(unsigned int event)
{
	bool any = false;

	if (event >= event_max_tlob)
		return false;
	for (unsigned int s = 0; s < state_max_tlob; s++) {
		unsigned int next = automaton_tlob.function[s][event];

		if (next == INVALID_STATE_TLOB)
			continue;
		if (automaton_tlob.final_states[s] || automaton_tlob.final_states[next])
			return false;
		any = true;
	}
	return any;
}

const char *tlob_time_field(unsigned int state, char *buf, size_t len)
{
	snprintf(buf, len, "%s_ns", tlob_state_name(state));
	return buf;
}

const char *tlob_count_field(unsigned int event, char *buf, size_t len)
{
	/* The record's first name for it, kept for its readers. */
	if (event == preempt_tlob)
		snprintf(buf, len, "preemptions");
	else
		snprintf(buf, len, "%ss", tlob_event_name(event));
	return buf;
}
