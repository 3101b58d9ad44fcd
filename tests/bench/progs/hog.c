// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_FIFO CPU hog for the detection-latency benchmark: pins itself
 * to CPU, takes SCHED_FIFO priority PRIO and spins until killed. RT
 * throttling (sched_rt_runtime_us, 95 % by default) leaves the other
 * tasks of that CPU the remaining 5 %.
 *
 *   bench-hog [-c CPU] [-p PRIO] [-b BURST_MS -s REST_US]
 *
 * -b/-s: spin BURST_MS, then sleep REST_US, again and again. On PREEMPT_RT
 * the timers of a SCHED_OTHER task's sleeps expire in a softirq thread
 * (ktimers, SCHED_FIFO 1) that a never-resting hog starves together with
 * itself: the starved task would never wake up at all.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "marks.h"

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	int cpu = 1, burst_ms = 0, rest_us = 0, opt;

	while ((opt = getopt(argc, argv, "c:p:b:s:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'p': sp.sched_priority = atoi(optarg); break;
		case 'b': burst_ms = atoi(optarg); break;
		case 's': rest_us = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench-hog [-c CPU] [-p PRIO] [-b BURST_MS -s REST_US]\n");
			return 2;
		}
	}
	bench_pin(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setscheduler");
		return 2;
	}
	for (;;) {
		uint64_t end = bench_now_ns() + (uint64_t)burst_ms * 1000000ull;

		while (!burst_ms || bench_now_ns() < end)
			__asm__ volatile("" ::: "memory");
		usleep(rest_us);
	}
}
