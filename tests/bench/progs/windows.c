// SPDX-License-Identifier: GPL-2.0
/*
 * Open and close windows in a loop: bench_start(); [sleep or spin];
 * bench_stop(). Prints how many windows per second it managed, so the
 * cost of a START/STOP pair compares across backends as a ratio.
 *
 *   bench-windows [-n COUNT | -t MS] [-i US] [-s] [-r RATE] [-c CPU]
 *
 * -i US    time inside each window: sleep (default) or, with -s, spin
 * -r RATE  at most RATE windows per second (absolute schedule, no drift)
 * -c CPU   pin to CPU (default: not pinned)
 * -O       print the ELF file offsets of bench_start/bench_stop and exit
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "marks.h"

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000ull,
			       .tv_nsec = t % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

int main(int argc, char **argv)
{
	uint64_t count = 0, ms = 0, in_us = 0, rate = 0, n, t0, end, next;
	int spin = 0, cpu = -1, opt;

	while ((opt = getopt(argc, argv, "n:t:i:sr:c:O")) != -1) {
		switch (opt) {
		case 'n': count = strtoull(optarg, NULL, 0); break;
		case 't': ms = strtoull(optarg, NULL, 0); break;
		case 'i': in_us = strtoull(optarg, NULL, 0); break;
		case 's': spin = 1; break;
		case 'r': rate = strtoull(optarg, NULL, 0); break;
		case 'c': cpu = atoi(optarg); break;
		case 'O': bench_print_offsets(); return 0;
		default:
			fprintf(stderr, "usage: bench-windows [-n COUNT | -t MS] [-i US] [-s] [-r RATE] [-c CPU]\n");
			return 2;
		}
	}
	if (!count && !ms)
		count = 1000;
	bench_pin(cpu);
	/*
	 * A STOP outside a window is no event for a monitor, but the first
	 * uprobe hit of a process sets up its XOL page (tens of ms under
	 * emulation): pay that before the first window, not inside it.
	 */
	bench_stop();
	t0 = bench_now_ns();
	end = ms ? t0 + ms * 1000000ull : UINT64_MAX;
	next = t0;
	for (n = 0; count ? n < count : bench_now_ns() < end; n++) {
		if (rate) {
			next += 1000000000ull / rate;
			sleep_until(next);
		}
		bench_start();
		if (in_us && spin) {
			uint64_t until = bench_now_ns() + in_us * 1000;

			while (bench_now_ns() < until)
				;
		} else if (in_us) {
			sleep_until(bench_now_ns() + in_us * 1000);
		}
		bench_stop();
	}
	end = bench_now_ns();
	printf("windows=%llu ms=%.1f windows_per_s=%.0f\n",
	       (unsigned long long)n, (end - t0) / 1e6,
	       (double)n * 1e9 / (double)(end - t0));
	return 0;
}
