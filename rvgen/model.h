/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model object: one parse of a DOT automaton in the kernel's rvgen
 * dialect, shared by every emitter. model_load()/model_parse() read the
 * graph with graphviz cgraph and the label grammar (label.c);
 * model_validate() checks it and builds the tables the emitters print.
 * Every failure is reported through one error type, struct rv_error, as
 * "file:line: message".
 */
#ifndef RVGEN_MODEL_H
#define RVGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grammar.h"
#include "names.h"

/* Generated enums are unsigned char tables; INVALID is state_max. */
#define RV_MAX_STATES	254
#define RV_MAX_EVENTS	254
#define RV_MAX_ENVS	254
/*
 * The largest model file read, in bytes: a thousand times tlob.dot, far
 * beyond RV_MAX_STATES states with their labels, and a bound on what a
 * file that keeps growing (a link to /dev/zero is refused, a growing log
 * is not) makes the reader hold.
 */
#define RV_MODEL_MAX	(1 << 20)

struct rv_state {
	char *name;
	int line;		/* where the state is declared or labelled */
	bool final;
	struct rv_invariant inv;
};

struct rv_env {
	char *name;
	bool clock;		/* reset somewhere or bounded by an invariant */
};

enum rv_timer { RV_TIMER_KEEP, RV_TIMER_ARM, RV_TIMER_CANCEL };

/* The [state][event] cell after validation. */
struct rv_cell {
	int next;		/* state index, -1: not allowed */
	int reset;		/* env index, -1: none */
	enum rv_timer timer;
	const char *guard;	/* points into the transition, or NULL */
	int trans;		/* index into transitions[], -1 */
};

struct model {
	char *file;		/* path as given: named in banners */
	char *name;		/* monitor name: the enum suffix */

	/* Parse order; model_validate() sorts states and events. */
	struct rv_state *states;
	int nstates;
	int initial;
	struct rv_transition *trans;
	int ntrans;

	/* Built by model_validate(). */
	char **events;		/* sorted */
	int nevents;
	struct rv_env *envs;	/* sorted */
	int nenvs;
	struct rv_cell *cells;	/* nstates * nevents, row-major */
	char ids[RV_NIDS][RV_ID_LEN];	/* the generated identifiers */
	bool validated;
};

static inline struct rv_cell *model_cell(const struct model *m, int s, int e)
{
	return &m->cells[s * m->nevents + e];
}

/* Reads PATH and parses it; name NULL: derived from the file name. */
struct model *model_load(const char *path, const char *name,
			 struct rv_error *err);
/* Parses a NUL-terminated buffer; file is used in messages only. */
struct model *model_parse(const char *text, const char *file,
			  const char *name, struct rv_error *err);
/* Checks the model and builds the tables; 0 or -1 with err set. */
int model_validate(struct model *m, struct rv_error *err);
void model_free(struct model *m);
/*
 * For kinds whose output evaluates guards (ha): -1 with err at the first
 * guard comparison that is constant on an unsigned value (VAR < 0,
 * VAR >= 0).
 */
int model_check_guards(const struct model *m, struct rv_error *err);

const char *rv_timer_str(enum rv_timer t);

#endif /* RVGEN_MODEL_H */
