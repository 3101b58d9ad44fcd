// SPDX-License-Identifier: GPL-2.0
/*
 * Prints the JSON the tool writes for a record, a transition, a binding
 * and a stats entry, each built from distinct field values, so json.t can
 * decode them with a real JSON parser and check every field by name.
 */
#include <stdio.h>
#include <string.h>

#include "backend/names.h"
#include "kinds/kind.h"
#include "output/output.h"
#include "tlob_model.h"

int main(void)
{
	struct tlob_record r = {
		.start_ns = 1000000001, .end_ns = 1012000002, .budget_ns = 10000000,
		.min_ns = 2000000, .elapsed_ns = 12000001, .time_ns = { [running_tlob] = 5000003,
		[waiting_tlob] = 4000004, [sleeping_tlob] = 3000005 },
		.detect_latency_ns = -6, .pid = 4242, .tgid = 4241, .binding_id = 7,
		.count = { [preempt_tlob] = 8, [sleep_tlob] = 9, [wakeup_tlob] = 10,
		[switch_in_tlob] = 12, [start_tlob] = 1, [stop_tlob] = 1 },
		.kind = TLOB_REC_WINDOW, .verdict = TLOB_VERDICT_OVER_BUDGET,
		.abort_reason = TLOB_ABORT_NONE, .detector = TLOB_DETECT_HRTIMER,
		.state = 2, .event = 4, .react = 1,
	};
	struct tlob_transition tr = {
		.ts_ns = 77, .id = 4242, .cpu = 1, .state = 1, .event = 1, .next_state = 3,
	};
	struct tlob_binding_stats st = { 0 };
	char buf[4096];

	/* comm with every character JSON must escape; tag fills the array (no NUL). */
	memcpy(r.comm, "a\"b\\c\td\x01" "e", 10);
	memcpy(r.tag, "0123456789abcdef", TLOB_TAG_LEN);
	if (tlob_record_json(&r, buf, sizeof(buf)) < 0)
		return 1;
	puts(buf);

	strcpy(tr.comm, "worker");
	if (tlob_transition_json(&tr, buf, sizeof(buf)) < 0)
		return 1;
	puts(buf);

	strcpy(st.spec.path, "/opt/a \"b\"/app");
	st.spec.id = 3;
	st.spec.start = 0x1139;
	st.spec.stop_is_ret = true;
	st.stats.windows = 11;
	st.stats.violations = 2;
	st.stats.early = 4;
	st.stats.tolerated = 5;
	st.stats.min_ns = 100;
	st.stats.max_ns = 9000000;
	st.stats.hist[6] = 1;
	st.stats.hist[23] = 10;
	if (tlob_stats_json(&st, buf, sizeof(buf)) < 0)
		return 1;
	puts(buf);

	st.spec.budget_ns = 5000000;
	st.spec.min_ns = 1000000;
	st.spec.tol_k = 3;
	st.spec.tol_w = 10;
	st.spec.tgid = 99;
	st.spec.stop_is_ret = false;
	st.spec.stop = 0x1150;
	if (tlob_spec_json(&st.spec, buf, sizeof(buf)) < 0)
		return 1;
	puts(buf);

	/* Too small a buffer is an error, never a truncated object. */
	printf("%d\n", tlob_record_json(&r, buf, 40));
	/* The model's names, as json.t expects them for state 2 / event 4. */
	printf("%s %s %s %s\n", tlob_state_name(2), tlob_event_name(4), tlob_state_name(1),
	       tlob_state_name(3));
	return 0;
}
