// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobes with attach cookies from a program fd alone, so that a tlob
 * process that did not load the programs (a `tlob bind` against a pinned
 * monitor) can attach too: a uprobe perf event (the uprobe PMU, as
 * libbpf's own attach does) plus a BPF_PERF_EVENT link carrying the
 * cookie. The link holds the perf event; the event fd is closed at once.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "backend/bpf/loader.h"
#include "lib/utils.h"

static int read_sysfs(const char *path, const char *fmt, int *val)
{
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, fmt, val);
	fclose(f);
	return n == 1 ? 0 : -EINVAL;
}

int tb_attach_uprobe(int prog_fd, const char *path, uint64_t offset, bool ret,
		     uint64_t cookie, char *err, size_t len)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .perf_event.bpf_cookie = cookie);
	struct perf_event_attr attr;
	int type, bit = 0, pfd, lfd;

	if (read_sysfs("/sys/bus/event_source/devices/uprobe/type", "%d", &type)) {
		snprintf(err, len, "this kernel has no uprobe PMU (CONFIG_UPROBE_EVENTS)");
		return -EOPNOTSUPP;
	}
	if (ret && read_sysfs("/sys/bus/event_source/devices/uprobe/format/retprobe",
			      "config:%d", &bit)) {
		snprintf(err, len, "this kernel's uprobe PMU has no retprobe bit");
		return -EOPNOTSUPP;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = ret ? 1ULL << bit : 0;
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = offset;
	pfd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0) {
		int e = errno;

		snprintf(err, len, "cannot place a %s at %s:0x%llx: %s",
			 ret ? "uretprobe" : "uprobe", TLOB_SHOWN(path), (unsigned long long)offset,
			 strerror(e));
		return -e;
	}
	lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, &opts);
	if (lfd < 0)
		snprintf(err, len, "cannot attach the BPF program to %s:0x%llx: %s",
			 TLOB_SHOWN(path), (unsigned long long)offset, strerror(-lfd));
	close(pfd);
	return lfd;
}
