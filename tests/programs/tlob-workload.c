// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-workload: a test program with known START/STOP functions, for the
 * module's and the tool's tests.
 *
 * Sections (noinline, global, so they have symbols and stay calls):
 *   tlob_section_begin / tlob_section_end     the first section
 *   tlob_section2_begin / tlob_section2_end   a second, independent one
 *   tlob_section_ret                          does the work inside; for
 *                                             a binding with STOP `ret`
 *   tlob_heartbeat                            a checkpoint (alive
 *                                             supervision, `a` lines)
 * Their ELF file offsets are written at build time next to the program
 * (tlob-workload.offsets: "name 0xoffset" lines, see progs.mk), because
 * the guest has no nm.
 *
 * usage: tlob-workload [-n WINDOWS] [-g GAP_MS] [-c CPU] [-f PRIO] MODE ARGS
 *   -c CPU         pin to CPU;  -f PRIO  run at SCHED_FIFO PRIO
 *   spin MS        busy-loop MS ms inside each window
 *   sleep MS       sleep MS ms inside each window
 *   sleepsw MS     as sleep, and print "noswitch T0 T1" (CLOCK_MONOTONIC
 *                  ns around the sleep) for each sleep the kernel ended
 *                  with no context switch of the task: a timer that had
 *                  expired before the task could sleep (a vCPU stalled
 *                  longer than the sleep), so no scheduler event at all
 *   naps K MS      K sleeps of MS ms inside each window
 *   ret MS         spin MS ms inside tlob_section_ret()
 *   two MS1 MS2    section 1 spins MS1 ms, then section 2 spins MS2 ms
 *   nest MS1 MS2   section 1 (MS2 ms) nested inside section 2 (MS1 ms)
 *   starve MS      a SCHED_FIFO child (-p PRIO, default 99) on the same
 *                  CPU hogs it for MS ms while the window is open
 *   threads T MS   T threads, each spinning MS ms in its own windows
 *   sigthread MS   one thread, SIGXCPU blocked, opens a window and spins
 *                  MS ms in it while the main thread waits for it, then
 *                  unblocks SIGXCPU; prints "worker=1" when the SIGXCPU
 *                  of a signal reactor reached that thread, "worker=0"
 *                  when the main thread took it (a signal to the process
 *                  goes to a thread that does not block it)
 *   hold SECONDS   open a window and sleep (exit/kill/rmmod tests)
 *   exit MS        open a window, spin MS ms, exit inside it
 *   exec MS        open a window, spin MS ms, exec itself (`noop`)
 *   fork MS        open a window, fork a child that exits, spin MS ms
 *   timerlat N MS  no window: N absolute sleeps of MS ms, printing how
 *                  late each wakeup was ("lat_ns=X"), the emulator's
 *                  timer floor to compare detection latencies with
 *   beats N US [TAIL_MS]
 *                  no window: N heartbeats, one every US us on an absolute
 *                  schedule from the first, then sleep TAIL_MS ms
 *   tbeats T N US  T threads, each beating N times every US us
 *   beatexec N US  N heartbeats as beats, then exec itself (`noop`)
 *   burn MS        no window: busy-loop MS ms (load for a reference)
 *   noop           do nothing
 * Prints "windows=N sigxcpu=N" at the end (SIGXCPU is counted, not fatal).
 *
 * Before any window it calls tlob_section_end() and tlob_section2_end()
 * once: a STOP outside a window is not an event for the monitor, but the
 * first uprobe hit of a process sets up its XOL page, a one-time cost
 * (tens of ms under emulation) that would otherwise land in the first
 * window and make budgets of short windows flaky.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, used))

static volatile sig_atomic_t sigxcpu;
static long windows = 1, gap_ms, cpu = -1, prio = 99, fifo;
static long done_windows;

NOINLINE void tlob_section_begin(void) { __asm__ volatile("" ::: "memory"); }
NOINLINE void tlob_section_end(void) { __asm__ volatile("" ::: "memory"); }
NOINLINE void tlob_section2_begin(void) { __asm__ volatile("" ::: "memory"); }
NOINLINE void tlob_section2_end(void) { __asm__ volatile("" ::: "memory"); }
NOINLINE void tlob_heartbeat(void) { __asm__ volatile("" ::: "memory"); }

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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Context switches of this thread so far, voluntary or not. */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

NOINLINE int tlob_section_ret(long ms)
{
	spin_ms(ms);
	__asm__ volatile("" ::: "memory");
	return 0;
}

static void timerlat(long n, long ms)
{
	struct timespec ts;
	unsigned long long t;
	long i;

	for (i = 0; i < n; i++) {
		t = now_ns() + ms * 1000000ULL;
		ts.tv_sec = t / 1000000000ULL;
		ts.tv_nsec = t % 1000000000ULL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		printf("lat_ns=%llu\n", now_ns() - t);
	}
}

/* N heartbeats, one every US us from now (absolute: no drift). */
static void beats(long n, long us)
{
	unsigned long long t = now_ns();
	struct timespec ts;
	long i;

	for (i = 0; i < n; i++) {
		if (i) {
			t += us * 1000ULL;
			ts.tv_sec = t / 1000000000ULL;
			ts.tv_nsec = t % 1000000000ULL;
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
					       NULL) == EINTR)
				;
		}
		tlob_heartbeat();
	}
}

struct beats_arg {
	long n, us;
};

static void *beats_fn(void *p)
{
	struct beats_arg *a = p;

	beats(a->n, a->us);
	return NULL;
}

static void tbeats(long threads, long n, long us)
{
	pthread_t *t = calloc(threads, sizeof(*t));
	struct beats_arg a = { n, us };
	long i;

	for (i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, beats_fn, &a);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
}

static volatile sig_atomic_t sigxcpu_tid;	/* who took the last one */

static void on_sigxcpu(int sig)
{
	(void)sig;
	sigxcpu++;
	sigxcpu_tid = (sig_atomic_t)syscall(SYS_gettid);
}

static void pin(long c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

/* A SCHED_FIFO hog on our CPU, started from inside the window. */
static void starve(long ms)
{
	struct sched_param sp = { .sched_priority = (int)prio };
	int go[2];
	char c;
	pid_t pid;

	if (pipe(go))
		exit(2);
	pid = fork();
	if (pid == 0) {
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			perror("sched_setscheduler");
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		spin_ms(ms);
		_exit(0);
	}
	sleep_ms(50);	/* let the child reach read() */
	tlob_section_begin();
	if (write(go[1], "g", 1) != 1)
		exit(2);
	/* The child preempts us here until it is done. */
	tlob_section_end();
	waitpid(pid, NULL, 0);
}

struct thread_arg {
	long ms;
};

static void *thread_fn(void *p)
{
	struct thread_arg *a = p;
	long i;

	for (i = 0; i < windows; i++) {
		tlob_section_begin();
		spin_ms(a->ms);
		tlob_section_end();
	}
	return NULL;
}

static void threads(long n, long ms)
{
	pthread_t *t = calloc(n, sizeof(*t));
	struct thread_arg a = { ms };
	long i;

	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_fn, &a);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	done_windows = n * windows;
}

struct sigthread_arg {
	long ms;
	long tid;	/* the worker's, set by it */
};

static void *sigthread_fn(void *p)
{
	struct sigthread_arg *a = p;
	sigset_t set;

	a->tid = syscall(SYS_gettid);
	sigemptyset(&set);
	sigaddset(&set, SIGXCPU);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	tlob_section_begin();
	spin_ms(a->ms);
	tlob_section_end();
	sleep_ms(200);	/* the reaction runs from an irq_work: let it land */
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return NULL;
}

static void sigthread(long ms)
{
	struct sigthread_arg a = { ms, 0 };
	pthread_t t;

	pthread_create(&t, NULL, sigthread_fn, &a);
	pthread_join(t, NULL);
	printf("worker=%d\n", sigxcpu && sigxcpu_tid == a.tid);
	done_windows = 1;
}

static long arg(char **argv, int i, int argc)
{
	if (i >= argc) {
		fprintf(stderr, "tlob-workload: missing argument\n");
		exit(2);
	}
	return strtol(argv[i], NULL, 0);
}

static void one_window(const char *mode, char **argv, int i, int argc)
{
	if (!strcmp(mode, "spin")) {
		tlob_section_begin();
		spin_ms(arg(argv, i, argc));
		tlob_section_end();
	} else if (!strcmp(mode, "sleep")) {
		tlob_section_begin();
		sleep_ms(arg(argv, i, argc));
		tlob_section_end();
	} else if (!strcmp(mode, "sleepsw")) {
		unsigned long long t0, t1;
		long sw;

		tlob_section_begin();
		t0 = now_ns();
		sw = switches();
		sleep_ms(arg(argv, i, argc));
		if (switches() == sw) {
			t1 = now_ns();
			tlob_section_end();
			printf("noswitch %llu %llu\n", t0, t1);
			/* A kill ends this process: nothing may wait in a buffer. */
			fflush(stdout);
		} else {
			tlob_section_end();
		}
	} else if (!strcmp(mode, "naps")) {
		long k, naps = arg(argv, i, argc);

		tlob_section_begin();
		for (k = 0; k < naps; k++)
			sleep_ms(arg(argv, i + 1, argc));
		tlob_section_end();
	} else if (!strcmp(mode, "ret")) {
		tlob_section_ret(arg(argv, i, argc));
	} else if (!strcmp(mode, "two")) {
		tlob_section_begin();
		spin_ms(arg(argv, i, argc));
		tlob_section_end();
		tlob_section2_begin();
		spin_ms(arg(argv, i + 1, argc));
		tlob_section2_end();
	} else if (!strcmp(mode, "nest")) {
		long outer = arg(argv, i, argc), inner = arg(argv, i + 1, argc);

		tlob_section2_begin();
		tlob_section_begin();
		spin_ms(inner);
		tlob_section_end();
		spin_ms(outer > inner ? outer - inner : 0);
		tlob_section2_end();
	} else if (!strcmp(mode, "starve")) {
		starve(arg(argv, i, argc));
	} else {
		fprintf(stderr, "tlob-workload: unknown mode %s\n", mode);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	const char *mode;
	int opt, i;
	long w;

	signal(SIGXCPU, on_sigxcpu);
	while ((opt = getopt(argc, argv, "+n:g:c:p:f:")) != -1) {
		switch (opt) {
		case 'n': windows = strtol(optarg, NULL, 0); break;
		case 'g': gap_ms = strtol(optarg, NULL, 0); break;
		case 'c': cpu = strtol(optarg, NULL, 0); break;
		case 'p': prio = strtol(optarg, NULL, 0); break;
		case 'f': fifo = strtol(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: tlob-workload [-n N] [-g MS] [-c CPU] [-p PRIO] [-f PRIO] MODE ARGS\n");
		return 2;
	}
	if (cpu >= 0)
		pin(cpu);
	if (fifo) {
		struct sched_param sp = { .sched_priority = (int)fifo };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			perror("sched_setscheduler");
	}
	tlob_section_end();
	tlob_section2_end();
	mode = argv[optind];
	i = optind + 1;
	if (!strcmp(mode, "noop"))
		return 0;
	if (!strcmp(mode, "burn")) {
		spin_ms(arg(argv, i, argc));
		return 0;
	}
	if (!strcmp(mode, "beats")) {
		beats(arg(argv, i, argc), arg(argv, i + 1, argc));
		if (i + 2 < argc)
			sleep_ms(arg(argv, i + 2, argc));
		printf("beats=%ld sigxcpu=%d\n", arg(argv, i, argc), (int)sigxcpu);
		return 0;
	}
	if (!strcmp(mode, "beatexec")) {
		beats(arg(argv, i, argc), arg(argv, i + 1, argc));
		execl("/proc/self/exe", "tlob-workload", "noop", (char *)NULL);
		perror("execl");
		return 1;
	}
	if (!strcmp(mode, "tbeats")) {
		tbeats(arg(argv, i, argc), arg(argv, i + 1, argc),
		       arg(argv, i + 2, argc));
		printf("beats=%ld sigxcpu=%d\n",
		       arg(argv, i, argc) * arg(argv, i + 1, argc), (int)sigxcpu);
		return 0;
	}
	if (!strcmp(mode, "timerlat")) {
		timerlat(arg(argv, i, argc), arg(argv, i + 1, argc));
		return 0;
	}
	if (!strcmp(mode, "threads")) {
		threads(arg(argv, i, argc), arg(argv, i + 1, argc));
	} else if (!strcmp(mode, "sigthread")) {
		sigthread(arg(argv, i, argc));
	} else if (!strcmp(mode, "hold")) {
		tlob_section_begin();
		sleep_ms(arg(argv, i, argc) * 1000);
		tlob_section_end();
		done_windows = 1;
	} else if (!strcmp(mode, "exit")) {
		tlob_section_begin();
		spin_ms(arg(argv, i, argc));
		_exit(0);
	} else if (!strcmp(mode, "exec")) {
		tlob_section_begin();
		spin_ms(arg(argv, i, argc));
		execl("/proc/self/exe", "tlob-workload", "noop", (char *)NULL);
		perror("execl");
		return 1;
	} else if (!strcmp(mode, "fork")) {
		pid_t pid;

		tlob_section_begin();
		pid = fork();
		if (pid == 0)
			_exit(0);
		spin_ms(arg(argv, i, argc));
		tlob_section_end();
		waitpid(pid, NULL, 0);
		done_windows = 1;
	} else {
		for (w = 0; w < windows; w++) {
			if (w && gap_ms)
				sleep_ms(gap_ms);
			one_window(mode, argv, i, argc);
			done_windows++;
		}
	}
	printf("windows=%ld sigxcpu=%d\n", done_windows, (int)sigxcpu);
	return 0;
}
