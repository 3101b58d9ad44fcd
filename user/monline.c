// SPDX-License-Identifier: GPL-2.0
/*
 * Parse and print `monitor` lines. The parser is the module's
 * (kernel/shared/tlob_parse.c): it reads the kernel's canonical listing and a raw
 * line given with -b, so the tool, the module and the BPF backend (which
 * binds only what passes here) agree on what a line means.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "monline.h"
#include "tlob_parse.h"
#include "utils.h"

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
	if (spec->min_ns && spec->min_ns >= spec->budget_ns) {
		snprintf(err, len, "min %" PRIu64 "ns is not below the budget (%" PRIu64 "ns)",
			 spec->min_ns, spec->budget_ns);
		return -ERANGE;
	}
	if (spec->tol_w > 1 && (!spec->tol_k || spec->tol_k > spec->tol_w ||
				spec->tol_w > TLOB_TOLERANCE_MAX)) {
		snprintf(err, len, "tolerance %u/%u is out of range (K/W: 1 <= K <= W <= %d)",
			 spec->tol_k, spec->tol_w, TLOB_TOLERANCE_MAX);
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

/* The module's reason for refusing a line, worded for a person. */
static void why(const struct tlob_req *req, const char *line, char *err, size_t len)
{
	char shown[TLOB_SHOWN_LEN], bad[TLOB_SHOWN_LEN] = "";

	tlob_shown(line, shown, sizeof(shown));
	if (req->bad)
		tlob_shown(req->bad, bad, sizeof(bad));
	switch (req->why) {
	case TLOB_WHY_TOO_LONG:
		snprintf(err, len, "monitor line longer than %d bytes", TLOB_LINE_MAX);
		break;
	case TLOB_WHY_VERB:
		snprintf(err, len, "monitor line must start with 'p ': '%s'", shown);
		break;
	case TLOB_WHY_PATH:
		snprintf(err, len, "expected an absolute PATH:START after 'p ': '%s'", shown);
		break;
	case TLOB_WHY_PATH_CHAR:
		snprintf(err, len, "'%s': tlob cannot bind a path with whitespace or control "
			 "characters in it (use a symlink without them)", bad);
		break;
	case TLOB_WHY_START:
		snprintf(err, len, "invalid START offset '%s' (decimal or 0x)", bad);
		break;
	case TLOB_WHY_NO_STOP:
		snprintf(err, len, "missing STOP offset (an offset or 'ret'): '%s'", shown);
		break;
	case TLOB_WHY_STOP:
		snprintf(err, len, "invalid STOP offset '%s' (decimal, 0x or ret)", bad);
		break;
	case TLOB_WHY_SAME:
		snprintf(err, len, "START and STOP are the same offset "
			 "(use 'ret' for the function's return)");
		break;
	case TLOB_WHY_TRAILING:
		snprintf(err, len, "unexpected '%s' after -PATH:START", bad);
		break;
	case TLOB_WHY_OPTION:
		snprintf(err, len, "unexpected '%s' in monitor line (threshold=, min=, tolerance=, "
			 "tag=, pid= or tgid=, each once)", bad);
		break;
	case TLOB_WHY_THRESHOLD:
		snprintf(err, len, "invalid threshold '%s' (nanoseconds)", bad);
		break;
	case TLOB_WHY_RANGE:
		snprintf(err, len, "threshold %sns is out of range (1us..1h)", bad);
		break;
	case TLOB_WHY_TAG:
		tlob_tag_check(req->bad ? req->bad : "", err, len);
		break;
	case TLOB_WHY_FILTER:
		snprintf(err, len, "invalid pid=/tgid= '%s' (a pid; pid= and tgid= exclude each "
			 "other)", bad);
		break;
	case TLOB_WHY_NO_THRESHOLD:
		snprintf(err, len, "missing threshold=NS: '%s'", shown);
		break;
	case TLOB_WHY_MIN:
		snprintf(err, len, "invalid min '%s' (nanoseconds)", bad);
		break;
	case TLOB_WHY_MIN_RANGE:
		snprintf(err, len, "min %sns is out of range (above 0, below threshold=)", bad);
		break;
	case TLOB_WHY_TOLERANCE:
		snprintf(err, len, "invalid tolerance '%s' (K/W: K violations of the last W "
			 "windows)", bad);
		break;
	case TLOB_WHY_TOLERANCE_RANGE:
		snprintf(err, len, "tolerance %s is out of range (K/W: 1 <= K <= W <= %d)", bad,
			 TLOB_TOLERANCE_MAX);
		break;
	default:
		snprintf(err, len, "malformed monitor line: '%s'", shown);
		break;
	}
}

/*
 * The module's own parser (kernel/shared/tlob_parse.c, built into the tool with
 * kernel/shared/tlob_host_shim.h), so a line means here what it means there.
 */
int tlob_monline_parse(const char *line, struct tlob_binding_spec *spec,
		       char *err, size_t len)
{
	size_t n = strcspn(line, "\n");
	struct tlob_req req;
	char *copy, *as_given;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (line[n] && line[n + 1]) {
		snprintf(err, len, "one monitor line at a time");
		return -EINVAL;
	}
	copy = strndup(line, n);
	if (!copy) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = tlob_parse_line(copy, &req);
	if (ret < 0) {
		/* The parser cut copy into tokens: the message shows the line. */
		as_given = strndup(line, n);
		why(&req, as_given ? as_given : "", err, len);
		free(as_given);
	} else if (ret > 0) {
		snprintf(err, len, "empty monitor line");
		ret = -EINVAL;
	} else if (req.remove) {
		char shown[TLOB_SHOWN_LEN];

		snprintf(err, len, "'%s' removes a binding; a binding is 'p PATH:START STOP "
			 "threshold=NS'", tlob_shown(line, shown, sizeof(shown)));
		ret = -EINVAL;
	} else if (strlen(req.path) >= sizeof(spec->path)) {
		snprintf(err, len, "path too long");
		ret = -EINVAL;
	} else {
		strcpy(spec->path, req.path);
		spec->start = req.start;
		spec->stop = req.stop;
		spec->stop_is_ret = req.stop_ret;
		spec->budget_ns = req.budget_ns;
		spec->min_ns = req.min_ns;
		spec->tol_k = req.tol_k;
		spec->tol_w = req.tol_w;
		memcpy(spec->tag, req.tag, sizeof(spec->tag));
		if (req.filter == TLOB_FILTER_PID)
			spec->pid = (pid_t)req.filter_id;
		else if (req.filter == TLOB_FILTER_TGID)
			spec->tgid = (pid_t)req.filter_id;
	}
	free(copy);
	return ret;
}

int tlob_same_binding(const char *a, uint64_t a_start, const char *b, uint64_t b_start)
{
	struct stat sa, sb;

	if (a_start != b_start)
		return 0;
	if (!strcmp(a, b))
		return 2;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int tlob_spec_same_binding(const struct tlob_binding_spec *a,
			   const struct tlob_binding_spec *b)
{
	if (a->stop_is_ret != b->stop_is_ret || (!a->stop_is_ret && a->stop != b->stop) ||
	    (a->budget_ns && b->budget_ns &&
	     (a->budget_ns != b->budget_ns || a->min_ns != b->min_ns ||
	      tlob_spec_tol_k(a) != tlob_spec_tol_k(b) ||
	      tlob_spec_tol_w(a) != tlob_spec_tol_w(b))) ||
	    strcmp(a->tag, b->tag))
		return 0;
	return tlob_same_binding(a->path, a->start, b->path, b->start);
}

int tlob_monline_format(const struct tlob_binding_spec *spec, char *buf, size_t len)
{
	char stop[32], filter[32] = "", tag[TLOB_TAG_LEN + 6] = "", min[32] = "", tol[32] = "";
	int n;

	if (tlob_spec_check(spec, NULL, 0))
		return -EINVAL;
	if (spec->stop_is_ret)
		snprintf(stop, sizeof(stop), "ret");
	else
		snprintf(stop, sizeof(stop), "0x%" PRIx64, spec->stop);
	if (spec->tag[0])
		snprintf(tag, sizeof(tag), " tag=%s", spec->tag);
	if (spec->min_ns)
		snprintf(min, sizeof(min), " min=%" PRIu64, spec->min_ns);
	if (spec->tol_w > 1)
		snprintf(tol, sizeof(tol), " tolerance=%u/%u", spec->tol_k, spec->tol_w);
	if (spec->pid)
		snprintf(filter, sizeof(filter), " pid=%d", (int)spec->pid);
	else if (spec->tgid)
		snprintf(filter, sizeof(filter), " tgid=%d", (int)spec->tgid);
	n = snprintf(buf, len, "p %s:0x%" PRIx64 " %s threshold=%" PRIu64 "%s%s%s%s",
		     spec->path, spec->start, stop, spec->budget_ns, min, tol, tag, filter);
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
