// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: the BPF backend's benchmark floors (tests/bench/progs/
 * bpffloor.c loads them). Empty programs on what kernel/bpf/tlob.bpf.c
 * attaches: tp_btf programs on the five scheduler tracepoints it uses,
 * and one uprobe program, attached at START and at STOP as tlob_uprobe
 * is. Each returns at once: what is left is the price of being attached.
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

SEC("uprobe")
int floor_uprobe(struct pt_regs *ctx)
{
	return 0;
}
