// SPDX-License-Identifier: GPL-2.0
/*
 * Parse and print `monitor` lines. The same parser reads the kernel's
 * canonical listing and a raw line given with -b, so both agree on what a
 * line means.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monline.h"
#include "utils.h"

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static int parse_pid(const char *s, pid_t *pid)
{
	uint64_t v;

	if (parse_u64(s, &v) || !v || v > INT32_MAX)
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

int tlob_tag_check(const char *tag, char *err, size_t len)
{
	char shown[TLOB_SHOWN_LEN];
	size_t n = strlen(tag);
	bool bad = !n || n >= TLOB_TAG_LEN;

	for (size_t i = 0; i < n && !bad; i++)
		bad = !tlob_tag_char_ok(tag[i]);
	if (!bad)
		return 0;
	snprintf(err, len, "invalid tag '%s': a tag is 1..%d characters of "
		 "A-Z a-z 0-9 _ . -", tlob_shown(tag, shown, sizeof(shown)), TLOB_TAG_LEN - 1);
	return -EINVAL;
}

int tlob_path_check(const char *path, char *err, size_t len)
{
	char shown[TLOB_SHOWN_LEN];

	tlob_shown(path, shown, sizeof(shown));
	if (path[0] != '/') {
		snprintf(err, len, "'%s' is not an absolute path", shown);
		return -EINVAL;
	}
	for (const char *p = path; *p; p++) {
		if (tlob_path_char_ok(*p))
			continue;
		snprintf(err, len, "'%s': tlob cannot bind a path with whitespace or control "
			 "characters in it (use a symlink without them)", shown);
		return -EINVAL;
	}
	return 0;
}

int tlob_spec_check(const struct tlob_binding_spec *spec, char *err, size_t len)
{
	int ret = tlob_path_check(spec->path, err, len);

	if (ret)
		return ret;
	if (spec->tag[0] && (ret = tlob_tag_check(spec->tag, err, len)))
		return ret;
	if (spec->budget_ns < TLOB_BUDGET_MIN_NS || spec->budget_ns > TLOB_BUDGET_MAX_NS) {
		snprintf(err, len, "budget %" PRIu64 "ns is out of range (1us..1h)",
			 spec->budget_ns);
		return -ERANGE;
	}
	if (!spec->stop_is_ret && spec->stop == spec->start) {
		snprintf(err, len, "START and STOP are the same offset "
			 "(use 'ret' for the function's return)");
		return -EINVAL;
	}
	if (spec->pid < 0 || spec->tgid < 0 || (spec->pid && spec->tgid)) {
		snprintf(err, len, "pid= and tgid= exclude each other");
		return -EINVAL;
	}
	return 0;
}

#define FAIL(...) do { snprintf(err, len, __VA_ARGS__); ret = -EINVAL; goto out; } while (0)

int tlob_monline_parse(const char *line, struct tlob_binding_spec *spec,
		       char *err, size_t len)
{
	char *copy, *tok, *save = NULL, *colon;
	bool have_threshold = false;
	int ret = 0;

	memset(spec, 0, sizeof(*spec));
	copy = strdup(line);
	if (!copy) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}

	tok = strtok_r(copy, " \t\n", &save);
	if (!tok || strcmp(tok, "p"))
		FAIL("monitor line must start with 'p ': '%s'", line);

	tok = strtok_r(NULL, " \t\n", &save);
	colon = tok ? strrchr(tok, ':') : NULL;
	if (!colon || colon == tok || tok[0] != '/')
		FAIL("expected an absolute PATH:START after 'p ': '%s'", line);
	*colon = '\0';
	if (strlen(tok) >= sizeof(spec->path))
		FAIL("path too long");
	if (tlob_path_check(tok, err, len)) {
		ret = -EINVAL;
		goto out;
	}
	strcpy(spec->path, tok);
	if (parse_u64(colon + 1, &spec->start))
		FAIL("invalid START offset '%s' (decimal or 0x)", colon + 1);

	tok = strtok_r(NULL, " \t\n", &save);
	if (!tok || strchr(tok, '='))
		FAIL("missing STOP offset (an offset or 'ret'): '%s'", line);
	if (!strcmp(tok, "ret"))
		spec->stop_is_ret = true;
	else if (parse_u64(tok, &spec->stop))
		FAIL("invalid STOP offset '%s' (decimal, 0x or ret)", tok);
	if (!spec->stop_is_ret && spec->stop == spec->start)
		FAIL("START and STOP are the same offset (use 'ret' for the function's return)");

	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		char *val = strchr(tok, '=');

		if (!val)
			FAIL("unexpected '%s' in monitor line", tok);
		*val++ = '\0';
		if (!strcmp(tok, "threshold")) {
			uint64_t ns;

			if (parse_u64(val, &ns))
				FAIL("invalid threshold '%s' (nanoseconds)", val);
			if (ns < TLOB_BUDGET_MIN_NS || ns > TLOB_BUDGET_MAX_NS) {
				snprintf(err, len,
					 "threshold %" PRIu64 "ns is out of range (1us..1h)", ns);
				ret = -ERANGE;
				goto out;
			}
			spec->budget_ns = ns;
			have_threshold = true;
		} else if (!strcmp(tok, "tag")) {
			if (tlob_tag_check(val, err, len)) {
				ret = -EINVAL;
				goto out;
			}
			strcpy(spec->tag, val);
		} else if (!strcmp(tok, "pid")) {
			if (parse_pid(val, &spec->pid))
				FAIL("invalid pid '%s'", val);
		} else if (!strcmp(tok, "tgid")) {
			if (parse_pid(val, &spec->tgid))
				FAIL("invalid tgid '%s'", val);
		} else {
			FAIL("unknown key '%s' (threshold, tag, pid, tgid)", tok);
		}
	}
	if (!have_threshold)
		FAIL("missing threshold=NS: '%s'", line);
	if (spec->pid && spec->tgid)
		FAIL("pid= and tgid= exclude each other");
out:
	free(copy);
	return ret;
}

int tlob_monline_format(const struct tlob_binding_spec *spec, char *buf, size_t len)
{
	char stop[32], filter[32] = "", tag[TLOB_TAG_LEN + 6] = "";
	int n;

	if (tlob_spec_check(spec, NULL, 0))
		return -EINVAL;
	if (spec->stop_is_ret)
		snprintf(stop, sizeof(stop), "ret");
	else
		snprintf(stop, sizeof(stop), "0x%" PRIx64, spec->stop);
	if (spec->tag[0])
		snprintf(tag, sizeof(tag), " tag=%s", spec->tag);
	if (spec->pid)
		snprintf(filter, sizeof(filter), " pid=%d", (int)spec->pid);
	else if (spec->tgid)
		snprintf(filter, sizeof(filter), " tgid=%d", (int)spec->tgid);
	n = snprintf(buf, len, "p %s:0x%" PRIx64 " %s threshold=%" PRIu64 "%s%s",
		     spec->path, spec->start, stop, spec->budget_ns, tag, filter);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int tlob_monline_format_remove(const struct tlob_binding_spec *spec,
			       char *buf, size_t len)
{
	int n;

	if (tlob_path_check(spec->path, NULL, 0))
		return -EINVAL;
	n = snprintf(buf, len, "-%s:0x%" PRIx64, spec->path, spec->start);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
