// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: the BPF backend's benchmark floors (tests/bench/progs/
 * bpffloor.c loads them). Empty programs on what kernel/bpf/tlob.bpf.c
 * attaches: tp_btf programs on the five scheduler tracepoints it uses
 * (two on sched_process_exec, as tlob_exec and tlob_exec_again), the two
 * on sched_process_exit and the one on
 * hrtimer_expire_exit that kernel/bpf/tlob_timer.bpf.c adds where
 * bpf_timer loads, an empty sampler where it does not (tlob_sample's,
 * on the same perf event), and one uprobe program, attached at START and
 * at STOP as tlob_uprobe is. Each returns at once: what is left is the
 * price of being attached.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch)
{
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(floor_wakeup)
{
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(floor_waking)
{
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(floor_exit)
{
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(floor_exec)
{
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(floor_exec_again)
{
	return 0;
}

/* tlob_timer.bpf.c's two, where bpf_timer loads (bpffloor.c) */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(floor_timer_exit)
{
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(floor_timer_exit_again)
{
	return 0;
}

/*
 * tlob's loader uses bpf_timer where the verifier takes it (not 6.1
 * PREEMPT_RT), and only then attaches its hrtimer_expire_exit program.
 * This one initialises a bpf_timer in a branch never taken, so that the
 * same verifier decides whether this floor has it too. floor_never is in
 * .bss, not .rodata: the verifier must not know its value, or it would
 * prune the branch (and with it the PREEMPT_RT refusal, which comes with
 * the bpf_timer_init() call, not with the map).
 */
struct floor_tmr {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct floor_tmr);
} floor_timers SEC(".maps");

int floor_never;

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(floor_timer_done)
{
	struct floor_tmr *t;
	__u32 zero = 0;

	if (floor_never) {
		t = bpf_map_lookup_elem(&floor_timers, &zero);
		if (t)
			bpf_timer_init(&t->timer, &floor_timers, 1);
	}
	return 0;
}

SEC("uprobe")
int floor_uprobe(struct pt_regs *ctx)
{
	return 0;
}

/*
 * tlob.bpf.c's tlob_sample, where bpf_timer does not load: on the
 * sampler's perf event (user/backend/bpf/sampler.c), at the backend's period.
 */
SEC("perf_event")
int floor_sample(struct bpf_perf_event_data *ctx)
{
	return 0;
}
