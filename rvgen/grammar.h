/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a label of the rvgen DOT dialect holds once read: a state's
 * invariant, an edge's event with its reset and guard comparisons, and
 * the one error type every reader of a model reports through
 * ("file:line: message"). The label reader (label.c) fills these; the
 * model (model.h) is made of them.
 */
#ifndef RVGEN_GRAMMAR_H
#define RVGEN_GRAMMAR_H

#include <stdbool.h>
#include <stdio.h>

/* Longer names would not fit the emitters' buffers; C needs no more. */
#define RV_MAX_NAME	64

struct rv_error {
	const char *file;
	int line;
	char msg[512];
};

void rv_error_set(struct rv_error *err, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rv_error_print(const struct rv_error *err, FILE *out);

/* A comparison "env op value" as found in invariants and guards. */
enum rv_op { RV_LT, RV_LE, RV_GT, RV_GE, RV_EQ, RV_NE };

/* A state invariant: "clock < bound" or "clock <= bound". */
struct rv_invariant {
	bool present;
	int env;		/* index into model->envs after validation */
	char *env_name;
	bool le;		/* '<=' (else '<') */
	char *bound;		/* the bound as C: "BUDGET_NS()", "1000000ull" */
	bool number;		/* the bound is a number, of ns ns */
	unsigned long long ns;
	char *text;		/* as written, for documents and messages */
	int line;		/* of the label */
};

/* What joins a guard's comparison to the next one. */
enum rv_join { RV_JOIN_END, RV_JOIN_AND, RV_JOIN_OR };

/* One comparison "env op value" of a guard, in the order written. */
struct rv_cmp {
	char *env;
	int env_idx;		/* index into model->envs after validation */
	enum rv_op op;
	char *value;		/* as C, as an invariant's bound */
	bool number;		/* value is a number, of ns ns */
	unsigned long long ns;
	enum rv_join join;	/* to the next comparison; END after the last */
};

/* One event on one edge: "event[;reset(env)][;guard]". */
struct rv_transition {
	int from;		/* parse order index into states[] */
	int to;
	char *event;
	char *reset;		/* env name or NULL */
	char *guard;		/* guard text or NULL */
	struct rv_cmp *cmp;	/* the guard's comparisons, ncmp of them */
	int ncmp;
	int line;
	int order;		/* parse order: ties of line keep it */
};

/* An identifier of C: a letter or '_', then letters, digits, '_'; at most RV_MAX_NAME. */
bool rv_is_identifier(const char *s);
const char *rv_op_str(enum rv_op op);

#endif /* RVGEN_GRAMMAR_H */
