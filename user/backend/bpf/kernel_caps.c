// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's BPF capabilities that choose tlob's programs
 * (kernel_caps.h), from its BTF: one parse of vmlinux's BTF per load.
 *
 * Why private stacks stand for preemptible tracepoints: until 6.12 (and
 * on PREEMPT_RT too) a tracepoint's probes, BPF programs included, run
 * with preemption off (__DO_TRACE), so no task can be preempted inside
 * tlob_exec and no run of it is skipped for another's; the second
 * programs would only cost a verification each (about 1.1 s of the 8 s
 * a load takes on the emulated 6.1 lanes). The kernels that do run them
 * preemptible (the 7.3 lanes) came later than private stacks (6.13,
 * bpf_jit_supports_private_stack() in BTF), so keying on those keeps the
 * second programs on every kernel that may need them, and on some
 * (6.13 to the change) that do not.
 */
#include <bpf/btf.h>
#include "backend/bpf/kernel_caps.h"

static bool has_func(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
}

void tb_kernel_caps(struct tb_kernel_caps *c)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool private_stack;

	c->preempt_kfuncs = false;
	c->tp_preemptible = false;
	if (!btf)
		return;
	private_stack = has_func(btf, "bpf_jit_supports_private_stack");
	c->preempt_kfuncs = private_stack && has_func(btf, "bpf_preempt_disable") &&
			    has_func(btf, "bpf_preempt_enable");
	c->tp_preemptible = private_stack;
	btf__free(btf);
}
