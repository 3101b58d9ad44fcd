// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF backend's benchmark floors (tests/bench/bpf/floor.bpf.c):
 * attach the empty programs, print "attached N", hold them until
 * SIGINT/SIGTERM, detach.
 *
 *   bench-bpffloor sched           empty tp_btf programs on sched_switch,
 *                                  sched_wakeup, sched_waking,
 *                                  sched_process_exit and one or two on
 *                                  sched_process_exec (tlob.bpf.c's),
 *                                  and one or two more on
 *                                  sched_process_exit and one on
 *                                  hrtimer_expire_exit where the verifier
 *                                  takes bpf_timer (tlob_timer.bpf.c's);
 *                                  the second ones where tlob loads them
 *                                  (user/backend/bpf/kernel_caps.h); where
 *                                  bpf_timer does not load, an empty
 *                                  program on the sampler's perf event
 *                                  (user/backend/bpf/sampler.h) instead, at
 *                                  the backend's default period
 *   bench-bpffloor uprobe BINARY   one empty uprobe program at BINARY's
 *                                  bench_start and bench_stop (every
 *                                  process), as tlob_uprobe is attached
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bench_floor.skel.h"
#include "backend/bpf/kernel_caps.h"
#include "backend/bpf/sampler.h"

/* The bpf_timer attempt's refusal is expected on PREEMPT_RT 6.1. */
static int quiet;

static int print_warn(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	if (level == LIBBPF_DEBUG || quiet)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * The programs tlob.bpf.c (NR_ALWAYS) and tlob_timer.bpf.c (the rest,
 * where bpf_timer loads) attach to tracepoints.
 */
#define NR_ALWAYS	6
#define NR_SCHED	9
/* tlob_exec_again's and tlob_timer_exit_again's floors */
#define EXEC_AGAIN	4
#define TIMER_EXIT_AGAIN 7

static int fail(const char *what, long err)
{
	fprintf(stderr, "bench-bpffloor: %s: %s\n", what, strerror(-err));
	return 1;
}

int main(int argc, char **argv)
{
	struct bpf_program *sched[NR_SCHED] = { NULL };
	static const char *const marks[] = { "bench_start", "bench_stop" };
	struct bpf_link *links[NR_SCHED] = { NULL };
	struct bench_floor_bpf *skel;
	struct tb_kernel_caps caps;
	bool want[NR_SCHED];
	int uprobe, timer, n = 0, i, sig, rc = 0, sample_fd = -1, cpu;
	const char *what = "";
	sigset_t set;
	long err;

	uprobe = argc == 3 && !strcmp(argv[1], "uprobe");
	if (!uprobe && !(argc == 2 && !strcmp(argv[1], "sched"))) {
		fprintf(stderr, "usage: bench-bpffloor sched | uprobe BINARY\n");
		return 2;
	}
	libbpf_set_print(print_warn);
	/* Taken with sigwait, before any thread or link exists. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	tb_kernel_caps(&caps);

	/*
	 * As tlob's loader: with the bpf_timer program first; if the verifier
	 * refuses it (PREEMPT_RT 6.1), the floor tlob has there: without.
	 */
	for (timer = !uprobe; ; timer = 0) {
		skel = bench_floor_bpf__open();
		if (!skel)
			return fail("open", -errno);
		sched[0] = skel->progs.floor_switch;
		sched[1] = skel->progs.floor_wakeup;
		sched[2] = skel->progs.floor_exit;
		sched[3] = skel->progs.floor_exec;
		sched[4] = skel->progs.floor_exec_again;
		sched[5] = skel->progs.floor_waking;
		sched[6] = skel->progs.floor_timer_exit;
		sched[7] = skel->progs.floor_timer_exit_again;
		sched[8] = skel->progs.floor_timer_done;
		/* Load only what this floor attaches. */
		for (i = 0; i < NR_SCHED; i++) {
			want[i] = !uprobe && (i < NR_ALWAYS || timer) &&
				  ((i != EXEC_AGAIN && i != TIMER_EXIT_AGAIN) ||
				   caps.tp_preemptible);
			bpf_program__set_autoload(sched[i], want[i]);
		}
		bpf_program__set_autoload(skel->progs.floor_uprobe, uprobe);
		/* tlob's sampler runs where its bpf_timer does not load. */
		bpf_program__set_autoload(skel->progs.floor_sample, !uprobe && !timer);
		quiet = timer;
		err = bench_floor_bpf__load(skel);
		quiet = 0;
		if (!err || !timer)
			break;
		bench_floor_bpf__destroy(skel);
	}
	if (err) {
		rc = fail("load", err);
		goto out;
	}
	for (i = 0; i < (uprobe ? 2 : NR_SCHED); i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, o, .func_name = marks[i & 1]);

		if (!uprobe && !want[i])
			continue;
		if (uprobe)
			links[i] = bpf_program__attach_uprobe_opts(
				skel->progs.floor_uprobe, -1, argv[2], 0, &o);
		else
			links[i] = bpf_program__attach(sched[i]);
		err = libbpf_get_error(links[i]);
		if (err) {
			links[i] = NULL;
			rc = fail(uprobe ? marks[i] : bpf_program__name(sched[i]),
				  err);
			goto out;
		}
		n++;
	}
	if (!uprobe && !timer) {
		sample_fd = tb_sampler_attach(bpf_program__fd(skel->progs.floor_sample),
					      TB_SAMPLE_US_DEFAULT * 1000ULL, &cpu, &what);
		if (sample_fd < 0) {
			rc = fail(what, sample_fd);
			goto out;
		}
		printf("sampler on CPU %d every %d us\n", cpu, TB_SAMPLE_US_DEFAULT);
		n++;
	}
	printf("attached %d\n", n);
	fflush(stdout);
	sigwait(&set, &sig);
out:
	if (sample_fd >= 0)
		close(sample_fd);
	for (i = 0; i < NR_SCHED; i++)
		bpf_link__destroy(links[i]);
	bench_floor_bpf__destroy(skel);
	return rc;
}
