// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the diagnosis steps both backends take
 * (kernel/shared/tlob_diag.h): migrations counted at switch-in, the last
 * waker kept, the table of tasks that ran instead (a task adds up, a new
 * one takes a free entry or evicts the least, sorted most time first).
 * TAP.
 */
#include <stdio.h>
#include <string.h>

#include "tlob_diag.h"

static int n, failed;

static void ok(int cond, const char *what)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
}

int main(void)
{
	struct tlob_diag d;
	unsigned int i;

	memset(&d, 0xa5, sizeof(d));
	tlob_diag_open(&d, 1);
	ok(d.cpu == 1 && !d.migrations && !d.nr_ran && !d.waker_pid && !d.nr_ustack,
	   "open: everything zero but the CPU");
	tlob_diag_on_cpu(&d, 1);
	ok(!d.migrations, "switch-in on the same CPU: no migration");
	tlob_diag_on_cpu(&d, 0);
	tlob_diag_on_cpu(&d, 0);
	tlob_diag_on_cpu(&d, 1);
	ok(d.migrations == 2 && d.cpu == 1, "two moves counted, last CPU kept");

	tlob_diag_woken(&d, 7, "first-waker");
	tlob_diag_woken(&d, 8, "a-very-long-waker-name");
	ok(d.waker_pid == 8 && !strcmp(d.waker_comm, "a-very-long-wak"),
	   "the last waker, its comm cut to TLOB_COMM_LEN - 1");

	tlob_diag_ran_add(&d, 10, 120, 0, "ten", 100);
	tlob_diag_ran_add(&d, 11, 49, 1, "hog", 5000);
	tlob_diag_ran_add(&d, 10, 120, 0, "ten", 50);
	ok(d.nr_ran == 2 && d.ran[0].ns == 150, "a task already in the table adds up");
	tlob_diag_ran_add(&d, 12, 120, 0, "twelve", 10);
	tlob_diag_ran_add(&d, 13, 120, 0, "thirteen", 20);
	ok(d.nr_ran == TLOB_DIAG_RAN, "four tasks fill the table");
	tlob_diag_ran_add(&d, 14, 120, 0, "small", 5);
	for (i = 0; i < d.nr_ran; i++)
		if (d.ran[i].pid == 14)
			break;
	ok(i == d.nr_ran, "a new task with less time than every entry is not kept");
	tlob_diag_ran_add(&d, 15, 98, 2, "bigger", 1000);
	for (i = 0; i < d.nr_ran; i++)
		ok(d.ran[i].pid != 12, "the least (12, 10 ns) was evicted");
	tlob_diag_ran_sort(&d);
	ok(d.ran[0].pid == 11 && d.ran[1].pid == 15 && d.ran[2].pid == 10 &&
	   d.ran[3].pid == 13, "sorted most time first: 11 15 10 13");
	ok(d.ran[0].policy == 1 && d.ran[0].prio == 49 && !strcmp(d.ran[0].comm, "hog"),
	   "entries keep policy, prio and comm");

	memset(&d, 0, sizeof(d));
	tlob_diag_ran_add(&d, 3, 120, 0, "a", 1);
	tlob_diag_ran_add(&d, 4, 120, 0, "b", 3);
	tlob_diag_ran_sort(&d);
	ok(d.nr_ran == 2 && d.ran[0].pid == 4 && d.ran[1].pid == 3 && !d.ran[2].pid,
	   "a table of two sorts without touching the free entries");

	/* A run of [from, now) against a window [100, deadline 200). */
	ok(tlob_diag_ran_span(120, 150, 100, 200) == 30, "span: a run inside the window");
	ok(tlob_diag_ran_span(50, 150, 100, 200) == 50, "span: cut at the window's start");
	ok(tlob_diag_ran_span(150, 250, 100, 200) == 50, "span: cut at the deadline");
	ok(tlob_diag_ran_span(210, 250, 100, 200) == 0, "span: after the deadline, nothing");
	ok(tlob_diag_ran_span(50, 90, 100, 200) == 0, "span: before the window, nothing");
	ok(tlob_diag_ran_span(150, 140, 100, 200) == 0, "span: an empty run, nothing");
	printf("1..%d\n", n);
	return failed != 0;
}
