// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the engine (kernel/shared/tlob_engine.h): the code the module and
 * the BPF programs both run for every event of a window. A small backend
 * here (windows per task and binding, a deadline timer that fires when the
 * clock passes it, kernel/shared/tlob_switch_rule.h for switches) drives it with
 * event sequences:
 * - every scenario of tests/e2e/scenarios.tsv (argv[1]), as its workload
 *   runs, on the table's budgets: the records must be the multiset the
 *   table expects (KIND:TAG:VERDICT:ABORT:DOMINANT) and pass its checks;
 * - the edge cases: START inside a window, exit, exec, the deadline racing
 *   STOP, a STOP that claims its window before it takes the time, unbind
 *   and disable, model errors, overlapping windows;
 * and checks verdicts, detectors, times per state (to the ns: they add up
 * to the elapsed time), counts, timer arms and cancels, and the
 * statistics. TAP.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
/* __always_inline: glibc's sys/cdefs.h has it, as the kernel and libbpf do. */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1

#include "tlob_engine.h"
#include "tlob_switch_rule.h"

#define US	1000ULL
#define MS	1000000ULL
#define T0	(1000 * MS)	/* the clock starts here: 0 means "take the time" */
#define NWIN	32
#define NREC	2048
#define NBIND	4
#define MAIN	100		/* the workload's pid and tgid; threads 101.. */

/* ---- TAP ---------------------------------------------------------------- */

static int tests, failed;

static int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	failed += !cond;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

static void is_u64(unsigned long long got, unsigned long long want, const char *what,
		   const char *name)
{
	if (!ok(got == want, "%s: %s", name, what))
		printf("#   got %llu, expected %llu\n", got, want);
}

/* ---- the test's backend --------------------------------------------------- */

struct win {
	struct tlob_core core;
	bool used;
	int task;
	int binding;
	bool armed;
	__u64 deadline;
	int arms;
	int cancels;
};

static struct {
	struct win win[NWIN];
	struct tlob_record rec[NREC];
	int nrec;
	struct tlob_stats stats[NBIND];
	__u64 budget[NBIND];
	__u64 min[NBIND];	/* min=: 0 none */
	unsigned int tol_k[NBIND], tol_w[NBIND];	/* tolerance=K/W */
	__u64 history[NBIND];	/* tlob_tolerance.h */
	char tag[NBIND][TLOB_TAG_LEN];
	__u64 clock;		/* what tlob_now() returns */
	__u64 timer_late;	/* a timer fires this long after its deadline */
	bool timer_lost;	/* no timer fires (a detector that never came) */
	int steps, refused;	/* tlob_on_step() */
	int arms, cancels;
	/* tlob_now() runs this first: what interrupts a claimed STOP */
	void (*interrupt)(void);
	struct win *victim;
} sim;

static struct win *win_of(struct tlob_core *c)
{
	return (struct win *)((char *)c - offsetof(struct win, core));
}

static struct win *win_of_clk(struct ha_clocks_tlob *clk)
{
	return win_of((struct tlob_core *)((char *)clk - offsetof(struct tlob_core, clk)));
}

static void ha_arm_tlob(struct ha_clocks_tlob *clk, __u64 deadline_ns)
{
	struct win *w = win_of_clk(clk);

	w->armed = true;
	w->deadline = deadline_ns;
	w->arms++;
	sim.arms++;
}

static void ha_cancel_tlob(struct ha_clocks_tlob *clk)
{
	struct win *w = win_of_clk(clk);

	w->armed = false;
	w->cancels++;
	sim.cancels++;
}

/* One context at a time here: a plain compare and store, as the module's. */
static bool tlob_cas(__u32 *p, __u32 old, __u32 new)
{
	if (*p != old)
		return false;
	*p = new;
	return true;
}

static __u64 tlob_now(void)
{
	if (sim.interrupt)
		sim.interrupt();
	return sim.clock;
}

static void tlob_emit(struct tlob_core *c, unsigned int kind, unsigned int event, __u64 now)
{
	if (sim.nrec >= NREC) {
		ok(0, "more than %d records", NREC);
		exit(1);
	}
	tlob_record_fill(&sim.rec[sim.nrec++], c, kind, event, now);
}

static void tlob_account(struct tlob_core *c, __u64 elapsed_ns)
{
	sim.history[c->binding_id] = tlob_history_push(sim.history[c->binding_id], c->verdict);
	tlob_stats_add(&sim.stats[c->binding_id], c->verdict, tlob_core_tolerated(c),
		       elapsed_ns);
}

static bool tlob_react_due(struct tlob_core *c)
{
	return tlob_tolerance_reached(sim.history[c->binding_id], sim.tol_k[c->binding_id],
				      sim.tol_w[c->binding_id]);
}

static void tlob_on_step(struct tlob_core *c, unsigned int curr, unsigned int event,
			 unsigned int next)
{
	(void)c;
	(void)curr;
	(void)event;
	sim.steps++;
	sim.refused += next == INVALID_STATE_TLOB;
}

static void sim_reset(void)
{
	memset(&sim, 0, sizeof(sim));
	for (int b = 0; b < NBIND; b++) {
		sim.budget[b] = 100 * MS;
		sim.tol_k[b] = 1;
		sim.tol_w[b] = 1;
		snprintf(sim.tag[b], TLOB_TAG_LEN, "%c", 'a' + b);
	}
}

static struct win *find(int task, int binding)
{
	for (int i = 0; i < NWIN; i++)
		if (sim.win[i].used && sim.win[i].task == task && sim.win[i].binding == binding)
			return &sim.win[i];
	return NULL;
}

/* The slot goes back when the engine says the window ended. */
static int feed(struct win *w, unsigned int event, __u64 now, unsigned int detector,
		unsigned int reason)
{
	int ret = tlob_step(&w->core, event, now, detector, reason);

	if (ret == TLOB_STEP_ENDED) {
		ok(!w->armed, "the window's end cancelled its timer (task %d)", w->task);
		w->used = false;
	}
	return ret;
}

/* The deadline timers due by @t fire, in order, as the module's hrtimer. */
static void sim_at(__u64 t)
{
	for (;;) {
		struct win *due = NULL;

		for (int i = 0; i < NWIN; i++) {
			struct win *w = &sim.win[i];

			if (w->used && w->armed && w->deadline + sim.timer_late <= t &&
			    (!due || w->deadline < due->deadline))
				due = w;
		}
		if (!due || sim.timer_lost)
			return;
		due->armed = false;
		if (tlob_core_active(&due->core))
			tlob_check(&due->core, due->deadline + sim.timer_late,
				   TLOB_DETECT_HRTIMER, event_max_tlob);
	}
}

static void sim_start(int task, int binding, __u64 t)
{
	struct win *w;

	sim_at(t);
	w = find(task, binding);
	if (w) {
		/* The model decides what a START inside the window means. */
		feed(w, start_tlob, t, TLOB_DETECT_STOP, TLOB_ABORT_NONE);
		return;
	}
	for (int i = 0; i < NWIN; i++) {
		w = &sim.win[i];
		if (w->used)
			continue;
		memset(w, 0, sizeof(*w));
		w->used = true;
		w->task = task;
		w->binding = binding;
		w->core.pid = task;
		w->core.tgid = MAIN;
		w->core.binding_id = binding;
		snprintf(w->core.comm, TLOB_COMM_LEN, "task-%d", task);
		memcpy(w->core.tag, sim.tag[binding], TLOB_TAG_LEN);
		tlob_open(&w->core, sim.budget[binding], sim.min[binding], t);
		return;
	}
	ok(0, "no free window");
}

static void sim_stop(int task, int binding, __u64 t)
{
	struct win *w;

	sim_at(t);
	w = find(task, binding);
	if (w)
		feed(w, stop_tlob, t, TLOB_DETECT_STOP, TLOB_ABORT_NONE);
}

/* A scheduler event or an abort for every window @task has open. */
static void sim_task(int task, unsigned int event, __u64 t, unsigned int reason)
{
	sim_at(t);
	for (int i = 0; i < NWIN; i++) {
		struct win *w = &sim.win[i];

		if (w->used && w->task == task)
			feed(w, event, t, event == abort_tlob ? TLOB_DETECT_STOP :
			     TLOB_DETECT_SCHED, reason);
	}
}

/* Switched out: preempted (tick, higher priority), yielded, or blocked. */
enum out { PREEMPTED, YIELDED, BLOCKED, SIGNALLED };

static void sim_out(int task, enum out how, __u64 t)
{
	bool preempt = how == PREEMPTED;
	unsigned int state = how == BLOCKED || how == SIGNALLED ? TASK_INTERRUPTIBLE :
			     TASK_RUNNING;

	sim_task(task, tlob_switch_out_event(preempt, state, how == BLOCKED), t,
		 TLOB_ABORT_NONE);
}

static void sim_in(int task, __u64 t)
{
	sim_task(task, switch_in_tlob, t, TLOB_ABORT_NONE);
}

static void sim_wake(int task, __u64 t)
{
	sim_task(task, wakeup_tlob, t, TLOB_ABORT_NONE);
}

/* Unbind (@binding) or disable (-1): the control side ends windows. */
static void sim_abort_binding(int binding, unsigned int reason, __u64 t)
{
	sim_at(t);
	for (int i = 0; i < NWIN; i++) {
		struct win *w = &sim.win[i];

		if (w->used && (binding < 0 || w->binding == binding))
			feed(w, abort_tlob, t, TLOB_DETECT_STOP, reason);
	}
}

/* ---- records -------------------------------------------------------------- */

static __u64 rec_total(const struct tlob_record *r)
{
	__u64 n = 0;

	for (int s = 0; s < state_max_tlob; s++)
		n += r->time_ns[s];
	return n;
}

/* e2e.sh's rule: running unless waiting or sleeping holds more. */
static const char *dominant(const struct tlob_record *r)
{
	__u64 run = r->time_ns[running_tlob], wait = r->time_ns[waiting_tlob];
	__u64 slp = r->time_ns[sleeping_tlob];

	if (wait > run && wait >= slp)
		return "waiting";
	if (slp > run && slp > wait)
		return "sleeping";
	return "running";
}

static const char *kind_name(unsigned int k)
{
	return k == TLOB_REC_WINDOW ? "window" : k == TLOB_REC_VIOLATION ? "violation" : "?";
}

static const char *verdict_name(unsigned int v)
{
	static const char *const n[] = { "ok", "over_budget", "model_error", "aborted" };

	return v < 4 ? n[v] : "?";
}

static const char *abort_name(unsigned int a)
{
	static const char *const n[] = { "none", "exit", "exec", "unbind", "disable" };

	return a < 5 ? n[a] : "?";
}

static const struct tlob_record *nth(unsigned int kind, int n)
{
	for (int i = 0; i < sim.nrec; i++)
		if (sim.rec[i].kind == kind && !n--)
			return &sim.rec[i];
	return NULL;
}

static int nr_of(unsigned int kind)
{
	int n = 0;

	for (int i = 0; i < sim.nrec; i++)
		n += sim.rec[i].kind == kind;
	return n;
}

/* What every record of every test must be, whatever the scenario. */
static void check_records(const char *name)
{
	bool sums = true, pad = true, open = true;
	int lost = 0;

	for (int i = 0; i < sim.nrec; i++) {
		const struct tlob_record *r = &sim.rec[i];

		sums &= rec_total(r) == r->elapsed_ns && r->end_ns - r->start_ns == r->elapsed_ns;
		sums &= !r->time_ns[stopped_tlob];
		for (size_t p = 0; p < sizeof(r->pad); p++)
			pad &= !r->pad[p];
		if (r->kind == TLOB_REC_VIOLATION)
			open &= r->state != stopped_tlob &&
				(r->verdict == TLOB_VERDICT_OVER_BUDGET ||
				 r->verdict == TLOB_VERDICT_EARLY);
		else
			open &= r->state == stopped_tlob ||
				(r->event < event_max_tlob &&
				 automaton_tlob.function[r->state][r->event] == INVALID_STATE_TLOB);
	}
	ok(sums, "%s: every record's times add up to its elapsed time, none in stopped", name);
	ok(pad, "%s: every record's padding is zero", name);
	ok(open, "%s: violations inside an open window, windows end in stopped (or refused)",
	   name);
	/* Each violation is followed by its window's record, with its verdict. */
	for (int i = 0; i < sim.nrec; i++) {
		const struct tlob_record *v = &sim.rec[i];
		bool found = false;

		if (v->kind != TLOB_REC_VIOLATION)
			continue;
		for (int j = i + 1; j < sim.nrec && !found; j++) {
			const struct tlob_record *w = &sim.rec[j];

			found = w->kind == TLOB_REC_WINDOW && w->pid == v->pid &&
				w->binding_id == v->binding_id && w->start_ns == v->start_ns &&
				w->verdict == v->verdict && w->end_ns >= v->end_ns &&
				w->detector == v->detector && w->react == v->react &&
				w->detect_latency_ns == v->detect_latency_ns;
		}
		lost += !found;
	}
	ok(!lost, "%s: every violation reported before its window ended with its verdict "
	   "(and reaction)", name);
	for (int i = 0; i < sim.nrec; i++)
		lost += sim.rec[i].react && sim.rec[i].verdict != TLOB_VERDICT_OVER_BUDGET &&
			sim.rec[i].verdict != TLOB_VERDICT_EARLY;
	ok(!lost, "%s: only a violation's records react", name);
	for (int i = 0; i < NWIN; i++)
		lost += sim.win[i].used;
	ok(!lost, "%s: no window left open", name);
}

/* ---- the scenarios of tests/e2e/scenarios.tsv ------------------------------ */

/*
 * Each runs the workload of its table line as the kernel would see it on
 * one CPU: the uprobe hits and scheduler events with their times. The
 * budgets are the table's (sim.budget[] from its bindings column).
 */

/* -n 3 -g 20 spin 20: three 20 ms spins 20 ms apart. */
static void scen_in_budget(void)
{
	for (int i = 0; i < 3; i++) {
		__u64 t = T0 + i * 40 * MS;

		sim_start(MAIN, 0, t);
		sim_out(MAIN, PREEMPTED, t + 5 * MS);	/* a tick's worth of another task */
		sim_in(MAIN, t + 5 * MS + 50 * US);
		sim_stop(MAIN, 0, t + 20 * MS);
	}
}

/* spin 300: on the CPU throughout; the timer fires while it spins. */
static void scen_spin_over(void)
{
	sim.timer_late = 60 * US;
	sim_start(MAIN, 0, T0);
	sim_wake(MAIN, T0 + 150 * MS);		/* a wakeup of a running task */
	sim_stop(MAIN, 0, T0 + 300 * MS);
}

/* sleep 300: blocked in nanosleep, woken, back on the CPU, STOP. */
static void scen_sleep_over(void)
{
	sim.timer_late = 30 * US;
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, BLOCKED, T0 + 100 * US);
	sim_wake(MAIN, T0 + 300 * MS);
	sim_in(MAIN, T0 + 300 * MS + 40 * US);
	sim_stop(MAIN, 0, T0 + 300 * MS + 60 * US);
}

/* yield 300: runs 1 ms, yields, waits 3 ms for three spinners, 75 times. */
static void scen_yield(void)
{
	__u64 t = T0;

	sim_start(MAIN, 0, t);
	for (int i = 0; i < 75; i++) {
		sim_out(MAIN, YIELDED, t + 1 * MS);
		sim_in(MAIN, t + 4 * MS);
		t += 4 * MS;
	}
	sim_stop(MAIN, 0, t);
}

/* starve 300: a SCHED_FIFO hog takes the CPU right after START. */
static void scen_starve(void)
{
	sim.timer_late = 500 * US;
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, PREEMPTED, T0 + 20 * US);
	sim_in(MAIN, T0 + 300 * MS);
	sim_stop(MAIN, 0, T0 + 300 * MS + 100 * US);
}

/* restart 6 500 10: one 500 ms window, then five of 10 ms. */
static void scen_restart(void)
{
	__u64 t = T0;

	sim_start(MAIN, 0, t);
	sim_stop(MAIN, 0, t + 500 * MS);
	t += 501 * MS;
	for (int i = 0; i < 5; i++, t += 11 * MS) {
		sim_start(MAIN, 0, t);
		sim_stop(MAIN, 0, t + 10 * MS);
	}
}

/* two 300 20: binding a (section 1) spins 300 ms, then b (section 2) 20 ms. */
static void scen_two(void)
{
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, T0 + 300 * MS);
	sim_start(MAIN, 1, T0 + 300 * MS + 10 * US);
	sim_stop(MAIN, 1, T0 + 320 * MS + 10 * US);
}

/* fork 100: the child runs and exits inside the parent's window. */
static void scen_fork(void)
{
	const int child = 200;

	sim_start(MAIN, 0, T0);
	sim_out(MAIN, PREEMPTED, T0 + 1 * MS);	/* the child runs first */
	sim_in(child, T0 + 1 * MS);
	sim_task(child, abort_tlob, T0 + 2 * MS, TLOB_ABORT_EXIT);
	sim_out(child, BLOCKED, T0 + 2 * MS);
	sim_in(MAIN, T0 + 2 * MS + 10 * US);
	sim_stop(MAIN, 0, T0 + 100 * MS);
}

/* exec 100: spins 100 ms, then execs another image inside the window. */
static void scen_exec(void)
{
	sim_start(MAIN, 0, T0);
	sim_task(MAIN, abort_tlob, T0 + 100 * MS, TLOB_ABORT_EXEC);
}

/* exit 100: spins 100 ms, then _exit()s inside the window. */
static void scen_exit(void)
{
	sim_start(MAIN, 0, T0);
	sim_task(MAIN, abort_tlob, T0 + 100 * MS, TLOB_ABORT_EXIT);
}

/* threads 4 2 100 sleep: each round, 4 threads open a window and sleep 100 ms. */
static void scen_threads(void)
{
	for (int round = 0; round < 2; round++) {
		__u64 t = T0 + round * 200 * MS;

		for (int i = 0; i < 4; i++) {
			int tid = MAIN + 1 + i;
			__u64 s = t + i * 30 * US;

			sim_start(tid, 0, s);
			sim_out(tid, BLOCKED, s + 10 * US);
			sim_wake(tid, s + 100 * MS);
			sim_in(tid, s + 100 * MS + 20 * US);
			sim_stop(tid, 0, s + 100 * MS + 30 * US);
		}
	}
}

/*
 * T threads on one CPU, R rounds, windows of MS of wall clock: round-robin
 * slices of 1 ms. A thread opens its window when it first runs in a round,
 * and ends it (then blocks at the barrier, outside any window) when it is
 * on the CPU once its time is up.
 */
static void round_robin(int threads, int rounds, __u64 len)
{
	__u64 t = T0, start[8];

	for (int r = 0; r < rounds; r++) {
		bool begun[8] = { false }, done[8] = { false };
		int left = threads;

		while (left) {
			for (int i = 0; i < threads; i++) {
				int tid = MAIN + 1 + i;

				if (done[i])
					continue;
				sim_in(tid, t);
				if (!begun[i]) {
					begun[i] = true;
					start[i] = t + 5 * US;
					sim_start(tid, 0, start[i]);
				} else if (t >= start[i] + len) {
					sim_stop(tid, 0, t + 5 * US);
					sim_out(tid, BLOCKED, t + 10 * US);
					done[i] = true;
					left--;
					t += 10 * US;
					continue;
				}
				t += 1 * MS;
				sim_out(tid, PREEMPTED, t);
			}
		}
		t += 100 * US;
	}
}

static void scen_threads_shared(void)
{
	round_robin(4, 2, 100 * MS);
}

static void scen_churn(void)
{
	round_robin(4, 50, 2 * MS);
}

static const struct {
	const char *name;
	void (*run)(void);
} scenarios[] = {
	{ "in_budget", scen_in_budget },
	{ "spin_over", scen_spin_over },
	{ "sleep_over", scen_sleep_over },
	{ "yield", scen_yield },
	{ "starve", scen_starve },
	{ "restart", scen_restart },
	{ "two", scen_two },
	{ "fork", scen_fork },
	{ "exec", scen_exec },
	{ "exit", scen_exit },
	{ "threads", scen_threads },
	{ "threads_shared", scen_threads_shared },
	{ "churn", scen_churn },
};

static __u64 parse_budget(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (!strcmp(end, "s"))
		return (__u64)(v * 1e9);
	if (!strcmp(end, "ms"))
		return (__u64)(v * 1e6);
	if (!strcmp(end, "us"))
		return (__u64)(v * 1e3);
	return (__u64)v;
}

/* "START,STOP,BUDGET,tag=T;..." -> sim.budget[], sim.tag[] */
static int parse_bindings(char *col)
{
	int n = 0;

	for (char *b = strtok(col, ";"); b && n < NBIND; b = strtok(NULL, ";"), n++) {
		char *f[4] = { NULL };
		int k = 0;

		for (char *p = b; k < 4; k++) {
			f[k] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (!f[2])
			return -1;
		sim.budget[n] = parse_budget(f[2]);
		if (f[3] && !strncmp(f[3], "tag=", 4))
			snprintf(sim.tag[n], TLOB_TAG_LEN, "%s", f[3] + 4);
	}
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The table's checks column (e2e.sh): mainpid, pids=N, nocarry, preempt>=N. */
static void scenario_checks(const char *name, char *checks)
{
	for (char *c = strtok(checks, " "); c; c = strtok(NULL, " ")) {
		if (!strcmp(c, "mainpid")) {
			bool all = true;

			for (int i = 0; i < sim.nrec; i++)
				all &= sim.rec[i].pid == MAIN && sim.rec[i].tgid == MAIN;
			ok(all, "%s: mainpid: every record is the workload process itself", name);
		} else if (!strncmp(c, "pids=", 5)) {
			int pids[64], n = 0;
			bool one = true;

			for (int i = 0; i < sim.nrec; i++) {
				int j;

				for (j = 0; j < n && pids[j] != (int)sim.rec[i].pid; j++)
					;
				if (j == n && n < 64)
					pids[n++] = sim.rec[i].pid;
				one &= sim.rec[i].tgid == MAIN;
			}
			ok(n == atoi(c + 5) && one, "%s: %s: %d tasks of one process", name, c, n);
		} else if (!strcmp(c, "nocarry")) {
			bool fine = true;
			__u64 last_end = 0;

			for (int i = 0; i < sim.nrec; i++) {
				const struct tlob_record *r = &sim.rec[i];

				if (r->kind != TLOB_REC_WINDOW)
					continue;
				fine &= r->start_ns >= last_end;
				if (r->verdict == TLOB_VERDICT_OK)
					fine &= r->elapsed_ns < r->budget_ns;
				else
					fine &= r->elapsed_ns >= r->budget_ns;
				last_end = r->end_ns;
			}
			ok(fine, "%s: nocarry: windows in sequence, each timed from its own START",
			   name);
		} else if (!strncmp(c, "preempt>=", 9)) {
			bool all = true;

			for (int i = 0; i < sim.nrec; i++)
				if (sim.rec[i].kind == TLOB_REC_WINDOW)
					all &= sim.rec[i].count[preempt_tlob] >= (__u32)atoi(c + 9);
			ok(all, "%s: %s: every window switched out runnable that often", name, c);
		}
		/* hog, spread-only: about the two backends side by side; not here. */
	}
}

/* One line of the table: run its scenario, compare the records with it. */
static void run_scenario(char *line)
{
	static char buf[NREC][96];
	char *col[7] = { NULL }, *want[NREC], *got[NREC];
	bool taken[NREC] = { false };
	int ncol = 0, nwant = 0, ngot = 0;
	void (*run)(void) = NULL;
	bool same;

	for (char *p = line; ncol < 7; ncol++) {
		col[ncol] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (!col[5]) {
		ok(0, "malformed table line '%s'", line);
		return;
	}
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(scenarios[i].name, col[0]))
			run = scenarios[i].run;
	if (!ok(run != NULL, "%s: the scenario has its event sequence here", col[0]))
		return;
	sim_reset();
	if (!ok(parse_bindings(col[3]) > 0, "%s: bindings '%s'", col[0], col[3]))
		return;
	run();

	/* KIND:TAG:VERDICT:ABORT:DOMINANT, N*RECORD expanded, '*' kept. */
	for (char *w = strtok(col[4], " "); w && nwant < NREC; w = strtok(NULL, " ")) {
		int n = 1;
		char *star = strchr(w, '*');

		if (star && star[1] && w[0] >= '0' && w[0] <= '9') {
			n = atoi(w);
			w = star + 1;
		}
		while (n-- && nwant < NREC)
			want[nwant++] = w;
	}
	for (int i = 0; i < sim.nrec && ngot < NREC; i++) {
		const struct tlob_record *r = &sim.rec[i];

		snprintf(buf[ngot], sizeof(buf[0]), "%s:%.16s:%s:%s:%s", kind_name(r->kind), r->tag,
			 verdict_name(r->verdict), abort_name(r->abort_reason), dominant(r));
		got[ngot] = buf[ngot];
		ngot++;
	}
	/* A '*' dominant matches any: each takes one record's, once. */
	for (int i = 0; i < nwant; i++) {
		size_t n = strlen(want[i]);

		if (n < 2 || strcmp(want[i] + n - 2, ":*"))
			continue;
		for (int j = 0; j < ngot; j++) {
			char *c = strrchr(got[j], ':');

			if (!taken[j] && c && !strncmp(got[j], want[i], n - 1) &&
			    (size_t)(c - got[j]) == n - 2) {
				want[i] = got[j];
				taken[j] = true;
				break;
			}
		}
	}
	qsort(want, nwant, sizeof(want[0]), cmp_str);
	qsort(got, ngot, sizeof(got[0]), cmp_str);
	same = nwant == ngot;
	for (int i = 0; same && i < nwant; i++)
		same = !strcmp(want[i], got[i]);
	if (!ok(same, "%s: the records the table expects (%d)", col[0], nwant)) {
		for (int i = 0; i < ngot; i++)
			printf("#   got  %s\n", got[i]);
		for (int i = 0; i < nwant; i++)
			printf("#   want %s\n", want[i]);
	}
	ok(!sim.refused, "%s: no event refused by the model", col[0]);
	is_u64(sim.arms, nr_of(TLOB_REC_WINDOW), "one timer arm per window", col[0]);
	is_u64(sim.cancels, nr_of(TLOB_REC_WINDOW), "one timer cancel per window", col[0]);
	check_records(col[0]);
	scenario_checks(col[0], col[5]);
}

static void scenario_table(const char *path)
{
	char line[4096];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!ok(f != NULL, "scenario table %s", path))
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		run_scenario(line);
		n++;
	}
	fclose(f);
	ok(n == (int)(sizeof(scenarios) / sizeof(scenarios[0])),
	   "every scenario of the table ran (%d), and no sequence here lacks its line", n);
}

/* Details of some scenarios the table's columns do not say (its budgets). */
static void scenario_details(void)
{
	const struct tlob_record *v, *w;

	sim_reset();
	sim.timer_late = 60 * US;
	scen_spin_over();
	v = nth(TLOB_REC_VIOLATION, 0);
	w = nth(TLOB_REC_WINDOW, 0);
	if (ok(v && w, "spin_over: a violation and a window")) {
		is_u64(v->end_ns, T0 + 100 * MS + 60 * US, "violation at the timer's expiry", "spin_over");
		is_u64(v->detect_latency_ns, 60 * US, "detection latency = timer lateness", "spin_over");
		is_u64(v->detector, TLOB_DETECT_HRTIMER, "detected by the timer", "spin_over");
		is_u64(v->event, event_max_tlob, "a timer detection has no model event", "spin_over");
		is_u64(v->time_ns[running_tlob], 100 * MS + 60 * US, "violation: running so far", "spin_over");
		is_u64(w->elapsed_ns, 300 * MS, "window: 300 ms", "spin_over");
		is_u64(w->time_ns[running_tlob], 300 * MS, "window: all of it running", "spin_over");
		is_u64(w->count[wakeup_tlob], 1, "a wakeup of a running task: counted", "spin_over");
		is_u64(w->event, stop_tlob, "ended by stop", "spin_over");
	}

	sim_reset();
	scen_sleep_over();
	w = nth(TLOB_REC_WINDOW, 0);
	v = nth(TLOB_REC_VIOLATION, 0);
	if (ok(v && w, "sleep_over: a violation and a window")) {
		is_u64(v->state, sleeping_tlob, "the violation came while sleeping", "sleep_over");
		is_u64(w->time_ns[running_tlob], 100 * US + 20 * US, "running: before and after", "sleep_over");
		is_u64(w->time_ns[sleeping_tlob], 300 * MS - 100 * US, "sleeping", "sleep_over");
		is_u64(w->time_ns[waiting_tlob], 40 * US, "waiting: woken until back on a CPU", "sleep_over");
		ok(w->count[sleep_tlob] == 1 && w->count[wakeup_tlob] == 1 &&
		   w->count[switch_in_tlob] == 1 && w->count[preempt_tlob] == 0,
		   "sleep_over: one sleep, one wakeup, one switch_in, no preemption");
	}

	sim_reset();
	sim.budget[0] = 2000 * MS;
	scen_yield();
	w = nth(TLOB_REC_WINDOW, 0);
	if (ok(w != NULL, "yield: a window")) {
		is_u64(w->count[preempt_tlob], 75, "a yield is a preemption, not a sleep", "yield");
		is_u64(w->count[switch_in_tlob], 75, "as many switch_ins", "yield");
		is_u64(w->time_ns[waiting_tlob], 225 * MS, "waiting 3 of every 4 ms", "yield");
		is_u64(w->time_ns[running_tlob], 75 * MS, "running 1 of every 4 ms", "yield");
	}

	sim_reset();
	sim.budget[0] = 200 * MS;
	scen_restart();
	w = nth(TLOB_REC_WINDOW, 1);
	if (ok(w != NULL, "restart: a second window"))
		ok(w->start_ns == T0 + 501 * MS && w->elapsed_ns == 10 * MS &&
		   w->verdict == TLOB_VERDICT_OK && !w->detector && !w->detect_latency_ns,
		   "restart: the window after an overrun starts from its own START, fresh verdict");

	sim_reset();
	sim.budget[0] = 500 * MS;
	scen_fork();
	if (!ok(sim.nrec == 1 && sim.rec[0].count[preempt_tlob] == 1,
		"fork: only the parent's window; the child's exit and switches are not events"))
		printf("#   %d records, %u preemptions\n", sim.nrec, sim.rec[0].count[preempt_tlob]);

	sim_reset();
	sim.budget[0] = 1000 * MS;
	scen_churn();
	is_u64(nr_of(TLOB_REC_WINDOW), 200, "200 windows, none lost or doubled", "churn");
	is_u64(sim.stats[0].windows, 200, "all in the statistics", "churn");
	is_u64(sim.stats[0].violations + sim.stats[0].errors + sim.stats[0].aborted, 0,
	       "all ok", "churn");
}

/* ---- edge cases --------------------------------------------------------------- */

/*
 * min=: the guard on stop (clk_elapsed >= MIN_NS()). A STOP before it is
 * a violation (early, at STOP) and the window's verdict; at the minimum
 * or after, in budget, ok; only stop carries the guard, so a window that
 * ends otherwise before its minimum keeps its own verdict; and an
 * overrun is an overrun whatever the minimum.
 */
static void edge_min(void)
{
	const struct tlob_record *v, *w;

	sim_reset();
	sim.min[0] = 10 * MS;
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, PREEMPTED, T0 + 1 * MS);
	sim_in(MAIN, T0 + 2 * MS);
	sim_stop(MAIN, 0, T0 + 5 * MS);
	v = nth(TLOB_REC_VIOLATION, 0);
	w = nth(TLOB_REC_WINDOW, 0);
	if (ok(v && w, "min: STOP at 5 ms of min 10 ms: a violation and a window")) {
		is_u64(v->verdict, TLOB_VERDICT_EARLY, "the violation is early", "min");
		is_u64(v->detector, TLOB_DETECT_STOP, "found at STOP", "min");
		is_u64(v->event, stop_tlob, "the event whose guard broke: stop", "min");
		is_u64(v->state, running_tlob, "in the state it left", "min");
		is_u64(v->min_ns, 10 * MS, "the record carries the minimum", "min");
		is_u64((__u64)v->detect_latency_ns, 0, "no detection latency", "min");
		is_u64(w->verdict, TLOB_VERDICT_EARLY, "the window ended early", "min");
		is_u64(w->state, stopped_tlob, "the transition was still taken", "min");
		ok(w->time_ns[running_tlob] == 4 * MS && w->time_ns[waiting_tlob] == 1 * MS,
		   "min: the early window's time is booked as any other's");
	}
	is_u64(sim.stats[0].early, 1, "counted early", "min");
	is_u64(sim.stats[0].violations, 0, "not counted over budget", "min");
	is_u64(sim.cancels, 1, "its timer cancelled by the stop", "min");
	check_records("min early");

	/* At the minimum (the guard is >=) and after it: ok. */
	sim_reset();
	sim.min[0] = 10 * MS;
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, T0 + 10 * MS);
	sim_start(MAIN, 0, T0 + 20 * MS);
	sim_stop(MAIN, 0, T0 + 20 * MS + 10 * MS - 1);
	sim_start(MAIN, 0, T0 + 40 * MS);
	sim_stop(MAIN, 0, T0 + 90 * MS);
	ok(nr_of(TLOB_REC_WINDOW) == 3 && nr_of(TLOB_REC_VIOLATION) == 1 &&
	   nth(TLOB_REC_WINDOW, 0)->verdict == TLOB_VERDICT_OK &&
	   nth(TLOB_REC_WINDOW, 1)->verdict == TLOB_VERDICT_EARLY &&
	   nth(TLOB_REC_WINDOW, 2)->verdict == TLOB_VERDICT_OK,
	   "min: STOP at the minimum ok, 1 ns before early, after it ok");
	check_records("min boundary");

	/* No minimum: a STOP right after START is ok. */
	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, T0 + 1);
	ok(sim.nrec == 1 && sim.rec[0].verdict == TLOB_VERDICT_OK && !sim.rec[0].min_ns,
	   "min: none (0): any STOP is in time");

	/* exit before the minimum: aborted, not early (abort has no guard). */
	sim_reset();
	sim.min[0] = 10 * MS;
	sim_start(MAIN, 0, T0);
	sim_task(MAIN, abort_tlob, T0 + 1 * MS, TLOB_ABORT_EXIT);
	ok(sim.nrec == 1 && sim.rec[0].verdict == TLOB_VERDICT_ABORTED &&
	   !sim.stats[0].early, "min: exit before the minimum is aborted, not early");

	/* An overrun with a minimum: over budget, reported by the timer. */
	sim_reset();
	sim.min[0] = 10 * MS;
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, T0 + 150 * MS);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(w && w->verdict == TLOB_VERDICT_OVER_BUDGET && nr_of(TLOB_REC_VIOLATION) == 1 &&
	   nth(TLOB_REC_VIOLATION, 0)->verdict == TLOB_VERDICT_OVER_BUDGET,
	   "min: an overrun is over budget whatever the minimum");
	check_records("min overrun");

	/* Two bindings on one task: only the one with the minimum ends early. */
	sim_reset();
	sim.min[1] = 50 * MS;
	sim.budget[1] = 500 * MS;
	sim_start(MAIN, 1, T0);
	sim_start(MAIN, 0, T0 + 1 * MS);
	sim_stop(MAIN, 0, T0 + 2 * MS);
	sim_stop(MAIN, 1, T0 + 3 * MS);
	ok(nr_of(TLOB_REC_WINDOW) == 2 && sim.stats[0].early == 0 && sim.stats[1].early == 1,
	   "min: per binding");
	check_records("min per binding");
}

/* The definition, counted out bit by bit: K among the last W, this one included. */
static bool naive_reached(__u64 history, unsigned int k, unsigned int w)
{
	unsigned int n = 1;

	for (unsigned int i = 0; i + 1 < w; i++)
		n += (history >> i) & 1;
	return n >= k;
}

/* tolerance=K/W: the shared arithmetic, then windows through the engine. */
static void edge_tolerance(void)
{
	static const char seq[] = "VVooVaVeV";
	static const int want[] = { 0, 1, 0, 1, 1, 1 };
	__u64 h = 0x9e3779b97f4a7c15ULL, x;
	bool same = true;
	int nv = 0;

	for (unsigned int w = 1; w <= TLOB_TOLERANCE_MAX; w++)
		for (unsigned int k = 1; k <= w; k++)
			for (int i = 0; i < 64; i++) {
				h ^= h << 13;
				h ^= h >> 7;
				h ^= h << 17;
				x = i == 0 ? 0 : i == 1 ? ~0ULL : h;
				same &= tlob_tolerance_reached(x, k, w) == naive_reached(x, k, w);
			}
	ok(same, "tolerance: K of the last W, for every 1 <= K <= W <= 64, as counted bit by bit");
	ok(tlob_bits64(0) == 0 && tlob_bits64(~0ULL) == 64 && tlob_bits64(1ULL << 63) == 1,
	   "tolerance: bits of 0, all ones, the top bit");
	ok(tlob_history_push(0x5, TLOB_VERDICT_OK) == 0xa &&
	   tlob_history_push(0x5, TLOB_VERDICT_OVER_BUDGET) == 0xb &&
	   tlob_history_push(0x5, TLOB_VERDICT_EARLY) == 0xb &&
	   tlob_history_push(0x5, TLOB_VERDICT_ABORTED) == 0x5 &&
	   tlob_history_push(0x5, TLOB_VERDICT_MODEL_ERROR) == 0x5,
	   "tolerance: ok pushes 0, over budget and early 1, aborted and model errors nothing");
	ok(tlob_tolerance_reached(0, 0, 0) && tlob_tolerance_reached(0, 1, 64),
	   "tolerance: none (0/0) and 1/W react every time");

	/*
	 * 2/3 on binding 0: V overruns, o in time, a exits, e ends early
	 * (min=): the violations react when they make two of the last three
	 * judged windows; the abort leaves the history as it was.
	 */
	sim_reset();
	sim.tol_k[0] = 2;
	sim.tol_w[0] = 3;
	sim.min[0] = 5 * MS;
	for (int i = 0; seq[i]; i++) {
		__u64 t = T0 + (__u64)i * 1000 * MS;

		sim_start(MAIN, 0, t);
		if (seq[i] == 'a')
			sim_task(MAIN, abort_tlob, t + 10 * MS, TLOB_ABORT_EXIT);
		else
			sim_stop(MAIN, 0, t + (seq[i] == 'V' ? 150 * MS : seq[i] == 'e' ? 1 * MS :
					       10 * MS));
	}
	for (int i = 0; i < (int)(sizeof(want) / sizeof(want[0])); i++) {
		const struct tlob_record *v = nth(TLOB_REC_VIOLATION, i);

		same = v && v->react == want[i];
		if (!ok(same, "tolerance 2/3: violation %d %s", i + 1,
			want[i] ? "reacts" : "is held back"))
			printf("#   react %d\n", v ? v->react : -1);
		nv++;
	}
	ok(nr_of(TLOB_REC_VIOLATION) == nv, "tolerance 2/3: every violation recorded (%d)", nv);
	is_u64(sim.stats[0].tolerated, 2, "two violations held back", "tolerance 2/3");
	is_u64(sim.stats[0].violations + sim.stats[0].early, 6, "six violations counted",
	       "tolerance 2/3");
	is_u64(sim.history[0], 0xcf, "the history: V e V V o o V V, newest first, "
	       "without the abort", "tolerance 2/3");
	check_records("tolerance");

	/* Per binding: binding 1 (none) reacts to each of its overruns. */
	sim_reset();
	sim.tol_k[0] = 3;
	sim.tol_w[0] = 3;
	for (int i = 0; i < 3; i++) {
		sim_start(MAIN, 0, T0 + (__u64)i * 1000 * MS);
		sim_start(MAIN, 1, T0 + (__u64)i * 1000 * MS + 1);
		sim_stop(MAIN, 1, T0 + (__u64)i * 1000 * MS + 150 * MS);
		sim_stop(MAIN, 0, T0 + (__u64)i * 1000 * MS + 160 * MS);
	}
	ok(sim.stats[0].tolerated == 2 && sim.stats[1].tolerated == 0 &&
	   nr_of(TLOB_REC_VIOLATION) == 6 && nth(TLOB_REC_VIOLATION, 4)->binding_id == 0 &&
	   nth(TLOB_REC_VIOLATION, 4)->react && !nth(TLOB_REC_VIOLATION, 2)->react &&
	   nth(TLOB_REC_VIOLATION, 3)->react,
	   "tolerance 3/3: the third overrun in a row reacts, the other binding's each time");
	check_records("tolerance per binding");
}

/* START inside an open window: a model error, and no new window. */
static void edge_restart(void)
{
	const struct tlob_record *w;

	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_start(MAIN, 0, T0 + 5 * MS);
	w = nth(TLOB_REC_WINDOW, 0);
	if (ok(sim.nrec == 1 && w, "restart: START inside the window ends it, one record")) {
		is_u64(w->verdict, TLOB_VERDICT_MODEL_ERROR, "a model error", "restart");
		is_u64(w->event, start_tlob, "the event refused: start", "restart");
		is_u64(w->state, running_tlob, "in the state that refused it", "restart");
		is_u64(w->elapsed_ns, 5 * MS, "timed from the first START", "restart");
		ok(!find(MAIN, 0), "restart: the refused START opened no window");
		is_u64(sim.cancels, 1, "its timer cancelled (a model error has no cell)", "restart");
	}
	sim_start(MAIN, 0, T0 + 6 * MS);
	sim_stop(MAIN, 0, T0 + 8 * MS);
	w = nth(TLOB_REC_WINDOW, 1);
	ok(w && w->verdict == TLOB_VERDICT_OK && w->start_ns == T0 + 6 * MS &&
	   w->elapsed_ns == 2 * MS, "restart: the next START opens a fresh window");
	is_u64(sim.stats[0].errors, 1, "the error in the statistics", "restart");
	check_records("restart");

	/* A START after an unreported overrun is still a model error... */
	sim_reset();
	sim.timer_lost = true;
	sim_start(MAIN, 0, T0);
	sim_start(MAIN, 0, T0 + 150 * MS);
	ok(sim.nrec == 1 && sim.rec[0].verdict == TLOB_VERDICT_MODEL_ERROR,
	   "restart past the deadline, no timer: model error, never budget exceeded");
	/* ... but an overrun reported before decides the verdict. */
	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_start(MAIN, 0, T0 + 150 * MS);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(nr_of(TLOB_REC_VIOLATION) == 1 && w && w->verdict == TLOB_VERDICT_OVER_BUDGET &&
	   w->event == start_tlob, "restart after the timer reported: the overrun sticks");
	check_records("restart after an overrun");
}

/* exit and exec end every window of the task, in whatever state. */
static void edge_exit_exec(void)
{
	const struct tlob_record *w;

	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, BLOCKED, T0 + 1 * MS);
	sim_task(MAIN, abort_tlob, T0 + 11 * MS, TLOB_ABORT_EXIT);
	w = nth(TLOB_REC_WINDOW, 0);
	if (ok(w != NULL, "exit while sleeping: a record")) {
		ok(w->verdict == TLOB_VERDICT_ABORTED && w->abort_reason == TLOB_ABORT_EXIT &&
		   w->event == abort_tlob && w->state == stopped_tlob,
		   "exit while sleeping: aborted, exit");
		ok(w->time_ns[running_tlob] == 1 * MS && w->time_ns[sleeping_tlob] == 10 * MS,
		   "exit while sleeping: 1 ms running, 10 ms sleeping");
	}
	is_u64(sim.stats[0].aborted, 1, "counted aborted", "exit");

	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, PREEMPTED, T0 + 1 * MS);
	sim_task(MAIN, abort_tlob, T0 + 3 * MS, TLOB_ABORT_EXEC);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(w && w->abort_reason == TLOB_ABORT_EXEC && w->time_ns[waiting_tlob] == 2 * MS,
	   "exec while waiting: aborted, exec, 2 ms waiting");
	check_records("exit/exec");

	/* A window that overran and is then aborted stays over budget. */
	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_task(MAIN, abort_tlob, T0 + 200 * MS, TLOB_ABORT_EXIT);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(w && w->verdict == TLOB_VERDICT_OVER_BUDGET && w->abort_reason == TLOB_ABORT_NONE &&
	   w->event == abort_tlob, "overrun, then exit: over budget, no abort reason");
	is_u64(sim.stats[0].violations, 1, "counted as a violation, not an abort", "overrun+exit");
	is_u64(sim.stats[0].aborted, 0, "not aborted", "overrun+exit");
}

/* Unbind ends one binding's windows, disable all of them. */
static void edge_unbind_disable(void)
{
	const struct tlob_record *w;

	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_start(MAIN, 1, T0 + 1 * MS);		/* two windows open at once */
	sim_out(MAIN, PREEMPTED, T0 + 2 * MS);	/* one event, both windows */
	sim_in(MAIN, T0 + 3 * MS);
	sim_abort_binding(0, TLOB_ABORT_UNBIND, T0 + 4 * MS);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(sim.nrec == 1 && w && w->binding_id == 0 && w->verdict == TLOB_VERDICT_ABORTED &&
	   w->abort_reason == TLOB_ABORT_UNBIND, "unbind: that binding's window aborted, unbind");
	ok(find(MAIN, 1) != NULL, "unbind: the other binding's window stays open");
	sim_abort_binding(-1, TLOB_ABORT_DISABLE, T0 + 5 * MS);
	w = nth(TLOB_REC_WINDOW, 1);
	ok(w && w->binding_id == 1 && w->abort_reason == TLOB_ABORT_DISABLE &&
	   w->count[preempt_tlob] == 1 && w->time_ns[waiting_tlob] == 1 * MS &&
	   w->elapsed_ns == 4 * MS, "disable: the rest aborted, disable; the switch counted in both");
	ok(sim.rec[0].count[preempt_tlob] == 1, "overlapping windows: each counted the preemption");
	check_records("unbind/disable");
}

/* The deadline against STOP, and detectors against each other. */
static void edge_deadline(void)
{
	const struct tlob_record *v, *w;
	const __u64 d = T0 + 100 * MS;

	/* STOP 1 ns before the deadline, the timer (late) after it: ok. */
	sim_reset();
	sim.timer_late = 1 * MS;
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, d - 1);
	sim_at(d + 2 * MS);
	ok(sim.nrec == 1 && sim.rec[0].verdict == TLOB_VERDICT_OK,
	   "STOP 1 ns before the deadline: ok, the timer it cancelled never reports");

	/* STOP at the deadline (the invariant is '<'): STOP reports it. */
	sim_reset();
	sim.timer_late = 1 * MS;
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, d);
	v = nth(TLOB_REC_VIOLATION, 0);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(v && w && v->detector == TLOB_DETECT_STOP && v->detect_latency_ns == 0 &&
	   v->event == stop_tlob && w->verdict == TLOB_VERDICT_OVER_BUDGET,
	   "STOP at the deadline, before the timer: STOP detects, latency 0, over budget");

	/* The timer at the deadline, STOP right after: one violation, the timer's. */
	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, d + 1 * US);
	v = nth(TLOB_REC_VIOLATION, 0);
	ok(nr_of(TLOB_REC_VIOLATION) == 1 && v && v->detector == TLOB_DETECT_HRTIMER &&
	   v->end_ns == d, "the timer at the deadline, STOP 1 us later: one violation, the timer's");

	/* The callback that waited for the lock while STOP ended the window. */
	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_stop(MAIN, 0, d - 1);
	{
		struct win *late = &sim.win[0];

		if (tlob_core_active(&late->core))
			tlob_check(&late->core, d + 5 * US, TLOB_DETECT_HRTIMER, event_max_tlob);
		ok(sim.nrec == 1, "a timer callback after STOP finds the window ended: nothing");
	}

	/* Two detectors on one overrun (timer and sampler): one report. */
	sim_reset();
	sim.timer_lost = true;
	sim_start(MAIN, 0, T0);
	{
		struct win *w0 = find(MAIN, 0);

		ok(tlob_check(&w0->core, d + 1, TLOB_DETECT_SAMPLE, event_max_tlob) &&
		   !tlob_check(&w0->core, d + 2, TLOB_DETECT_BPF_TIMER, event_max_tlob),
		   "two detectors: the first claims the report, the second finds it claimed");
	}
	sim_stop(MAIN, 0, d + 10 * MS);
	w = nth(TLOB_REC_WINDOW, 0);
	ok(nr_of(TLOB_REC_VIOLATION) == 1 && w && w->detector == TLOB_DETECT_SAMPLE &&
	   w->detect_latency_ns == 1, "... and the window record names it");
	check_records("deadline");

	/* No timer at all: a scheduler event past the deadline reports it. */
	sim_reset();
	sim.timer_lost = true;
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, PREEMPTED, d + 3 * MS);
	v = nth(TLOB_REC_VIOLATION, 0);
	ok(v && v->detector == TLOB_DETECT_SCHED && v->event == preempt_tlob &&
	   v->detect_latency_ns == 3 * MS && v->state == running_tlob,
	   "no timer: the next scheduler event reports it, in the state it left");
	sim_in(MAIN, d + 4 * MS);
	sim_stop(MAIN, 0, d + 5 * MS);
	is_u64(nr_of(TLOB_REC_VIOLATION), 1, "reported once", "no timer");
}

/*
 * A STOP from a context the task's own switches can interrupt (BPF on
 * PREEMPT_RT): it claims the window, then takes the time; a switch out
 * and back in between finds the window claimed and is not booked.
 */
static void interrupt_switch(void)
{
	struct tlob_core *c = &sim.victim->core;

	sim.interrupt = NULL;
	ok(tlob_step(c, preempt_tlob, sim.clock - 20 * US, TLOB_DETECT_SCHED,
		     TLOB_ABORT_NONE) == TLOB_STEP_NONE &&
	   tlob_step(c, switch_in_tlob, sim.clock - 10 * US, TLOB_DETECT_SCHED,
		     TLOB_ABORT_NONE) == TLOB_STEP_NONE,
	   "claimed STOP: the switches that interrupt it skip the claimed window");
	ok(!tlob_core_active(c), "claimed STOP: the window is not active meanwhile");
}

static void edge_claimed_stop(void)
{
	const struct tlob_record *w;
	struct win *w0;

	sim_reset();
	sim_start(MAIN, 0, T0);
	w0 = find(MAIN, 0);
	sim.victim = w0;
	sim.interrupt = interrupt_switch;
	sim.clock = T0 + 7 * MS;
	ok(feed(w0, stop_tlob, 0, TLOB_DETECT_STOP, TLOB_ABORT_NONE) == TLOB_STEP_ENDED,
	   "claimed STOP: ends the window");
	w = nth(TLOB_REC_WINDOW, 0);
	ok(w && w->end_ns == T0 + 7 * MS && w->elapsed_ns == 7 * MS &&
	   w->time_ns[running_tlob] == 7 * MS && !w->count[preempt_tlob],
	   "claimed STOP: timed after the claim, nothing booked after the end");

	/* A claimed event that does not end the window publishes it again. */
	sim_reset();
	sim_start(MAIN, 0, T0);
	w0 = find(MAIN, 0);
	sim.clock = T0 + 1 * MS;
	ok(feed(w0, wakeup_tlob, 0, TLOB_DETECT_STOP, TLOB_ABORT_NONE) == TLOB_STEP_OPEN &&
	   tlob_core_active(&w0->core), "a claimed event that keeps the window open republishes it");
	ok(feed(w0, event_max_tlob, 0, TLOB_DETECT_STOP, TLOB_ABORT_NONE) == TLOB_STEP_NONE &&
	   tlob_core_active(&w0->core), "an event out of range: nothing, the window stays open");

	/* The end claimed by another context first: nothing here. */
	w0->core.active = 0;
	ok(feed(w0, stop_tlob, T0 + 2 * MS, TLOB_DETECT_STOP, TLOB_ABORT_NONE) ==
	   TLOB_STEP_NONE && sim.nrec == 0, "an event on a window whose end was claimed: nothing");
	w0->core.active = 1;
	sim_stop(MAIN, 0, T0 + 3 * MS);
	check_records("claimed STOP");
}

/* Events the model does not allow: model errors, never overruns. */
static void edge_model_error(void)
{
	const struct tlob_record *w;

	sim_reset();
	sim.timer_lost = true;
	sim_start(MAIN, 0, T0);
	sim_in(MAIN, T0 + 150 * MS);		/* switch_in while running */
	w = nth(TLOB_REC_WINDOW, 0);
	ok(sim.nrec == 1 && w && w->verdict == TLOB_VERDICT_MODEL_ERROR &&
	   w->event == switch_in_tlob && w->state == running_tlob,
	   "switch_in while running, past the deadline: a model error, no violation");
	is_u64(sim.cancels, 1, "its timer cancelled", "model error");
	is_u64(sim.refused, 1, "one refused step traced", "model error");

	sim_reset();
	sim_start(MAIN, 0, T0);
	sim_out(MAIN, BLOCKED, T0 + 1 * MS);
	sim_stop(MAIN, 0, T0 + 2 * MS);	/* STOP while sleeping (not possible: it runs it) */
	w = nth(TLOB_REC_WINDOW, 0);
	ok(w && w->verdict == TLOB_VERDICT_MODEL_ERROR && w->state == sleeping_tlob,
	   "stop while sleeping: a model error in sleeping");
	check_records("model error");
}

/* sched_switch -> event (tlob_switch_rule.h), as both backends apply it. */
static void edge_switch_rule(void)
{
	ok(tlob_switch_out_event(true, TASK_INTERRUPTIBLE, true) == preempt_tlob,
	   "preempted after setting a sleep state: preempt (waiting)");
	ok(tlob_switch_out_event(false, TASK_INTERRUPTIBLE, true) == sleep_tlob,
	   "switched out voluntarily in a sleep state and blocked: sleep");
	ok(tlob_switch_out_event(false, TASK_INTERRUPTIBLE, false) == preempt_tlob,
	   "a sleep a pending signal cancelled (still queued): preempt");
	ok(tlob_switch_out_event(false, TASK_RUNNING, false) == preempt_tlob,
	   "yield (runnable): preempt");
}

/* The timer: armed once, at START, for START + budget. */
static void edge_timer(void)
{
	struct win *w0;

	sim_reset();
	sim.budget[0] = 7 * MS;
	sim_start(MAIN, 0, T0);
	w0 = find(MAIN, 0);
	ok(w0 && w0->armed && w0->deadline == T0 + 7 * MS && w0->arms == 1,
	   "timer: armed at START for START + budget");
	sim_out(MAIN, PREEMPTED, T0 + 1 * MS);
	sim_in(MAIN, T0 + 2 * MS);
	sim_out(MAIN, BLOCKED, T0 + 3 * MS);
	sim_wake(MAIN, T0 + 4 * MS);
	sim_in(MAIN, T0 + 5 * MS);
	ok(w0->arms == 1 && w0->cancels == 0 && w0->deadline == T0 + 7 * MS,
	   "timer: no other transition re-arms or cancels it");
	sim_stop(MAIN, 0, T0 + 6 * MS);
	ok(w0->cancels == 1 && !w0->armed, "timer: cancelled once at STOP");
}

/* One statistics definition and one histogram for everyone. */
static void edge_stats(void)
{
	struct tlob_stats a = { 0 }, b = { 0 }, sum = { 0 };
	bool hist = true;

	for (unsigned int k = 0; k < 64; k++) {
		__u64 v = 1ULL << k;

		hist &= tlob_hist_bucket(v) == k && tlob_hist_bucket(v | (v - 1)) == k;
		if (k)
			hist &= tlob_hist_bucket(v - 1) == k - 1;
	}
	ok(hist && tlob_hist_bucket(0) == 0 && tlob_hist_bucket(~0ULL) == 63,
	   "histogram: bucket floor(log2(ns)), 0 ns in 0, the top bucket 63");

	tlob_stats_add(&a, TLOB_VERDICT_OK, 0, 1000);
	tlob_stats_add(&a, TLOB_VERDICT_OVER_BUDGET, 1, 5000);
	tlob_stats_add(&b, TLOB_VERDICT_MODEL_ERROR, 0, 700);
	tlob_stats_add(&b, TLOB_VERDICT_ABORTED, 0, 9000);
	b.dropped = 2;
	a.dropped = 1;
	tlob_stats_merge(&sum, &a);
	tlob_stats_merge(&sum, &b);
	ok(sum.windows == 4 && sum.violations == 1 && sum.errors == 1 && sum.aborted == 1 &&
	   sum.tolerated == 1 &&
	   sum.min_ns == 700 && sum.max_ns == 9000 && sum.sum_ns == 15700 && sum.dropped == 3,
	   "stats: two CPUs' copies summed: counts, min, max, sum, dropped");
	ok(sum.hist[9] == 2 && sum.hist[12] == 1 && sum.hist[13] == 1,
	   "stats: histogram buckets summed");
	memset(&sum, 0, sizeof(sum));
	memset(&b, 0, sizeof(b));
	b.dropped = 4;
	tlob_stats_merge(&sum, &b);
	tlob_stats_merge(&sum, &a);
	ok(sum.dropped == 5 && sum.windows == 2 && sum.min_ns == 1000,
	   "stats: a CPU that only dropped STARTs counts its drops, not a min of 0");
}

/* A START with no window free: a record, not a window. */
static void edge_dropped(void)
{
	struct tlob_record r;

	memset(&r, 0xff, sizeof(r));
	tlob_record_dropped(&r, T0, 5 * MS, 7, 6, 3);
	ok(r.kind == TLOB_REC_DROPPED && r.start_ns == T0 && r.end_ns == T0 && !r.elapsed_ns &&
	   r.budget_ns == 5 * MS && r.pid == 7 && r.tgid == 6 && r.binding_id == 3 &&
	   r.verdict == TLOB_VERDICT_OK && !r.detector && r.state == stopped_tlob &&
	   r.event == start_tlob && !rec_total(&r) && !r.count[start_tlob] && !r.pad[0],
	   "dropped START: a record of its own, no times, no counts, every byte set");
}

/* The record has no implicit hole whatever the model (tlob_abi.h). */
static void edge_layout(void)
{
	ok(offsetof(struct tlob_record, tag) + TLOB_TAG_LEN == sizeof(struct tlob_record) &&
	   offsetof(struct tlob_record, pid) == offsetof(struct tlob_record, time_ns) +
	   sizeof(((struct tlob_record *)0)->time_ns),
	   "record: no implicit padding (%zu bytes)", sizeof(struct tlob_record));
}

int main(int argc, char **argv)
{
	scenario_table(argc > 1 ? argv[1] : "tests/e2e/scenarios.tsv");
	scenario_details();
	edge_restart();
	edge_exit_exec();
	edge_unbind_disable();
	edge_deadline();
	edge_claimed_stop();
	edge_model_error();
	edge_switch_rule();
	edge_timer();
	edge_stats();
	edge_dropped();
	edge_layout();
	edge_min();
	edge_tolerance();
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}
