// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolizer (user/output/symbolize.c) on live processes, for 20-symbolize.t:
 *
 *   symbolize_drv child          print three user addresses of this very
 *                                program: 4 bytes into sym_leaf(), where
 *                                sym_leaf() returns to in sym_caller(),
 *                                where sym_caller() returns to in main()
 *                                (the last through the frame pointers: it
 *                                is built with them), then wait on stdin
 *   symbolize_drv user TGID ADDR...   a diagnosis of TGID with that user
 *                                stack (at the deadline), as mon prints it
 *   symbolize_drv kernel ADDR... a diagnosis with that kernel stack
 *   symbolize_drv kallsyms FILE ADDR...  the same, names from FILE (the
 *                                format of /proc/kallsyms)
 *   symbolize_drv twice TGID FIFO ADDR...  the user stack once, then (the
 *                                symbolizer kept) after a line arrives on
 *                                FIFO (the test ends TGID then): a gone
 *                                process that was cached keeps its names
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "output/symbolize.h"

#define NOINLINE __attribute__((noinline, used))

NOINLINE void sym_leaf(void)
{
	char c;

	/* A caller's return address is found through the frame pointers, as the kernel does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-address"
	printf("%p %p %p\n", (void *)((char *)sym_leaf + 4), __builtin_return_address(0),
	       __builtin_return_address(1));
#pragma GCC diagnostic pop
	fflush(stdout);
	if (read(0, &c, 1) < 0)
		perror("read");
	__asm__ volatile("" ::: "memory");
}

NOINLINE void sym_caller(void)
{
	sym_leaf();
	__asm__ volatile("" ::: "memory");
}

static void show(struct tlob_symbolizer *s, struct tlob_diag *d)
{
	static char buf[65536];
	struct tlob_diag_syms syms;

	tlob_symbolize(s, d, &syms);
	if (tlob_diag_text(d, &syms, buf, sizeof(buf)) < 0)
		exit(1);
	fputs(buf, stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct tlob_symbolizer *s;
	struct tlob_diag d = { .state = 1, .ustack_when = TLOB_STACK_DEADLINE };
	int first = 2, i;
	const char *fifo = NULL, *kallsyms = NULL;

	if (argc == 2 && !strcmp(argv[1], "child")) {
		sym_caller();
		return 0;
	}
	if (argc < 3)
		return 2;
	if (!strcmp(argv[1], "user") || !strcmp(argv[1], "twice")) {
		d.tgid = d.pid = (unsigned int)atoi(argv[2]);
		first = 3;
		if (!strcmp(argv[1], "twice")) {
			fifo = argv[3];
			first = 4;
		}
		for (i = first; i < argc && d.nr_ustack < TLOB_DIAG_USTACK; i++)
			d.ustack[d.nr_ustack++] = strtoull(argv[i], NULL, 0);
	} else if (!strcmp(argv[1], "kernel") || !strcmp(argv[1], "kallsyms")) {
		if (argv[1][1] == 'a') {
			kallsyms = argv[2];
			first = 3;
		}
		d.state = 2;
		d.ustack_when = TLOB_STACK_NONE;
		for (i = first; i < argc && d.nr_kstack < TLOB_DIAG_KSTACK; i++)
			d.kstack[d.nr_kstack++] = strtoull(argv[i], NULL, 0);
	} else {
		return 2;
	}
	s = tlob_symbolizer_new();
	if (!s)
		return 1;
	if (kallsyms)
		tlob_symbolizer_kallsyms(s, kallsyms);
	show(s, &d);
	if (fifo) {
		char line[16];
		FILE *f = fopen(fifo, "r");

		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
		puts("--");
		show(s, &d);
	}
	tlob_symbolizer_free(s);
	return 0;
}
