/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The section markers every benchmark program exports. The benchmarks
 * bind tlob (and bpftrace) to these two functions by name, so they must
 * stay real, separate, non-inlined functions in .symtab.
 */
#ifndef BENCH_MARKS_H
#define BENCH_MARKS_H

#include <stdint.h>
#include <time.h>

void bench_start(void);
void bench_stop(void);

/* Print "0xSTART 0xSTOP": the markers' ELF file offsets. */
void bench_print_offsets(void);

/*
 * CLOCK_MONOTONIC in ns, the clock of tlob's records. Inline: the
 * benchmarks' timed loops read it once per window.
 */
static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Pin the calling task to one CPU; exits with a message on failure. */
void bench_pin(int cpu);

#endif
