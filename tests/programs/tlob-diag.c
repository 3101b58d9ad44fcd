// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-diag: windows that overrun for a known reason, so that the
 * diagnosis of a violation (where the code was, who took the CPU, who
 * woke the task) can be checked against what really happened.
 *
 * Section: diag_begin() ... diag_end() (noinline, global; their ELF file
 * offsets are written beside the program at build time, tlob-diag.offsets,
 * as the guest has no nm). Built with frame pointers (progs.mk), so a
 * frame-pointer walk of the user stack sees the callers below.
 *
 * usage: tlob-diag [-n WINDOWS] [-c CPU] [-f PRIO] [-l MS] MODE MS
 *   spin MS   the window busy-loops MS ms in diag_spin_leaf(), called by
 *             diag_spin_caller(): the user stack at the deadline is
 *             diag_spin_leaf <- diag_spin_caller <- main
 *   wait MS   pinned to one CPU (-c, default 0): a SCHED_FIFO 50 thread
 *             named "diag-hog" on the same CPU is woken right after START
 *             and spins MS ms; the window's task stays runnable (it spins
 *             in diag_spin_leaf too), so it waits behind diag-hog
 *   pipe MS   the window blocks in read() on a pipe; a thread named
 *             "diag-writer" sleeps MS ms, then writes: the task sleeps in
 *             the kernel's pipe_read() and diag-writer wakes it
 *   woken MS  pinned to one CPU (-c, default 0) beside diag-hog (SCHED_FIFO
 *             50, the same CPU), the window blocks in read() on a pipe;
 *             diag-hog sleeps 20 ms, has diag-writer (on another CPU
 *             where there is one) write, and spins MS ms: the task is
 *             woken from there while diag-hog runs on its CPU, waits
 *             behind it and is switched to straight after it (nothing
 *             else runs there in between: nobody on that CPU saw the
 *             wait begin); then it spins 2 x MS ms, so a budget between
 *             MS + 20 and 3 x MS ms finds it running, diag-hog's time
 *             since the wakeup among what ran instead
 * -c CPU pins the window's task to CPU in every mode (spin too: a
 * detector that can only take the stack of the task it interrupts, the BPF
 * backend's timer or sampler, then runs where the task spins).
 * -f PRIO runs the window's task at SCHED_FIFO PRIO (spin: above the FIFO 1
 * kernel threads of PREEMPT_RT, which would otherwise be running in its
 * place at the deadline now and then; wait's hog is FIFO 50, above it
 * only if PRIO < 50).
 * -l MS lingers MS ms after the last window before exiting: tlob mon
 * names a diagnosis' user frames from the live process (/proc/PID/maps
 * and map_files), and under emulation its reader can come to a violation
 * after a process that exits at once is gone ("map_files: No such file
 * or directory", and raw addresses instead of names).
 * Prints "windows=N" at the end. Before the first window it calls
 * diag_end() once: the first uprobe hit of a process sets up its XOL page
 * (tens of ms under emulation), which must not land in a window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, used))

static long ms, windows = 1, cpu, linger;
static int cpu_given;
static int go[2], data[2], wake[2];

NOINLINE void diag_begin(void)
{
	__asm__ volatile("" ::: "memory");
}

NOINLINE void diag_end(void)
{
	__asm__ volatile("" ::: "memory");
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "tlob-diag: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * The time goes to this function's own loop, not to clock_gettime(): the
 * C library has no frame pointers, so a frame-pointer walk that starts
 * inside it (or in the vDSO it calls) steps over its caller, this
 * function, straight to diag_spin_caller(); under emulation a clock read
 * (a syscall when the TSC is not trusted) costs as much as the loop. So
 * the loop reads the TSC inline, at the rate measured at start-up.
 */
static double tsc_per_ms;

static void tsc_calibrate(void)
{
	unsigned long long t0 = now_ns(), c0 = __builtin_ia32_rdtsc(), t1;

	do
		t1 = now_ns();
	while (t1 - t0 < 20000000ULL);
	tsc_per_ms = (double)(__builtin_ia32_rdtsc() - c0) * 1e6 / (double)(t1 - t0);
}

NOINLINE void diag_spin_leaf(long spin_ms)
{
	unsigned long long end = __builtin_ia32_rdtsc() +
				 (unsigned long long)(spin_ms * tsc_per_ms);

	/*
	 * A function that calls nothing gets no frame from gcc 12, whatever
	 * -mno-omit-leaf-frame-pointer says, and a walk from inside it would
	 * skip its caller; asking for its frame address makes one.
	 */
	__asm__ volatile("" : : "r"(__builtin_frame_address(0)) : "memory");
	while (__builtin_ia32_rdtsc() < end)
		__asm__ volatile("" ::: "memory");
}

NOINLINE void diag_spin_caller(long spin_ms)
{
	diag_spin_leaf(spin_ms);
	__asm__ volatile("" ::: "memory");
}

static void pin(pid_t tid, long c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(tid, sizeof(set), &set))
		die("sched_setaffinity");
}

/* wait: woken by the window's task, then hogs the shared CPU. */
static void *hog(void *arg)
{
	char c;

	(void)arg;
	pin(0, cpu);
	while (read(go[0], &c, 1) == 1)
		diag_spin_leaf(ms);
	return NULL;
}

/*
 * woken: once the window's task is in its window, sleeps 20 ms (the task
 * blocks meanwhile), has diag-writer wake it, and hogs its CPU: the
 * wakeup comes while it spins, whatever the clocks of an emulated guest
 * do to sleeps.
 */
static void *late_hog(void *arg)
{
	struct timespec ts = { 0, 20 * 1000000L };
	char c;

	(void)arg;
	pin(0, cpu);
	while (read(go[0], &c, 1) == 1) {
		nanosleep(&ts, NULL);
		if (write(wake[1], &c, 1) != 1)
			die("write");
		diag_spin_leaf(ms);
	}
	return NULL;
}

/* woken: on another CPU (main pinned it there), wakes the window's task. */
static void *remote_waker(void *arg)
{
	char c;

	(void)arg;
	while (read(wake[0], &c, 1) == 1)
		if (write(data[1], &c, 1) != 1)
			die("write");
	return NULL;
}

/* pipe: sleeps, then wakes the window's task with a write. */
static void *writer(void *arg)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	char c = 'x';
	long i;

	(void)arg;
	for (i = 0; i < windows; i++) {
		if (read(go[0], &c, 1) != 1)
			break;
		nanosleep(&ts, NULL);
		if (write(data[1], &c, 1) != 1)
			die("write");
	}
	return NULL;
}

/* @on_cpu >= 0: the thread runs there from its start. */
static void start_thread(void *(*fn)(void *), const char *name, int fifo_prio, long on_cpu)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	if (on_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(on_cpu, &set);
		errno = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (errno)
			die("pthread_attr_setaffinity_np");
	}
	if (fifo_prio) {
		struct sched_param sp = { .sched_priority = fifo_prio };

		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
	}
	errno = pthread_create(&t, &attr, fn, NULL);
	if (errno)
		die("pthread_create");
	pthread_setname_np(t, name);
	pthread_attr_destroy(&attr);
}

int main(int argc, char **argv)
{
	const char *mode;
	long i;
	int opt;
	char c = 'g';
	long fifo = 0;

	while ((opt = getopt(argc, argv, "n:c:f:l:")) != -1) {
		switch (opt) {
		case 'n':
			windows = atol(optarg);
			break;
		case 'c':
			cpu = atol(optarg);
			cpu_given = 1;
			break;
		case 'f':
			fifo = atol(optarg);
			break;
		case 'l':
			linger = atol(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	mode = argv[optind];
	ms = atol(argv[optind + 1]);
	if (ms <= 0 || windows <= 0)
		goto usage;
	if (pipe(go) || pipe(data) || pipe(wake))
		die("pipe");
	tsc_calibrate();

	if (cpu_given || !strcmp(mode, "wait") || !strcmp(mode, "woken"))
		pin(0, cpu);
	if (fifo) {
		struct sched_param sp = { .sched_priority = (int)fifo };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			die("sched_setscheduler");
	}
	if (!strcmp(mode, "wait")) {
		start_thread(hog, "diag-hog", 50, -1);
	} else if (!strcmp(mode, "woken")) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		start_thread(late_hog, "diag-hog", 50, cpu);
		start_thread(remote_waker, "diag-writer", 0, n > 1 ? (cpu + 1) % n : cpu);
	} else if (!strcmp(mode, "pipe")) {
		start_thread(writer, "diag-writer", 0, -1);
	} else if (strcmp(mode, "spin")) {
		goto usage;
	}

	diag_end();	/* the XOL page, outside any window */
	for (i = 0; i < windows; i++) {
		diag_begin();
		if (!strcmp(mode, "spin")) {
			diag_spin_caller(ms);
		} else if (!strcmp(mode, "wait")) {
			/* The hog preempts us at once: we wait behind it. */
			if (write(go[1], &c, 1) != 1)
				die("write");
			diag_spin_caller(1);
		} else if (!strcmp(mode, "woken")) {
			/* The hog preempts us, goes to sleep, and we block. */
			if (write(go[1], &c, 1) != 1)
				die("write");
			if (read(data[0], &c, 1) != 1)
				die("read");
			diag_spin_caller(2 * ms);
		} else {
			if (write(go[1], &c, 1) != 1)
				die("write");
			if (read(data[0], &c, 1) != 1)
				die("read");
		}
		diag_end();
		usleep(20000);
	}
	if (linger > 0)
		usleep((useconds_t)linger * 1000);
	printf("windows=%ld\n", windows);
	return 0;
usage:
	fprintf(stderr, "usage: tlob-diag [-n WINDOWS] [-c CPU] [-f PRIO] [-l MS] spin|wait|pipe|woken MS\n");
	return 2;
}
