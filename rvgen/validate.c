// SPDX-License-Identifier: GPL-2.0
/*
 * Checks a parsed model and builds the tables every emitter prints:
 * state order (initial first, the rest sorted: upstream's rule, so the
 * generated enums match the kernel's), sorted events and envs, the
 * [state][event] cells with their clock reset and timer action.
 *
 * Timer actions implement "arm only where a clock is reset or the
 * invariant's bound changes": the deadline timer is armed on an edge that
 * resets the clock of the target's invariant, or enters an invariant that
 * differs from the source's; cancelled on an edge that leaves every
 * invariant; and left alone everywhere else.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int find_str(char **v, int n, const char *s)
{
	char **hit;

	if (!n)
		return -1;
	hit = bsearch(&s, v, n, sizeof(*v), cmp_str);
	return hit ? (int)(hit - v) : -1;
}

/* Adds S to the set V (kept unsorted until sort_unique()). */
static int set_add(char ***v, int *n, const char *s)
{
	char **grown;
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (!grown)
		return -1;
	*v = grown;
	(*v)[*n] = strdup(s);
	if (!(*v)[*n])
		return -1;
	(*n)++;
	return 0;
}

static int check_names(struct model *m, struct rv_error *err)
{
	int i;

	if (m->nstates > RV_MAX_STATES) {
		rv_error_set(err, m->states[RV_MAX_STATES].line,
			     "too many states (%d): the tables hold at most %d",
			     m->nstates, RV_MAX_STATES);
		return -1;
	}
	for (i = 0; i < m->nstates; i++) {
		if (!rv_is_identifier(m->states[i].name)) {
			rv_error_set(err, m->states[i].line,
				     "state '%s' is not a C identifier of at most 64 characters",
				     m->states[i].name);
			return -1;
		}
	}
	return 0;
}

/*
 * Whether rvgen generates, in SCOPE, the name that the enumerator of NAME
 * would have (NAME_MON); what it is then goes into WHAT. The identifiers
 * come from the table the emitters print them from (names.h).
 */
static bool generated(const struct model *m, const char *name,
			     unsigned int scope, char *what, size_t size)
{
	char enumerator[RV_ID_LEN], id[RV_ID_LEN];
	int i, e;

	snprintf(enumerator, sizeof(enumerator), "%s_%s", name, m->name);
	for (i = 0; i < RV_NIDS; i++) {
		if ((rv_ids[i].scope & scope) && !strcmp(m->ids[i], enumerator)) {
			snprintf(what, size, "%s", rv_ids[i].what);
			return true;
		}
	}
	for (i = 0; i < RV_NEIDS; i++) {
		if (!(rv_event_ids[i].scope & scope))
			continue;
		for (e = 0; e < m->nevents; e++) {
			rv_event_id(id, i, m->events[e], m->name);
			if (!strcmp(id, enumerator)) {
				snprintf(what, size, rv_event_ids[i].what,
					 m->events[e]);
				return true;
			}
		}
	}
	return false;
}

static int reserved(const struct model *m, const char *kind, const char *name,
		    unsigned int scope, int line, struct rv_error *err)
{
	char what[RV_ID_LEN + 64];

	if (!generated(m, name, scope, what, sizeof(what)))
		return 0;
	rv_error_set(err, line,
		     "%s name '%s' is reserved: rvgen generates '%s_%s' itself (%s)",
		     kind, name, name, m->name, what);
	return -1;
}

/* The first line that mentions ENV: an invariant, a reset or a guard. */
static int env_line(const struct model *m, const char *env)
{
	int i, line = 0;

	for (i = 0; i < m->nstates; i++)
		if (m->states[i].inv.present &&
		    !strcmp(m->states[i].inv.env_name, env) &&
		    (!line || m->states[i].inv.line < line))
			line = m->states[i].inv.line;
	for (i = 0; i < m->ntrans; i++)
		if (((m->trans[i].reset && !strcmp(m->trans[i].reset, env)) ||
		     (m->trans[i].guard && strstr(m->trans[i].guard, env))) &&
		    (!line || m->trans[i].line < line))
			line = m->trans[i].line;
	return line;
}

/*
 * Every name of the model becomes an enumerator NAME_MON, in the C outputs
 * (states, events, envs) and in Promela (states): none may be an
 * identifier that rvgen generates there.
 */
static int check_reserved(struct model *m, struct rv_error *err)
{
	int i;

	for (i = 0; i < RV_NIDS; i++)
		rv_id_format(m->ids[i], i, m->name);
	for (i = 0; i < m->nstates; i++)
		if (reserved(m, "state", m->states[i].name,
			     RV_SCOPE_C | RV_SCOPE_PML, m->states[i].line, err))
			return -1;
	for (i = 0; i < m->ntrans; i++)
		if (reserved(m, "event", m->trans[i].event, RV_SCOPE_C,
			     m->trans[i].line, err))
			return -1;
	for (i = 0; i < m->nenvs; i++)
		if (reserved(m, m->envs[i].clock ? "clock" : "variable",
			     m->envs[i].name, RV_SCOPE_C,
			     env_line(m, m->envs[i].name), err))
			return -1;
	return 0;
}

static int add_env(struct model *m, const char *name, bool clock)
{
	struct rv_env *grown;
	int i;

	for (i = 0; i < m->nenvs; i++) {
		if (!strcmp(m->envs[i].name, name)) {
			m->envs[i].clock |= clock;
			return 0;
		}
	}
	grown = realloc(m->envs, (m->nenvs + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	m->envs = grown;
	m->envs[m->nenvs].name = strdup(name);
	m->envs[m->nenvs].clock = clock;
	if (!m->envs[m->nenvs].name)
		return -1;
	m->nenvs++;
	return 0;
}

static int cmp_env(const void *a, const void *b)
{
	return strcmp(((const struct rv_env *)a)->name,
		      ((const struct rv_env *)b)->name);
}

static int env_index(const struct model *m, const char *name)
{
	int i;

	for (i = 0; i < m->nenvs; i++)
		if (!strcmp(m->envs[i].name, name))
			return i;
	return -1;
}

static int collect(struct model *m, struct rv_error *err)
{
	int i, j;

	if (!m->ntrans) {
		rv_error_set(err, m->states[m->initial].line,
			     "the model has no transitions: no edge leaves the initial state '%s'",
			     m->states[m->initial].name);
		return -1;
	}
	for (i = 0; i < m->ntrans; i++)
		if (set_add(&m->events, &m->nevents, m->trans[i].event))
			goto oom;
	qsort(m->events, m->nevents, sizeof(*m->events), cmp_str);
	if (m->nevents > RV_MAX_EVENTS) {
		rv_error_set(err, m->trans[m->ntrans - 1].line,
			     "too many events (%d): the tables hold at most %d",
			     m->nevents, RV_MAX_EVENTS);
		return -1;
	}
	for (i = 0; i < m->nstates; i++)
		if (m->states[i].inv.present &&
		    add_env(m, m->states[i].inv.env_name, true))
			goto oom;
	for (i = 0; i < m->ntrans; i++) {
		if (m->trans[i].reset && add_env(m, m->trans[i].reset, true))
			goto oom;
		for (j = 0; j < m->trans[i].ncmp; j++)
			if (add_env(m, m->trans[i].cmp[j].env, false))
				goto oom;
	}
	if (m->nenvs > RV_MAX_ENVS) {
		rv_error_set(err, 1, "too many variables (%d): at most %d",
			     m->nenvs, RV_MAX_ENVS);
		return -1;
	}
	if (m->nenvs)
		qsort(m->envs, m->nenvs, sizeof(*m->envs), cmp_env);
	for (i = 0; i < m->nstates; i++)
		if (m->states[i].inv.present)
			m->states[i].inv.env = env_index(m, m->states[i].inv.env_name);
	for (i = 0; i < m->ntrans; i++)
		for (j = 0; j < m->trans[i].ncmp; j++)
			m->trans[i].cmp[j].env_idx =
				env_index(m, m->trans[i].cmp[j].env);
	return 0;
oom:
	rv_error_set(err, 1, "out of memory");
	return -1;
}

/* The generated enumerators of states, events and envs share one scope. */
static int check_clashes(struct model *m, struct rv_error *err)
{
	int i, j;

	for (i = 0; i < m->nstates; i++) {
		const char *s = m->states[i].name;

		j = find_str(m->events, m->nevents, s);
		if (j >= 0) {
			rv_error_set(err, m->states[i].line,
				     "'%s' names both a state and an event: the enumerator '%s_%s' would be defined twice",
				     s, s, m->name);
			return -1;
		}
		for (j = 0; j < m->nenvs; j++) {
			if (!strcmp(m->envs[j].name, s)) {
				rv_error_set(err, m->states[i].line,
					     "'%s' names both a state and a variable: the enumerator '%s_%s' would be defined twice",
					     s, s, m->name);
				return -1;
			}
		}
	}
	for (i = 0; i < m->ntrans; i++) {
		for (j = 0; j < m->nenvs; j++) {
			if (!strcmp(m->envs[j].name, m->trans[i].event)) {
				rv_error_set(err, m->trans[i].line,
					     "'%s' names both an event and a variable: the enumerator '%s_%s' would be defined twice",
					     m->envs[j].name, m->envs[j].name,
					     m->name);
				return -1;
			}
		}
	}
	return 0;
}

static int check_clocks(struct model *m, struct rv_error *err)
{
	int i, j;

	for (i = 0; i < m->nstates; i++) {
		const struct rv_invariant *inv = &m->states[i].inv;

		if (!inv->present)
			continue;
		for (j = 0; j < m->ntrans; j++)
			if (m->trans[j].reset &&
			    !strcmp(m->trans[j].reset, inv->env_name))
				break;
		if (j == m->ntrans) {
			rv_error_set(err, inv->line,
				     "state '%s': invariant clock '%s' is never reset: no edge has reset(%s), so the clock has no start",
				     m->states[i].name, inv->env_name,
				     inv->env_name);
			return -1;
		}
	}
	return 0;
}

static const struct model *sort_model;

static int cmp_state_idx(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	if (x == sort_model->initial)
		return -1;
	if (y == sort_model->initial)
		return 1;
	return strcmp(sort_model->states[x].name, sort_model->states[y].name);
}

/* Initial state first, the rest sorted; transitions follow the states. */
static int sort_states(struct model *m)
{
	int *order = malloc(m->nstates * sizeof(*order));
	int *where = malloc(m->nstates * sizeof(*where));
	struct rv_state *sorted = malloc(m->nstates * sizeof(*sorted));
	int i;

	if (!order || !where || !sorted) {
		free(order);
		free(where);
		free(sorted);
		return -1;
	}
	for (i = 0; i < m->nstates; i++)
		order[i] = i;
	sort_model = m;
	qsort(order, m->nstates, sizeof(*order), cmp_state_idx);
	for (i = 0; i < m->nstates; i++) {
		sorted[i] = m->states[order[i]];
		where[order[i]] = i;
	}
	for (i = 0; i < m->ntrans; i++) {
		m->trans[i].from = where[m->trans[i].from];
		m->trans[i].to = where[m->trans[i].to];
	}
	free(m->states);
	m->states = sorted;
	m->initial = 0;
	free(order);
	free(where);
	return 0;
}

static int fill_cells(struct model *m, struct rv_error *err)
{
	int i;

	m->cells = malloc((size_t)m->nstates * (m->nevents ? m->nevents : 1) *
			  sizeof(*m->cells));
	if (!m->cells) {
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	for (i = 0; i < m->nstates * m->nevents; i++) {
		m->cells[i].next = -1;
		m->cells[i].reset = -1;
		m->cells[i].timer = RV_TIMER_KEEP;
		m->cells[i].guard = NULL;
		m->cells[i].trans = -1;
	}
	for (i = 0; i < m->ntrans; i++) {
		const struct rv_transition *t = &m->trans[i];
		int e = find_str(m->events, m->nevents, t->event);
		struct rv_cell *c = model_cell(m, t->from, e);

		if (c->trans >= 0) {
			const struct rv_transition *o = &m->trans[c->trans];

			if (o->to == t->to)
				rv_error_set(err, t->line,
					     "event '%s' from state '%s' to '%s' is listed twice (also line %d)",
					     t->event, m->states[t->from].name,
					     m->states[t->to].name, o->line);
			else
				rv_error_set(err, t->line,
					     "non-deterministic: event '%s' in state '%s' leads to '%s' (line %d) and to '%s'",
					     t->event, m->states[t->from].name,
					     m->states[o->to].name, o->line,
					     m->states[t->to].name);
			return -1;
		}
		c->trans = i;
		c->next = t->to;
		c->reset = t->reset ? env_index(m, t->reset) : -1;
		c->guard = t->guard;
	}
	return 0;
}

static int check_reachable(struct model *m, struct rv_error *err)
{
	bool *seen = calloc(m->nstates, sizeof(*seen));
	int *queue = malloc(m->nstates * sizeof(*queue));
	int head = 0, tail = 0, i, worst = -1;

	if (!seen || !queue) {
		free(seen);
		free(queue);
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	seen[m->initial] = true;
	queue[tail++] = m->initial;
	while (head < tail) {
		int s = queue[head++], e;

		for (e = 0; e < m->nevents; e++) {
			int n = model_cell(m, s, e)->next;

			if (n >= 0 && !seen[n]) {
				seen[n] = true;
				queue[tail++] = n;
			}
		}
	}
	/* report the unreachable state that comes first in the file */
	for (i = 0; i < m->nstates; i++)
		if (!seen[i] && (worst < 0 || m->states[i].line < m->states[worst].line))
			worst = i;
	free(seen);
	free(queue);
	if (worst >= 0) {
		rv_error_set(err, m->states[worst].line,
			     "state '%s' is unreachable from the initial state '%s'",
			     m->states[worst].name, m->states[m->initial].name);
		return -1;
	}
	return 0;
}

static bool same_invariant(const struct rv_invariant *a,
			   const struct rv_invariant *b)
{
	return a->present && b->present && a->env == b->env && a->le == b->le &&
	       !strcmp(a->bound, b->bound);
}

static void timer_actions(struct model *m)
{
	int s, e;

	for (s = 0; s < m->nstates; s++) {
		for (e = 0; e < m->nevents; e++) {
			struct rv_cell *c = model_cell(m, s, e);
			const struct rv_invariant *from = &m->states[s].inv, *to;

			if (c->next < 0)
				continue;
			to = &m->states[c->next].inv;
			if (to->present && (c->reset == to->env ||
					    !same_invariant(from, to)))
				c->timer = RV_TIMER_ARM;
			else if (!to->present && from->present)
				c->timer = RV_TIMER_CANCEL;
		}
	}
}

int model_validate(struct model *m, struct rv_error *err)
{
	int i;
	bool any_final = false;

	err->file = m->file;
	if (check_names(m, err) || collect(m, err) ||
	    check_reserved(m, err) || check_clashes(m, err) ||
	    check_clocks(m, err))
		return -1;
	if (sort_states(m)) {
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	if (fill_cells(m, err) || check_reachable(m, err))
		return -1;
	for (i = 0; i < m->nstates; i++)
		any_final |= m->states[i].final;
	/* upstream's rule: no state marked final makes the initial one final */
	if (!any_final)
		m->states[m->initial].final = true;
	timer_actions(m);
	m->validated = true;
	return 0;
}

/*
 * The C evaluates a guard's comparison on a clock as "now - start[VAR] OP
 * VALUE", and on a variable, which no edge resets and no invariant bounds
 * (a count the monitor keeps, say), as "ha_get_env_NAME(clk, VAR) OP VALUE"
 * with the getter the includer defines, as upstream's ha monitors read
 * their environment. Both are unsigned: the comparison must not be one of
 * the two that a compiler flags as constant on an unsigned value.
 */
int model_check_guards(const struct model *m, struct rv_error *err)
{
	int i, j;

	err->file = m->file;
	for (i = 0; i < m->ntrans; i++) {
		const struct rv_transition *t = &m->trans[i];

		for (j = 0; j < t->ncmp; j++) {
			const struct rv_cmp *c = &t->cmp[j];
			const char *what = m->envs[c->env_idx].clock ?
					   "a clock" : "a variable";
			const char *why = NULL;

			if (c->number && !c->ns && c->op == RV_LT)
				why = "can never hold";
			else if (c->number && !c->ns && c->op == RV_GE)
				why = "always holds";
			if (why) {
				rv_error_set(err, t->line,
					     "event '%s': guard '%s': '%s %s 0' %s: %s is never below 0",
					     t->event, t->guard, c->env,
					     rv_op_str(c->op), why, what);
				return -1;
			}
		}
	}
	return 0;
}
