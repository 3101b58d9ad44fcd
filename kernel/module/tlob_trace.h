/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlob's trace events (events/tlob/ in tracefs).
 *
 * event_tlob, error_tlob, error_env_tlob and detail_env_tlob keep the
 * names, argument order and print formats of the kernel's RV monitors, so
 * tools written for upstream's tlob read them unchanged. violation,
 * window and dropped carry a whole struct tlob_record, field for field
 * with the same names, so one decoder serves the module's events and the
 * BPF ring. violation_detail carries a struct tlob_diag the same way;
 * alive_cycle a struct tlob_alive_record, logic a struct
 * tlob_logic_record with its table's names.
 * All of them may be emitted from hard-IRQ context (the deadline timer).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tlob

#if !defined(_TLOB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TLOB_TRACE_H

#include <linux/tracepoint.h>

#include "tlob_abi.h"
#include "tlob_compat.h"

TRACE_EVENT(event_tlob,
	    TP_PROTO(int id, const char *state, const char *event,
		     const char *next_state, bool final_state),
	    TP_ARGS(id, state, event, next_state, final_state),
	    TP_STRUCT__entry(__field(int, id)
			     __string(state, state)
			     __string(event, event)
			     __string(next_state, next_state)
			     __field(bool, final_state)),
	    TP_fast_assign(__entry->id = id;
			   tlob_assign_str(state, state);
			   tlob_assign_str(event, event);
			   tlob_assign_str(next_state, next_state);
			   __entry->final_state = final_state;),
	    TP_printk("%d: %s x %s -> %s%s", __entry->id, __get_str(state),
		      __get_str(event), __get_str(next_state),
		      __entry->final_state ? " (final)" : "")
);

TRACE_EVENT(error_tlob,
	    TP_PROTO(int id, const char *state, const char *event),
	    TP_ARGS(id, state, event),
	    TP_STRUCT__entry(__field(int, id)
			     __string(state, state)
			     __string(event, event)),
	    TP_fast_assign(__entry->id = id;
			   tlob_assign_str(state, state);
			   tlob_assign_str(event, event);),
	    TP_printk("%d: event %s not expected in the state %s",
		      __entry->id, __get_str(event), __get_str(state))
);

TRACE_EVENT(error_env_tlob,
	    TP_PROTO(int id, const char *state, const char *event,
		     const char *env),
	    TP_ARGS(id, state, event, env),
	    TP_STRUCT__entry(__field(int, id)
			     __string(state, state)
			     __string(event, event)
			     __string(env, env)),
	    TP_fast_assign(__entry->id = id;
			   tlob_assign_str(state, state);
			   tlob_assign_str(event, event);
			   tlob_assign_str(env, env);),
	    TP_printk("%d: event %s not expected in the state %s with env %s",
		      __entry->id, __get_str(event), __get_str(state),
		      __get_str(env))
);

TRACE_EVENT(detail_env_tlob,
	    TP_PROTO(int id, u64 threshold_ns, u64 running_ns,
		     u64 waiting_ns, u64 sleeping_ns),
	    TP_ARGS(id, threshold_ns, running_ns, waiting_ns, sleeping_ns),
	    TP_STRUCT__entry(__field(int, id)
			     __field(u64, threshold_ns)
			     __field(u64, running_ns)
			     __field(u64, waiting_ns)
			     __field(u64, sleeping_ns)),
	    TP_fast_assign(__entry->id = id;
			   __entry->threshold_ns = threshold_ns;
			   __entry->running_ns = running_ns;
			   __entry->waiting_ns = waiting_ns;
			   __entry->sleeping_ns = sleeping_ns;),
	    TP_printk("pid=%d threshold_ns=%llu running_ns=%llu waiting_ns=%llu sleeping_ns=%llu",
		      __entry->id, __entry->threshold_ns, __entry->running_ns,
		      __entry->waiting_ns, __entry->sleeping_ns)
);

/*
 * The record's times and counts (indexed by the model's enums) as fields
 * named by the model's names: STATE_ns for each state a window is open in,
 * EVENTs for each event inside a window (preempt's: preemptions), the
 * names the tool decodes (user/backend/names.c). tlob_trace.c stops the build when
 * the model has other states or events than the fields here.
 */
DECLARE_EVENT_CLASS(tlob_record_class,
		    TP_PROTO(const struct tlob_record *r),
		    TP_ARGS(r),
		    TP_STRUCT__entry(__field(u64, start_ns)
				     __field(u64, end_ns)
				     __field(u64, budget_ns)
				     __field(u64, min_ns)
				     __field(u64, elapsed_ns)
				     __field(u64, running_ns)
				     __field(u64, waiting_ns)
				     __field(u64, sleeping_ns)
				     __field(s64, detect_latency_ns)
				     __field(u32, pid)
				     __field(u32, tgid)
				     __field(u32, binding_id)
				     __field(u32, preemptions)
				     __field(u32, sleeps)
				     __field(u32, wakeups)
				     __field(u32, switch_ins)
				     __field(u8, kind)
				     __field(u8, verdict)
				     __field(u8, abort_reason)
				     __field(u8, detector)
				     __field(u8, state)
				     __field(u8, event)
				     __field(u8, react)
				     __array(char, comm, TLOB_COMM_LEN)
				     __array(char, tag, TLOB_TAG_LEN)),
		    TP_fast_assign(__entry->start_ns = r->start_ns;
				   __entry->end_ns = r->end_ns;
				   __entry->budget_ns = r->budget_ns;
				   __entry->min_ns = r->min_ns;
				   __entry->elapsed_ns = r->elapsed_ns;
				   __entry->running_ns = r->time_ns[running_tlob];
				   __entry->waiting_ns = r->time_ns[waiting_tlob];
				   __entry->sleeping_ns = r->time_ns[sleeping_tlob];
				   __entry->detect_latency_ns = r->detect_latency_ns;
				   __entry->pid = r->pid;
				   __entry->tgid = r->tgid;
				   __entry->binding_id = r->binding_id;
				   __entry->preemptions = r->count[preempt_tlob];
				   __entry->sleeps = r->count[sleep_tlob];
				   __entry->wakeups = r->count[wakeup_tlob];
				   __entry->switch_ins = r->count[switch_in_tlob];
				   __entry->kind = r->kind;
				   __entry->verdict = r->verdict;
				   __entry->abort_reason = r->abort_reason;
				   __entry->detector = r->detector;
				   __entry->state = r->state;
				   __entry->event = r->event;
				   __entry->react = r->react;
				   memcpy(__entry->comm, r->comm, TLOB_COMM_LEN);
				   memcpy(__entry->tag, r->tag, TLOB_TAG_LEN);),
		    TP_printk("pid=%u tgid=%u comm=%s binding_id=%u tag=%s kind=%u verdict=%u abort_reason=%u detector=%u state=%u event=%u react=%u start_ns=%llu end_ns=%llu budget_ns=%llu min_ns=%llu elapsed_ns=%llu running_ns=%llu waiting_ns=%llu sleeping_ns=%llu detect_latency_ns=%lld preemptions=%u sleeps=%u wakeups=%u switch_ins=%u",
			      __entry->pid, __entry->tgid, __entry->comm,
			      __entry->binding_id,
			      __entry->tag[0] ? __entry->tag : "-",
			      __entry->kind, __entry->verdict,
			      __entry->abort_reason, __entry->detector,
			      __entry->state, __entry->event, __entry->react,
			      __entry->start_ns, __entry->end_ns,
			      __entry->budget_ns, __entry->min_ns,
			      __entry->elapsed_ns,
			      __entry->running_ns, __entry->waiting_ns,
			      __entry->sleeping_ns, __entry->detect_latency_ns,
			      __entry->preemptions, __entry->sleeps,
			      __entry->wakeups, __entry->switch_ins)
);

/*
 * A timing constraint broke: the deadline passed while the task was
 * inside its window (verdict 1), or STOP came before min= (verdict 4).
 * react=0: held back by the binding's tolerance=K/W (no reactor ran); a
 * trigger meant to act as a reaction filters on react == 1.
 */
DEFINE_EVENT(tlob_record_class, violation,
	     TP_PROTO(const struct tlob_record *r),
	     TP_ARGS(r)
);

/* A window ended, whatever its verdict: exactly once per window. */
DEFINE_EVENT(tlob_record_class, window,
	     TP_PROTO(const struct tlob_record *r),
	     TP_ARGS(r)
);

/* A START opened no window: the pool had none free (kind DROPPED). */
DEFINE_EVENT(tlob_record_class, dropped,
	     TP_PROTO(const struct tlob_record *r),
	     TP_ARGS(r)
);

/*
 * One reference cycle of an alive binding ended (struct
 * tlob_alive_record, tlob_abi.h), whatever its verdict: 0 ok, 5 too few,
 * 6 too many checkpoints, 3 aborted (the instance ended, the cycle not
 * judged). react=0 on a violation: held back by the binding's tolerance.
 */
TRACE_EVENT(alive_cycle,
	    TP_PROTO(const struct tlob_alive_record *r),
	    TP_ARGS(r),
	    TP_STRUCT__entry(__field(u64, start_ns)
			     __field(u64, end_ns)
			     __field(u64, period_ns)
			     __field(s64, detect_latency_ns)
			     __field(u32, pid)
			     __field(u32, tgid)
			     __field(u32, binding_id)
			     __field(u32, checkpoints)
			     __field(u32, expect_min)
			     __field(u32, expect_max)
			     __field(u32, cycles)
			     __field(u8, verdict)
			     __field(u8, detector)
			     __field(u8, react)
			     __field(u8, abort_reason)
			     __array(char, comm, TLOB_COMM_LEN)
			     __array(char, tag, TLOB_TAG_LEN)),
	    TP_fast_assign(__entry->start_ns = r->start_ns;
			   __entry->end_ns = r->end_ns;
			   __entry->period_ns = r->period_ns;
			   __entry->detect_latency_ns = r->detect_latency_ns;
			   __entry->pid = r->pid;
			   __entry->tgid = r->tgid;
			   __entry->binding_id = r->binding_id;
			   __entry->checkpoints = r->checkpoints;
			   __entry->expect_min = r->expect_min;
			   __entry->expect_max = r->expect_max;
			   __entry->cycles = r->cycles;
			   __entry->verdict = r->verdict;
			   __entry->detector = r->detector;
			   __entry->react = r->react;
			   __entry->abort_reason = r->abort_reason;
			   memcpy(__entry->comm, r->comm, TLOB_COMM_LEN);
			   memcpy(__entry->tag, r->tag, TLOB_TAG_LEN);),
	    TP_printk("pid=%u tgid=%u comm=%s binding_id=%u tag=%s verdict=%u detector=%u react=%u abort_reason=%u checkpoints=%u expect_min=%u expect_max=%u cycles=%u start_ns=%llu end_ns=%llu period_ns=%llu detect_latency_ns=%lld",
		      __entry->pid, __entry->tgid, __entry->comm,
		      __entry->binding_id, __entry->tag[0] ? __entry->tag : "-",
		      __entry->verdict, __entry->detector, __entry->react,
		      __entry->abort_reason, __entry->checkpoints,
		      __entry->expect_min, __entry->expect_max, __entry->cycles,
		      __entry->start_ns, __entry->end_ns, __entry->period_ns,
		      __entry->detect_latency_ns)
);

/*
 * A logical binding's record (struct tlob_logic_record, tlob_abi.h),
 * field for field, and the names its table gives the model, the state
 * and the event ("" for none): verdict 7 order (event not allowed in
 * state; the instance ends), 8 incomplete (the process or task exited or
 * exec'd, abort_reason 1 or 2, outside a final state), 0 ok (it ended in
 * a final state), 3 aborted (unbind 3 or disable 4). react=0 on a
 * violation: held back by the binding's tolerance.
 */
TRACE_EVENT(logic,
	    TP_PROTO(const struct tlob_logic_record *r, const char *model,
		     const char *state_name, const char *event_name),
	    TP_ARGS(r, model, state_name, event_name),
	    TP_STRUCT__entry(__field(u64, start_ns)
			     __field(u64, end_ns)
			     __field(u64, events)
			     __field(u64, clock_ns)
			     __field(u32, pid)
			     __field(u32, tgid)
			     __field(u32, binding_id)
			     __field(u8, verdict)
			     __field(u8, state)
			     __field(u8, event)
			     __field(u8, react)
			     __field(u8, abort_reason)
			     __array(char, comm, TLOB_COMM_LEN)
			     __array(char, tag, TLOB_TAG_LEN)
			     __string(model, model)
			     __string(state_name, state_name)
			     __string(event_name, event_name)),
	    TP_fast_assign(__entry->start_ns = r->start_ns;
			   __entry->end_ns = r->end_ns;
			   __entry->events = r->events;
			   __entry->clock_ns = r->clock_ns;
			   __entry->pid = r->pid;
			   __entry->tgid = r->tgid;
			   __entry->binding_id = r->binding_id;
			   __entry->verdict = r->verdict;
			   __entry->state = r->state;
			   __entry->event = r->event;
			   __entry->react = r->react;
			   __entry->abort_reason = r->abort_reason;
			   memcpy(__entry->comm, r->comm, TLOB_COMM_LEN);
			   memcpy(__entry->tag, r->tag, TLOB_TAG_LEN);
			   tlob_assign_str(model, model);
			   tlob_assign_str(state_name, state_name);
			   tlob_assign_str(event_name, event_name);),
	    TP_printk("pid=%u tgid=%u comm=%s binding_id=%u tag=%s model=%s verdict=%u state=%u state_name=%s event=%u event_name=%s react=%u abort_reason=%u events=%llu clock_ns=%llu start_ns=%llu end_ns=%llu",
		      __entry->pid, __entry->tgid, __entry->comm,
		      __entry->binding_id, __entry->tag[0] ? __entry->tag : "-",
		      __get_str(model), __entry->verdict, __entry->state,
		      __get_str(state_name), __entry->event,
		      __get_str(event_name)[0] ? __get_str(event_name) : "-",
		      __entry->react, __entry->abort_reason, __entry->events,
		      __entry->clock_ns, __entry->start_ns, __entry->end_ns)
);

/*
 * Why a window overran (struct tlob_diag, tlob_abi.h): once per
 * violation, after its tlob:violation (same pid, binding_id, start_ns),
 * when the user stack was taken (ustack_when: 1 at the deadline, 2 later,
 * 0 not taken). The stacks are the frames taken, innermost first; the
 * ran_* arrays hold nr_ran entries, most time first (zero beyond).
 * ran_comm is TLOB_DIAG_RAN comms of TLOB_COMM_LEN bytes each.
 */
TRACE_EVENT(violation_detail,
	    TP_PROTO(const struct tlob_diag *d),
	    TP_ARGS(d),
	    TP_STRUCT__entry(__field(u64, start_ns)
			     __field(u64, capture_ns)
			     __field(u32, pid)
			     __field(u32, tgid)
			     __field(u32, binding_id)
			     __field(u32, cpu)
			     __field(u32, migrations)
			     __field(u32, waker_pid)
			     __field(u8, state)
			     __field(u8, ustack_when)
			     __field(u8, nr_ran)
			     __array(char, waker_comm, TLOB_COMM_LEN)
			     __dynamic_array(u64, ustack, d->nr_ustack)
			     __dynamic_array(u64, kstack, d->nr_kstack)
			     __array(u32, ran_pid, TLOB_DIAG_RAN)
			     __array(u32, ran_prio, TLOB_DIAG_RAN)
			     __array(u8, ran_policy, TLOB_DIAG_RAN)
			     __array(u64, ran_ns, TLOB_DIAG_RAN)
			     __array(char, ran_comm, TLOB_DIAG_RAN * TLOB_COMM_LEN)),
	    TP_fast_assign(__entry->start_ns = d->start_ns;
			   __entry->capture_ns = d->capture_ns;
			   __entry->pid = d->pid;
			   __entry->tgid = d->tgid;
			   __entry->binding_id = d->binding_id;
			   __entry->cpu = d->cpu;
			   __entry->migrations = d->migrations;
			   __entry->waker_pid = d->waker_pid;
			   __entry->state = d->state;
			   __entry->ustack_when = d->ustack_when;
			   __entry->nr_ran = d->nr_ran;
			   memcpy(__entry->waker_comm, d->waker_comm, TLOB_COMM_LEN);
			   memcpy(__get_dynamic_array(ustack), d->ustack,
				  d->nr_ustack * sizeof(u64));
			   memcpy(__get_dynamic_array(kstack), d->kstack,
				  d->nr_kstack * sizeof(u64));
				for (unsigned int i = 0; i < TLOB_DIAG_RAN; i++) {
					__entry->ran_pid[i] = d->ran[i].pid;
					__entry->ran_prio[i] = d->ran[i].prio;
					__entry->ran_policy[i] = d->ran[i].policy;
					__entry->ran_ns[i] = d->ran[i].ns;
					memcpy(__entry->ran_comm + i * TLOB_COMM_LEN,
					       d->ran[i].comm, TLOB_COMM_LEN);
				}),
	    TP_printk("pid=%u tgid=%u binding_id=%u start_ns=%llu capture_ns=%llu state=%u cpu=%u migrations=%u waker=%u:%s ustack_when=%u ustack=%s kstack=%s nr_ran=%u ran=%u:%s:%u:%u:%llu,%u:%s:%u:%u:%llu,%u:%s:%u:%u:%llu,%u:%s:%u:%u:%llu",
		      __entry->pid, __entry->tgid, __entry->binding_id,
		      __entry->start_ns, __entry->capture_ns, __entry->state,
		      __entry->cpu, __entry->migrations, __entry->waker_pid,
		      __entry->waker_comm, __entry->ustack_when,
		      __print_array(__get_dynamic_array(ustack),
				    __get_dynamic_array_len(ustack) / sizeof(u64),
				    sizeof(u64)),
		      __print_array(__get_dynamic_array(kstack),
				    __get_dynamic_array_len(kstack) / sizeof(u64),
				    sizeof(u64)),
		      __entry->nr_ran,
		      __entry->ran_pid[0], __entry->ran_comm,
		      __entry->ran_policy[0], __entry->ran_prio[0],
		      __entry->ran_ns[0],
		      __entry->ran_pid[1], __entry->ran_comm + TLOB_COMM_LEN,
		      __entry->ran_policy[1], __entry->ran_prio[1],
		      __entry->ran_ns[1],
		      __entry->ran_pid[2], __entry->ran_comm + 2 * TLOB_COMM_LEN,
		      __entry->ran_policy[2], __entry->ran_prio[2],
		      __entry->ran_ns[2],
		      __entry->ran_pid[3], __entry->ran_comm + 3 * TLOB_COMM_LEN,
		      __entry->ran_policy[3], __entry->ran_prio[3],
		      __entry->ran_ns[3])
);

/*
 * PREEMPT_RT only: a record of the instance that wakes readers at once
 * (a violation, a dropped START) was written on CPU from_cpu; this one,
 * written on another CPU, wakes the readers of that CPU's buffer
 * (tlob_notify.c says why). No record of its own: a reader skips it.
 */
TRACE_EVENT(notify,
	    TP_PROTO(int from_cpu),
	    TP_ARGS(from_cpu),
	    TP_STRUCT__entry(__field(int, from_cpu)),
	    TP_fast_assign(__entry->from_cpu = from_cpu;),
	    TP_printk("from_cpu=%d", __entry->from_cpu)
);

#endif /* _TLOB_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tlob_trace
#include <trace/define_trace.h>
