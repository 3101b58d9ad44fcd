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

#include "kmod_stats.h"
#include "tlob_parse.h"

static int parse_hist(const char *v, struct tlob_binding_stats *st)
{
	char *end;

	while (*v) {
		unsigned long idx = strtoul(v, &end, 10);

		if (end == v || *end != ':' || idx >= TLOB_HIST_BUCKETS)
			return -EINVAL;
		v = end + 1;
		st->stats.hist[idx] = strtoull(v, &end, 10);
		if (end == v || (*end && *end != ','))
			return -EINVAL;
		v = *end ? end + 1 : end;
	}
	return 0;
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!*v)
		return -EINVAL;
	*out = strtoull(v, &end, 0);
	return *end ? -EINVAL : 0;
}

static int parse_u32(const char *v, uint32_t *out)
{
	uint64_t n;

	if (parse_u64(v, &n) || n > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)n;
	return 0;
}

struct num_key {
	const char *key;
	size_t off;		/* of a uint64_t in struct tlob_binding_stats */
};

#define NUM(key, member) { key, offsetof(struct tlob_binding_stats, member) }

/* A section's numbers. */
static const struct num_key window_nums[] = {
	NUM("windows", stats.windows), NUM("violations", stats.violations),
	NUM("errors", stats.errors), NUM("aborted", stats.aborted), NUM("early", stats.early),
	NUM("tolerated", stats.tolerated), NUM("dropped", stats.dropped),
	NUM("min_ns", stats.min_ns), NUM("max_ns", stats.max_ns), NUM("mean_ns", mean_ns),
	NUM("sum_ns", stats.sum_ns), NUM("start", spec.start), NUM("threshold", spec.budget_ns),
	NUM("min", spec.min_ns), { NULL, 0 },
};

/* An alive binding's (kernel/module/tlob_listing.c, tlob_alive_stats_line()). */
static const struct num_key alive_nums[] = {
	NUM("cycles", alive.cycles), NUM("too_few", alive.too_few),
	NUM("too_many", alive.too_many), NUM("tolerated", alive.tolerated),
	NUM("aborted", alive.aborted), NUM("errors", alive.errors),
	NUM("dropped", alive.dropped), NUM("instances", alive.instances),
	NUM("min_checkpoints", alive.min_checkpoints),
	NUM("max_checkpoints", alive.max_checkpoints),
	NUM("sum_checkpoints", alive.sum_checkpoints), NUM("start", spec.start),
	NUM("period", spec.period_ns), { NULL, 0 },
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
	NUM("start", spec.start), { NULL, 0 },
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

int tlob_kmod_stats_parse(const char *line, struct tlob_binding_stats *st)
{
	const char *p = strstr(line, " path="), *pend;
	const struct num_key *nums;
	char *copy, *tok, *save = NULL;
	bool have_id = false;
	uint64_t v = 0;
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

	/* Everything but the path, tokenised. */
	copy = malloc(strlen(line) + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, line, (size_t)(p - line));
	strcpy(copy + (p - line), pend);

	for (tok = strtok_r(copy, " \t\n", &save); tok && !ret;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *val = strchr(tok, '=');
		size_t i;

		if (!val) {
			ret = -EINVAL;
			break;
		}
		*val++ = '\0';
		for (i = 0; nums[i].key; i++) {
			if (strcmp(tok, nums[i].key))
				continue;
			ret = parse_u64(val, (uint64_t *)((char *)st + nums[i].off));
			break;
		}
		if (nums[i].key)
			continue;
		if ((st->spec.alive || st->spec.logic) && (ret = kind_term(st, tok, val)) <= 0)
			continue;
		ret = 0;
		if (!strcmp(tok, "id")) {
			ret = parse_u64(val, &v);
			st->spec.id = (uint32_t)v;
			have_id = true;
		} else if (!strcmp(tok, "stop") && !st->spec.alive && !st->spec.logic) {
			if (!strcmp(val, "ret"))
				st->spec.stop_is_ret = true;
			else
				ret = parse_u64(val, &st->spec.stop);
		} else if (!strcmp(tok, "tolerance")) {
			/* K/W, as the monitor line writes it (kernel/shared/tlob_parse.c) */
			ret = tlob_parse_tolerance(val, &st->spec.tol_k, &st->spec.tol_w);
		} else if (!strcmp(tok, "tag")) {
			if (strcmp(val, "-") && strlen(val) < sizeof(st->spec.tag))
				strcpy(st->spec.tag, val);
		} else if (!strcmp(tok, "holders")) {
			snprintf(st->spec.holders, sizeof(st->spec.holders), "%s", val);
		} else if (!strcmp(tok, "hist") && !st->spec.alive && !st->spec.logic) {
			ret = parse_hist(val, st);
		}
		/* Unknown keys are newer fields (kind= was read above): skip them. */
	}
	free(copy);
	if (!ret && !have_id)
		ret = -EINVAL;
	return ret;
}
