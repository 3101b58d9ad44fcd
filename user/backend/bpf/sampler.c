// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler's perf event and its link (sampler.h). One CPU is enough: the sampler
 * checks every open window whatever CPU its task is on, and one event
 * costs one CPU's interrupts, not every CPU's.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/bpf/sampler.h"

int tb_sampler_attach(int prog_fd, unsigned long long period_ns, int *cpu,
		      const char **what)
{
	struct perf_event_attr attr;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int fd = -1, lfd, c;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = period_ns;	/* cpu-clock counts ns */
	for (c = 0; c < cpus && fd < 0; c++)
		fd = syscall(__NR_perf_event_open, &attr, -1, c, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		*what = "cannot open the sampler's cpu-clock perf event";
		return -errno;
	}
	*cpu = c - 1;
	/* The link holds the event: its fd is not needed any more. */
	lfd = bpf_link_create(prog_fd, fd, BPF_PERF_EVENT, NULL);
	close(fd);
	if (lfd < 0)
		*what = "cannot attach the sampler";
	return lfd;
}
