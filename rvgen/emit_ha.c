// SPDX-License-Identifier: GPL-2.0
/*
 * NAME_model_ha.h: the clocks of the hybrid automaton, when the deadline
 * timer is armed or cancelled, and whether a transition's guard holds.
 * The decision is the model's (validate.c computes timer[][]); this code
 * only applies it. One header serves the kernel module, BPF programs and
 * userspace alike (__u64 from linux/types.h, or from vmlinux.h in a BPF
 * program that includes it first), so the backends cannot disagree.
 *
 * Guards: a guard is a timing constraint on its edge, checked on the
 * clocks as they were before the transition's reset. When it does not
 * hold, the transition is still taken (the event did happen) and the
 * monitor reports a violation of the guard, the way a broken invariant is
 * a violation, not a model error: the tables of NAME_model.h are the same
 * with or without guards. ha_guard_holds_NAME() evaluates the guard of
 * one [state][event] cell, each comparison "CLOCK OP VALUE" as
 * "(now - clk->start[CLOCK]) OP VALUE" and "VARIABLE OP VALUE" as
 * "ha_get_env_NAME(clk, VARIABLE) OP VALUE", with VALUE printed as an
 * invariant's bound, && and || kept as written (&& binds tighter, as in
 * C; a group of && among || is parenthesised). A variable is what no edge
 * resets and no invariant bounds (a count the monitor keeps, say): the
 * includer reads it, as upstream's ha monitors read their environment
 * with ha_get_env(), and the getter is declared only where a guard reads
 * one. Callers call ha_guard_holds_NAME() before ha_step_NAME(), which
 * applies the reset. main.c refuses, for this kind, the constant
 * comparisons VAR < 0 and VAR >= 0 (validate.c). A model without guards
 * gets the function too, returning true, so callers can always call it.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* A bound that is a macro or constant (upper case) must be defined. */
static bool bound_macro(const char *bound, char *name, size_t size)
{
	size_t n = 0;
	const char *p;

	for (p = bound; *p && *p != '('; p++) {
		if (islower((unsigned char)*p) || n + 1 >= size)
			return false;
		name[n++] = *p;
	}
	name[n] = '\0';
	return n && !isdigit((unsigned char)name[0]);
}

/*
 * The bound as C: a NAME() bound is called with what it reads, the
 * automaton's clocks (the parameter clk of every function below), so the
 * includer's definition never depends on a variable's name.
 */
static void print_bound(FILE *out, const char *bound)
{
	size_t n = strlen(bound);

	if (n > 2 && !strcmp(bound + n - 2, "()"))
		fprintf(out, "%.*s(clk)", (int)(n - 2), bound);
	else
		fputs(bound, out);
}

/* The guard of cell C, NULL if it has none. */
static const struct rv_transition *guarded(const struct model *m,
					   const struct rv_cell *c)
{
	if (c->next < 0 || c->trans < 0 || !m->trans[c->trans].ncmp)
		return NULL;
	return &m->trans[c->trans];
}

/*
 * The guarded cells in table order: start with *k = -1; each call moves
 * *k (state * nevents + event) to the next guarded cell and returns its
 * transition, NULL after the last.
 */
static const struct rv_transition *next_guarded(const struct model *m, int *k)
{
	const struct rv_transition *t;

	while (++*k < m->nstates * m->nevents) {
		t = guarded(m, model_cell(m, *k / m->nevents, *k % m->nevents));
		if (t)
			return t;
	}
	return NULL;
}

static bool listed(const char **v, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/*
 * The distinct bounds the model uses, into *OUT (free it): the invariants'
 * in state order, then the guards' values that are not numbers (nothing to
 * define), cell by cell. Returns their number, -1 on ENOMEM.
 */
static int model_bounds(const struct model *m, const char ***out)
{
	const struct rv_transition *t;
	const char **v;
	int n = 0, i, k, max = m->nstates;

	for (i = 0; i < m->ntrans; i++)
		max += m->trans[i].ncmp;
	v = malloc((max ? max : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < m->nstates; i++)
		if (m->states[i].inv.present &&
		    !listed(v, n, m->states[i].inv.bound))
			v[n++] = m->states[i].inv.bound;
	for (k = -1; (t = next_guarded(m, &k));)
		for (i = 0; i < t->ncmp; i++)
			if (!t->cmp[i].number && !listed(v, n, t->cmp[i].value))
				v[n++] = t->cmp[i].value;
	*out = v;
	return n;
}

static bool same_inv(const struct rv_invariant *a, const struct rv_invariant *b)
{
	return a->env == b->env && a->le == b->le && !strcmp(a->bound, b->bound);
}

/* One "case" group per distinct invariant; BODY gets the invariant. */
static void invariant_cases(FILE *out, const struct model *m,
			    void (*body)(FILE *, const struct model *,
					 const struct rv_invariant *))
{
	bool done[RV_MAX_STATES] = { false };
	int i, j;

	for (i = 0; i < m->nstates; i++) {
		const struct rv_invariant *inv = &m->states[i].inv;

		if (!inv->present || done[i])
			continue;
		for (j = i; j < m->nstates; j++) {
			if (m->states[j].inv.present &&
			    same_inv(inv, &m->states[j].inv)) {
				fprintf(out, "\tcase %s_%s:\n", m->states[j].name,
					m->name);
				done[j] = true;
			}
		}
		fprintf(out, "\t\t/* %s */\n", inv->text);
		body(out, m, inv);
	}
}

/* Whether a state has an invariant: the functions read clk and now. */
static bool has_invariant(const struct model *m)
{
	int i;

	for (i = 0; i < m->nstates; i++)
		if (m->states[i].inv.present)
			return true;
	return false;
}

static void deadline_body(FILE *out, const struct model *m,
			  const struct rv_invariant *inv)
{
	fprintf(out, "\t\treturn clk->start[%s_%s] + (", m->envs[inv->env].name,
		m->name);
	print_bound(out, inv->bound);
	fprintf(out, ")%s;\n", inv->le ? " + 1" : "");
}

static void holds_body(FILE *out, const struct model *m,
		       const struct rv_invariant *inv)
{
	fprintf(out, "\t\treturn now %s clk->start[%s_%s] + (",
		inv->le ? "<=" : "<", m->envs[inv->env].name, m->name);
	print_bound(out, inv->bound);
	fputs(");\n", out);
}

static void describe_timer(FILE *out, const struct model *m)
{
	int s, e, n = 0;

	for (s = 0; s < m->nstates; s++) {
		for (e = 0; e < m->nevents; e++) {
			const struct rv_cell *c = model_cell(m, s, e);

			if (c->next < 0 || c->timer == RV_TIMER_KEEP)
				continue;
			fprintf(out, " *\t%s x %s -> %s: %s\n", m->states[s].name,
				m->events[e], m->states[c->next].name,
				rv_timer_str(c->timer));
			n++;
		}
	}
	if (!n)
		fputs(" *\t(none: no state has an invariant)\n", out);
}

static void describe_guards(FILE *out, const struct model *m)
{
	const struct rv_transition *t;
	int k, n = 0;

	for (k = -1; (t = next_guarded(m, &k)); n++)
		fprintf(out, " *\t%s x %s: %s\n",
			m->states[k / m->nevents].name,
			m->events[k % m->nevents], t->guard);
	if (!n)
		fputs(" *\t(none: no edge has a guard)\n", out);
}

static void indent_to(FILE *out, int col)
{
	int i;

	for (i = 0; i < col / 8; i++)
		fputc('\t', out);
	for (i = 0; i < col % 8; i++)
		fputc(' ', out);
}

/*
 * Prints "HEAD(PARAMS[0],\n<aligned>PARAMS[1]...)", one line per entry of
 * the NULL-terminated PARAMS: kernel style continuation.
 */
static void proto(FILE *out, const char *head, const char *const *params)
{
	int i;

	fprintf(out, "%s(", head);
	for (i = 0; params[i]; i++) {
		if (i) {
			fputs(",\n", out);
			indent_to(out, strlen(head) + 1);
		}
		fputs(params[i], out);
	}
	fputs(")\n", out);
}

/* Whether a guard reads a clock (CLOCK true) or a variable (false). */
static bool guards_read(const struct model *m, bool clock)
{
	const struct rv_transition *t;
	int i, k;

	for (k = -1; (t = next_guarded(m, &k));)
		for (i = 0; i < t->ncmp; i++)
			if (m->envs[t->cmp[i].env_idx].clock == clock)
				return true;
	return false;
}

/* Whether a guard reads a variable: the includer's getter is declared. */
static bool reads_variables(const struct model *m)
{
	return guards_read(m, false);
}

/*
 * One comparison: "(now - clk->start[CLOCK]) OP VALUE" or
 * "ha_get_env_NAME(clk, VARIABLE) OP VALUE", in () if PAREN.
 */
static void print_cmp(FILE *out, const struct model *m, const struct rv_cmp *c,
		      bool paren)
{
	const char *env = m->envs[c->env_idx].name;

	if (paren)
		fputc('(', out);
	if (m->envs[c->env_idx].clock)
		fprintf(out, "(now - clk->start[%s_%s])", env, m->name);
	else
		fprintf(out, "%s(clk, %s_%s)", m->ids[RV_ID_HA_GET_ENV], env,
			m->name);
	fprintf(out, " %s ", rv_op_str(c->op));
	print_bound(out, c->value);
	if (paren)
		fputc(')', out);
}

/*
 * "return GUARD;" at two tabs: one comparison per line, each in (); where
 * && and || mix, each group of && in () too, so that the C reads as the
 * guard is written (&& first) and -Wparentheses has nothing to say.
 */
static void guard_return(FILE *out, const struct model *m,
			 const struct rv_transition *t)
{
	const int col = 16 + strlen("return ");
	bool has_and = false, has_or = false;
	int i;

	fputs("\t\treturn ", out);
	if (t->ncmp == 1) {
		print_cmp(out, m, &t->cmp[0], false);
		fputs(";\n", out);
		return;
	}
	for (i = 0; i < t->ncmp; i++) {
		has_and |= t->cmp[i].join == RV_JOIN_AND;
		has_or |= t->cmp[i].join == RV_JOIN_OR;
	}
	for (i = 0; i < t->ncmp; i++) {
		const struct rv_cmp *c = &t->cmp[i];
		bool prev_and = i && t->cmp[i - 1].join == RV_JOIN_AND;
		bool in_group = has_and && has_or &&
				(prev_and || c->join == RV_JOIN_AND);

		if (in_group && !prev_and)
			fputc('(', out);
		print_cmp(out, m, c, true);
		if (in_group && c->join != RV_JOIN_AND)
			fputc(')', out);
		if (c->join == RV_JOIN_END) {
			fputs(";\n", out);
			break;
		}
		fputs(c->join == RV_JOIN_AND ? " &&\n" : " ||\n", out);
		indent_to(out, col + (in_group && c->join == RV_JOIN_AND));
	}
}

/* A time in ns, from linux/types.h or vmlinux.h wherever the header is included */
static const char u64[] = "__u64";

/*
 * The opening comment: the bounds the includer defines, the functions it
 * defines after including, and what the timer and the guards do here.
 */
static void ha_comment(FILE *out, const struct model *m,
		       const char **bounds, int nbounds)
{
	const char *mon = m->name;
	const char (*id)[RV_ID_LEN] = m->ids;
	int i;

	fprintf(out, "/* SPDX-License-Identifier: GPL-2.0 */\n");
	fprintf(out, "/* DO NOT EDIT: generated by rvgen from %s */\n", m->file);
	fprintf(out,
		"/*\n"
		" * Clocks, invariants and guards of the %s automaton, for the kernel\n"
		" * module, BPF programs (include vmlinux.h first) and userspace alike.\n"
		" *\n"
		" * Before including, define the bounds the model uses; a NAME() bound\n"
		" * is called with the automaton's clocks, the const struct\n"
		" * ha_clocks_%s * it bounds, and nothing else:\n",
		mon, mon);
	for (i = 0; i < nbounds; i++) {
		fputs(" *\t", out);
		print_bound(out, bounds[i]);
		fputc('\n', out);
	}
	fprintf(out,
		" * The bound is expanded inside the inline functions below, where only\n"
		" * struct ha_clocks_%s is complete: to reach a structure that embeds\n"
		" * it, declare a function before including and call it from the macro.\n"
		" * After including, define the functions declared below (the timer's\n"
		" * two, and the variables' getter where a guard reads a variable):\n"
		" *\tstatic void %s(struct ha_clocks_%s *clk, %s deadline_ns);\n"
		" *\tstatic void %s(struct ha_clocks_%s *clk);\n"
		" *\n"
		" * %s() applies a transition's clock reset and then arms the\n"
		" * deadline timer only where the clock of the target's invariant is\n"
		" * reset or the invariant changes, and cancels it only where the\n"
		" * invariant ends; never on any other transition. In this model:\n",
		mon, id[RV_ID_HA_ARM], mon, u64, id[RV_ID_HA_CANCEL], mon,
		id[RV_ID_HA_STEP]);
	describe_timer(out, m);
	fprintf(out,
		" *\n"
		" * %s() tells whether a transition's guard holds.\n"
		" * Call it before %s(): a guard reads the clocks as they\n"
		" * were before the transition's reset. A guard that does not hold is a\n"
		" * violation, as a broken invariant is, and the transition is still\n"
		" * taken. In this model:\n",
		id[RV_ID_HA_GUARD], id[RV_ID_HA_STEP]);
	describe_guards(out, m);
	if (reads_variables(m))
		fprintf(out,
			" * A guard reads a variable through a getter the includer defines\n"
			" * after including, as it defines the timer's functions:\n"
			" *\tstatic %s %s(const struct ha_clocks_%s *clk,\n"
			" *\t\t\t\tunsigned int env);\n",
			u64, id[RV_ID_HA_GET_ENV], mon);
	fputs(" */\n", out);
}

/* A bound that is a macro must be defined before the header is included. */
static void ha_bound_checks(FILE *out, const struct model *m,
			    const char **bounds, int nbounds)
{
	char file[256], macro[128];
	int i;

	snprintf(file, sizeof(file), "%s_model_ha.h", m->name);
	for (i = 0; i < nbounds; i++) {
		if (!bound_macro(bounds[i], macro, sizeof(macro)))
			continue;
		fprintf(out, "#ifndef %s\n#error \"define ", macro);
		print_bound(out, bounds[i]);
		fprintf(out, " before including %s\"\n#endif\n\n", file);
	}
}

/* The clocks, and the functions the includer defines after including. */
static void ha_declarations(FILE *out, const struct model *m)
{
	const char *mon = m->name;
	const char (*id)[RV_ID_LEN] = m->ids;
	char head[256];

	fprintf(out,
		"struct ha_clocks_%s {\n"
		"\t%s start[%s];\t/* ns when each clock was last reset */\n"
		"};\n\n", mon, u64, id[RV_ID_ENV_MAX]);
	fprintf(out,
		"static void %s(struct ha_clocks_%s *clk, %s deadline_ns);\n"
		"static void %s(struct ha_clocks_%s *clk);\n\n",
		id[RV_ID_HA_ARM], mon, u64, id[RV_ID_HA_CANCEL], mon);
	if (reads_variables(m)) {
		snprintf(head, sizeof(head), "static %s %s(", u64,
			 id[RV_ID_HA_GET_ENV]);
		fprintf(out, "%sconst struct ha_clocks_%s *clk,\n", head, mon);
		indent_to(out, strlen(head));
		fputs("unsigned int env);\n\n", out);
	}
}

/* HA_DEADLINE and HA_HOLDS read the clocks through this parameter. */
static void const_clocks_param(char *buf, size_t size, const struct model *m)
{
	snprintf(buf, size, "const struct ha_clocks_%s *clk", m->name);
}

/* Absolute ns at which a state's invariant is violated. */
static void ha_deadline_fn(FILE *out, const struct model *m)
{
	char head[256], clk[256];

	fputs("/* Absolute ns at which STATE's invariant is violated; 0: no invariant. */\n",
	      out);
	snprintf(head, sizeof(head), "static inline %s %s", u64,
		 m->ids[RV_ID_HA_DEADLINE]);
	const_clocks_param(clk, sizeof(clk), m);
	proto(out, head, (const char *[]){ clk, "unsigned int state", NULL });
	fputs("{\n", out);
	/* no invariant: nothing reads the parameters (-Wunused-parameter) */
	if (!has_invariant(m))
		fputs("\t(void)clk;\n", out);
	fputs("\tswitch (state) {\n", out);
	invariant_cases(out, m, deadline_body);
	fputs("\tdefault:\n\t\treturn 0;\n\t}\n}\n\n", out);
}

/* Whether a state's invariant holds at a time. */
static void ha_holds_fn(FILE *out, const struct model *m)
{
	char head[256], clk[256], rest[256];

	fputs("/* Whether STATE's invariant holds at NOW (true: no invariant). */\n",
	      out);
	snprintf(head, sizeof(head), "static inline bool %s", m->ids[RV_ID_HA_HOLDS]);
	const_clocks_param(clk, sizeof(clk), m);
	snprintf(rest, sizeof(rest), "unsigned int state, %s now", u64);
	proto(out, head, (const char *[]){ clk, rest, NULL });
	fputs("{\n", out);
	if (!has_invariant(m))
		fputs("\t(void)clk;\n\t(void)now;\n", out);
	fputs("\tswitch (state) {\n", out);
	invariant_cases(out, m, holds_body);
	fputs("\tdefault:\n\t\treturn true;\n\t}\n}\n\n", out);
}

/* Whether a transition's guard holds, one if per guarded cell. */
static void ha_guard_fn(FILE *out, const struct model *m)
{
	const struct rv_transition *t;
	char head[256], clk[256], now[256];
	int i = 0, k;

	fputs("/*\n"
	      " * Whether the guard of CURR x EVENT holds at NOW (true: no guard). The\n"
	      " * clocks are read as they were before the transition's reset.\n"
	      " */\n", out);
	snprintf(head, sizeof(head), "static inline bool %s", m->ids[RV_ID_HA_GUARD]);
	const_clocks_param(clk, sizeof(clk), m);
	snprintf(now, sizeof(now), "%s now", u64);
	proto(out, head, (const char *[]){
		clk, "unsigned int curr, unsigned int event", now, NULL });
	fputs("{\n", out);
	/* guards on variables only: nothing reads the time */
	if (reads_variables(m) && !guards_read(m, true))
		fputs("\t(void)now;\n", out);
	for (k = -1; (t = next_guarded(m, &k)); i++) {
		const char *st = m->states[k / m->nevents].name;
		const char *ev = m->events[k % m->nevents];

		fprintf(out,
			"\t/* %s x %s: %s */\n"
			"\tif (curr == %s_%s && event == %s_%s)\n",
			st, ev, t->guard, st, m->name, ev, m->name);
		guard_return(out, m, t);
	}
	/* without a guard, nothing reads the parameters: -Wunused-parameter */
	if (!i)
		fputs("\t(void)clk;\n\t(void)curr;\n\t(void)event;\n\t(void)now;\n",
		      out);
	fputs("\treturn true;\n}\n\n", out);
}

/* A transition's clock reset and timer action, as the model's tables say. */
static void ha_step_fn(FILE *out, const struct model *m)
{
	const char (*id)[RV_ID_LEN] = m->ids;
	char head[256], a[256], b[256];

	fputs("/* Clock reset and timer action of CURR x EVENT; nothing if not allowed. */\n",
	      out);
	snprintf(head, sizeof(head), "static inline void %s", id[RV_ID_HA_STEP]);
	snprintf(a, sizeof(a), "struct ha_clocks_%s *clk, unsigned int curr", m->name);
	snprintf(b, sizeof(b), "unsigned int event, %s now", u64);
	proto(out, head, (const char *[]){ a, b, NULL });
	fprintf(out,
		"{\n"
		"\tunsigned int next, env;\n"
		"\n"
		"\tif (curr >= %s || event >= %s)\n"
		"\t\treturn;\n"
		"\tnext = %s.function[curr][event];\n"
		"\tif (next == %s)\n"
		"\t\treturn;\n"
		"\tenv = %s.reset_env[curr][event];\n"
		"\tif (env < %s)\n"
		"\t\tclk->start[env] = now;\n"
		"\tswitch (%s.timer[curr][event]) {\n"
		"\tcase %s:\n"
		"\t\t%s(clk, %s(clk, next));\n"
		"\t\tbreak;\n"
		"\tcase %s:\n"
		"\t\t%s(clk);\n"
		"\t\tbreak;\n"
		"\tdefault:\n"
		"\t\tbreak;\n"
		"\t}\n"
		"}\n\n",
		id[RV_ID_STATE_MAX], id[RV_ID_EVENT_MAX], id[RV_ID_AUTOMATON],
		id[RV_ID_INVALID_STATE], id[RV_ID_AUTOMATON], id[RV_ID_ENV_MAX],
		id[RV_ID_AUTOMATON], id[RV_ID_TIMER_ARM], id[RV_ID_HA_ARM],
		id[RV_ID_HA_DEADLINE], id[RV_ID_TIMER_CANCEL],
		id[RV_ID_HA_CANCEL]);
}

int emit_ha(const struct model *m, FILE *out)
{
	const char **bounds;
	int nbounds;

	nbounds = model_bounds(m, &bounds);
	if (nbounds < 0)
		return -1;
	ha_comment(out, m, bounds, nbounds);
	emit_guard(out, m->ids[RV_ID_GUARD_HA], true);
	fputc('\n', out);
	/*
	 * __u64 and bool: the kernel's linux/types.h; in a BPF program,
	 * vmlinux.h (already included); in userspace, the uapi linux/types.h
	 * and stdbool.h.
	 */
	fputs("#if defined(__KERNEL__)\n"
	      "#include <linux/types.h>\n"
	      "#elif !defined(__VMLINUX_H__)\n"
	      "#include <stdbool.h>\n"
	      "#include <linux/types.h>\n"
	      "#endif\n", out);
	fprintf(out, "#include \"%s_model.h\"\n\n", m->name);
	ha_bound_checks(out, m, bounds, nbounds);
	free(bounds);
	ha_declarations(out, m);
	ha_deadline_fn(out, m);
	ha_holds_fn(out, m);
	ha_guard_fn(out, m);
	ha_step_fn(out, m);
	emit_guard(out, m->ids[RV_ID_GUARD_HA], false);
	return ferror(out) ? -1 : 0;
}
