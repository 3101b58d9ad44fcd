/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks of ha_glue.c: the generated invariant glue applies the
 * model's table, and nothing else, and the one guard of the model,
 * stop;clk_elapsed >= MIN_NS() on running -> stopped, holds from the
 * minimum on. The includer has included the glue, with BUDGET_NS(clk)
 * calling budget_of(clk) and MIN_NS(clk) calling min_of(clk). Prints TAP.
 */
#include <stdio.h>
#include <string.h>

struct win {
	struct ha_clocks_tlob clk;	/* first: the glue's pointer is ours */
	unsigned long long budget, min;
	int arms, cancels;
	unsigned long long armed_at;
};

static int tests, failed;

static void ok(int cond, const char *fmt, const char *a, const char *b)
{
	tests++;
	failed += !cond;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	printf(fmt, a, b);
	putchar('\n');
}

static unsigned long long budget_of(const struct ha_clocks_tlob *clk)
{
	return ((const struct win *)clk)->budget;
}

static unsigned long long min_of(const struct ha_clocks_tlob *clk)
{
	return ((const struct win *)clk)->min;
}

static void ha_arm_tlob(struct ha_clocks_tlob *clk, __u64 deadline_ns)
{
	struct win *w = (struct win *)clk;

	w->arms++;
	w->armed_at = deadline_ns;
}

static void ha_cancel_tlob(struct ha_clocks_tlob *clk)
{
	((struct win *)clk)->cancels++;
}

static int run_checks(void)
{
	const struct automaton_tlob *a = automaton_tlob_get();
	const unsigned long long t0 = 1000, now = 5000, budget = 300;
	int arms = 0, cancels = 0;
	unsigned int s, e;

	for (s = 0; s < state_max_tlob; s++) {
		for (e = 0; e < event_max_tlob; e++) {
			const char *sn = a->state_names[s], *en = a->event_names[e];
			unsigned int next = a->function[s][e];
			unsigned int reset = a->reset_env[s][e];
			unsigned int timer = a->timer[s][e];
			struct win w = { .budget = budget };
			unsigned long long start;

			w.clk.start[clk_elapsed_tlob] = t0;
			ha_step_tlob(&w.clk, s, e, now);
			arms += w.arms;
			cancels += w.cancels;
			start = reset == clk_elapsed_tlob ? now : t0;
			if (next == INVALID_STATE_TLOB) {
				ok(!w.arms && !w.cancels && w.clk.start[0] == t0,
				   "%s x %s: not allowed, nothing happens", sn, en);
				continue;
			}
			ok(w.clk.start[clk_elapsed_tlob] == start,
			   "%s x %s: clock reset as the table says", sn, en);
			if (timer == timer_arm_tlob)
				ok(w.arms == 1 && !w.cancels &&
				   w.armed_at == start + budget,
				   "%s x %s: armed once at reset + budget", sn, en);
			else if (timer == timer_cancel_tlob)
				ok(!w.arms && w.cancels == 1,
				   "%s x %s: cancelled once", sn, en);
			else
				ok(!w.arms && !w.cancels,
				   "%s x %s: timer left alone", sn, en);
		}
	}
	ok(arms == 1 && cancels == 4, "%s%sone arm and four cancels over all cells",
	   "", "");

	for (s = 0; s < state_max_tlob; s++) {
		struct win w = { .budget = budget };
		int inv = a->invariant_env[s] < env_max_tlob;

		w.clk.start[clk_elapsed_tlob] = t0;
		ok(ha_deadline_tlob(&w.clk, s) == (inv ? t0 + budget : 0),
		   "%s: deadline %s", a->state_names[s],
		   inv ? "start + budget" : "0 (no invariant)");
		ok(ha_invariant_holds_tlob(&w.clk, s, t0 + budget - 1),
		   "%s: invariant holds 1 ns before the deadline%s",
		   a->state_names[s], "");
		ok(ha_invariant_holds_tlob(&w.clk, s, t0 + budget) == !inv,
		   "%s: %s", a->state_names[s],
		   inv ? "invariant violated at the deadline (<)" :
		   "no invariant, holds at any time");
	}

	for (s = 0; s < state_max_tlob; s++) {
		for (e = 0; e < event_max_tlob; e++) {
			const char *sn = a->state_names[s], *en = a->event_names[e];
			struct win w = { .budget = budget, .min = 300 };

			w.clk.start[clk_elapsed_tlob] = t0;
			if (s != running_tlob || e != stop_tlob) {
				ok(ha_guard_holds_tlob(&w.clk, s, e, t0),
				   "%s x %s: no guard, holds", sn, en);
				continue;
			}
			ok(!ha_guard_holds_tlob(&w.clk, s, e, t0 + 299),
			   "%s x %s: clk_elapsed >= MIN_NS() fails 1 ns before the minimum",
			   sn, en);
			ok(ha_guard_holds_tlob(&w.clk, s, e, t0 + 300),
			   "%s x %s: clk_elapsed >= MIN_NS() holds at the minimum",
			   sn, en);
			w.min = 0;
			ok(ha_guard_holds_tlob(&w.clk, s, e, t0),
			   "%s x %s: with no minimum (0), holds at once", sn, en);
		}
	}
	{
		struct win w = { .budget = budget };

		ok(ha_guard_holds_tlob(&w.clk, state_max_tlob, stop_tlob, now) &&
		   ha_guard_holds_tlob(&w.clk, running_tlob, event_max_tlob, now),
		   "%s%sout-of-range state or event: the guard holds", "", "");
		w.clk.start[clk_elapsed_tlob] = t0;
		ha_step_tlob(&w.clk, state_max_tlob, start_tlob, now);
		ha_step_tlob(&w.clk, stopped_tlob, event_max_tlob, now);
		ok(!w.arms && !w.cancels && w.clk.start[0] == t0,
		   "%s%sout-of-range state or event: nothing happens", "", "");
	}
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}
