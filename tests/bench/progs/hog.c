// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_FIFO CPU hog for the detection-latency benchmark: pins itself
 * to CPU, takes SCHED_FIFO priority PRIO and spins until killed. RT
 * throttling (sched_rt_runtime_us, 95 % by default) leaves the other
 * tasks of that CPU the remaining 5 %.
 *
 *   bench-hog [-c CPU] [-p PRIO]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "marks.h"

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	int cpu = 1, opt;

	while ((opt = getopt(argc, argv, "c:p:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'p': sp.sched_priority = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench-hog [-c CPU] [-p PRIO]\n");
			return 2;
		}
	}
	bench_pin(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setscheduler");
		return 2;
	}
	for (;;)
		__asm__ volatile("" ::: "memory");
}
