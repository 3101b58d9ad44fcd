// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-work: the end-to-end scenarios tlob-workload has no mode for
 * (tests/e2e/, tests/guest/5*-e2e-*.t). One section, e2e_begin ..
 * e2e_end, bound by symbol name (the tool resolves it).
 *
 * usage: e2e-work [-c CPU] MODE ARGS
 *   yield MS [N]      N (default 3) SCHED_OTHER competitors spin on our CPU
 *                     (-c) while the window calls sched_yield() in a loop
 *                     for MS ms. CFS keeps the shares fair whatever the
 *                     yields do (with one competitor it is a 50/50 tie), so
 *                     with N the window runs about 1/(N+1) of the time and
 *                     waits the rest, switched out at every yield
 *   restart N OV OK   N windows: the first spins OV ms (over its budget),
 *                     the N-1 others OK ms; a later window must not carry
 *                     the first one's clock or verdict
 *   threads T R MS K  T threads, R rounds: all T wait at a barrier, then
 *                     each spins (K = spin) or sleeps (K = sleep) MS ms of
 *                     wall clock in its own window, so
 *                     the T windows of a round overlap from start to end
 *                     (creating threads under emulation takes long enough
 *                     that without the barrier the first ones run alone)
 * Prints "windows=N yields=N".
 *
 * Like tlob-workload it calls e2e_end() once before any window: the first
 * uprobe hit of a process sets up its XOL page, a one-time cost (tens of
 * ms under emulation) that must not land in the first window.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, used))

NOINLINE void e2e_begin(void) { __asm__ volatile("" ::: "memory"); }
NOINLINE void e2e_end(void) { __asm__ volatile("" ::: "memory"); }

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void spin_ms(long ms)
{
	unsigned long long end = now_ns() + ms * 1000000ULL;

	while (now_ns() < end)
		;
}

static void pin(long c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

static pthread_barrier_t barrier;
static long rounds, thread_ms;
static int thread_sleeps;

static void *thread_fn(void *p)
{
	long i;

	(void)p;
	for (i = 0; i < rounds; i++) {
		pthread_barrier_wait(&barrier);
		e2e_begin();
		if (thread_sleeps)
			usleep(thread_ms * 1000);
		else
			spin_ms(thread_ms);
		e2e_end();
	}
	return NULL;
}

static long threads(long n)
{
	pthread_t *t = calloc(n, sizeof(*t));
	long i;

	if (!t || pthread_barrier_init(&barrier, NULL, n))
		exit(2);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_fn, NULL))
			exit(2);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return n * rounds;
}

static long arg(char **argv, int i, int argc)
{
	if (i >= argc) {
		fprintf(stderr, "e2e-work: missing argument\n");
		exit(2);
	}
	return strtol(argv[i], NULL, 0);
}

int main(int argc, char **argv)
{
	long cpu = -1, windows = 0, yields = 0, n, i;
	pid_t comp[8];
	unsigned long long end;
	const char *mode;
	int opt;

	while ((opt = getopt(argc, argv, "+c:")) != -1) {
		if (opt != 'c')
			return 2;
		cpu = strtol(optarg, NULL, 0);
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: e2e-work [-c CPU] yield MS [N] | restart N OVER_MS OK_MS | threads T ROUNDS MS spin|sleep\n");
		return 2;
	}
	if (cpu >= 0)
		pin(cpu);
	e2e_end();
	mode = argv[optind];
	if (!strcmp(mode, "yield")) {
		/* The competitors inherit the affinity: they share our CPU. */
		n = optind + 2 < argc ? arg(argv, optind + 2, argc) : 3;
		if (n < 1 || n > 8)
			return 2;
		for (i = 0; i < n; i++) {
			comp[i] = fork();
			if (comp[i] == 0) {
				for (;;)
					;
			}
		}
		usleep(50000);	/* let them get on the runqueue */
		end = now_ns() + arg(argv, optind + 1, argc) * 1000000ULL;
		e2e_begin();
		while (now_ns() < end) {
			sched_yield();
			yields++;
		}
		e2e_end();
		windows = 1;
		for (i = 0; i < n; i++) {
			kill(comp[i], SIGKILL);
			waitpid(comp[i], NULL, 0);
		}
	} else if (!strcmp(mode, "restart")) {
		n = arg(argv, optind + 1, argc);
		for (i = 0; i < n; i++) {
			if (i)
				usleep(20000);
			e2e_begin();
			spin_ms(arg(argv, optind + (i ? 3 : 2), argc));
			e2e_end();
			windows++;
		}
	} else if (!strcmp(mode, "threads")) {
		rounds = arg(argv, optind + 2, argc);
		thread_ms = arg(argv, optind + 3, argc);
		thread_sleeps = optind + 4 < argc && !strcmp(argv[optind + 4], "sleep");
		windows = threads(arg(argv, optind + 1, argc));
	} else {
		fprintf(stderr, "e2e-work: unknown mode %s\n", mode);
		return 2;
	}
	printf("windows=%ld yields=%ld\n", windows, yields);
	return 0;
}
