/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel does with BPF programs that changes which of
 * tlob's programs are loaded, read once from its BTF. The loader
 * (load.c) and the benchmark's floor (tests/bench/progs/bpffloor.c) both
 * ask here, so the floor attaches what tlob attaches.
 */
#ifndef TLOB_KERNEL_CAPS_H
#define TLOB_KERNEL_CAPS_H

#include <stdbool.h>

struct tb_kernel_caps {
	/*
	 * bpf_preempt_disable()/_enable() and private stacks (6.13): START/
	 * STOP runs as tlob_uprobe_np (tlob.bpf.c).
	 */
	bool preempt_kfuncs;
	/*
	 * The kernel may run a tracepoint's programs preemptible, so it can
	 * skip one task's run as a recursion while another task is preempted
	 * inside it (7.3: kernel/bpf/README.md "Exits on 7.x"): exec and the
	 * timer's exit then get a second program each.
	 */
	bool tp_preemptible;
};

/* Fill @c from /sys/kernel/btf/vmlinux; without BTF, everything false. */
void tb_kernel_caps(struct tb_kernel_caps *c);

#endif
