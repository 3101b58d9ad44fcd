// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of a logical instance's step (kernel/shared/tlob_logic_step.h,
 * the code the module runs): tables parsed from `l` lines by the
 * module's own parser, then events at chosen times, each with what it
 * must do to the state and the clock. The module's guest tests cannot
 * place an event between an invariant's end and its timer (a late
 * timer); here the time is ours. TAP.
 */
#include <stdio.h>

#include "tlob_parse.h"
#include "tlob_logic.h"
#include "tlob_logic_step.h"

#define MS 1000000ULL

static int n, failed;
static struct tlob_logic_table table;

static void ok(int cond, const char *name)
{
	n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, name);
	if (!cond)
		failed++;
}

/* Parse @line into the table; a test of a table that did not parse fails. */
static int load(const char *line)
{
	struct tlob_req r = { .table = &table };
	char buf[4096];
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	ok(!ret && r.logic, line);
	return ret;
}

/* One event: what the step must return, and where it must leave @p. */
static void step(struct tlob_logic_pos *p, unsigned int event, u64 now,
		 enum tlob_logic_step_result want, unsigned int state, u64 clock_ns,
		 const char *name)
{
	enum tlob_logic_step_result got = tlob_logic_step(&table, p, event, now);

	ok(got == want && p->state == state && p->clock_ns == clock_ns, name);
	if (got != want || p->state != state || p->clock_ns != clock_ns)
		printf("# got %d, state %u, clock start %llu\n", got, p->state,
		       (unsigned long long)p->clock_ns);
}

/* A model without time: edges only, and a state beyond them refused. */
static void untimed(void)
{
	struct tlob_logic_pos p = { .clock_ns = 0, .state = 0 };

	if (load("l /a model=m states=idle,busy events=go@1,done@2 edges=0.0.1,1.1.0 final=0"))
		return;
	step(&p, 0, 5, TLOB_LOGIC_TOOK, 1, 0, "untimed: go from idle");
	step(&p, 0, 6, TLOB_LOGIC_NO_EDGE, 1, 0, "untimed: go again from busy: no edge, left as it was");
	step(&p, 1, 7, TLOB_LOGIC_TOOK, 0, 0, "untimed: done back to idle");
	step(&p, 1, 8, TLOB_LOGIC_NO_EDGE, 0, 0, "untimed: done in idle: no edge");
	ok(!tlob_logic_overdue(&table, &p, ~0ULL), "untimed: never overdue");
	ok(!tlob_logic_due(&table, &p, ~0ULL), "untimed: no timer");
	p.state = TLOB_LOGIC_STATES_MAX;
	step(&p, 0, 9, TLOB_LOGIC_NO_EDGE, TLOB_LOGIC_STATES_MAX, 0,
	     "a state past the table: no edge, nothing read");
	p.state = 0;
	step(&p, TLOB_LOGIC_EVENTS_MAX, 9, TLOB_LOGIC_NO_EDGE, 0, 0,
	     "an event past the table: no edge, nothing read");
}

/*
 * frame-timing's shape: idle -begin-> in_frame (resets clk), in_frame
 * -end-> idle only while clk is in [1 ms, 33 ms); in_frame holds
 * while clk < 50 ms (its invariant).
 */
static void timed(void)
{
	struct tlob_logic_pos p = { .clock_ns = 100 * MS, .state = 0 };

	if (load("l /a model=f states=idle,in_frame events=begin@1,end@2 "
		 "edges=0.0.1.r,1.1.0.g1000000-33000000 final=0 clock=clk inv=1.50000000"))
		return;
	step(&p, 0, 200 * MS, TLOB_LOGIC_TOOK, 1, 200 * MS, "timed: begin resets the clock");
	ok(tlob_logic_due(&table, &p, ~0ULL) == 250 * MS, "timed: in_frame's timer for clock start + 50 ms");
	ok(!tlob_logic_due(&table, &p, 249 * MS), "timed: a bound past the caller's maximum: no timer");
	step(&p, 1, 200 * MS + MS - 1, TLOB_LOGIC_OFF_GUARD, 1, 200 * MS,
	     "timed: end 1 ns before the guard's low bound: off guard, left as it was");
	step(&p, 1, 200 * MS + MS, TLOB_LOGIC_TOOK, 0, 200 * MS,
	     "timed: end at the low bound: taken, no reset");
	ok(!tlob_logic_due(&table, &p, ~0ULL), "timed: idle has no invariant: no timer");
	step(&p, 0, 300 * MS, TLOB_LOGIC_TOOK, 1, 300 * MS, "timed: begin again");
	step(&p, 1, 333 * MS, TLOB_LOGIC_OFF_GUARD, 1, 300 * MS,
	     "timed: end at the high bound: off guard (lo <= clock < hi)");
	p = (struct tlob_logic_pos){ .clock_ns = 300 * MS, .state = 1 };
	step(&p, 1, 333 * MS - 1, TLOB_LOGIC_TOOK, 0, 300 * MS, "timed: end 1 ns before it: taken");

	/* The late timer: an event after in_frame's bound, before its timer. */
	p = (struct tlob_logic_pos){ .clock_ns = 400 * MS, .state = 1 };
	ok(!tlob_logic_overdue(&table, &p, 450 * MS - 1), "late: 1 ns before the invariant's end: not overdue");
	ok(tlob_logic_overdue(&table, &p, 450 * MS), "late: at its end: overdue (clock < 50 ms no longer holds)");
	ok(tlob_logic_overdue(&table, &p, 460 * MS), "late: an event 10 ms after it finds the instance overdue");
	ok(!tlob_logic_overdue(&table, &(struct tlob_logic_pos){ .clock_ns = 0, .state = 0 }, ~0ULL),
	   "late: idle is never overdue");
}

/* Resets on a self-loop; a bound up to 2^64 - 1 ns; a guard with no top. */
static void bounds(void)
{
	struct tlob_logic_pos p = { .clock_ns = 7, .state = 0 };

	if (load("l /a model=b states=s,t events=tick@1,go@2 "
		 "edges=0.0.0.r,0.1.1.g5-,1.0.0 final=0 clock=c inv=0.18446744073709551615"))
		return;
	ok(!tlob_logic_due(&table, &p, (1ULL << 63) - 1), "bounds: an invariant of 2^64 - 1 ns: no timer");
	ok(!tlob_logic_overdue(&table, &p, 1ULL << 62), "bounds: ... and not overdue 2^62 ns on");
	step(&p, 0, 9, TLOB_LOGIC_TOOK, 0, 9, "bounds: a self-loop that resets moves the clock only");
	step(&p, 1, 13, TLOB_LOGIC_OFF_GUARD, 0, 9, "bounds: go at 4 ns: below g5-");
	step(&p, 1, 9 + (1ULL << 40), TLOB_LOGIC_TOOK, 1, 9, "bounds: go 2^40 ns on: g5- has no top");
	step(&p, 0, 10, TLOB_LOGIC_TOOK, 0, 9, "bounds: t -tick-> s: no reset there");
}

int main(void)
{
	untimed();
	timed();
	bounds();
	printf("1..%d\n", n);
	return failed != 0;
}
