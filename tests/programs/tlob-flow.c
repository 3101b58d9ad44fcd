// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-flow: an application flow for logical supervision (`l` lines, a
 * user's automaton), in legal and illegal orders.
 *
 * Events (noinline, global, each with a body of its own so that no two
 * are folded into one; their ELF file offsets are written beside the
 * program at build time, tlob-flow.offsets, as the guest has no nm):
 *   flow_init       the application starts up
 *   frame_begin     a frame begins
 *   frame_end       ... and ends
 *   flow_shutdown   the application shuts down
 *   flow_idle       called by no mode (an offset for tables that need one
 *                   more event)
 * The model the tests write for it (tests/guest/models/flow.dot):
 *   idle -init-> ready -begin-> busy -end-> ready -shutdown-> done
 * with `done` the one final state.
 *
 * usage: tlob-flow [-n FRAMES] [-s SLEEP_MS] [-r REPEAT] [-t TAIL_MS] MODE [ARGS]
 *   -n FRAMES    frames of the legal flow (default 3)
 *   -s SLEEP_MS  sleep SLEEP_MS ms before every event but the first
 *   -r REPEAT    the illegal modes repeat their sequence REPEAT times
 *   -t TAIL_MS   sleep TAIL_MS ms at the end, before exiting
 *   legal        init, FRAMES frames, shutdown; exit in `done` (final)
 *   noshut       init, FRAMES frames; exit in `ready` (not final)
 *   end-first    init, end: `end` in `ready` is not allowed
 *   begin-twice  init, begin, begin: `begin` in `busy` is not allowed
 *   no-init      begin: `begin` in `idle` is not allowed
 *   exit-mid     init, begin, then _exit() in `busy`
 *   exec-mid [PROG ARG..]
 *                init, begin, then exec PROG (default: itself, `noop`)
 *   exec-done    the legal flow, then exec itself (`noop`) in `done`
 *   hold SECONDS init, begin, sleep SECONDS, end, shutdown (unbind and
 *                rmmod while an instance is live)
 *   threads T    T threads, each running the legal flow on its own (one
 *                instance each per task; per process, the second thread's
 *                init is out of order); they start together and exit
 *                together (barriers), so all T flows overlap
 *   shared T     the main thread inits, T threads run FRAMES frames each
 *                (one frame at a time, under a mutex), the main thread
 *                shuts down: one legal flow per process
 *   noop         no event
 * tlob-flow-split is this program built with TLOB_FLOW_SPLIT: frame_begin
 * and frame_end are then libtlob-flow.so's (lib/tlob-flow-frames.c), the
 * other events its own.
 * Prints "flow=MODE events=N sigxcpu=N" at the end (SIGXCPU, the signal
 * reactor's default, is counted, not fatal).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, used))

static volatile sig_atomic_t sigxcpu;
static long frames = 3, sleep_ms_each, repeat = 1, tail_ms;
static unsigned long calls[5];
static __thread int first_done;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Before every event but a thread's first: the -s gap. */
static void gap(void)
{
	if (first_done && sleep_ms_each)
		sleep_ms(sleep_ms_each);
	first_done = 1;
}

/*
 * Distinct bodies (a different counter each): never one folded function.
 * A nop first: the probed instruction is the plainest there is (not the
 * RIP-relative locked add), whatever the compiler makes of the rest.
 */
NOINLINE void flow_init(void)
{
	__asm__ volatile("nop" ::: "memory");
	__atomic_fetch_add(&calls[0], 1, __ATOMIC_RELAXED);
}

#ifdef TLOB_FLOW_SPLIT
/* tlob-flow-split: frame_begin and frame_end are libtlob-flow.so's */
void frame_begin(unsigned long *n);
void frame_end(unsigned long *n);
#else
#include "lib/tlob-flow-frames.c"
#endif

NOINLINE void flow_shutdown(void)
{
	__asm__ volatile("nop" ::: "memory");
	__atomic_fetch_add(&calls[3], 1, __ATOMIC_RELAXED);
}

NOINLINE void flow_idle(void)
{
	__asm__ volatile("nop" ::: "memory");
	__atomic_fetch_add(&calls[4], 1, __ATOMIC_RELAXED);
}

static void ev_init(void) { gap(); flow_init(); }
static void ev_begin(void) { gap(); frame_begin(&calls[1]); }
static void ev_end(void) { gap(); frame_end(&calls[2]); }
static void ev_shutdown(void) { gap(); flow_shutdown(); }

static unsigned long total(void)
{
	return calls[0] + calls[1] + calls[2] + calls[3] + calls[4];
}

static void legal(int shutdown)
{
	long i;

	ev_init();
	for (i = 0; i < frames; i++) {
		ev_begin();
		ev_end();
	}
	if (shutdown)
		ev_shutdown();
}

static pthread_barrier_t start_bar, end_bar;
static pthread_mutex_t frame_lock = PTHREAD_MUTEX_INITIALIZER;

static void *flow_thread(void *p)
{
	(void)p;
	pthread_barrier_wait(&start_bar);
	legal(1);
	pthread_barrier_wait(&end_bar);
	return NULL;
}

static void *frames_thread(void *p)
{
	long i;

	(void)p;
	for (i = 0; i < frames; i++) {
		pthread_mutex_lock(&frame_lock);
		ev_begin();
		ev_end();
		pthread_mutex_unlock(&frame_lock);
	}
	return NULL;
}

static void run_threads(long n, void *(*fn)(void *))
{
	pthread_t *t = calloc(n, sizeof(*t));
	long i;

	if (!t)
		exit(2);
	pthread_barrier_init(&start_bar, NULL, (unsigned int)n);
	pthread_barrier_init(&end_bar, NULL, (unsigned int)n);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, NULL)) {
			perror("pthread_create");
			exit(2);
		}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
}

static void on_sigxcpu(int sig)
{
	(void)sig;
	sigxcpu++;
}

static long arg(char **argv, int i, int argc)
{
	if (i >= argc) {
		fprintf(stderr, "tlob-flow: missing argument\n");
		exit(2);
	}
	return strtol(argv[i], NULL, 0);
}

static void self_exec(void)
{
	execl("/proc/self/exe", "tlob-flow", "noop", (char *)NULL);
	perror("execl");
	exit(1);
}

int main(int argc, char **argv)
{
	const char *mode;
	long r;
	int opt, i;

	signal(SIGXCPU, on_sigxcpu);
	while ((opt = getopt(argc, argv, "+n:s:r:t:")) != -1) {
		switch (opt) {
		case 'n': frames = strtol(optarg, NULL, 0); break;
		case 's': sleep_ms_each = strtol(optarg, NULL, 0); break;
		case 'r': repeat = strtol(optarg, NULL, 0); break;
		case 't': tail_ms = strtol(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: tlob-flow [-n FRAMES] [-s SLEEP_MS] [-r REPEAT] [-t TAIL_MS] MODE [ARGS]\n");
		return 2;
	}
	mode = argv[optind];
	i = optind + 1;
	if (!strcmp(mode, "noop")) {
		/* nothing */
	} else if (!strcmp(mode, "legal")) {
		legal(1);
	} else if (!strcmp(mode, "noshut")) {
		legal(0);
	} else if (!strcmp(mode, "end-first")) {
		for (r = 0; r < repeat; r++) {
			ev_init();
			ev_end();
		}
	} else if (!strcmp(mode, "begin-twice")) {
		for (r = 0; r < repeat; r++) {
			ev_init();
			ev_begin();
			ev_begin();
		}
	} else if (!strcmp(mode, "no-init")) {
		for (r = 0; r < repeat; r++)
			ev_begin();
	} else if (!strcmp(mode, "exit-mid")) {
		ev_init();
		ev_begin();
		if (tail_ms)
			sleep_ms(tail_ms);
		printf("flow=%s events=%lu sigxcpu=%d\n", mode, total(), (int)sigxcpu);
		fflush(stdout);
		_exit(0);
	} else if (!strcmp(mode, "exec-mid")) {
		ev_init();
		ev_begin();
		if (tail_ms)
			sleep_ms(tail_ms);
		printf("flow=%s events=%lu sigxcpu=%d\n", mode, total(), (int)sigxcpu);
		fflush(stdout);
		if (i < argc) {
			execv(argv[i], argv + i);
			perror(argv[i]);
			return 1;
		}
		self_exec();
	} else if (!strcmp(mode, "exec-done")) {
		legal(1);
		if (tail_ms)
			sleep_ms(tail_ms);
		printf("flow=%s events=%lu sigxcpu=%d\n", mode, total(), (int)sigxcpu);
		fflush(stdout);
		self_exec();
	} else if (!strcmp(mode, "hold")) {
		ev_init();
		ev_begin();
		sleep_ms(arg(argv, i, argc) * 1000);
		ev_end();
		ev_shutdown();
	} else if (!strcmp(mode, "threads")) {
		run_threads(arg(argv, i, argc), flow_thread);
	} else if (!strcmp(mode, "shared")) {
		ev_init();
		run_threads(arg(argv, i, argc), frames_thread);
		ev_shutdown();
	} else {
		fprintf(stderr, "tlob-flow: unknown mode %s\n", mode);
		return 2;
	}
	if (tail_ms)
		sleep_ms(tail_ms);
	printf("flow=%s events=%lu sigxcpu=%d\n", mode, total(), (int)sigxcpu);
	return 0;
}
