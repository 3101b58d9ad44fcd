// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's sample application: a frame loop that wants every frame done
 * within its budget. Most frames take ~2 ms of CPU; every 7th frame does
 * too much work (running dominates), every 11th waits on "I/O" (sleeping
 * dominates). frame_begin()/frame_end() are the section tlob watches:
 *
 *   tlob mon -b /opt/tlob/bin/frame-app:frame_begin,frame_end,10ms
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void spin_ms(unsigned int ms)
{
	unsigned long long end = now_ns() + ms * 1000000ULL;

	while (now_ns() < end)
		__asm__ volatile("" ::: "memory");
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The probed functions: not inlined, not static, so they have symbols. */
__attribute__((noinline)) void frame_begin(int frame)
{
	__asm__ volatile("" : : "r"(frame) : "memory");
}

__attribute__((noinline)) void frame_end(int frame)
{
	__asm__ volatile("" : : "r"(frame) : "memory");
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 40;

	for (int i = 1; i <= frames; i++) {
		frame_begin(i);
		if (i % 7 == 0)
			spin_ms(14);	/* too much work */
		else if (i % 11 == 0)
			sleep_ms(13);	/* waiting on I/O */
		else
			spin_ms(2);
		frame_end(i);
		sleep_ms(3);		/* idle until the next frame */
	}
	printf("frame-app: %d frames done\n", frames);
	return 0;
}
