// SPDX-License-Identifier: GPL-2.0
/*
 * Section markers (see marks.h). The empty asm keeps the compiler from
 * merging the two functions or dropping their calls.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marks.h"

__attribute__((noinline)) void bench_start(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void bench_stop(void)
{
	__asm__ volatile("nop" ::: "memory");
}

void bench_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

/*
 * The ELF file offset of a function of this program, from the mapping
 * that holds it (/proc/self/maps: start-end perms offset dev inode path):
 * what the tlob monitor file takes, with no ELF tool in the guest.
 */
static unsigned long file_offset(void (*fn)(void))
{
	unsigned long addr = (unsigned long)fn, lo, hi, off;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		perror("/proc/self/maps");
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &off) != 3)
			continue;
		if (addr >= lo && addr < hi) {
			fclose(f);
			return addr - lo + off;
		}
	}
	fprintf(stderr, "no mapping holds %#lx\n", addr);
	exit(2);
}

void bench_print_offsets(void)
{
	printf("0x%lx 0x%lx\n", file_offset(bench_start),
	       file_offset(bench_stop));
}
