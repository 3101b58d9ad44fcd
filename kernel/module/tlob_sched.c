// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler tracepoints -> model events.
 *
 * sched_switch, sched_wakeup, sched_waking, sched_process_exit and
 * sched_process_exec are not exported to modules: they are found by name with
 * for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(). They are attached only while the monitor
 * is enabled and has a binding (tlob_main.c), so an unused monitor costs
 * nothing; attached, each probe first reads whether any window is open
 * (tlob_windows_open(): a flag on a cache line of its own, written only
 * when the first window opens or the last one ends) and returns when
 * none is; then, inline, whether its task's bucket holds any window. A
 * sched_switch reads the clock at most once for both tasks.
 *
 * Context: sched_switch runs inside __schedule() with the runqueue lock
 * held and IRQs off; sched_wakeup under the woken task's rq lock, on the
 * wakee's CPU when the wakeup was queued there; sched_waking in the
 * waker's context under the woken task's pi_lock, IRQs off.
 * The handlers only translate; tlob_monitor.c does the rest under its own
 * raw spinlocks and never wakes, prints or allocates.
 */
#include <linux/build_bug.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "tlob.h"
#include "tlob_switch_rule.h"

/*
 * Each probe has the exact prototype its tracepoint declares in the headers
 * built against: the tracepoint calls it through a pointer of that type,
 * which a kCFI kernel checks (a probe of another type traps at its first
 * call). Only the declarations are used, so nothing unexported is linked.
 */
#define TLOB_PROBE_TYPED(tp, fn)					\
	static_assert(__builtin_types_compatible_p(			\
		typeof(check_trace_callback_type_##tp),			\
		void (typeof(fn) *)), #fn " is not a " #tp " probe")

/*
 * Two model events, one for each task, at one time: one clock read; then
 * prev's time on this CPU for the windows waiting here (tlob_diag.c). A
 * task outside every window costs an inline look at its bucket, a CPU no
 * window waits on one per-CPU load: no call.
 */
static void tlob_on_switch(void *data, bool preempt, struct task_struct *prev,
			   struct task_struct *next, unsigned int prev_state)
{
	u64 now = 0;

	if (!tlob_windows_open())
		return;
	if (tlob_task_may_have_window(prev)) {
		bool blocked = tlob_task_blocked(prev);

		now = tlob_task_event(prev, tlob_switch_out_event(preempt,
								  prev_state,
								  blocked), 0);
	}
	if (tlob_task_may_have_window(next))
		now = tlob_task_event(next, switch_in_tlob, now);
	if (tlob_wdiag_waiters_here())
		tlob_wdiag_switch(prev, next, now);
}

static void tlob_on_wakeup(void *data, struct task_struct *p)
{
	if (tlob_windows_open() && tlob_task_may_have_window(p))
		tlob_task_event(p, wakeup_tlob, 0);
}

/*
 * Not a model event: who wakes the task (current here; at sched_wakeup,
 * queued to an idle CPU since 6.0, current is that CPU's idle task).
 */
static void tlob_on_waking(void *data, struct task_struct *p)
{
	if (tlob_windows_open() && tlob_task_may_have_window(p))
		tlob_task_waking(p);
}

/*
 * Windows end; so do alive and logical instances (tlob_alive.c and
 * tlob_logic.c check they have any).
 */
static TLOB_EXIT_PROBE(tlob_on_exit)
{
	if (tlob_windows_open())
		tlob_task_abort(p, TLOB_ABORT_EXIT);
	tlob_alive_task_gone(p, p->pid, TLOB_ABORT_EXIT);
	tlob_logic_task_gone(p, p->pid, TLOB_ABORT_EXIT);
}

static void tlob_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			 struct linux_binprm *bprm)
{
	if (tlob_windows_open())
		tlob_task_abort(p, TLOB_ABORT_EXEC);
	tlob_alive_task_gone(p, old_pid, TLOB_ABORT_EXEC);
	tlob_logic_task_gone(p, old_pid, TLOB_ABORT_EXEC);
}

TLOB_PROBE_TYPED(sched_switch, tlob_on_switch);
TLOB_PROBE_TYPED(sched_wakeup, tlob_on_wakeup);
TLOB_PROBE_TYPED(sched_waking, tlob_on_waking);
TLOB_PROBE_TYPED(sched_process_exit, tlob_on_exit);
TLOB_PROBE_TYPED(sched_process_exec, tlob_on_exec);

static struct tlob_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool attached;
} tlob_tps[] = {
	{ "sched_switch", tlob_on_switch },
	{ "sched_wakeup", tlob_on_wakeup },
	{ "sched_waking", tlob_on_waking },
	{ "sched_process_exit", tlob_on_exit },
	{ "sched_process_exec", tlob_on_exec },
};

static void tlob_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlob_tps); i++)
		if (!strcmp(tp->name, tlob_tps[i].name))
			tlob_tps[i].tp = tp;
}

/* Under tlob_ctl_mutex. */
void tlob_sched_detach(void)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlob_tps); i++) {
		if (!tlob_tps[i].attached)
			continue;
		tracepoint_probe_unregister(tlob_tps[i].tp, tlob_tps[i].probe,
					    NULL);
		tlob_tps[i].attached = false;
		any = true;
	}
	/* No probe runs on after this: the module may go, windows be freed. */
	if (any)
		tracepoint_synchronize_unregister();
}

/* Under tlob_ctl_mutex; all or nothing. */
int tlob_sched_attach(void)
{
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(tlob_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(tlob_tps); i++) {
		if (tlob_tps[i].attached)
			continue;
		if (!tlob_tps[i].tp) {
			pr_err("tracepoint %s not found\n", tlob_tps[i].name);
			ret = -ENOENT;
			goto fail;
		}
		ret = tracepoint_probe_register(tlob_tps[i].tp,
						tlob_tps[i].probe, NULL);
		if (ret)
			goto fail;
		tlob_tps[i].attached = true;
	}
	return 0;
fail:
	tlob_sched_detach();
	return ret;
}
