/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler's perf event: where the verifier refuses bpf_timer
 * (PREEMPT_RT), tlob_sample (tlob.bpf.c) runs on a cpu-clock perf
 * event's overflow every period instead. The loader (load.c) and the
 * benchmark's floor (tests/bench/progs/bpffloor.c: an empty program on
 * the same event) both open it here, so the floor pays for the
 * interrupts the backend pays for.
 */
#ifndef TLOB_SAMPLER_H
#define TLOB_SAMPLER_H

/* The sampling period unless TLOB_BPF_SAMPLE_US says otherwise. */
#define TB_SAMPLE_US_DEFAULT	1000

/*
 * Program @prog_fd on a cpu-clock perf event overflowing every
 * @period_ns, on the first CPU that takes it (*@cpu): the link's fd, or
 * -errno with *@what naming the step that failed.
 */
int tb_sampler_attach(int prog_fd, unsigned long long period_ns, int *cpu,
		      const char **what);

#endif
