// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf_timer detector of tlob's BPF backend (stock kernels; PREEMPT_RT
 * 6.1 refuses bpf_timer and runs the sampler of tlob.bpf.c instead).
 *
 * On 6.1 a uprobe program may not reference a map that holds a bpf_timer,
 * so the timers live here, in a separate object whose maps the loader
 * shares with tlob.bpf.o by fd: the uprobe program calls the global
 * subprograms tlob_arm()/tlob_cancel(), and the fexit programs below,
 * attached to those subprograms of the loaded uprobe program, arm and
 * cancel the task's timer synchronously, in the same context.
 *
 * A timer is relative and soft (no absolute or hard mode on 6.1): it is
 * armed once per window, at START, for the budget; the deadline never
 * moves. Each of a task's window slots has one timer, set up (allocated)
 * at its first START and re-armed by the next ones; STOP cancels it. The
 * timers go when their task exits (tlob_timer_exit) or when the monitor
 * is attached again (the loader empties the map). A timer whose window
 * ended some other way (exec, model error) fires harmlessly: it finds no
 * open window with its START time.
 *
 * The callback runs without rcu_read_lock() on 6.1, which the stack walk
 * wants: a deadline's user stack is taken by tlob_timer_done, when the
 * hrtimer returns (tlob_diag.bpf.h).
 */
#define TLOB_DIAG_STACK_AFTER_CALLBACK
#include "tlob_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define CLOCK_MONOTONIC 1
#define TLOB_EBUSY 16		/* errno's, not in vmlinux.h */

/*
 * Arm the element t of map for delay_ns, with callback cb. Its hrtimer is
 * set up once (bpf_timer_init(); -EBUSY: it has one) and re-armed at every
 * next use. The callback is set at every use: bpf_timer_cancel() drops it
 * with its program reference, and bpf_timer_start() refuses a timer
 * without one (-EINVAL). The kernel sets up a timer only in a map user
 * space holds, by an fd or a pin (-EPERM), and frees every timer of a map
 * whose last holder goes (the element keeps ready; setting the callback
 * then fails, -EINVAL). Either way the use is counted TLOB_LOST_NOTIMER,
 * which sessions report, and the timer is set up again at the next one;
 * STOP, the scheduler hooks and checkpoints still judge meanwhile.
 */
#define tlob_timer_arm(t, map, cb, delay_ns)					\
	do {									\
		typeof(t) __t = (t);						\
		long __err = 0;							\
										\
		if (!__t->ready) {						\
			__err = bpf_timer_init(&__t->timer, &(map), CLOCK_MONOTONIC); \
			if (__err == -TLOB_EBUSY)				\
				__err = 0;					\
		}								\
		if (!__err)							\
			__err = bpf_timer_set_callback(&__t->timer, cb);	\
		if (!__err)							\
			__err = bpf_timer_start(&__t->timer, delay_ns, 0);	\
		__t->ready = !__err;						\
		if (__err)							\
			tlob_count_lost(TLOB_LOST_NOTIMER);			\
	} while (0)

struct tlob_tmr {
	struct bpf_timer timer;
	__u64 start_ns;		/* START of the window it was armed for */
	__u32 ready;		/* bpf_timer_init() done: its hrtimer is there */
	__u32 pad;
};

/*
 * Key: tid in the low 32 bits, the window's slot above. An element lives
 * from its slot's first START to the task's exit, as the task's entry in
 * the windows map does: one per window that can be open, so it never
 * fills before the windows map does.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_MAX_TASKS * TLOB_BPF_NEST);
	__type(key, __u64);
	__type(value, struct tlob_tmr);
} tlob_timers SEC(".maps");

static int tlob_timer_fired(void *map, __u64 *key, struct tlob_tmr *t)
{
	__u32 tid = (__u32)*key, slot = (*key >> 32) & (TLOB_BPF_NEST - 1);
	__u64 start = t->start_ns;
	struct tlob_task *task;
	struct tlob_win *w;

	task = bpf_map_lookup_elem(&tlob_windows, &tid);
	if (task) {
		w = &task->win[slot];
		if (tlob_active(w) && tlob_core_start(&w->core) == start)
			tlob_check(&w->core, bpf_ktime_get_ns(), TLOB_DETECT_BPF_TIMER,
				   event_max_tlob);
	}
	return 0;
}

SEC("fexit/tlob_arm")
int BPF_PROG(tlob_arm_exit, __u32 tid, __u32 slot, __u64 start_ns, __u64 delay_ns,
	     int ret)
{
	__u64 key = tid | ((__u64)slot << 32);
	struct tlob_tmr zero = {};
	struct tlob_tmr *t;

	t = bpf_map_lookup_elem(&tlob_timers, &key);
	if (!t) {
		bpf_map_update_elem(&tlob_timers, &key, &zero, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&tlob_timers, &key);
	}
	if (!t) {
		/* Sized not to happen; STOP and the scheduler still check. */
		tlob_count_lost(TLOB_LOST_NOTIMER);
		return 0;
	}
	t->start_ns = start_ns;
	tlob_timer_arm(t, tlob_timers, tlob_timer_fired, delay_ns);
	return 0;
}

SEC("fexit/tlob_cancel")
int BPF_PROG(tlob_cancel_exit, __u32 tid, __u32 slot, int ret)
{
	__u64 key = tid | ((__u64)slot << 32);
	struct tlob_tmr *t = bpf_map_lookup_elem(&tlob_timers, &key);

	/* Kept for the slot's next START (re-armed, not set up again). */
	if (t)
		bpf_timer_cancel(&t->timer);
	return 0;
}

/*
 * Alive supervision's cycle timers (tlob_alive.bpf.h), one per instance,
 * by the instance's key: armed at its first checkpoint for the end of
 * cycle 0, re-armed by its callback for the end of each next cycle. A
 * timer whose instance ended (or began again under the same key: its
 * begin differs) frees its element from its callback, which the kernel
 * allows (bpf_timer_cancel_and_free() skips its own running callback).
 */
struct tlob_alive_tmr {
	struct bpf_timer timer;
	__u64 begin_ns;		/* begin of the instance it was armed for */
	__u32 ready;		/* bpf_timer_init() done */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_INSTANCES);
	__type(key, __u64);
	__type(value, struct tlob_alive_tmr);
} tlob_alive_timers SEC(".maps");

static int tlob_alive_fired(void *map, __u64 *key, struct tlob_alive_tmr *t)
{
	struct tlob_alive_inst *a = bpf_map_lookup_elem(&tlob_alive_insts, key);
	__u64 now = bpf_ktime_get_ns(), due;

	if (!a || a->begin_ns != t->begin_ns) {
		bpf_map_delete_elem(&tlob_alive_timers, key);
		return 0;
	}
	due = tlob_alive_catch_up(a, now, TLOB_DETECT_BPF_TIMER);
	if (due)
		bpf_timer_start(&t->timer, due > now ? due - now : 1, 0);
	return 0;
}

SEC("fexit/tlob_alive_arm")
int BPF_PROG(tlob_alive_arm_exit, __u64 key, __u64 begin_ns, __u64 delay_ns, int ret)
{
	struct tlob_alive_tmr zero = {};
	struct tlob_alive_tmr *t;

	t = bpf_map_lookup_elem(&tlob_alive_timers, &key);
	if (!t) {
		bpf_map_update_elem(&tlob_alive_timers, &key, &zero, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&tlob_alive_timers, &key);
	}
	if (!t) {
		/* Sized as the instances: not to happen. Checkpoints still judge. */
		tlob_count_lost(TLOB_LOST_NOTIMER);
		return 0;
	}
	t->begin_ns = begin_ns;
	tlob_timer_arm(t, tlob_alive_timers, tlob_alive_fired, delay_ns);
	return 0;
}

/*
 * Logical supervision's invariant timers (tlob_logic.bpf.h), one per
 * instance, by its key: armed at an edge into a state with an invariant
 * for the moment the clock reaches it, cancelled at an edge into one
 * without; the callback ends the instance TIMING if it is still past it,
 * and frees its element once the instance is gone. A timer cancelled
 * when its instance ends elsewhere (exit, exec, unbind, disable: programs
 * that cannot reach it) has no callback to come: any task's exit frees
 * such timers (tlob_timer_exit), while there are some.
 */
struct tlob_logic_tmr {
	struct bpf_timer timer;
	__u64 start_ns;		/* start of the instance it was armed for */
	__u32 ready;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_INSTANCES);
	__type(key, __u64);
	__type(value, struct tlob_logic_tmr);
} tlob_logic_timers SEC(".maps");

/* Elements in tlob_logic_timers: the exit hook looks for orphans only while there are some. */
__u64 tlob_logic_timers_nr;

static __always_inline void tlob_logic_timer_free(__u64 *key)
{
	if (!bpf_map_delete_elem(&tlob_logic_timers, key))
		__sync_fetch_and_add(&tlob_logic_timers_nr, -1);
}

/* A timer whose instance is gone (or began again: another start) goes. */
static long tlob_logic_orphan(struct bpf_map *map, __u64 *key, struct tlob_logic_tmr *t,
			      void *ctx)
{
	struct tlob_logic_inst *l = bpf_map_lookup_elem(&tlob_logic_insts, key);

	if (!l || l->start_ns != t->start_ns)
		tlob_logic_timer_free(key);
	return 0;
}

static int tlob_logic_fired(void *map, __u64 *key, struct tlob_logic_tmr *t)
{
	struct tlob_logic_inst *l = bpf_map_lookup_elem(&tlob_logic_insts, key);
	__u64 now = bpf_ktime_get_ns(), due;

	if (!l || l->start_ns != t->start_ns) {
		tlob_logic_timer_free(key);
		return 0;
	}
	/* Not yet (its clock was reset meanwhile): when it is due now. */
	due = tlob_logic_check(l, *key, now);
	if (due)
		bpf_timer_start(&t->timer, due > now ? due - now : 1, 0);
	return 0;
}

SEC("fexit/tlob_logic_arm")
int BPF_PROG(tlob_logic_arm_exit, __u64 key, __u64 start_ns, __u64 delay_ns, int ret)
{
	struct tlob_logic_tmr zero = {};
	struct tlob_logic_tmr *t;

	t = bpf_map_lookup_elem(&tlob_logic_timers, &key);
	if (!delay_ns) {
		/* A state without an invariant: kept for the instance's next one. */
		if (t)
			bpf_timer_cancel(&t->timer);
		return 0;
	}
	if (!t) {
		if (!bpf_map_update_elem(&tlob_logic_timers, &key, &zero, BPF_NOEXIST))
			__sync_fetch_and_add(&tlob_logic_timers_nr, 1);
		t = bpf_map_lookup_elem(&tlob_logic_timers, &key);
	}
	if (!t) {
		tlob_count_lost(TLOB_LOST_NOTIMER);
		return 0;
	}
	t->start_ns = start_ns;
	tlob_timer_arm(t, tlob_logic_timers, tlob_logic_fired, delay_ns);
	return 0;
}

/*
 * A task's exit: its slots' timers (deleting cancels them), and the
 * logical instances' timers cancelled by ends elsewhere. Two programs, as
 * tlob_exec (tlob.bpf.c): on 7.x the kernel may skip one's run for a task
 * exiting while another is preempted inside it on the same CPU; two make
 * that rarer, not impossible (tlob_exit_run() explains). An entry left
 * here is a timer that finds no window when it fires, deleted with the
 * pid's next exit.
 */
static __always_inline int tlob_timer_exit_run(struct task_struct *p)
{
	__u64 key = (__u32)p->pid;
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		bpf_map_delete_elem(&tlob_timers, &key);
		key += 1ULL << 32;
	}
	/* Logical instances it ended (tlob_exit ran first): their cancelled timers. */
	if (READ_ONCE(tlob_logic_timers_nr))
		bpf_for_each_map_elem(&tlob_logic_timers, tlob_logic_orphan, NULL, 0);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tlob_timer_exit, struct task_struct *p)
{
	return tlob_timer_exit_run(p);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tlob_timer_exit_again, struct task_struct *p)
{
	return tlob_timer_exit_run(p);
}

/*
 * Every hrtimer that expires on any CPU, right after its callback, in the
 * same context: one per-CPU lookup unless a callback above owed a stack.
 */
SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(tlob_timer_done, struct hrtimer *hrtimer)
{
	tlob_diag_pay_ustack();
	return 0;
}
