// SPDX-License-Identifier: GPL-2.0
/*
 * Park N threads inside monitored windows: each thread calls
 * bench_start() and sleeps until the process gets SIGTERM/SIGINT, then
 * calls bench_stop() and ends. Prints "ready N" once every thread is in
 * its window, so a benchmark can measure with N open, sleeping windows.
 *
 *   bench-park [-n THREADS] [-c CPU]
 *   bench-park -O   (the markers' ELF file offsets, for the monitor file)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "marks.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Two conditions: one wakeup per thread, not every parked thread per thread. */
static pthread_cond_t entered = PTHREAD_COND_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;
static int inside, release;

static void *parked(void *arg)
{
	(void)arg;
	bench_start();
	pthread_mutex_lock(&lock);
	inside++;
	pthread_cond_signal(&entered);
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

	while ((opt = getopt(argc, argv, "n:c:O")) != -1) {
		switch (opt) {
		case 'n': n = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'O': bench_print_offsets(); return 0;
		default:
			fprintf(stderr, "usage: bench-park [-n THREADS] [-c CPU]\n");
			return 2;
		}
	}
	th = calloc(n, sizeof(*th));
	if (n < 1 || !th)
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
	pthread_mutex_lock(&lock);
	release = 1;
	pthread_cond_broadcast(&released);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("stopped %d\n", n);
	return 0;
}
