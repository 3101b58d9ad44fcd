/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlob mon --on-violation ACTION: what runs when a violation is read: a
 * window's (over budget, too early), an alive cycle's (too few, too many
 * checkpoints) or a logical binding's (order, incomplete), once it passed
 * its binding's tolerance=.
 *
 *   exec=CMD           /bin/sh -c CMD, the violation (and a window's
 *                      diagnosis, when it arrives) in its environment
 *                      (TLOB_KIND, TLOB_VERDICT, TLOB_*), not waited for:
 *                      the reader goes on; children are reaped as they
 *                      end, at most TLOB_ACTION_CHILDREN at once
 *   snapshot=INSTANCE  module: in the kernel, when it is detected, an event
 *   traceoff=INSTANCE  trigger on INSTANCE's tlob:violation, tlob:alive_cycle
 *                      and tlob:logic (kmod/trigger.c); BPF: the tool, when
 *                      it reads the violation (trace_react.c); both set up
 *                      by mon, not run here
 *
 * --on-violation-limit N[/PERIOD]: at most N actions per binding (per
 * PERIOD when given), for every action; every violation is still printed.
 */
#ifndef TLOB_ACTIONS_H
#define TLOB_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/output.h"

/* exec children running at once; one more is skipped (and said). */
#define TLOB_ACTION_CHILDREN	8

enum tlob_action_kind {
	TLOB_ACTION_EXEC,
	TLOB_ACTION_SNAPSHOT,
	TLOB_ACTION_TRACEOFF,
};

struct tlob_action {
	enum tlob_action_kind kind;
	const char *arg;	/* CMD or INSTANCE (points into the string parsed) */
};

/* "exec=CMD", "snapshot=INSTANCE", "traceoff=INSTANCE"; a (may be NULL) gets it. */
int tlob_action_parse(const char *s, struct tlob_action *a, char *err, size_t len);
/* "N" or "N/PERIOD" (PERIOD a duration: 10s); N >= 1. */
int tlob_action_limit_parse(const char *s, unsigned int *n, uint64_t *period_ns,
			    char *err, size_t len);

/*
 * The per-binding limit: may an action run for a violation of binding
 * at now (CLOCK_MONOTONIC ns)? Counts it when it may. N per PERIOD are a
 * fixed window that starts at the first action after the last one ended.
 */
struct tlob_limit;
struct tlob_limit *tlob_limit_new(unsigned int n, uint64_t period_ns);
bool tlob_limit_take(struct tlob_limit *l, uint32_t binding, uint64_t now);
void tlob_limit_free(struct tlob_limit *l);

struct tlob_exec;

/* The exec= commands of actions (none: NULL, and every call below does nothing). */
struct tlob_exec *tlob_exec_new(const char *const *cmds, size_t n);
/*
 * A violation the limit let through: its commands run when its diagnosis
 * comes (tlob_exec_diag), or, without one, when its window's record comes
 * (tlob_exec_window), when it waited TLOB_EXEC_WAIT_NS, or at the end.
 */
#define TLOB_EXEC_WAIT_NS	(1000 * 1000000ULL)
void tlob_exec_violation(struct tlob_exec *x, const struct tlob_record *r, uint64_t now);
void tlob_exec_diag(struct tlob_exec *x, const struct tlob_diag *d,
		    const struct tlob_diag_syms *syms);
/*
 * Its diagnosis came and waits to be named (diag_worker.h): the commands
 * wait for tlob_exec_diag(), neither for the window's record nor for
 * TLOB_EXEC_WAIT_NS.
 */
void tlob_exec_hold(struct tlob_exec *x, const struct tlob_diag *d);
void tlob_exec_window(struct tlob_exec *x, const struct tlob_record *r);
/*
 * An alive cycle's or a logical binding's violation the limit let
 * through: no diagnosis to wait for, its commands run now (alive:
 * TLOB_PERIOD_NS, TLOB_CHECKPOINTS, TLOB_EXPECT_MIN/MAX, ...; logic:
 * TLOB_MODEL, TLOB_MODEL_STATE, TLOB_MODEL_EVENT for ORDER, ...).
 */
void tlob_exec_alive(struct tlob_exec *x, const struct tlob_alive_record *r);
void tlob_exec_logic(struct tlob_exec *x, const struct tlob_logic_record *r,
		     const struct tlob_logic_names *n);
/*
 * Reap the children that ended, run what waited too long; the ms until
 * something is due (-1: nothing), for the reader's sleep.
 */
int tlob_exec_tick(struct tlob_exec *x, uint64_t now);
/* Run what still waits, wait up to wait_ms for the children; say what is left. */
void tlob_exec_finish(struct tlob_exec *x, int wait_ms);
void tlob_exec_free(struct tlob_exec *x);

#endif /* TLOB_ACTIONS_H */
