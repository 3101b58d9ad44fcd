// SPDX-License-Identifier: GPL-2.0
/*
 * Park N threads inside monitored windows: each thread calls
 * bench_start() and sleeps until the process gets SIGTERM/SIGINT, then
 * calls bench_stop() and ends. Prints "ready N" once every thread is in
 * its window, so a benchmark can measure with N open, sleeping windows.
 *
 * -b US: busy windows instead: inside its window each thread keeps
 * switching, spinning -s US (default 0) then sleeping US, over and over
 * (so every scheduler event of those tasks is a monitored one: sleeps,
 * wakeups, switches in, preemptions by whatever else runs).
 *
 *   bench-park [-n THREADS] [-c CPU | -c -1 (not pinned)] [-b US [-s US]]
 *   bench-park -O   (the markers' ELF file offsets, for the monitor file)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "marks.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Two conditions: one wakeup per thread, not every parked thread per thread. */
static pthread_cond_t entered = PTHREAD_COND_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;
static int inside, release;
/* Busy windows (-b): sleep and spin per turn, in us; stop when set. */
static long busy_sleep_us, busy_spin_us;
static int busy_stop;

static void busy(void)
{
	struct timespec nap = { .tv_sec = busy_sleep_us / 1000000,
				.tv_nsec = busy_sleep_us % 1000000 * 1000 };

	while (!__atomic_load_n(&busy_stop, __ATOMIC_ACQUIRE)) {
		uint64_t until = bench_now_ns() + busy_spin_us * 1000;

		while (busy_spin_us && bench_now_ns() < until)
			;
		nanosleep(&nap, NULL);
	}
}

static void *parked(void *arg)
{
	(void)arg;
	bench_start();
	pthread_mutex_lock(&lock);
	inside++;
	pthread_cond_signal(&entered);
	if (busy_sleep_us) {
		pthread_mutex_unlock(&lock);
		busy();
		bench_stop();
		return NULL;
	}
	while (!release)
		pthread_cond_wait(&released, &lock);
	pthread_mutex_unlock(&lock);
	bench_stop();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 1, cpu = 0, opt, i, sig;
	pthread_attr_t attr;
	pthread_t *th;
	sigset_t set;

	while ((opt = getopt(argc, argv, "n:c:b:s:O")) != -1) {
		switch (opt) {
		case 'n': n = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'b': busy_sleep_us = atol(optarg); break;
		case 's': busy_spin_us = atol(optarg); break;
		case 'O': bench_print_offsets(); return 0;
		default:
			fprintf(stderr, "usage: bench-park [-n THREADS] [-c CPU] [-b US [-s US]]\n");
			return 2;
		}
	}
	th = calloc(n, sizeof(*th));
	if (n < 1 || !th || busy_sleep_us < 0 || busy_spin_us < 0)
		return 2;
	bench_pin(cpu);
	/* Every thread inherits the mask; main takes the signal with sigwait. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&th[i], &attr, parked, NULL)) {
			fprintf(stderr, "bench-park: thread %d: cannot create\n", i);
			return 2;
		}
	}
	pthread_mutex_lock(&lock);
	while (inside < n)
		pthread_cond_wait(&entered, &lock);
	pthread_mutex_unlock(&lock);
	printf("ready %d\n", n);
	fflush(stdout);
	sigwait(&set, &sig);
	__atomic_store_n(&busy_stop, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&lock);
	release = 1;
	pthread_cond_broadcast(&released);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("stopped %d\n", n);
	return 0;
}
