// SPDX-License-Identifier: GPL-2.0
/*
 * Pipe ping-pong: PAIRS pairs of processes, all pinned to one CPU, pass a
 * byte back and forth for a fixed time; prints the context-switch rate
 * (two switches per round trip) so runs compare as ratios.
 *
 *   bench-pingpong [-p PAIRS] [-t MS] [-c CPU] [-w] [-T]
 *   bench-pingpong -O   (the markers' ELF file offsets, for the monitor file)
 *
 * -w: each task calls bench_start() before its loop and bench_stop()
 * after it, so with a binding on this program the ping-pong itself runs
 * inside monitored windows.
 * -T: the tasks are threads of one process instead of processes (no
 * address-space switch, whose cost under emulation varies from run to run).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "marks.h"

struct shared {
	volatile int go;
	volatile int stop;
	uint64_t trips[];
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* One side of a pair: read a byte, write it back, until told to stop. */
static void play(struct shared *sh, int idx, int rfd, int wfd, int serve,
		 int cpu, int window)
{
	uint64_t n = 0;
	char c = 0;

	bench_pin(cpu);
	while (!sh->go)
		usleep(1000);
	if (window)
		bench_start();
	if (serve && write(wfd, &c, 1) != 1)
		die("write");
	/* The server counts round trips; stop is checked once per trip. */
	while (!sh->stop) {
		if (read(rfd, &c, 1) != 1)
			break;
		if (write(wfd, &c, 1) != 1)
			break;
		n++;
	}
	if (window)
		bench_stop();
	sh->trips[idx] = n;
}

static void player(struct shared *sh, int idx, int rfd, int wfd, int spare1,
		   int spare2, int serve, int cpu, int window)
{
	/* Only the peer may hold the other ends, so its exit is our EOF. */
	close(spare1);
	close(spare2);
	play(sh, idx, rfd, wfd, serve, cpu, window);
	_exit(0);
}

struct thread_arg {
	struct shared *sh;
	int idx, rfd, wfd, serve, cpu, window;
};

static void *thread_player(void *p)
{
	struct thread_arg *a = p;

	play(a->sh, a->idx, a->rfd, a->wfd, a->serve, a->cpu, a->window);
	/* The peer blocked in read() sees EOF once this end is closed. */
	close(a->wfd);
	return NULL;
}

int main(int argc, char **argv)
{
	int pairs = 1, ms = 1000, cpu = 1, window = 0, threads = 0, opt, i;
	struct thread_arg *ta;
	pthread_t *th;
	struct shared *sh;
	uint64_t t0, t1, total = 0;
	pid_t *pids;

	while ((opt = getopt(argc, argv, "p:t:c:wTO")) != -1) {
		switch (opt) {
		case 'p': pairs = atoi(optarg); break;
		case 't': ms = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'w': window = 1; break;
		case 'T': threads = 1; break;
		case 'O': bench_print_offsets(); return 0;
		default:
			fprintf(stderr, "usage: bench-pingpong [-p PAIRS] [-t MS] [-c CPU] [-w] [-T]\n");
			return 2;
		}
	}
	if (pairs < 1 || ms < 1)
		return 2;
	sh = mmap(NULL, sizeof(*sh) + 2 * pairs * sizeof(uint64_t),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	pids = calloc(2 * pairs, sizeof(*pids));
	th = calloc(2 * pairs, sizeof(*th));
	ta = calloc(2 * pairs, sizeof(*ta));
	if (!pids || !th || !ta)
		die("calloc");
	for (i = 0; threads && i < pairs; i++) {
		int ab[2], ba[2], k;

		if (pipe(ab) || pipe(ba))
			die("pipe");
		ta[2 * i] = (struct thread_arg){ sh, 2 * i, ba[0], ab[1], 1, cpu, window };
		ta[2 * i + 1] = (struct thread_arg){ sh, 2 * i + 1, ab[0], ba[1], 0, cpu, window };
		for (k = 2 * i; k < 2 * i + 2; k++)
			if (pthread_create(&th[k], NULL, thread_player, &ta[k]))
				die("pthread_create");
	}
	for (i = 0; !threads && i < pairs; i++) {
		int ab[2], ba[2];

		if (pipe(ab) || pipe(ba))
			die("pipe");
		pids[2 * i] = fork();
		if (pids[2 * i] < 0)
			die("fork");
		if (!pids[2 * i])
			player(sh, 2 * i, ba[0], ab[1], ab[0], ba[1], 1, cpu,
			       window);
		pids[2 * i + 1] = fork();
		if (pids[2 * i + 1] < 0)
			die("fork");
		if (!pids[2 * i + 1])
			player(sh, 2 * i + 1, ab[0], ba[1], ba[0], ab[1], 0, cpu,
			       window);
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
	}
	usleep(20000);
	t0 = bench_now_ns();
	sh->go = 1;
	usleep(ms * 1000);
	sh->stop = 1;
	t1 = bench_now_ns();
	/* A player blocked in read() after its peer left sees EOF and ends. */
	for (i = 0; i < 2 * pairs; i++) {
		if (threads)
			pthread_join(th[i], NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	for (i = 0; i < 2 * pairs; i++)
		total += sh->trips[i];
	/* Each counted trip of one side is one switch away and one back. */
	printf("switches_per_s=%.0f trips=%llu ms=%.1f\n",
	       (double)total * 1e9 / (double)(t1 - t0),
	       (unsigned long long)total, (t1 - t0) / 1e6);
	return 0;
}
