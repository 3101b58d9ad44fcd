// SPDX-License-Identifier: GPL-2.0
/*
 * The stats line is key=value separated by spaces, except that path= may
 * itself contain spaces: it runs up to " start=".
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

int tlob_kmod_stats_parse(const char *line, struct tlob_binding_stats *st)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
		{ "windows", offsetof(struct tlob_binding_stats, stats.windows) },
		{ "violations", offsetof(struct tlob_binding_stats, stats.violations) },
		{ "errors", offsetof(struct tlob_binding_stats, stats.errors) },
		{ "aborted", offsetof(struct tlob_binding_stats, stats.aborted) },
		{ "early", offsetof(struct tlob_binding_stats, stats.early) },
		{ "tolerated", offsetof(struct tlob_binding_stats, stats.tolerated) },
		{ "dropped", offsetof(struct tlob_binding_stats, stats.dropped) },
		{ "min_ns", offsetof(struct tlob_binding_stats, stats.min_ns) },
		{ "max_ns", offsetof(struct tlob_binding_stats, stats.max_ns) },
		{ "mean_ns", offsetof(struct tlob_binding_stats, mean_ns) },
		{ "sum_ns", offsetof(struct tlob_binding_stats, stats.sum_ns) },
		{ "start", offsetof(struct tlob_binding_stats, spec.start) },
		{ "threshold", offsetof(struct tlob_binding_stats, spec.budget_ns) },
		{ "min", offsetof(struct tlob_binding_stats, spec.min_ns) },
	};
	const char *p = strstr(line, " path="), *pend;
	char *copy, *tok, *save = NULL;
	bool have_id = false;
	uint64_t v = 0;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	if (!p || !(pend = strstr(p + 6, " start=")))
		return -EINVAL;
	if ((size_t)(pend - (p + 6)) >= sizeof(st->spec.path))
		return -EINVAL;
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
		for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
			if (strcmp(tok, nums[i].key))
				continue;
			ret = parse_u64(val, (uint64_t *)((char *)st + nums[i].off));
			break;
		}
		if (i < sizeof(nums) / sizeof(nums[0]))
			continue;
		if (!strcmp(tok, "id")) {
			ret = parse_u64(val, &v);
			st->spec.id = (uint32_t)v;
			have_id = true;
		} else if (!strcmp(tok, "stop")) {
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
		} else if (!strcmp(tok, "hist")) {
			ret = parse_hist(val, st);
		}
		/* Unknown keys are newer fields: skip them. */
	}
	free(copy);
	if (!ret && !have_id)
		ret = -EINVAL;
	return ret;
}
