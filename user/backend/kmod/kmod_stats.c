// SPDX-License-Identifier: GPL-2.0
/*
 * The stats line is key=value separated by spaces, except that path= may
 * itself contain spaces: it runs up to " start=". An alive binding's line
 * says kind=alive before path= and has its own counts (tlob_alive_stats),
 * a logical binding's kind=logic and its (tlob_logic_stats); a section's
 * has no kind=.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/kmod/kmod_stats.h"
#include "lib/units.h"
#include "tlob_parse.h"

/* A count as the module writes it: decimal digits, within 64 bits. */
static int parse_u64(const char *v, uint64_t *out)
{
	return tlob_parse_u64(v, 0, UINT64_MAX, out) ? -EINVAL : 0;
}

static int parse_u32(const char *v, uint32_t *out)
{
	uint64_t n;

	if (tlob_parse_u64(v, 0, UINT32_MAX, &n))
		return -EINVAL;
	*out = (uint32_t)n;
	return 0;
}

/* start= and stop=: an offset, "0x" and hex digits as the module writes it. */
static int parse_offset(const char *v, uint64_t *out)
{
	return tlob_parse_offset(v, out) ? -EINVAL : 0;
}

/* "i:count,...": every element a bucket and its count, none empty. */
static int parse_hist(char *v, struct tlob_binding_stats *st)
{
	char *e, *colon;
	uint64_t idx, n;

	if (!*v)
		return 0;
	while ((e = strsep(&v, ","))) {
		colon = strchr(e, ':');
		if (!colon)
			return -EINVAL;
		*colon = '\0';
		if (tlob_parse_u64(e, 0, TLOB_HIST_BUCKETS - 1, &idx) || parse_u64(colon + 1, &n))
			return -EINVAL;
		st->stats.hist[idx] = n;
	}
	return 0;
}

/* tag=: a tag a line can carry, or TLOB_TAG_NONE. */
static int parse_tag(const char *v, struct tlob_binding_stats *st)
{
	if (!strcmp(v, TLOB_TAG_NONE))
		return 0;
	if (!tlob_tag_ok(v))
		return -EINVAL;
	strcpy(st->spec.tag, v);
	return 0;
}

struct num_key {
	const char *key;
	size_t off;		/* of a uint64_t in struct tlob_binding_stats */
	int (*parse)(const char *v, uint64_t *out);
};

#define NUM(key, member) { key, offsetof(struct tlob_binding_stats, member), parse_u64 }
#define OFF(key, member) { key, offsetof(struct tlob_binding_stats, member), parse_offset }

/* A section's numbers. */
static const struct num_key window_nums[] = {
	NUM("windows", stats.windows), NUM("violations", stats.violations),
	NUM("errors", stats.errors), NUM("aborted", stats.aborted), NUM("early", stats.early),
	NUM("tolerated", stats.tolerated), NUM("dropped", stats.dropped),
	NUM("min_ns", stats.min_ns), NUM("max_ns", stats.max_ns), NUM("mean_ns", mean_ns),
	NUM("sum_ns", stats.sum_ns), OFF("start", spec.start), NUM("threshold", spec.budget_ns),
	NUM("min", spec.min_ns), { NULL, 0, NULL },
};

/* An alive binding's (kernel/module/tlob_listing.c, tlob_alive_stats_line()). */
static const struct num_key alive_nums[] = {
	NUM("cycles", alive.cycles), NUM("too_few", alive.too_few),
	NUM("too_many", alive.too_many), NUM("tolerated", alive.tolerated),
	NUM("aborted", alive.aborted), NUM("errors", alive.errors),
	NUM("dropped", alive.dropped), NUM("instances", alive.instances),
	NUM("min_checkpoints", alive.min_checkpoints),
	NUM("max_checkpoints", alive.max_checkpoints),
	NUM("sum_checkpoints", alive.sum_checkpoints), OFF("start", spec.start),
	NUM("period", spec.period_ns), { NULL, 0, NULL },
};

/*
 * A logical binding's (kind=logic: "id=.. kind=logic path=.. start=..
 * tag=.. model=NAME per=.. tolerance=K/W holders=.. instances=.. events=..
 * completed=.. order=.. incomplete=.. timing=.. tolerated=.. aborted=..
 * dropped=..",
 * in the alive line's style; any order).
 */
static const struct num_key logic_nums[] = {
	NUM("instances", logic.instances), NUM("events", logic.events),
	NUM("completed", logic.completed), NUM("order", logic.order),
	NUM("incomplete", logic.incomplete), NUM("timing", logic.timing),
	NUM("tolerated", logic.tolerated),
	NUM("aborted", logic.aborted), NUM("dropped", logic.dropped),
	OFF("start", spec.start), { NULL, 0, NULL },
};

enum { KIND_SECTION, KIND_ALIVE, KIND_LOGIC };

/*
 * kind= in the head of the line (before path=, which may hold anything):
 * KIND_SECTION none, KIND_ALIVE, KIND_LOGIC, -EINVAL a kind this tool does
 * not know (its counts would be read as something they are not).
 */
static int line_kind(const char *head, size_t n)
{
	static const char key[] = "kind=";
	const char *p, *end = head + n, *vend;

	for (p = head; p && p < end; p = memchr(p, ' ', (size_t)(end - p))) {
		p += *p == ' ';
		if ((size_t)(end - p) < sizeof(key) - 1 || strncmp(p, key, sizeof(key) - 1))
			continue;
		p += sizeof(key) - 1;
		vend = memchr(p, ' ', (size_t)(end - p));
		if (!vend)
			vend = end;
		if (vend - p == 5 && !strncmp(p, "alive", 5))
			return KIND_ALIVE;
		return vend - p == 5 && !strncmp(p, "logic", 5) ? KIND_LOGIC : -EINVAL;
	}
	return KIND_SECTION;
}

/*
 * The alive or logical terms that are not plain numbers (expect, margin,
 * per; model, per); 1 when @key is none of them.
 */
static int kind_term(struct tlob_binding_stats *st, const char *key, const char *val)
{
	if (st->spec.alive && !strcmp(key, "expect"))
		return parse_u32(val, &st->spec.expect);
	if (st->spec.alive && !strcmp(key, "margin"))
		return parse_u32(val, &st->spec.margin);
	if (st->spec.logic && !strcmp(key, "model")) {
		if (!*val || strlen(val) >= sizeof(st->spec.table.model))
			return -EINVAL;
		strcpy(st->spec.table.model, val);
		return 0;
	}
	if (!strcmp(key, "per")) {
		if (!strcmp(val, "process"))
			st->spec.per = TLOB_PER_PROCESS;
		else if (!strcmp(val, "task"))
			st->spec.per = TLOB_PER_TASK;
		else
			return -EINVAL;
		return 0;
	}
	return 1;
}

/* The line without its path, cut at single blanks; NULL when out of memory. */
static char *without_path(const char *line, const char *p, const char *pend)
{
	size_t n = strlen(line);
	char *copy = malloc(n + 1);

	if (!copy)
		return NULL;
	memcpy(copy, line, (size_t)(p - line));
	strcpy(copy + (p - line), pend);
	/* The listing ends each line with one newline. */
	n = strlen(copy);
	if (n && copy[n - 1] == '\n')
		copy[n - 1] = '\0';
	return copy;
}

/* One KEY=VALUE of the line into @st: 0, or -EINVAL. */
static int parse_term(struct tlob_binding_stats *st, const struct num_key *nums, char *tok,
		      bool *have_id)
{
	char *val = strchr(tok, '=');
	uint64_t v;
	size_t i;
	int ret;

	if (!val)
		return -EINVAL;
	*val++ = '\0';
	for (i = 0; nums[i].key; i++)
		if (!strcmp(tok, nums[i].key))
			return nums[i].parse(val, (uint64_t *)((char *)st + nums[i].off));
	if ((st->spec.alive || st->spec.logic) && (ret = kind_term(st, tok, val)) <= 0)
		return ret;
	if (!strcmp(tok, "id")) {
		if (tlob_parse_u64(val, 0, UINT32_MAX, &v))
			return -EINVAL;
		st->spec.id = (uint32_t)v;
		*have_id = true;
	} else if (!strcmp(tok, "stop") && !st->spec.alive && !st->spec.logic) {
		if (!strcmp(val, "ret"))
			st->spec.stop_is_ret = true;
		else
			return parse_offset(val, &st->spec.stop);
	} else if (!strcmp(tok, "tolerance")) {
		/* K/W, as the monitor line writes it (kernel/shared/tlob_parse.c) */
		return tlob_parse_tolerance(val, &st->spec.tol_k, &st->spec.tol_w) ? -EINVAL : 0;
	} else if (!strcmp(tok, "tag")) {
		return parse_tag(val, st);
	} else if (!strcmp(tok, "holders")) {
		snprintf(st->spec.holders, sizeof(st->spec.holders), "%s", val);
	} else if (!strcmp(tok, "hist") && !st->spec.alive && !st->spec.logic) {
		return parse_hist(val, st);
	}
	/* Unknown keys are newer fields (kind= was read above): skip them. */
	return 0;
}

int tlob_kmod_stats_parse(const char *line, struct tlob_binding_stats *st)
{
	const char *p = strstr(line, " path="), *pend;
	const struct num_key *nums;
	char *copy, *rest, *tok;
	bool have_id = false;
	int ret = 0, kind;

	memset(st, 0, sizeof(*st));
	if (!p || !(pend = strstr(p + 6, " start=")))
		return -EINVAL;
	if ((size_t)(pend - (p + 6)) >= sizeof(st->spec.path))
		return -EINVAL;
	kind = line_kind(line, (size_t)(p - line));
	if (kind < 0)
		return kind;
	st->spec.alive = kind == KIND_ALIVE;
	st->spec.logic = kind == KIND_LOGIC;
	nums = st->spec.alive ? alive_nums : st->spec.logic ? logic_nums : window_nums;
	memcpy(st->spec.path, p + 6, (size_t)(pend - (p + 6)));

	/* Everything but the path: one blank between terms, none empty. */
	copy = without_path(line, p, pend);
	if (!copy)
		return -ENOMEM;
	rest = copy;
	while (!ret && (tok = strsep(&rest, " ")))
		ret = *tok ? parse_term(st, nums, tok, &have_id) : -EINVAL;
	free(copy);
	if (!ret && !have_id)
		ret = -EINVAL;
	return ret;
}
