/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one rule that turns a sched_switch into a model event for the task
 * switched out, shared by the module (../module/tlob_sched.c) and the BPF
 * programs (../bpf/tlob.bpf.c); each computes @blocked its own way.
 *
 * Sleeping means blocked: switched out voluntarily, in a sleep state, and
 * no longer runnable. A task preempted after it set a sleep state, or one
 * whose sleep a pending signal cancelled (__schedule() leaves it queued),
 * is waiting for a CPU. Upstream's tlob books both as sleeping.
 *
 * Not runnable is not the same as off the runqueue: since EEVDF's delayed
 * dequeue ("sched/fair: Implement delayed dequeue", v6.12) a fair task
 * that blocks can stay queued, marked se.sched_delayed, until its lag is
 * spent. It is blocked all the same (it runs again only once woken), so
 * @blocked is !on_rq || sched_delayed, as the kernel's own
 * task_is_runnable() has it.
 */
#ifndef TLOB_SWITCH_RULE_H
#define TLOB_SWITCH_RULE_H

#include "tlob_model.h"

static inline unsigned int tlob_switch_out_event(bool preempt,
						 unsigned int prev_state,
						 bool blocked)
{
	if (!preempt && prev_state != TASK_RUNNING && blocked)
		return sleep_tlob;
	return preempt_tlob;
}

#endif /* TLOB_SWITCH_RULE_H */
