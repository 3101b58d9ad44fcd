// SPDX-License-Identifier: GPL-2.0
/*
 * tlob mon: bind the given sections, enable the monitor, print every
 * record until Ctrl-C / -d / --stop-on-violation, drain what is still
 * buffered, print the in-kernel statistics, and put back every setting it
 * changed (its bindings, enable, reactor).
 *
 * On a backend session (the module's /dev/tlob, backend.h) the bindings
 * are the session's references: shared with whoever else holds the same
 * ones, monitored without touching enable, dropped at its end (never
 * another user's; the kernel drops them too when the process dies), and
 * only their records are printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/kmod/trigger.h"
#include "backend/monline.h"
#include "cmd/tlob.h"
#include "kinds/alive.h"
#include "kinds/kind.h"
#include "kinds/logic.h"
#include "lib/units.h"
#include "lib/utils.h"
#include "lib/workload.h"
#include "output/colour.h"
#include "output/diag_worker.h"
#include "output/output.h"
#include "react/actions.h"
#include "react/trace_react.h"
#include "section/section.h"

/* How long the exit drain may take when the kernel keeps producing. */
#define DRAIN_LIMIT_S	2
/* A diagnosis' text or JSON: 32 frames, each a symbol and a path at most. */
#define DIAG_BUF	(64 * 1024)
/* How often the reader looks for diagnoses the worker has named. */
#define NAMED_POLL_MS	10
/* How long a command tlob stops (SIGTERM) has to end before SIGKILL. */
#define COMMAND_GRACE_MS	2000
/*
 * Diagnoses waiting for names at most (2 KiB each, 8 MiB in all): past that, in a
 * storm of violations while the worker reads /proc/kallsyms, they print
 * at once with their addresses.
 */
#define NAMER_MAX	4096

static const char *const mon_usage[] = {
	"usage: tlob mon [-b SECTION]... [-d DURATION] [--stop-on-violation] [-t]",
	"                [-r REACTOR] [-q] [-p PID] [--buffer-size KB] [--force-offset]",
	"                [--bpf-tasks N] [--flush DURATION] [--on-violation ACTION]...",
	"                [--on-violation-limit N[/PERIOD]] [-o FILE] [--with-zeros]",
	"                [--model FILE -e EVENT=PATH:SYMBOL... [--per process|task]",
	"                 [--tolerance K/W] [--tag NAME]]",
	"                [common options] [-- CMD [ARGS]...]",
	"",
	"  -- CMD [ARGS]...       run CMD under the monitor: the sections given are",
	"                         watched in its process only (not its children), the",
	"                         session ends when it does, and tlob exits with its",
	"                         status (128+N: killed by signal N); stopped first",
	"                         (Ctrl-C, -d, --stop-on-violation), it gets SIGTERM",
	"  -b, --bind SECTION     monitor a section while tlob runs:",
	"                           /path/app:frame_begin,frame_end,10ms",
	"                           /path/app:process_frame,ret,5ms   (ret: until it returns)",
	"                           /path/app:0x1139,0x1150,250us     (ELF file offsets)",
	"                           \"p /path/app:0x1139 0x1150 threshold=250000\"",
	"                         or a checkpoint hit expect=N times (give or take",
	"                         margin=M) in every alive=PERIOD (alive supervision,",
	"                         100us..1h):",
	"                           /path/app:heartbeat,alive=100ms,expect=10,margin=2",
	"                           \"a /path/app:0x1139 period=100000000 expect=10\"",
	"                         counted per process; append ,per=task for each thread",
	"                         symbols: NAME, NAME+OFF, NAME@VERSION (default: the",
	"                         version a call binds to); every offset must start an",
	"                         instruction of executable code",
	"                         budgets in ns, us, ms or s (1us..1h); append ,tag=NAME",
	"                         without -b: the persistent bindings (tlob bind); with",
	"                         neither there is nothing to monitor (usage error)",
	"      --model FILE       logical supervision: FILE is a deterministic",
	"                         automaton in rvgen's DOT dialect (at most 32 states, 16",
	"                         events, names of 23 characters; one clock, reset and",
	"                         guarded on edges), named after the file; an event it",
	"                         does not allow where it is or when it is, or an instance",
	"                         that ends outside a final state, is a violation",
	"  -e, --event EVENT=PATH:SYMBOL  where each event of the model happens, every",
	"                         event once, in up to four files (SYMBOL as START)",
	"      --per process|task one instance per process (default) or per thread",
	"      --tolerance K/W    react at K violations among the last W instances",
	"      --tag NAME         a tag carried by the model's records",
	"  -d, --duration D       stop after D (500ms, 30s, 2m, 1h)",
	"      --stop-on-violation  stop at the first violation (or alive cycle with too",
	"                           few or too many checkpoints, or model's ORDER,",
	"                           TIMING or INCOMPLETE), then exit 3",
	"  -t, --trace            also print every state transition",
	"  -r, --reactor NAME     reactor while tlob runs, one the backend lists (kmod: nop,",
	"                         printk, panic, signal[:N]; bpf: nop); else a usage error",
	"  -q, --quiet            no per-record lines, only the summary",
	"  -o, --output FILE      write the records, diagnoses and summary to FILE",
	"                         (truncated; a new one 0644), a batch as soon as it is",
	"                         read (tail -f follows it), or with -o - to stdout;",
	"                         messages stay on stderr. Refused: a symbolic link,",
	"                         anything but a regular file, another user's file in",
	"                         a sticky directory others can write to (/tmp)",
	"  -p, --pid PID          only this process (for the sections given with -b)",
	"      --buffer-size KB   trace buffer per CPU (kmod; default: the kernel's)",
	"      --force-offset     bind offsets tlob cannot check for an instruction",
	"                         boundary (in no function symbol, not x86-64)",
	"      --bpf-tasks N      bpf: tasks inside sections at once (default 1024; a",
	"                         START beyond them is reported DROPPED); the module's",
	"                         capacity is its pool_size= parameter",
	"      --flush D          windows reach the output in batches, at most D after",
	"                         they end (default 100ms; up to 10s; 0: each at once);",
	"                         violations and DROPPED lines come at once, and",
	"                         everything still buffered is printed at exit",
	"      --on-violation ACTION  at each violation (repeatable):",
	"                           snapshot=INSTANCE  snapshot trace instance INSTANCE:",
	"                                              kmod: the kernel, at the deadline;",
	"                                              bpf: tlob, when it reads the violation",
	"                           traceoff=INSTANCE  stop INSTANCE's tracing (as snapshot=)",
	"                           exec=CMD           /bin/sh -c CMD, the violation and",
	"                                              its diagnosis in TLOB_* variables",
	"      --on-violation-limit N[/PERIOD]  at most N actions per binding (per",
	"                         PERIOD: 1/10s); every violation is still printed",
	"      --with-zeros       the summary's histograms show their empty buckets",
	"                         between filled ones too (default: filled ones only)",
	"",
	"exit status: 0 stopped by Ctrl-C or -d; 1 an error; 2 a usage error;",
	"             3 --stop-on-violation stopped on a violation; with a command,",
	"             else its status (127: not found, 126: not run)",
	NULL,
};

struct mon_ctx {
	const struct tlob_params *params;
	FILE *out;			/* the stream: records, diagnoses, summary */
	bool filter;			/* only the records of params->specs' ids */
	uint64_t records;
	uint64_t windows;
	uint64_t violations;
	uint64_t dropped;		/* STARTs that opened no window */
	uint64_t transitions;
	uint64_t diags;			/* violations' diagnoses */
	/* Alive bindings' cycles (tlob_alive_record), by verdict. */
	uint64_t alive_cycles;		/* every one: ok, too few, too many, aborted */
	uint64_t alive_too_few;
	uint64_t alive_too_many;
	uint64_t alive_aborted;
	/* Logical bindings' records (tlob_logic_record), by verdict. */
	uint64_t logic_records;		/* every one: ok, order, incomplete, aborted */
	uint64_t logic_order;
	uint64_t logic_incomplete;
	uint64_t logic_timing;
	uint64_t logic_ok;
	uint64_t logic_aborted;
	char *dbuf;			/* a diagnosis' lines (DIAG_BUF) */
	/* Names the diagnoses' stacks: started at the first one to name. */
	struct tlob_diag_worker *namer;
	bool namer_failed;		/* it could not start: raw addresses */
	/* The last violation printed, while nothing else was printed after it. */
	bool under_violation;
	uint32_t last_pid, last_binding;
	uint64_t last_start;
	uint64_t violation_seen_ns;	/* detection time of the stopping violation */
	uint64_t violation_read_ns;	/* when tlob had read it */
	bool stop;
	bool draining;
	struct tlob_limit *limit;	/* --on-violation-limit */
	struct tlob_exec *exec;		/* exec= actions; NULL: none */
	const char **cmds;		/* their commands */
	struct tlob_trigger *trig[24];	/* snapshot=/traceoff= triggers installed (8 x 3 events) */
	size_t nr_trig;
	struct tlob_trace_react *react[8];	/* the same, done here (bpf) */
	size_t nr_react;
	uint64_t armed_ns;		/* when the triggers' counts were set */
	struct tlob_workload *work;	/* the command run under the monitor, or NULL */
};

static bool is_violation(const struct tlob_record *r)
{
	return r->kind == TLOB_REC_VIOLATION || r->verdict == TLOB_VERDICT_OVER_BUDGET ||
	       r->verdict == TLOB_VERDICT_EARLY;
}

/* The stream is fully buffered: written per batch (mon_loop), not per line. */
static void out_line(FILE *out, char *buf, int n, size_t len)
{
	if (n <= 0 || (size_t)n >= len)
		return;
	if (buf[n - 1] != '\n')
		buf[n++] = '\n';
	fwrite(buf, 1, (size_t)n, out);
}

/* A record of one of the bindings this session asked for. */
static bool wanted(const struct mon_ctx *ctx, uint32_t binding_id)
{
	if (!ctx->filter)
		return true;
	for (size_t i = 0; i < ctx->params->nr_specs; i++)
		if (ctx->params->specs[i].id == binding_id)
			return true;
	return false;
}

/*
 * A violation of any kind that its binding's tolerance= let through
 * starts its actions, within the limit (one count for all of them): the
 * tool's snapshot=/traceoff= at once; true when its exec= commands may
 * run (the caller runs them: a window's once its diagnosis or end is in,
 * the others at once). The kernel's triggers fired already, and get a
 * fresh count when a limit's PERIOD has passed since they were armed.
 */
static bool react_to(struct mon_ctx *ctx, uint32_t binding_id, uint64_t now)
{
	const struct tlob_params *params = ctx->params;
	bool take = false;

	if ((ctx->exec || ctx->nr_react) && tlob_limit_take(ctx->limit, binding_id, now)) {
		for (size_t i = 0; i < ctx->nr_react; i++)
			tlob_trace_react_fire(ctx->react[i]);
		take = true;
	}
	if (ctx->nr_trig && params->action_period_ns &&
	    now - ctx->armed_ns >= params->action_period_ns) {
		for (size_t i = 0; i < ctx->nr_trig; i++)
			tlob_trigger_rearm(ctx->trig[i]);
		ctx->armed_ns = now;
	}
	return take;
}

static bool has_actions(const struct mon_ctx *ctx)
{
	return ctx->exec || ctx->nr_trig || ctx->nr_react;
}

/* A window's record runs what still waits for it. */
static void on_violation_actions(struct mon_ctx *ctx, const struct tlob_record *r)
{
	uint64_t now;

	if (!has_actions(ctx))
		return;
	if (r->kind == TLOB_REC_WINDOW) {
		tlob_exec_window(ctx->exec, r);
		return;
	}
	/* Held back by the binding's tolerance=: recorded, not reacted to. */
	if (r->kind != TLOB_REC_VIOLATION || !r->react)
		return;
	now = tlob_now_ns();
	if (react_to(ctx, r->binding_id, now))
		tlob_exec_violation(ctx->exec, r, now);
}

/*
 * --stop-on-violation: a violation detected at @seen_ns stops the session
 * (the poll returns at once, what is buffered stays for the drain); 1
 * when it does, 0 to go on.
 */
static int stop_at(struct mon_ctx *ctx, bool violation, uint64_t seen_ns)
{
	if (!ctx->params->stop_on_violation || ctx->draining || !violation)
		return 0;
	ctx->stop = true;
	ctx->violation_seen_ns = seen_ns;
	ctx->violation_read_ns = tlob_now_ns();
	return 1;
}

static int on_record(const struct tlob_record *r, void *data)
{
	struct mon_ctx *ctx = data;
	char buf[2048];

	if (!wanted(ctx, r->binding_id))
		return 0;
	on_violation_actions(ctx, r);
	ctx->records++;
	if (r->kind == TLOB_REC_WINDOW)
		ctx->windows++;
	else if (r->kind == TLOB_REC_DROPPED)
		ctx->dropped++;
	else
		ctx->violations++;
	if (!ctx->params->quiet) {
		out_line(ctx->out, buf, ctx->params->json ? tlob_record_json(r, buf, sizeof(buf) - 1) :
			 tlob_record_text(r, buf, sizeof(buf)), sizeof(buf));
		/* Its diagnosis, if printed next, goes under it (diag_out()). */
		ctx->under_violation = r->kind == TLOB_REC_VIOLATION;
		ctx->last_pid = r->pid;
		ctx->last_binding = r->binding_id;
		ctx->last_start = r->start_ns;
	}
	return stop_at(ctx, is_violation(r), r->end_ns);
}

static int on_transition(const struct tlob_transition *tr, void *data)
{
	struct mon_ctx *ctx = data;
	char buf[512];

	ctx->transitions++;
	if (ctx->params->quiet)
		return 0;
	ctx->under_violation = false;
	out_line(ctx->out, buf, ctx->params->json ? tlob_transition_json(tr, buf, sizeof(buf) - 1) :
		 tlob_transition_text(tr, buf, sizeof(buf)), sizeof(buf));
	return 0;
}

/*
 * A cycle of an alive binding, printed as a window is: every one (ok and
 * aborted ones batched by the backend, like windows; too few or too many
 * at once, like violations); a violation that passed tolerance= runs the
 * --on-violation actions, and any violation stops --stop-on-violation.
 */
static int on_alive(const struct tlob_alive_record *a, void *data)
{
	struct mon_ctx *ctx = data;
	char buf[1024];

	if (!wanted(ctx, a->binding_id))
		return 0;
	ctx->alive_cycles++;
	ctx->alive_too_few += a->verdict == TLOB_VERDICT_TOO_FEW;
	ctx->alive_too_many += a->verdict == TLOB_VERDICT_TOO_MANY;
	ctx->alive_aborted += a->verdict == TLOB_VERDICT_ABORTED;
	if (tlob_alive_violation(a) && a->react && has_actions(ctx) &&
	    react_to(ctx, a->binding_id, tlob_now_ns()))
		tlob_exec_alive(ctx->exec, a);
	ctx->under_violation = false;
	if (!ctx->params->quiet)
		out_line(ctx->out, buf, ctx->params->json ? tlob_alive_json(a, buf, sizeof(buf) - 1) :
			 tlob_alive_text(a, buf, sizeof(buf)), sizeof(buf));
	/* Detected when judged: the cycle's end and the timer's latency. */
	return stop_at(ctx, tlob_alive_violation(a), a->end_ns + (a->detect_latency_ns > 0 ?
			(uint64_t)a->detect_latency_ns : 0));
}

/*
 * A logical binding's record: a violation (ORDER, TIMING, INCOMPLETE) printed at
 * once, running the --on-violation actions when it passed tolerance=
 * and stopping --stop-on-violation, an instance's quiet end (ok,
 * aborted) in JSON only; all counted for the summary.
 */
static int on_logic(const struct tlob_logic_record *l, const struct tlob_logic_names *names,
		    void *data)
{
	struct mon_ctx *ctx = data;
	char buf[1024];

	if (!wanted(ctx, l->binding_id))
		return 0;
	ctx->logic_records++;
	ctx->logic_order += l->verdict == TLOB_VERDICT_ORDER;
	ctx->logic_incomplete += l->verdict == TLOB_VERDICT_INCOMPLETE;
	ctx->logic_timing += l->verdict == TLOB_VERDICT_TIMING;
	ctx->logic_ok += l->verdict == TLOB_VERDICT_OK;
	ctx->logic_aborted += l->verdict == TLOB_VERDICT_ABORTED;
	if (tlob_logic_violation(l) && l->react && has_actions(ctx) &&
	    react_to(ctx, l->binding_id, tlob_now_ns()))
		tlob_exec_logic(ctx->exec, l, names);
	ctx->under_violation = false;
	if (!ctx->params->quiet)
		out_line(ctx->out, buf, ctx->params->json ? tlob_logic_json(l, names, buf, sizeof(buf) - 1) :
			 tlob_logic_text(l, names, buf, sizeof(buf)), sizeof(buf));
	return stop_at(ctx, tlob_logic_violation(l), l->end_ns);
}

/*
 * A diagnosis with its names (NULL: none): the exec= commands that
 * waited for it, and its lines under its VIOLATION line, or after a line
 * that names its violation when something else was printed in between
 * (or one JSON object, that carries pid, binding and start anyway).
 */
static void diag_out(struct mon_ctx *ctx, const struct tlob_diag *d,
		     const struct tlob_diag_syms *syms)
{
	bool json = ctx->params->json;
	int n;

	tlob_exec_diag(ctx->exec, d, syms);
	if (ctx->params->quiet)
		return;
	if (!json && !(ctx->under_violation && ctx->last_pid == d->pid &&
		       ctx->last_binding == d->binding_id && ctx->last_start == d->start_ns))
		out_line(ctx->out, ctx->dbuf, tlob_diag_text_late(d, ctx->dbuf, DIAG_BUF), DIAG_BUF);
	ctx->under_violation = false;
	n = json ? tlob_diag_json(d, syms, ctx->dbuf, DIAG_BUF - 1) :
	    tlob_diag_text(d, syms, ctx->dbuf, DIAG_BUF);
	/* Names too long for the buffer (C++): the addresses, rather than nothing. */
	if (n < 0)
		n = json ? tlob_diag_json(d, NULL, ctx->dbuf, DIAG_BUF - 1) :
		    tlob_diag_text(d, NULL, ctx->dbuf, DIAG_BUF);
	out_line(ctx->out, ctx->dbuf, n, DIAG_BUF);
}

/*
 * A violation's diagnosis, to the worker that names its stacks
 * (diag_worker.h: that can take a second, and the violations after it
 * must print meanwhile); printed once named, in order (named_out()).
 * Its exec= commands wait for it (tlob_exec_hold()).
 */
static int on_diag(const struct tlob_diag *d, void *data)
{
	struct mon_ctx *ctx = data;

	if (!wanted(ctx, d->binding_id))
		return 0;
	ctx->diags++;
	if (ctx->params->quiet && !ctx->exec)
		return 0;
	/* Not at the start: most sessions never see a diagnosis. */
	if (!ctx->namer && !ctx->namer_failed) {
		ctx->namer = tlob_diag_worker_new();
		ctx->namer_failed = !ctx->namer;
		if (!ctx->namer)
			fprintf(stderr, "tlob: no thread to name the diagnoses' stacks (%s): "
				"raw addresses\n", strerror(errno));
	}
	if (ctx->namer && tlob_diag_worker_queued(ctx->namer) < NAMER_MAX &&
	    !tlob_diag_worker_add(ctx->namer, d)) {
		tlob_exec_hold(ctx->exec, d);
		return 0;
	}
	/* No worker, too many waiting, or no memory: the addresses, now. */
	diag_out(ctx, d, NULL);
	return 0;
}

/* The diagnoses named by now, in order; @wait: all of them. */
static void named_out(struct mon_ctx *ctx, bool wait)
{
	struct tlob_named_diag *n;

	/* The count first: no lock taken by a session with nothing to name. */
	while (ctx->namer && tlob_diag_worker_queued(ctx->namer) &&
	       (n = tlob_diag_worker_next(ctx->namer, wait))) {
		diag_out(ctx, &n->d, &n->syms);
		tlob_named_diag_free(n);
	}
}

/* Wait for records until a stop condition; returns 0 or -errno. */
static int mon_loop(struct tlob_backend *be, struct mon_ctx *ctx, const struct tlob_sink *sink)
{
	uint64_t end = ctx->params->duration_ns ? tlob_now_ns() + ctx->params->duration_ns : 0;

	while (!tlob_should_stop() && !ctx->stop && !(ctx->work && tlob_workload_done(ctx->work))) {
		uint64_t now = tlob_now_ns();
		/* exec= children to reap, violations waiting for their diagnosis */
		int timeout = tlob_exec_tick(ctx->exec, now), ret;

		if (end) {
			if (now >= end)
				break;
			if (timeout < 0 || tlob_ms_until(end, now) < timeout)
				timeout = tlob_ms_until(end, now);
		}
		if (ctx->namer && tlob_diag_worker_queued(ctx->namer) &&
		    (timeout < 0 || timeout > NAMED_POLL_MS))
			timeout = NAMED_POLL_MS;
		ret = be->ops->poll(be, timeout, sink);
		named_out(ctx, false);
		/* One write per batch, before the next wait: tail -f sees it now. */
		fflush(ctx->out);
		if (ret < 0 && ret != -EINTR) {
			tlob_print_error(be, ret, "reading records");
			return ret;
		}
	}
	return 0;
}

/*
 * The JSON stream's first objects: which contract it keeps, from which
 * backend, then the bindings its records name by binding_id (their path,
 * START, STOP and terms, as tlob status -j writes them): this session's,
 * or without -b the persistent ones it reads.
 */
static void mon_header(struct mon_ctx *ctx, struct tlob_backend *be, size_t bound)
{
	const struct tlob_binding_spec *specs = ctx->params->specs;
	struct tlob_binding_spec *listed = NULL;
	char buf[4096];
	size_t n = bound;

	out_line(ctx->out, buf, tlob_header_json(be->ops->name, buf, sizeof(buf) - 1), sizeof(buf));
	if (!bound) {
		if (be->ops->list(be, &listed, &n))
			n = 0;
		specs = listed;
	}
	for (size_t i = 0; i < n; i++)
		out_line(ctx->out, buf, tlob_spec_json(&specs[i], buf, sizeof(buf) - 1), sizeof(buf));
	free(listed);
	fflush(ctx->out);
}

/*
 * Release the command, its sections bound: from now on the loop ends when
 * it does. A command that could not run ends the session (its status, a
 * shell's 127 or 126, is tlob's).
 */
static int mon_start_command(struct mon_ctx *ctx, struct tlob_workload *work)
{
	int err = tlob_workload_start(work);

	if (err) {
		fprintf(stderr, "tlob: cannot run %s: %s\n", TLOB_SHOWN(ctx->params->command[0]),
			strerror(-err));
		return TLOB_EXIT_ERROR;
	}
	tlob_verbose("running %s, pid %d", TLOB_SHOWN(ctx->params->command[0]), (int)work->pid);
	ctx->work = work;
	return TLOB_EXIT_OK;
}

/* Everything still buffered, bounded in time in case the kernel keeps producing. */
static void mon_drain(struct tlob_backend *be, struct mon_ctx *ctx, const struct tlob_sink *sink)
{
	uint64_t limit = tlob_now_ns() + DRAIN_LIMIT_S * 1000000000ULL;
	int ret;

	ctx->draining = true;
	do {
		ret = be->ops->poll(be, 0, sink);
	} while (ret > 0 && tlob_now_ns() < limit);
	named_out(ctx, true);
	fflush(ctx->out);
	if (ret > 0)
		fprintf(stderr, "tlob: records still arriving after %ds of draining\n",
			DRAIN_LIMIT_S);
}

/* One of this session's bindings: by id, else the same binding (monline.h). */
static bool ours(const struct tlob_binding_stats *st, const struct tlob_binding_spec *specs,
		 size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (specs[i].id ? specs[i].id == st->spec.id :
		    tlob_spec_same_binding(&st->spec, &specs[i]) > 0)
			return true;
	return false;
}

/* The statistics of the sections this session watches (all without -b). */
static void mon_read_stats(struct tlob_backend *be, const struct tlob_params *params,
			   struct tlob_binding_stats **out, size_t *nout)
{
	struct tlob_binding_stats *st = NULL;
	size_t n = 0, k = 0;

	*out = NULL;
	*nout = 0;
	if (!be->ops->stats || be->ops->stats(be, &st, &n)) {
		fprintf(stderr, "tlob: no statistics: %s\n", be->err[0] ? be->err : "not supported");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!params->nr_specs || ours(&st[i], params->specs, params->nr_specs))
			st[k++] = st[i];
	*out = st;
	*nout = k;
}

/*
 * Alive (@logic: logical) bindings in the session (its -b, --model), or
 * their records or statistics seen.
 */
static bool has_kind(const struct tlob_params *params, const struct mon_ctx *ctx,
		     const struct tlob_binding_stats *st, size_t n, bool logic)
{
	bool any = logic ? ctx->logic_records > 0 : ctx->alive_cycles > 0;

	for (size_t i = 0; i < params->nr_specs && !any; i++)
		any = logic ? params->specs[i].logic : params->specs[i].alive;
	for (size_t i = 0; i < n && !any; i++)
		any = logic ? st[i].spec.logic : st[i].spec.alive;
	return any;
}

static void mon_summary(struct tlob_backend *be, const struct tlob_params *params,
			const struct mon_ctx *ctx, const struct tlob_binding_stats *st,
			size_t n)
{
	/* Only where there is alive (logical) supervision: a session of sections reads as before. */
	bool alive = has_kind(params, ctx, st, n, false), logic = has_kind(params, ctx, st, n, true);
	uint64_t lost = 0, untimed = 0;
	FILE *out = ctx->out;

	for (size_t i = 0; i < n; i++)
		tlob_stats_emit(out, &st[i], params->json, params->with_zeros);
	if (be->ops->lost)
		be->ops->lost(be, &lost);
	if (be->ops->untimed)
		be->ops->untimed(be, true, &untimed);
	if (params->json) {
		fprintf(out, "{\"type\":\"summary\",\"records\":%" PRIu64 ",\"windows\":%" PRIu64
		        ",\"violations\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"transitions\":%"
		        PRIu64 ",\"lost\":%" PRIu64 ",\"diags\":%" PRIu64, ctx->records,
		        ctx->windows, ctx->violations, ctx->dropped, ctx->transitions, lost,
		        ctx->diags);
		if (alive)
			fprintf(out, ",\"alive_cycles\":%" PRIu64 ",\"alive_too_few\":%" PRIu64
			        ",\"alive_too_many\":%" PRIu64 ",\"alive_aborted\":%" PRIu64,
			        ctx->alive_cycles, ctx->alive_too_few, ctx->alive_too_many,
			        ctx->alive_aborted);
		if (logic)
			fprintf(out, ",\"logic_records\":%" PRIu64 ",\"logic_order\":%" PRIu64
			        ",\"logic_incomplete\":%" PRIu64 ",\"logic_timing\":%" PRIu64
			        ",\"logic_ok\":%" PRIu64 ",\"logic_aborted\":%" PRIu64,
			        ctx->logic_records, ctx->logic_order, ctx->logic_incomplete,
			        ctx->logic_timing, ctx->logic_ok, ctx->logic_aborted);
		/* Only when it happened: a sound run's summary keeps its form for scripts. */
		if (untimed)
			fprintf(out, ",\"untimed\":%" PRIu64, untimed);
		fprintf(out, "}\n");
	} else
		fprintf(out, "records: %" PRIu64 " (windows %" PRIu64 ", violations %" PRIu64
		        ", dropped %" PRIu64 ", transitions %" PRIu64 "), lost: %" PRIu64 "\n",
		        ctx->records, ctx->windows, ctx->violations, ctx->dropped,
		        ctx->transitions, lost);
	/* A line of its own: the line above keeps its form for scripts. */
	if (!params->json && (ctx->violations || ctx->diags))
		fprintf(out, "diagnoses: %" PRIu64 " of %" PRIu64 " violation(s)\n", ctx->diags,
		        ctx->violations);
	/* Likewise the alive cycles: not among the records above. */
	if (!params->json && alive)
		fprintf(out, "alive cycles: %" PRIu64 " (too few %" PRIu64 ", too many %" PRIu64
		        ", aborted %" PRIu64 ")\n", ctx->alive_cycles, ctx->alive_too_few,
		        ctx->alive_too_many, ctx->alive_aborted);
	/* And the logical bindings' records, violations first. */
	if (!params->json && logic)
		fprintf(out, "logic records: %" PRIu64 " (order %" PRIu64 ", incomplete %" PRIu64
		        ", timing %" PRIu64 ", ok %" PRIu64 ", aborted %" PRIu64 ")\n",
		        ctx->logic_records, ctx->logic_order, ctx->logic_incomplete,
		        ctx->logic_timing, ctx->logic_ok, ctx->logic_aborted);
	if (ctx->dropped)
		fprintf(stderr, "tlob: %" PRIu64 " START(s) opened no window: every window "
			"was in use (%s)\n", ctx->dropped,
			!strcmp(be->ops->name, "kmod") ? "the module's pool_size" :
			"the BPF backend's windows map");
	if (lost)
		fprintf(stderr, "tlob: %" PRIu64 " events were lost (ring buffer overrun)\n", lost);
	if (untimed)
		fprintf(stderr, "tlob: %" PRIu64 " window(s) got no overrun timer while this session "
			"ran (counted for the whole monitor, not only this session's): their "
			"overruns were found only at a switch or at STOP, late\n", untimed);
}

/* --on-violation: usage errors and missing instances, before anything changes. */
static int mon_check_actions(const struct tlob_params *params, bool kmod)
{
	struct tlob_action a;
	const char *kind;
	char err[256];

	for (size_t i = 0; i < params->nr_actions; i++) {
		tlob_action_parse(params->actions[i], &a, err, sizeof(err));
		if (a.kind == TLOB_ACTION_EXEC)
			continue;
		/* Before anything changes: the instance must be there. */
		kind = a.kind == TLOB_ACTION_SNAPSHOT ? "snapshot" : "traceoff";
		if (kmod ? tlob_trigger_instance_ok(kind, a.arg, err, sizeof(err)) :
		    tlob_trace_react_ok(kind, a.arg, err, sizeof(err)))
			continue;
		fprintf(stderr, "tlob: %s\n", err);
		return TLOB_EXIT_ERROR;
	}
	return TLOB_EXIT_OK;
}

/* 0 a window's binding, 1 an alive one, 2 a logical one: mon_actions_start()'s events[]. */
static int binding_kind(const struct tlob_binding_spec *s)
{
	return s->logic ? 2 : s->alive ? 1 : 0;
}

/*
 * The session's actions: the limit, the exec= commands, and the kernel's
 * triggers on its bindings (all of them without -b) or, for a backend
 * other than the module, the tool's own snapshot=/traceoff=. -1 when one
 * could not be set up (said), with those before it kept for
 * mon_actions_end() to remove.
 */
static int mon_actions_start(struct mon_ctx *ctx, const struct tlob_params *params,
			     size_t bound, bool kmod)
{
	/* The module's trace event of each kind of violation (binding_kind()). */
	static const char *const events[] = { "violation", "alive_cycle", "logic" };
	const char *cmds[8], *kind;
	struct tlob_trigger *t;
	size_t nc = 0;
	struct tlob_action a;
	char err[1024];
	uint32_t *ids;
	int ret = -1;

	if (!params->nr_actions)
		return 0;
	ctx->limit = tlob_limit_new(params->action_limit, params->action_period_ns);
	ids = calloc(bound + 1, sizeof(*ids));
	if (!ctx->limit || !ids)
		goto out;
	ctx->armed_ns = tlob_now_ns();
	for (size_t i = 0; i < params->nr_actions; i++) {
		tlob_action_parse(params->actions[i], &a, err, sizeof(err));
		if (a.kind == TLOB_ACTION_EXEC) {
			cmds[nc++] = a.arg;
			continue;
		}
		kind = a.kind == TLOB_ACTION_SNAPSHOT ? "snapshot" : "traceoff";
		/*
		 * Only the module's violations are trace events (tlob:violation,
		 * tlob:alive_cycle, tlob:logic) an ftrace trigger fires on when
		 * they are detected: one trigger on the event of each kind the
		 * session has bindings of (every kind without -b), filtered to
		 * those bindings. For the others the tool does it when it reads
		 * the violation (trace_react.h).
		 */
		for (int k = 0; kmod && k < 3; k++) {
			size_t n = 0;

			for (size_t i = 0; ctx->filter && i < bound; i++)
				if (binding_kind(&params->specs[i]) == k)
					ids[n++] = params->specs[i].id;
			if (ctx->filter && !n)
				continue;
			t = tlob_trigger_install("tlob", events[k], kind, a.arg, ids, n,
						 params->action_limit, err, sizeof(err));
			if (!t) {
				fprintf(stderr, "tlob: %s\n", err);
				goto out;
			}
			ctx->trig[ctx->nr_trig++] = t;
		}
		if (kmod)
			continue;
		ctx->react[ctx->nr_react] = tlob_trace_react_new(kind, a.arg, err, sizeof(err));
		if (!ctx->react[ctx->nr_react]) {
			fprintf(stderr, "tlob: %s\n", err);
			goto out;
		}
		ctx->nr_react++;
	}
	/* The commands point into argv: they live as long as the process. */
	ctx->cmds = malloc(nc * sizeof(*cmds) + 1);
	if (!ctx->cmds)
		goto out;
	memcpy(ctx->cmds, cmds, nc * sizeof(*cmds));
	ctx->exec = tlob_exec_new(ctx->cmds, nc);
	ret = nc && !ctx->exec ? -1 : 0;
out:
	free(ids);
	return ret;
}

/* Every trigger removed (every exit path), the last commands run and waited for. */
static int mon_actions_end(struct mon_ctx *ctx)
{
	int ret = 0;

	tlob_exec_finish(ctx->exec, 2000);
	tlob_exec_free(ctx->exec);
	ctx->exec = NULL;
	while (ctx->nr_trig)
		ret |= tlob_trigger_remove(ctx->trig[--ctx->nr_trig]);
	while (ctx->nr_react)
		tlob_trace_react_free(ctx->react[--ctx->nr_react]);
	tlob_limit_free(ctx->limit);
	ctx->limit = NULL;
	free(ctx->cmds);
	ctx->cmds = NULL;
	return ret;
}

/* --bpf-tasks with a backend other than BPF (or auto, before it is chosen): usage. */
static int check_bpf_tasks(const struct tlob_params *params, const char *backend)
{
	if (!params->bpf_tasks || !strcmp(backend, "bpf") || !strcmp(backend, "auto"))
		return TLOB_EXIT_OK;
	tlob_usage_msg("mon: --bpf-tasks sizes the BPF backend; the %s backend's "
		       "capacity is set at load (pool_size=)", backend);
	return TLOB_EXIT_USAGE;
}

/*
 * A command's process is the one the sections are watched in: there must
 * be sections of this session to narrow, and no other process named.
 */
static int check_command(const struct tlob_params *params)
{
	if (!params->nr_specs) {
		tlob_usage_msg("mon: -- %s: give the sections to watch in it (-b or --model)",
			       TLOB_SHOWN(params->command[0]));
		return -1;
	}
	if (params->pid) {
		tlob_usage_msg("mon: -p and a command to run name two processes: give one");
		return -1;
	}
	for (size_t i = 0; i < params->nr_specs; i++) {
		const struct tlob_binding_spec *spec = &params->specs[i];

		if (spec->pid || spec->tgid) {
			tlob_usage_msg("mon: the %s=%d of %s names a process; the command's is "
				       "the one watched", spec->pid ? "pid" : "tgid",
				       (int)(spec->pid ? spec->pid : spec->tgid),
				       TLOB_SHOWN(spec->path));
			return -1;
		}
	}
	return 0;
}

/*
 * What the command line alone refuses, before any backend is opened (the
 * BPF backend's open loads its programs into the kernel): one section
 * named twice, --on-violation-limit without an action, more than 8
 * actions, --bpf-tasks for another named backend.
 */
static int mon_check_args(const struct tlob_params *params)
{
	char err[1024];

	if (tlob_sections_distinct(params->specs, params->nr_specs, err, sizeof(err))) {
		tlob_usage_msg("%s", err);
		return TLOB_EXIT_USAGE;
	}
	if (params->action_limit && !params->nr_actions) {
		tlob_usage_msg("mon: --on-violation-limit limits --on-violation actions, and "
			       "none is given");
		return TLOB_EXIT_USAGE;
	}
	if (params->nr_actions > 8) {
		tlob_usage_msg("mon: at most 8 --on-violation actions");
		return TLOB_EXIT_USAGE;
	}
	return check_bpf_tasks(params, params->backend);
}

/*
 * What can be refused before anything is changed: the command line's own
 * refusals (again: a session may come without mon_run()), -r with a
 * reactor the backend does not have (usage), and nothing to watch, i.e.
 * no -b and no persistent binding (usage). Returns TLOB_EXIT_OK to go on.
 */
static int mon_check(struct tlob_backend *be, const struct tlob_params *params)
{
	struct tlob_binding_spec *specs = NULL;
	char why[1024];
	size_t n = 0;
	int ret;

	ret = mon_check_args(params);
	if (ret)
		return ret;
	if (params->reactor) {
		ret = tlob_reactor_check(be, params->reactor, why, sizeof(why));
		if (ret == TLOB_EXIT_USAGE)
			tlob_usage_msg("mon: %s", why);
		else if (ret)
			fprintf(stderr, "tlob: %s\n", why);
		if (ret)
			return ret;
	}
	ret = check_bpf_tasks(params, be->ops->name);
	if (ret)
		return ret;
	ret = mon_check_actions(params, !strcmp(be->ops->name, "kmod"));
	if (ret)
		return ret;
	if (params->nr_specs)
		return TLOB_EXIT_OK;
	ret = be->ops->list(be, &specs, &n);
	free(specs);
	if (ret) {
		tlob_print_error(be, ret, "listing bindings");
		return TLOB_EXIT_ERROR;
	}
	if (!n) {
		tlob_usage_msg("mon: nothing to monitor: give -b SECTION, or bind sections first "
			       "(tlob bind)");
		return TLOB_EXIT_USAGE;
	}
	return TLOB_EXIT_OK;
}

/* What a session changed, to put back: its bindings, enable, the reactor. */
struct mon_state {
	size_t bound;			/* params->specs[0..bound) are bound */
	bool session;			/* the backend's session: enable is left alone */
	int was_enabled;
	char old_reactor[64];		/* "" : the reactor was not changed */
	struct tlob_binding_stats *st;	/* the bindings' final statistics */
	size_t nst;
};

/* -r: the backend's reactor for the session, the old one kept to put back. */
static int mon_set_reactor(struct tlob_backend *be, const struct tlob_params *params,
			   struct mon_state *ms)
{
	if (!params->reactor)
		return TLOB_EXIT_OK;
	if (be->ops->get_reactor(be, ms->old_reactor, sizeof(ms->old_reactor)) ||
	    be->ops->set_reactor(be, params->reactor)) {
		tlob_print_error(be, -EINVAL, "setting the reactor");
		ms->old_reactor[0] = '\0';
		return TLOB_EXIT_ERROR;
	}
	return TLOB_EXIT_OK;
}

/*
 * Bind every section, set up the actions and enable the monitor: 0, or
 * -1 with what is done recorded in @ms for mon_put_back().
 */
static int mon_bind(struct tlob_backend *be, struct mon_ctx *ctx, struct mon_state *ms)
{
	const struct tlob_params *params = ctx->params;

	tlob_verbose("backend open, adding %zu binding(s)", params->nr_specs);
	for (; ms->bound < params->nr_specs; ms->bound++) {
		struct tlob_binding_spec *spec = &params->specs[ms->bound];
		int err = be->ops->bind(be, spec, &spec->id);

		if (err) {
			tlob_binding_error(be, false, spec, err);
			return -1;
		}
	}
	/* Every id known: print only the records of this session's bindings. */
	ctx->filter = ms->bound > 0;
	for (size_t i = 0; i < ms->bound; i++)
		ctx->filter &= params->specs[i].id != 0;
	/*
	 * A session's bindings are monitored whatever enable says, and
	 * another session may rely on enable: it is left alone.
	 */
	ms->session = ms->bound && be->ops->session && be->ops->session(be);
	if (mon_actions_start(ctx, params, ms->bound, !strcmp(be->ops->name, "kmod")))
		return -1;
	if (ms->session)
		ms->was_enabled = 1;
	tlob_verbose("bindings added%s", ms->session ? " (a session)" : ", enabling");
	if (!ms->was_enabled && be->ops->set_enable(be, true)) {
		tlob_print_error(be, -EIO, "enabling");
		return -1;
	}
	return 0;
}

/*
 * Monitor until a stop condition, then disable what the session enabled
 * and drain: windows still open end with a record, which this session
 * reads too (aborted for disable when it enabled the monitor, else for
 * unbind when it removes its bindings, drained once more after).
 */
static int mon_watch(struct tlob_backend *be, struct mon_ctx *ctx, const struct tlob_sink *sink,
		     struct tlob_workload *work, struct mon_state *ms)
{
	int ret = TLOB_EXIT_OK;

	if (ctx->params->json)
		mon_header(ctx, be, ms->bound);
	/* On stderr also with --json: scripts wait for this line to start a workload. */
	fprintf(stderr, "tlob: monitoring %zu section(s)%s; Ctrl-C to stop\n",
		ms->bound, ms->bound ? "" : " (the persistent bindings)");
	if (work)
		ret = mon_start_command(ctx, work);
	if (ret == TLOB_EXIT_OK)
		ret = mon_loop(be, ctx, sink) ? TLOB_EXIT_ERROR : TLOB_EXIT_OK;
	if (!ms->was_enabled && be->ops->set_enable(be, false)) {
		tlob_print_error(be, -EIO, "restoring enable=0");
		ret = TLOB_EXIT_ERROR;
	}
	mon_drain(be, ctx, sink);
	/*
	 * Before the bindings go: their statistics go with them. A session's
	 * are read after (it keeps the final ones, the windows its removals
	 * ended counted).
	 */
	if (!ms->session)
		mon_read_stats(be, ctx->params, &ms->st, &ms->nst);
	tlob_verbose("drained, statistics read; restoring settings");
	return ret;
}

/*
 * Put back what the session changed, and with @summary the summary of a
 * session that ran: @ret, or TLOB_EXIT_ERROR when a step failed.
 */
static int mon_put_back(struct tlob_backend *be, struct mon_ctx *ctx, const struct tlob_sink *sink,
			struct mon_state *ms, bool summary, int ret)
{
	const struct tlob_params *params = ctx->params;

	/* Before the bindings go: a trigger names them. */
	if (mon_actions_end(ctx))
		ret = TLOB_EXIT_ERROR;
	/* A session's removals drop its references only: the others keep monitoring. */
	tlob_verbose("removing %zu binding(s)", ms->bound);
	while (ms->bound--) {
		int err = be->ops->unbind(be, &params->specs[ms->bound]);

		if (err) {
			tlob_binding_error(be, true, &params->specs[ms->bound], err);
			ret = TLOB_EXIT_ERROR;
		}
	}
	tlob_verbose("bindings removed");
	if (summary) {
		if (params->nr_specs && ms->was_enabled)
			mon_drain(be, ctx, sink);
		if (ms->session)
			mon_read_stats(be, params, &ms->st, &ms->nst);
		mon_summary(be, params, ctx, ms->st, ms->nst);
	}
	free(ms->st);
	if (ms->old_reactor[0] && be->ops->set_reactor(be, ms->old_reactor)) {
		tlob_print_error(be, -EIO, "restoring the reactor");
		ret = TLOB_EXIT_ERROR;
	}
	return ret;
}

int tlob_mon_session(struct tlob_backend *be, const struct tlob_params *params, FILE *out,
		     struct tlob_workload *work, struct tlob_mon_stop *stop)
{
	struct mon_ctx ctx = { .params = params, .out = out };
	struct tlob_sink sink = {
		.record = on_record,
		.transition = params->trace ? on_transition : NULL,
		.diag = on_diag,
		.alive = on_alive,
		.logic = on_logic,
		.ctx = &ctx,
	};
	struct mon_state ms = { 0 };
	bool ran = false;
	int ret;

	memset(stop, 0, sizeof(*stop));
	/* The stream's own terminal decides (-o FILE: a file, no colour); JSON has none. */
	tlob_colour_use(!params->json && tlob_colour_wanted(params->colour, out));
	ms.was_enabled = be->ops->get_enable(be);
	if (ms.was_enabled < 0) {
		tlob_print_error(be, ms.was_enabled, "reading enable");
		return TLOB_EXIT_ERROR;
	}
	ret = mon_check(be, params);
	if (!ret)
		ret = mon_set_reactor(be, params, &ms);
	if (ret)
		return ret;
	ret = TLOB_EXIT_ERROR;
	ctx.dbuf = malloc(DIAG_BUF);
	if (!ctx.dbuf)
		fprintf(stderr, "tlob: out of memory\n");
	else if (!mon_bind(be, &ctx, &ms)) {
		ret = mon_watch(be, &ctx, &sink, work, &ms);
		ran = true;
	}
	ret = mon_put_back(be, &ctx, &sink, &ms, ran, ret);
	tlob_diag_worker_free(ctx.namer);
	free(ctx.dbuf);
	if (ctx.violation_seen_ns) {
		stop->seen_ns = ctx.violation_seen_ns;
		stop->read_ns = ctx.violation_read_ns;
	}
	/* Stopped on a violation, and everything put back: say so (an error wins). */
	if (ret == TLOB_EXIT_OK && ctx.stop)
		ret = TLOB_EXIT_VIOLATION;
	return ret;
}

int tlob_mon_prepare_command(struct tlob_params *params, struct tlob_workload *work,
			     bool stream_on_stdout)
{
	int err;

	if (check_command(params))
		return TLOB_EXIT_USAGE;
	err = tlob_workload_prepare(work, params->command, params->json && stream_on_stdout);
	if (err) {
		fprintf(stderr, "tlob: cannot start %s: %s\n", TLOB_SHOWN(params->command[0]),
			strerror(-err));
		return TLOB_EXIT_ERROR;
	}
	for (size_t i = 0; i < params->nr_specs; i++)
		params->specs[i].tgid = work->pid;
	return TLOB_EXIT_OK;
}

int tlob_mon_end_command(const struct tlob_params *params, struct tlob_workload *work, int ret)
{
	/* Ctrl-C reached it too; -d and --stop-on-violation end it here. */
	tlob_workload_stop(work, COMMAND_GRACE_MS);
	if (work->exec_errno)
		return tlob_workload_exit_code(work);
	if (ret != TLOB_EXIT_OK)
		return ret;
	ret = tlob_workload_exit_code(work);
	fprintf(stderr, "tlob: %s exited with status %d\n", TLOB_SHOWN(params->command[0]), ret);
	return ret;
}

FILE *tlob_mon_output(const char *path)
{
	char err[1024];
	FILE *out = stdout;
	int fd;

	if (path && strcmp(path, "-")) {
		fd = tlob_open_output(path, err, sizeof(err));
		if (fd < 0) {
			fprintf(stderr, "tlob: %s\n", err);
			return NULL;
		}
		out = fdopen(fd, "w");
		if (!out) {
			fprintf(stderr, "tlob: cannot write %s: %s\n", TLOB_SHOWN(path),
				strerror(errno));
			close(fd);
			return NULL;
		}
	}
	/*
	 * Records are written a batch at a time (mon_loop flushes after each
	 * poll, and a violation ends a poll at once), not a line at a time.
	 */
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	return out;
}

int tlob_mon_output_close(FILE *out, const char *path)
{
	bool failed = ferror(out);

	if (out == stdout) {
		fflush(out);
		return TLOB_EXIT_OK;
	}
	/* The stream is what the session is for: losing its end is an error. */
	if (fclose(out) || failed) {
		fprintf(stderr, "tlob: writing %s: %s\n", TLOB_SHOWN(path),
			failed ? "a write failed" : strerror(errno));
		return TLOB_EXIT_ERROR;
	}
	return TLOB_EXIT_OK;
}

static int mon_run(struct tlob_params *params)
{
	struct tlob_workload work = { 0 };
	struct tlob_mon_stop stop;
	struct tlob_backend be;
	FILE *out;
	int ret;

	ret = mon_check_args(params);
	if (ret)
		return ret;
	tlob_require_root("tlob mon");
	tlob_signals_setup();
	/* Before the backend opens (bpf: loads its programs): a refusal changes nothing. */
	out = tlob_mon_output(params->output);
	if (!out)
		return TLOB_EXIT_ERROR;
	if (params->command) {
		ret = tlob_mon_prepare_command(params, &work, out == stdout);
		if (ret) {
			tlob_mon_output_close(out, params->output);
			return ret;
		}
	}
	tlob_verbose("opening the %s backend", params->backend);
	if (tlob_open_backend(params, &be, true, params->trace, false)) {
		tlob_workload_stop(&work, 0);
		tlob_mon_output_close(out, params->output);
		return TLOB_EXIT_ERROR;
	}
	ret = tlob_mon_session(&be, params, out, params->command ? &work : NULL, &stop);
	tlob_backend_close(&be);
	if (params->command)
		ret = tlob_mon_end_command(params, &work, ret);
	/* A stream that did not reach its file wins over how the session ended. */
	if (tlob_mon_output_close(out, params->output) && ret != TLOB_EXIT_USAGE)
		ret = TLOB_EXIT_ERROR;
	if (stop.seen_ns) {
		uint64_t now = tlob_now_ns();

		/*
		 * After every cleanup step: this is how long the exit really
		 * took; "read" is how long the record took to reach us.
		 */
		fprintf(stderr, "tlob: exited %" PRIu64 "us after the violation was detected "
			"(read after %" PRIu64 "us)\n",
			(now > stop.seen_ns ? now - stop.seen_ns : 0) / 1000,
			(stop.read_ns > stop.seen_ns ? stop.read_ns - stop.seen_ns : 0) / 1000);
	}
	return ret;
}

const struct tlob_command tlob_cmd_mon = {
	.name = "mon",
	.usage = mon_usage,
	.opts = TLOB_OPT_BIND | TLOB_OPT_DURATION | TLOB_OPT_STOP_VIOL | TLOB_OPT_TRACE |
		TLOB_OPT_REACTOR | TLOB_OPT_JSON | TLOB_OPT_PID | TLOB_OPT_QUIET |
		TLOB_OPT_BUFFER | TLOB_OPT_FORCE_OFFSET | TLOB_OPT_BPF_TASKS | TLOB_OPT_FLUSH |
		TLOB_OPT_ON_VIOLATION | TLOB_OPT_MODEL | TLOB_OPT_OUTPUT | TLOB_OPT_WITH_ZEROS |
		TLOB_OPT_COLOR,
	.runs_command = true,
	.run = mon_run,
};
