// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf_timer detector of tlob's BPF backend (stock kernels; PREEMPT_RT
 * 6.1 and 6.12 refuse bpf_timer and run the sampler of tlob.bpf.c instead).
 *
 * On 6.1 a uprobe program may not reference a map that holds a bpf_timer,
 * so the timers live here, in a separate object whose maps the loader
 * shares with tlob.bpf.o by fd: the uprobe program calls the global
 * subprograms tlob_arm()/tlob_cancel(), and the fexit programs below,
 * attached to those subprograms of the loaded uprobe program, arm and
 * cancel the window's timer synchronously, in the same context.
 *
 * One timer per window slot, in a preallocated array indexed by the
 * window's index (struct tlob_win::idx): set up (bpf_timer_init(), which
 * allocates, and the callback) the first time its slot is armed, then
 * only re-armed at each START and cancelled at STOP, so no window
 * allocates or frees anything. Task storage cannot hold one: 6.1 takes a
 * bpf_timer only in hash, LRU hash and array maps. A timer is relative
 * and soft (no absolute or hard mode on 6.1): armed once per window, at
 * START, for the budget; the deadline never moves. A timer whose window
 * ended some other way (exit, model error, an abort) fires harmlessly: it
 * finds no open window with its START time.
 *
 * The kernel frees an array's timers when the last user reference to the
 * map goes (its fd, its pin), whatever programs still use it: a pinned
 * monitor pins this map too (pin.c).
 */
#include "tlob_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define CLOCK_MONOTONIC 1

struct tlob_tmr {
	struct bpf_timer timer;
	__u64 start_ns;		/* START of the window it was armed for */
	__u32 ready;		/* bpf_timer_init() and the callback done */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_MAX_TASKS * TLOB_BPF_NEST);
	__type(key, __u32);
	__type(value, struct tlob_tmr);
} tlob_timers SEC(".maps");

static int tlob_timer_fired(void *map, __u32 *key, struct tlob_tmr *t)
{
	struct tlob_win *w = tlob_win_at(*key);

	if (w && tlob_active(w) && tlob_core_start(&w->core) == t->start_ns)
		tlob_check(&w->core, bpf_ktime_get_ns(), TLOB_DETECT_BPF_TIMER,
			   event_max_tlob);
	return 0;
}

SEC("fexit/tlob_arm")
int BPF_PROG(tlob_arm_exit, __u32 idx, __u64 start_ns, __u64 delay_ns, int ret)
{
	struct tlob_tmr *t = bpf_map_lookup_elem(&tlob_timers, &idx);
	long err;

	if (!t) {
		/* Sized not to happen; STOP and the scheduler still check. */
		tlob_count_lost(TLOB_LOST_NOTIMER);
		return 0;
	}
	if (!t->ready) {
		/* -EBUSY: set up already (a ready flag lost to a race). */
		err = bpf_timer_init(&t->timer, &tlob_timers, CLOCK_MONOTONIC);
		if (err && err != -16) {
			tlob_count_lost(TLOB_LOST_NOTIMER);
			return 0;
		}
		bpf_timer_set_callback(&t->timer, tlob_timer_fired);
		t->ready = 1;
	}
	t->start_ns = start_ns;
	if (bpf_timer_start(&t->timer, delay_ns, 0)) {
		/* Freed under us (the map lost its last user reference). */
		t->ready = 0;
		tlob_count_lost(TLOB_LOST_NOTIMER);
	}
	return 0;
}

SEC("fexit/tlob_cancel")
int BPF_PROG(tlob_cancel_exit, __u32 idx, int ret)
{
	struct tlob_tmr *t = bpf_map_lookup_elem(&tlob_timers, &idx);

	if (t && t->ready)
		bpf_timer_cancel(&t->timer);
	return 0;
}
