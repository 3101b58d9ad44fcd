// SPDX-License-Identifier: GPL-2.0
/*
 * Parse and print `monitor` lines. The parser is the module's
 * (kernel/shared/tlob_parse.c): it reads the kernel's canonical listing and a raw
 * line given with -b, so the tool, the module and the BPF backend (which
 * binds only what passes here) agree on what a line means.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/monline.h"
#include "lib/utils.h"
#include "tlob_logic.h"
#include "tlob_parse.h"

int tlob_tag_check(const char *tag, char *err, size_t len)
{
	char shown[TLOB_SHOWN_LEN];

	if (tlob_tag_ok(tag))
		return 0;
	if (!strcmp(tag, TLOB_TAG_NONE))
		snprintf(err, len, "invalid tag '%s': a listing shows it for \"no tag\"",
			 TLOB_TAG_NONE);
	else
		snprintf(err, len, "invalid tag '%s': a tag is 1..%d characters of "
			 "A-Z a-z 0-9 _ . -", tlob_shown(tag, shown, sizeof(shown)),
			 TLOB_TAG_LEN - 1);
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

/*
 * An alive binding's terms, in the ranges the module's parser takes
 * (kernel/shared/tlob_parse.c, with its errnos), worded for a person.
 */
static int alive_check(const struct tlob_binding_spec *spec, char *err, size_t len)
{
	if (spec->period_ns < TLOB_PERIOD_MIN_NS || spec->period_ns > TLOB_BUDGET_MAX_NS) {
		snprintf(err, len, "period %" PRIu64 "ns is out of range (100us..1h)",
			 spec->period_ns);
		return -ERANGE;
	}
	if (!spec->expect || spec->expect > TLOB_EXPECT_MAX) {
		snprintf(err, len, "expect=%" PRIu32 " is out of range (1..%u checkpoints per "
			 "period)", spec->expect, TLOB_EXPECT_MAX);
		return -EINVAL;
	}
	if (spec->margin > spec->expect) {
		snprintf(err, len, "margin=%" PRIu32 " is above expect=%" PRIu32 " (the count "
			 "may lie in expect-margin..expect+margin, so 0 <= margin <= expect)",
			 spec->margin, spec->expect);
		return -EINVAL;
	}
	if (spec->per != TLOB_PER_PROCESS && spec->per != TLOB_PER_TASK) {
		snprintf(err, len, "per=%u: an alive binding counts per process or per task",
			 spec->per);
		return -EINVAL;
	}
	/* What only a section has: a line could not carry it. */
	if (spec->stop || spec->stop_is_ret || spec->budget_ns || spec->min_ns) {
		snprintf(err, len, "an alive binding has a checkpoint only: no STOP, budget or "
			 "minimum");
		return -EINVAL;
	}
	return 0;
}

/*
 * What an `l` line needs to be written at all: the module's own rules for
 * its table (tlob_logic_check(): sizes, names, determinism, reachability,
 * every event on an edge), event 0's offset the binding's START. A table
 * rvgen built (logic.c) passes them; one read from a line may not.
 */
static int logic_check(const struct tlob_binding_spec *spec, char *err, size_t len)
{
	const struct tlob_logic_table *t = &spec->table;
	enum tlob_logic_rule rule;
	unsigned int at;
	int ret;

	ret = tlob_logic_check(t, &rule, &at);
	if (ret) {
		snprintf(err, len, "logical binding: %s (index %u)", tlob_logic_rule_text(rule), at);
		return ret;
	}
	if (spec->start != t->offset[0]) {
		snprintf(err, len, "a logical binding's START is its event 0's offset");
		return -EINVAL;
	}
	for (unsigned int f = 1; f < t->nfiles; f++) {
		ret = tlob_path_check(tlob_spec_file(spec, f), err, len);
		if (ret)
			return ret;
		for (unsigned int g = 0; g < f; g++)
			if (!strcmp(tlob_spec_file(spec, f), tlob_spec_file(spec, g))) {
				snprintf(err, len, "logical binding: file %s given twice",
					 tlob_spec_file(spec, f));
				return -EINVAL;
			}
	}
	if (spec->per != TLOB_PER_PROCESS && spec->per != TLOB_PER_TASK) {
		snprintf(err, len, "per=%u: a logical binding runs per process or per task",
			 spec->per);
		return -EINVAL;
	}
	if (spec->stop || spec->stop_is_ret || spec->budget_ns || spec->min_ns ||
	    spec->period_ns || spec->expect || spec->margin) {
		snprintf(err, len, "a logical binding has its model's events only: no STOP, "
			 "budget, minimum, period, expect or margin");
		return -EINVAL;
	}
	return 0;
}

const char *tlob_spec_file(const struct tlob_binding_spec *spec, unsigned int f)
{
	const char *p = spec->files;

	if (f >= spec->table.nfiles && f)
		return NULL;
	if (!f)
		return spec->path;
	while (--f)
		p += strlen(p) + 1;
	return p;
}

int tlob_spec_set_files(struct tlob_binding_spec *spec, const char *const *files,
			unsigned int nfiles)
{
	size_t at = 0, n;

	if (!nfiles || nfiles > TLOB_LOGIC_FILES_MAX)
		return -EINVAL;
	for (unsigned int f = 1; f < nfiles; f++) {
		n = strlen(files[f]) + 1;
		if (at + n > sizeof(spec->files))
			return -ENAMETOOLONG;
		memcpy(spec->files + at, files[f], n);
		at += n;
	}
	memset(spec->files + at, 0, sizeof(spec->files) - at);
	spec->table.nfiles = (u8)nfiles;
	return 0;
}

int tlob_spec_check(const struct tlob_binding_spec *spec, char *err, size_t len)
{
	int ret = tlob_path_check(spec->path, err, len);

	if (ret)
		return ret;
	if (spec->tag[0] && (ret = tlob_tag_check(spec->tag, err, len)))
		return ret;
	if (spec->alive && spec->logic) {
		snprintf(err, len, "a binding is alive or logical, not both");
		return -EINVAL;
	}
	if (spec->alive)
		ret = alive_check(spec, err, len);
	else if (spec->logic)
		ret = logic_check(spec, err, len);
	else if (spec->period_ns || spec->expect || spec->margin || spec->per) {
		snprintf(err, len, "period, expect, margin and per are an alive binding's terms: "
			 "a section has none");
		ret = -EINVAL;
	}
	if (ret)
		return ret;
	if (!spec->alive && !spec->logic &&
	    (spec->budget_ns < TLOB_BUDGET_MIN_NS || spec->budget_ns > TLOB_BUDGET_MAX_NS)) {
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
	if (!spec->alive && !spec->logic && !spec->stop_is_ret && spec->stop == spec->start) {
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

/*
 * Words a refusal about the line's shape: its verb, path, offsets and option keys.
 * false: the reason is of another kind.
 */
static bool why_syntax(const struct tlob_req *req, const char *shown, const char *bad,
		        char *err, size_t len)
{
	switch (req->why) {
	case TLOB_WHY_TOO_LONG:
		snprintf(err, len, "monitor line longer than %d bytes", TLOB_LINE_MAX);
		break;
	case TLOB_WHY_VERB:
		snprintf(err, len, "monitor line must start with 'p ', 'a ' or 'l ': '%s'", shown);
		break;
	case TLOB_WHY_PATH:
		snprintf(err, len, "expected an absolute %s: '%s'",
			 req->alive ? "PATH:CHECKPOINT after 'a '" :
			 req->logic ? "PATH after 'l '" : "PATH:START after 'p '", shown);
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
		/* The keys of the verb the line used (the parser's table). */
		snprintf(err, len, "unexpected '%s' in monitor line (%s, each once)", bad,
			 req->alive ?
			 "period=, expect=, margin=, per=, tolerance=, tag=, pid= or tgid=" :
			 req->logic ? "model=, states=, events=, edges=, final=, initial=, clock=, "
			 "per=, tolerance=, tag=, pid= or tgid=" :
			 "threshold=, min=, tolerance=, tag=, pid= or tgid=");
		break;
	default:
		return false;
	}
	return true;
}

/*
 * Words a refusal about the options every verb takes: tolerance=, tag=, pid= and tgid=.
 * false: the reason is of another kind.
 */
static bool why_common(const struct tlob_req *req, const char *bad, char *err, size_t len)
{
	switch (req->why) {
	case TLOB_WHY_TAG:
		tlob_tag_check(req->bad ? req->bad : "", err, len);
		break;
	case TLOB_WHY_FILTER:
		snprintf(err, len, "invalid pid=/tgid= '%s' (a pid; pid= and tgid= exclude each "
			 "other)", bad);
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
		return false;
	}
	return true;
}

/*
 * Words a refusal about the numbers of a 'p' line: threshold= and min=.
 * false: the reason is of another kind.
 */
static bool why_budget(const struct tlob_req *req, const char *shown, const char *bad,
		        char *err, size_t len)
{
	switch (req->why) {
	case TLOB_WHY_THRESHOLD:
		snprintf(err, len, "invalid threshold '%s' (nanoseconds)", bad);
		break;
	case TLOB_WHY_RANGE:
		snprintf(err, len, "threshold %sns is out of range (1us..1h)", bad);
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
	default:
		return false;
	}
	return true;
}

/*
 * Words a refusal about the numbers of an 'a' line: period=, expect=, margin= and per=.
 * false: the reason is of another kind.
 */
static bool why_alive(const struct tlob_req *req, const char *shown, const char *bad,
		       char *err, size_t len)
{
	switch (req->why) {
	case TLOB_WHY_PERIOD:
		snprintf(err, len, "invalid period '%s' (nanoseconds)", bad);
		break;
	case TLOB_WHY_PERIOD_RANGE:
		snprintf(err, len, "period %sns is out of range (100us..1h)", bad);
		break;
	case TLOB_WHY_EXPECT:
		snprintf(err, len, "invalid expect '%s' (checkpoints per period, 1..%u)", bad,
			 TLOB_EXPECT_MAX);
		break;
	case TLOB_WHY_MARGIN:
		snprintf(err, len, "invalid margin '%s' (checkpoints the count may be off by, "
			 "0..expect=)", bad);
		break;
	case TLOB_WHY_PER:
		snprintf(err, len, "invalid per '%s' (process or task)", bad);
		break;
	case TLOB_WHY_NO_PERIOD:
		snprintf(err, len, "missing period=NS: '%s'", shown);
		break;
	case TLOB_WHY_NO_EXPECT:
		snprintf(err, len, "missing expect=N: '%s'", shown);
		break;
	default:
		return false;
	}
	return true;
}

/*
 * Words a refusal about the automaton of an 'l' line: its names, lists, sizes and files.
 * false: the reason is of another kind.
 */
static bool why_logic(const struct tlob_req *req, const char *shown, const char *bad,
		       char *err, size_t len)
{
	switch (req->why) {
	case TLOB_WHY_LOGIC_NAME:
		snprintf(err, len, "invalid name '%s' in an 'l' line (1..%d characters of A-Z "
			 "a-z 0-9 _, not starting with a digit; unique among the states, and "
			 "among the events)", bad, TLOB_LOGIC_NAME_MAX);
		break;
	case TLOB_WHY_LOGIC_LIST:
		snprintf(err, len, "malformed list '%s' in an 'l' line (states=NAME,.. "
			 "events=NAME@[N:]OFF,.. edges=FROM.EVENT.TO[.r][.gLO-[HI]],.. final=I,..)",
			 bad);
		break;
	case TLOB_WHY_LOGIC_RANGE:
		snprintf(err, len, "'%s': an 'l' line has at most %d states, %d events and "
			 "states*events edges", bad, TLOB_LOGIC_STATES_MAX, TLOB_LOGIC_EVENTS_MAX);
		break;
	case TLOB_WHY_LOGIC_TABLE:
		snprintf(err, len, "the automaton of '%s' is not one the module runs "
			 "(deterministic, every state reachable, every event on an edge, "
			 "indices in range, guards a time can meet, a clock exactly when "
			 "something resets or guards it)%s%s", shown, req->bad ? ": " : "", bad);
		break;
	case TLOB_WHY_LOGIC_MISSING:
		snprintf(err, len, "an 'l' line needs model=, states=, events=, edges= and "
			 "final=: '%s'", shown);
		break;
	case TLOB_WHY_LOGIC_FILE:
		snprintf(err, len, "invalid file '%s' in an 'l' line (file1= .. file%d= are "
			 "absolute paths, numbered without a gap, each a file of its own)", bad,
			 TLOB_LOGIC_FILES_MAX - 1);
		break;
	default:
		return false;
	}
	return true;
}

/* The module's reason for refusing a line, worded for a person. */
static void why(const struct tlob_req *req, const char *line, char *err, size_t len)
{
	char shown[TLOB_SHOWN_LEN], bad[TLOB_SHOWN_LEN] = "";

	tlob_shown(line, shown, sizeof(shown));
	if (req->bad)
		tlob_shown(req->bad, bad, sizeof(bad));
	if (!why_syntax(req, shown, bad, err, len) && !why_common(req, bad, err, len) &&
	    !why_budget(req, shown, bad, err, len) && !why_alive(req, shown, bad, err, len) &&
	    !why_logic(req, shown, bad, err, len))
		snprintf(err, len, "malformed monitor line: '%s'", shown);
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
	/* An `l` line's table goes straight into the spec (tlob_parse.h). */
	memset(&req, 0, sizeof(req));
	req.table = &spec->table;
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
			 "threshold=NS', 'a PATH:CHECKPOINT period=NS expect=N' or 'l PATH "
			 "model=NAME ...'",
			 tlob_shown(line, shown, sizeof(shown)));
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
		spec->alive = req.alive;
		spec->period_ns = req.period_ns;
		spec->expect = req.expect;
		spec->margin = req.margin;
		spec->per = (uint8_t)req.per;
		spec->logic = req.logic;
		if (req.logic && tlob_spec_set_files(spec, req.files, spec->table.nfiles)) {
			snprintf(err, len, "paths too long");
			ret = -EINVAL;
		}
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

static bool same_tolerance(const struct tlob_binding_spec *a, const struct tlob_binding_spec *b)
{
	return tlob_spec_tol_k(a) == tlob_spec_tol_k(b) && tlob_spec_tol_w(a) == tlob_spec_tol_w(b);
}

/* A section's terms: STOP, and the budget's when both know it (see monline.h). */
static bool same_section_terms(const struct tlob_binding_spec *a,
			       const struct tlob_binding_spec *b)
{
	return a->stop_is_ret == b->stop_is_ret && (a->stop_is_ret || a->stop == b->stop) &&
	       (!a->budget_ns || !b->budget_ns ||
		(a->budget_ns == b->budget_ns && a->min_ns == b->min_ns && same_tolerance(a, b)));
}

/* An alive binding's terms: its stats line shows them all. */
static bool same_alive_terms(const struct tlob_binding_spec *a, const struct tlob_binding_spec *b)
{
	return a->period_ns == b->period_ns && a->expect == b->expect &&
	       a->margin == b->margin && a->per == b->per && same_tolerance(a, b);
}

/* A logical binding's terms, as its stats line shows them: the model's name, per, tolerance. */
static bool same_logic_terms(const struct tlob_binding_spec *a, const struct tlob_binding_spec *b)
{
	return !strcmp(a->table.model, b->table.model) && a->per == b->per &&
	       same_tolerance(a, b);
}

int tlob_spec_same_binding(const struct tlob_binding_spec *a,
			   const struct tlob_binding_spec *b)
{
	if (a->alive != b->alive || a->logic != b->logic || strcmp(a->tag, b->tag) ||
	    !(a->alive ? same_alive_terms(a, b) : a->logic ? same_logic_terms(a, b) :
	      same_section_terms(a, b)))
		return 0;
	return tlob_same_binding(a->path, a->start, b->path, b->start);
}

/*
 * The terms of a binding the module's listing (kernel/module/
 * tlob_listing.c) writes after a section's threshold and min, or an alive
 * binding's expect and margin, in its order: tolerance, tag, filter.
 */
static void common_terms(const struct tlob_binding_spec *spec, char *tol, size_t tol_len,
			 char *tag, size_t tag_len, char *filter, size_t filter_len)
{
	if (spec->tol_w > 1)
		snprintf(tol, tol_len, " tolerance=%u/%u", spec->tol_k, spec->tol_w);
	if (spec->tag[0])
		snprintf(tag, tag_len, " tag=%s", spec->tag);
	if (spec->pid)
		snprintf(filter, filter_len, " pid=%d", (int)spec->pid);
	else if (spec->tgid)
		snprintf(filter, filter_len, " tgid=%d", (int)spec->tgid);
}

/* "a PATH:0xOFF period=NS expect=N[ margin=M][ per=task]...", the module's own. */
static int format_alive(const struct tlob_binding_spec *spec, char *buf, size_t len)
{
	char filter[32] = "", tag[TLOB_TAG_LEN + 6] = "", tol[32] = "", margin[32] = "";
	int n;

	if (spec->margin)
		snprintf(margin, sizeof(margin), " margin=%" PRIu32, spec->margin);
	common_terms(spec, tol, sizeof(tol), tag, sizeof(tag), filter, sizeof(filter));
	n = snprintf(buf, len, "a %s:0x%" PRIx64 " period=%" PRIu64 " expect=%" PRIu32 "%s%s%s%s%s",
		     spec->path, spec->start, spec->period_ns, spec->expect, margin,
		     spec->per == TLOB_PER_TASK ? " per=task" : "", tol, tag, filter);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Appends to buf as snprintf would, keeping count past the end (*n > len: too long). */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(*n < len ? buf + *n : NULL, *n < len ? len - *n : 0, fmt, ap);
	va_end(ap);
	*n += w > 0 ? (size_t)w : 0;
}

/*
 * "l PATH model=M states=S0,.. events=E0@0xOFF,.. edges=F.E.T[.r][.gLO-HI],..
 * final=I,.. initial=I[ clock=C] per=process|task[ tolerance=K/W][ tag=T]
 * [ pid=N| tgid=N]": the module's canonical listing, the table's part
 * written by the module's own tlob_logic_format() (kernel/shared/
 * tlob_parse.c), edges in [state][event] order.
 */
static int format_logic(const struct tlob_binding_spec *spec, char *buf, size_t len)
{
	char filter[32] = "", tag[TLOB_TAG_LEN + 6] = "", tol[32] = "";
	const char *files[TLOB_LOGIC_FILES_MAX] = { NULL };
	size_t n = 0;
	int w;

	for (unsigned int f = 0; f < spec->table.nfiles && f < TLOB_LOGIC_FILES_MAX; f++)
		files[f] = tlob_spec_file(spec, f);
	common_terms(spec, tol, sizeof(tol), tag, sizeof(tag), filter, sizeof(filter));
	append(buf, len, &n, "l %s ", spec->path);
	w = tlob_logic_format(&spec->table, files, n < len ? buf + n : NULL,
			      n < len ? len - n : 0);
	n += w > 0 ? (size_t)w : 0;
	append(buf, len, &n, " per=%s%s%s%s", spec->per == TLOB_PER_TASK ? "task" : "process",
	       tol, tag, filter);
	return n >= len ? -ENAMETOOLONG : 0;
}

int tlob_monline_format(const struct tlob_binding_spec *spec, char *buf, size_t len)
{
	char stop[32], filter[32] = "", tag[TLOB_TAG_LEN + 6] = "", min[32] = "", tol[32] = "";
	int n;

	if (tlob_spec_check(spec, NULL, 0))
		return -EINVAL;
	if (spec->alive)
		return format_alive(spec, buf, len);
	if (spec->logic)
		return format_logic(spec, buf, len);
	if (spec->stop_is_ret)
		snprintf(stop, sizeof(stop), "ret");
	else
		snprintf(stop, sizeof(stop), "0x%" PRIx64, spec->stop);
	if (spec->min_ns)
		snprintf(min, sizeof(min), " min=%" PRIu64, spec->min_ns);
	common_terms(spec, tol, sizeof(tol), tag, sizeof(tag), filter, sizeof(filter));
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
