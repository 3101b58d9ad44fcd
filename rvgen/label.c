// SPDX-License-Identifier: GPL-2.0
/*
 * Label grammar, see label.h. Hand-written because it is not DOT: these
 * are the strings inside DOT labels, which cgraph treats as opaque text.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"

char **label_split(const char *label, int *count)
{
	const char *p = label;
	char **parts;
	int n = 1, i = 0;

	for (p = label; (p = strstr(p, "\\n")); p += 2)
		n++;
	parts = calloc(n + 1, sizeof(*parts));
	if (!parts)
		return NULL;
	for (p = label; i < n; i++) {
		const char *nl = strstr(p, "\\n");
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		parts[i] = strndup(p, len);
		if (!parts[i]) {
			label_free_split(parts);
			return NULL;
		}
		p += len + 2;
	}
	*count = n;
	return parts;
}

void label_free_split(char **parts)
{
	int i;

	for (i = 0; parts && parts[i]; i++)
		free(parts[i]);
	free(parts);
}

/* A copy of [s, e) without surrounding blanks. */
static char *trim_dup(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	return strndup(s, e - s);
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *scan_ident(const char *p)
{
	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return p;
}

struct cmp {
	char *env;
	enum rv_op op;
	char *value;	/* the bound as C */
	bool number;	/* value is a number, of ns ns */
	uint64_t ns;
};

/*
 * The largest number an invariant may bound a clock with: 2^62 - 1 ns
 * (about 146 years). The glue computes START + BOUND (+ 1 for '<=') in
 * u64, and the kernel arms an hrtimer at that sum, whose expiry is a
 * signed 64-bit ktime_t. START is a monotonic timestamp, below 2^62 ns
 * for 146 years of uptime; with BOUND below 2^62 too the sum stays at
 * most 2^63 - 1 (KTIME_MAX), so it overflows neither. A named bound
 * (BUDGET_NS()) is the monitor's to limit: tlob takes 1 us to 1 h.
 */
#define MAX_BOUND_NS ((UINT64_C(1) << 62) - 1)

static const struct {
	const char *s;
	enum rv_op op;
} ops[] = {
	{ "<=", RV_LE }, { ">=", RV_GE }, { "==", RV_EQ }, { "!=", RV_NE },
	{ "<", RV_LT }, { ">", RV_GT },
};

static const struct {
	const char *unit;
	uint64_t ns;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

/*
 * Reads "value": a number with an optional time unit (the bound is then
 * converted to nanoseconds), a constant or parameter name, or a macro or
 * function call without arguments. Returns the end or NULL with why set.
 */
static const char *scan_value(const char *p, struct cmp *c, const char **why)
{
	char **c_value = &c->value;
	const char *s = p, *e;

	if (*p == '-' && isdigit((unsigned char)p[1])) {
		*why = "a negative number: clocks count ns from their reset and are never negative";
		return NULL;
	}
	if (isdigit((unsigned char)*p)) {
		uint64_t v = 0, mult = 1;
		char unit[3] = "";
		size_t i, n = 0;

		for (; isdigit((unsigned char)*p); p++) {
			if (v > (UINT64_MAX - 9) / 10) {
				*why = "number too large";
				return NULL;
			}
			v = v * 10 + (*p - '0');
		}
		while (isalpha((unsigned char)*p) && n < 2)
			unit[n++] = *p++;
		if (isalnum((unsigned char)*p) || *p == '_') {
			*why = "unknown unit (use ns, us, ms or s)";
			return NULL;
		}
		if (n) {
			for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
				if (!strcmp(unit, units[i].unit))
					break;
			if (i == sizeof(units) / sizeof(units[0])) {
				*why = "unknown unit (use ns, us, ms or s)";
				return NULL;
			}
			mult = units[i].ns;
		}
		if (v > UINT64_MAX / mult) {
			*why = "number too large";
			return NULL;
		}
		c->number = true;
		c->ns = v * mult;
		if (asprintf(c_value, "%lluULL", (unsigned long long)c->ns) < 0) {
			*why = "out of memory";
			return NULL;
		}
		return p;
	}
	e = scan_ident(p);
	if (e == p) {
		*why = "expected a number, a name or NAME()";
		return NULL;
	}
	if (e - p > RV_MAX_NAME) {
		*why = "name longer than 64 characters";
		return NULL;
	}
	if (e[0] == '(' && e[1] == ')')
		e += 2;
	*c_value = strndup(s, e - s);
	if (!*c_value) {
		*why = "out of memory";
		return NULL;
	}
	return e;
}

/* "env OP value" at P; returns the end or NULL with why set. */
static const char *scan_cmp(const char *p, struct cmp *c, const char **why)
{
	const char *e;
	size_t i;

	p = skip_blank(p);
	e = scan_ident(p);
	if (e == p) {
		*why = "expected a variable name";
		return NULL;
	}
	if (e - p > RV_MAX_NAME) {
		*why = "variable name longer than 64 characters";
		return NULL;
	}
	c->env = strndup(p, e - p);
	if (!c->env) {
		*why = "out of memory";
		return NULL;
	}
	p = skip_blank(e);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(p, ops[i].s, strlen(ops[i].s)))
			break;
	if (i == sizeof(ops) / sizeof(ops[0])) {
		*why = "expected a comparison (<, <=, >, >=, ==, !=)";
		return NULL;
	}
	c->op = ops[i].op;
	p = skip_blank(p + strlen(ops[i].s));
	p = scan_value(p, c, why);
	if (!p)
		return NULL;
	return skip_blank(p);
}

static void cmp_free(struct cmp *c)
{
	free(c->env);
	free(c->value);
	c->env = NULL;
	c->value = NULL;
}

/*
 * The invariant of a state's label, INV->text, as INV's clock and bound:
 * only 'CLOCK < BOUND' or 'CLOCK <= BOUND', and a bound that can hold and
 * whose deadline fits the kernel's 64-bit time.
 */
static int invariant_parse(const char *node, int line,
			   struct rv_invariant *inv, struct rv_error *err)
{
	struct cmp c = { 0 };
	const char *why = NULL, *end;
	int ret = -1;

	end = scan_cmp(inv->text, &c, &why);
	if (end && *end)
		why = "unexpected text after the bound";
	else if (end && c.op != RV_LT && c.op != RV_LE)
		why = "only '<' and '<=' bound a clock";
	if (why) {
		rv_error_set(err, line,
			     "state '%s': invariant '%s' is not a clock bound 'CLOCK < BOUND' or 'CLOCK <= BOUND': %s",
			     node, inv->text, why);
		goto out;
	}
	if (c.number && !c.ns && c.op == RV_LT)
		why = "can never hold: a clock is never below 0, so the state would be violated as it is entered";
	else if (c.number && c.ns > MAX_BOUND_NS)
		why = "has a bound above 2^62 - 1 ns (146 years): the deadline, reset time + bound, could overflow the kernel's 64-bit time";
	if (why) {
		rv_error_set(err, line, "state '%s': invariant '%s' %s", node,
			     inv->text, why);
		goto out;
	}
	inv->present = true;
	inv->env_name = c.env;
	inv->le = c.op == RV_LE;
	inv->bound = c.value;
	inv->number = c.number;
	inv->ns = c.ns;
	inv->env = -1;
	c.env = NULL;
	c.value = NULL;
	ret = 0;
out:
	cmp_free(&c);
	return ret;
}

int label_state(const char *node, const char *label, int line,
		struct rv_invariant *inv, struct rv_error *err)
{
	char **parts, *head;
	int n, ret = -1;

	memset(inv, 0, sizeof(*inv));
	inv->line = line;
	/* cgraph's default node label "\N" stands for the node name */
	if (!label || !*label || !strcmp(label, "\\N"))
		return 0;
	if (!strncmp(label, "\\N", 2))
		label += 2;
	parts = label_split(label, &n);
	if (!parts) {
		rv_error_set(err, line, "out of memory");
		return -1;
	}
	head = trim_dup(parts[0], parts[0] + strlen(parts[0]));
	if (!head) {
		rv_error_set(err, line, "out of memory");
		goto out;
	}
	if (*head && strcmp(head, node)) {
		rv_error_set(err, line,
			     "state '%s' is labelled '%s': a state label starts with the state's name",
			     node, head);
		goto out;
	}
	if (n > 2) {
		rv_error_set(err, line,
			     "state '%s' has %d invariants: at most one per state",
			     node, n - 1);
		goto out;
	}
	if (n == 1) {
		ret = 0;
		goto out;
	}
	inv->text = trim_dup(parts[1], parts[1] + strlen(parts[1]));
	if (!inv->text) {
		rv_error_set(err, line, "out of memory");
		goto out;
	}
	ret = invariant_parse(node, line, inv, err);
out:
	free(head);
	label_free_split(parts);
	return ret;
}

void rv_cmps_free(struct rv_cmp *cmp, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(cmp[i].env);
		free(cmp[i].value);
	}
	free(cmp);
}

/*
 * "cmp ((&&|'||') cmp)*" over the whole of S, into *OUT (*N comparisons);
 * -1 with why set and nothing allocated if S is not a guard.
 */
static int scan_guard(const char *s, struct rv_cmp **out, int *n,
		      const char **why)
{
	struct rv_cmp *v = NULL, *grown;
	const char *p = s;
	int k = 0;

	for (;;) {
		struct cmp c = { 0 };

		p = scan_cmp(p, &c, why);
		if (!p) {
			cmp_free(&c);
			goto fail;
		}
		grown = realloc(v, (k + 1) * sizeof(*v));
		if (!grown) {
			cmp_free(&c);
			*why = "out of memory";
			goto fail;
		}
		v = grown;
		v[k].env = c.env;
		v[k].env_idx = -1;
		v[k].op = c.op;
		v[k].value = c.value;
		v[k].number = c.number;
		v[k].ns = c.ns;
		v[k].join = RV_JOIN_END;
		k++;
		if (!*p) {
			*out = v;
			*n = k;
			return 0;
		}
		if (!strncmp(p, "&&", 2) || !strncmp(p, "||", 2)) {
			v[k - 1].join = p[0] == '&' ? RV_JOIN_AND : RV_JOIN_OR;
			p += 2;
			continue;
		}
		*why = "expected && or || between comparisons";
		goto fail;
	}
fail:
	rv_cmps_free(v, k);
	return -1;
}

static int parse_reset(const char *s, const char *event, int line,
		       char **env, struct rv_error *err)
{
	const char *p = skip_blank(s + strlen("reset("));
	const char *e = scan_ident(p);
	const char *q = skip_blank(e);

	if (e == p || e - p > RV_MAX_NAME || *q != ')' || *skip_blank(q + 1)) {
		rv_error_set(err, line,
			     "event '%s': '%s' is not 'reset(CLOCK)' with one clock name (at most 64 characters)",
			     event, s);
		return -1;
	}
	*env = strndup(p, e - p);
	if (!*env) {
		rv_error_set(err, line, "out of memory");
		return -1;
	}
	return 0;
}

int label_event(const char *piece, int line, struct rv_transition *t,
		struct rv_error *err)
{
	const char *p = piece, *semi;
	const char *why = NULL;

	t->event = NULL;
	t->reset = NULL;
	t->guard = NULL;
	t->cmp = NULL;
	t->ncmp = 0;
	semi = strchr(p, ';');
	t->event = trim_dup(p, semi ? semi : p + strlen(p));
	if (!t->event) {
		rv_error_set(err, line, "out of memory");
		return -1;
	}
	if (!*t->event && !*piece) {
		rv_error_set(err, line,
			     "empty event name: a part of the edge label between \\n separators is empty");
		return -1;
	}
	if (!*t->event) {
		rv_error_set(err, line, "empty event name before '%s'", piece);
		return -1;
	}
	if (!rv_is_identifier(t->event)) {
		rv_error_set(err, line, "event '%s' is not a C identifier of at most 64 characters",
			     t->event);
		return -1;
	}
	while (semi) {
		char *part;

		p = semi + 1;
		semi = strchr(p, ';');
		part = trim_dup(p, semi ? semi : p + strlen(p));
		if (!part) {
			rv_error_set(err, line, "out of memory");
			return -1;
		}
		if (!strncmp(part, "reset(", 6)) {
			if (t->reset) {
				rv_error_set(err, line,
					     "event '%s' has more than one reset: at most one reset per event on an edge",
					     t->event);
				free(part);
				return -1;
			}
			if (parse_reset(part, t->event, line, &t->reset, err)) {
				free(part);
				return -1;
			}
			free(part);
			continue;
		}
		if (t->guard) {
			rv_error_set(err, line,
				     "event '%s' has more than one guard ('%s', '%s'): join conditions with && or ||",
				     t->event, t->guard, part);
			free(part);
			return -1;
		}
		if (!*part || scan_guard(part, &t->cmp, &t->ncmp, &why)) {
			rv_error_set(err, line,
				     "event '%s': guard '%s' is not 'VAR OP VALUE' joined by && or ||: %s",
				     t->event, part, why ? why : "empty guard");
			free(part);
			return -1;
		}
		t->guard = part;
	}
	return 0;
}
