// SPDX-License-Identifier: GPL-2.0
/*
 * Logical supervision (logic.h): a user's DOT model read by rvgen's own
 * reader and validator (rvgen/model.c, validate.c: linked into the tool,
 * rvgen/model.mk), checked against what the module's `l` line can carry,
 * its events resolved like sections' STARTs (section.c), and its records
 * and statistics written like alive cycles' (alive.c: jbuf.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/monline.h"
#include "backend/names.h"
#include "kinds/logic.h"
#include "lib/jbuf.h"
#include "lib/utils.h"
#include "model.h"
#include "output/colour.h"
#include "output/output.h"
#include "section/section.h"
#include "tlob_parse.h"

#define EVENT_HELP "expected -e EVENT=PATH:SYMBOL (e.g. -e begin=/usr/bin/app:frame_begin)"
/* Room for the longest `l` line a table can make, to name its size. */
#define LINE_BUF	(64 * 1024)

/* rvgen's error as rvgen prints it ("FILE:LINE: message"), into err without the newline. */
static int located(const struct rv_error *e, char *err, size_t len)
{
	FILE *f = len ? fmemopen(err, len, "w") : NULL;

	if (f) {
		rv_error_print(e, f);
		fclose(f);
		err[strcspn(err, "\n")] = '\0';
	}
	return e->line ? TLOB_SECTION_MODEL : TLOB_SECTION_MODEL_FILE;
}

/* One of logical supervision's own refusals of a model, located as rvgen's are. */
static int __attribute__((format(printf, 5, 6)))
refuse(const char *file, int line, char *err, size_t len, const char *fmt, ...)
{
	struct rv_error e = { .file = file };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	e.line = line > 0 ? line : 1;
	return located(&e, err, len);
}

/*
 * The model's name: the file's base name without its extension, '-' read
 * as '_' (frame-flow.dot is frame_flow), as the `l` line's model= takes it.
 */
static int model_name(const char *file, char *name, size_t size, char *err, size_t len)
{
	const char *base = strrchr(file, '/'), *dot;
	size_t n;

	base = base ? base + 1 : file;
	dot = strrchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (n && n < size) {
		memcpy(name, base, n);
		name[n] = '\0';
		for (char *c = name; *c; c++)
			*c = *c == '-' ? '_' : *c;
		if (n <= TLOB_LOGIC_NAME_MAX && rv_is_identifier(name))
			return 0;
	}
	return refuse(file, 1, err, len, "the model's name is the file's base name ('-' read "
		      "as '_'), and '%.*s' is not 1..%d characters of A-Z a-z 0-9 _ starting "
		      "with a letter or '_': rename the file", (int)(n < 64 ? n : 64), base,
		      TLOB_LOGIC_NAME_MAX);
}

/*
 * Time in a model for --model: one clock, reset on edges (reset(clk)),
 * compared with numbers in guards joined by && ("clk >= 5ms && clk <
 * 33ms"), which the module reads at the event, and bounded by numbers in
 * states' invariants ("in_frame\nclk < 40ms"), for which it arms a timer
 * per instance. Not yet: guards joined by ||, != and bounds that are no
 * numbers (the module has no parameters to evaluate BUDGET_NS() with).
 * The first such thing in the file is named.
 */
static int time_refused(const struct model *m, char *err, size_t len)
{
	char what[512] = "";
	int line = 0;

	for (int i = 0; i < m->nstates; i++) {
		const struct rv_state *s = &m->states[i];

		if (!s->inv.present || s->inv.number || (line && s->inv.line >= line))
			continue;
		line = s->inv.line;
		snprintf(what, sizeof(what), "state '%s' has the invariant '%s', which bounds "
			 "its clock with something other than a number: a logical model's "
			 "invariant bounds its clock with a number with a unit (40ms, 500us)",
			 s->name, s->inv.text);
	}
	for (int i = 0; i < m->ntrans; i++) {
		const struct rv_transition *t = &m->trans[i];

		for (int k = 0; k < t->ncmp && (!line || t->line < line); k++) {
			const struct rv_cmp *c = &t->cmp[k];
			const char *why = c->join == RV_JOIN_OR ? "joins comparisons with '||'" :
					  c->op == RV_NE ? "compares with '!='" :
					  !c->number ? "compares with something other than a number" :
					  NULL;

			if (!why)
				continue;
			line = t->line;
			snprintf(what, sizeof(what), "event '%s' has the guard '%s', which %s: a "
				 "logical model's guard compares its clock with numbers with a unit "
				 "(33ms, 500us), joined by &&", t->event, t->guard, why);
		}
	}
	if (!line)
		return 0;
	return refuse(m->file, line, err, len, "%s", what);
}

/* The first line of a transition that resets or guards @env. */
static int env_line(const struct model *m, const char *env)
{
	for (int i = 0; i < m->ntrans; i++) {
		const struct rv_transition *t = &m->trans[i];

		if (t->reset && !strcmp(t->reset, env))
			return t->line;
		for (int k = 0; k < t->ncmp; k++)
			if (!strcmp(t->cmp[k].env, env))
				return t->line;
	}
	return 1;
}

/*
 * After rvgen's validation: at most one clock, which some edge resets.
 * rvgen counts an env as a clock when an edge resets it or an invariant
 * bounds it, and refuses an invariant whose clock no edge resets (its
 * own "FILE:LINE: ... invariant clock 'clk' is never reset"): an env
 * that is no clock here is one only guards read.
 */
static int one_clock(const struct model *m, char *err, size_t len)
{
	if (m->nenvs > 1)
		return refuse(m->file, env_line(m, m->envs[1].name), err, len,
			      "the model has %d clocks or variables ('%s', '%s'%s): logical "
			      "supervision takes one clock", m->nenvs, m->envs[0].name,
			      m->envs[1].name, m->nenvs > 2 ? ", ..." : "");
	if (m->nenvs == 1 && !m->envs[0].clock)
		return refuse(m->file, env_line(m, m->envs[0].name), err, len,
			      "'%s' is never reset: a logical model's guards compare its clock, "
			      "which an edge starts (EVENT;reset(%s))", m->envs[0].name,
			      m->envs[0].name);
	if (m->nenvs == 1 && strlen(m->envs[0].name) > TLOB_LOGIC_NAME_MAX)
		return refuse(m->file, env_line(m, m->envs[0].name), err, len,
			      "the clock '%s' is longer than %d characters (logical supervision's "
			      "names are 1..%d characters)", m->envs[0].name, TLOB_LOGIC_NAME_MAX,
			      TLOB_LOGIC_NAME_MAX);
	return 0;
}

/* The sizes a table holds, before rvgen builds one for any size. */
static int sizes(const struct model *m, char *err, size_t len)
{
	const char *seen[TLOB_LOGIC_EVENTS_MAX + 1];
	int n = 0;

	if (m->nstates > TLOB_LOGIC_STATES_MAX)
		return refuse(m->file, m->states[TLOB_LOGIC_STATES_MAX].line, err, len,
			      "too many states (%d): logical supervision takes at most %d",
			      m->nstates, TLOB_LOGIC_STATES_MAX);
	/* Transitions are in file order: the event that is one too many is on this line. */
	for (int i = 0; i < m->ntrans; i++) {
		int k;

		for (k = 0; k < n && strcmp(seen[k], m->trans[i].event); k++)
			;
		if (k < n)
			continue;
		if (n == TLOB_LOGIC_EVENTS_MAX)
			return refuse(m->file, m->trans[i].line, err, len,
				      "too many events (more than %d, '%s' the first beyond): "
				      "logical supervision takes at most %d (each is a probe)",
				      TLOB_LOGIC_EVENTS_MAX, m->trans[i].event,
				      TLOB_LOGIC_EVENTS_MAX);
		seen[n++] = m->trans[i].event;
	}
	return 0;
}

/* The first line that names EVENT. */
static int event_line(const struct model *m, const char *event)
{
	for (int i = 0; i < m->ntrans; i++)
		if (!strcmp(m->trans[i].event, event))
			return m->trans[i].line;
	return 1;
}

/* Names an `l` line carries: rvgen takes identifiers of up to 64 characters. */
static int name_lengths(const struct model *m, char *err, size_t len)
{
	for (int i = 0; i < m->nstates; i++)
		if (strlen(m->states[i].name) > TLOB_LOGIC_NAME_MAX)
			return refuse(m->file, m->states[i].line, err, len,
				      "state '%s' is longer than %d characters (logical "
				      "supervision's names are 1..%d characters)",
				      m->states[i].name, TLOB_LOGIC_NAME_MAX, TLOB_LOGIC_NAME_MAX);
	for (int i = 0; i < m->nevents; i++)
		if (strlen(m->events[i]) > TLOB_LOGIC_NAME_MAX)
			return refuse(m->file, event_line(m, m->events[i]), err, len,
				      "event '%s' is longer than %d characters (logical "
				      "supervision's names are 1..%d characters)",
				      m->events[i], TLOB_LOGIC_NAME_MAX, TLOB_LOGIC_NAME_MAX);
	return 0;
}

/* One -e EVENT=PATH:SYMBOL, split in a copy of its own. */
struct mapping {
	char *copy;
	const char *event, *path, *place;
};

static int split_event(const char *arg, struct mapping *mp, char *err, size_t len)
{
	char *eq, *colon;

	mp->copy = strdup(arg);
	if (!mp->copy) {
		snprintf(err, len, "out of memory");
		return TLOB_SECTION_LOOKUP;
	}
	eq = strchr(mp->copy, '=');
	colon = eq ? strrchr(eq + 1, ':') : NULL;
	if (!eq || eq == mp->copy || !colon || colon == eq + 1 || !colon[1]) {
		snprintf(err, len, "-e '%s': %s", TLOB_SHOWN(arg), EVENT_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	*eq = *colon = '\0';
	mp->event = mp->copy;
	mp->path = eq + 1;
	mp->place = colon + 1;
	return TLOB_SECTION_OK;
}

/* "a, b, c": the model's events, for a message. */
static const char *event_list(const struct model *m, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->nevents && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", m->events[i]);
	return buf;
}

/*
 * Every event of the model mapped once, every -e an event of the model:
 * map[e] is the index into mp of event e's -e.
 */
static int mapped(const struct model *m, const struct mapping *mp, size_t nmp, int *map,
		  char *err, size_t len)
{
	char list[512];

	for (size_t k = 0; k < nmp; k++) {
		int e;

		for (e = 0; e < m->nevents && strcmp(m->events[e], mp[k].event); e++)
			;
		if (e == m->nevents) {
			snprintf(err, len, "-e %s=...: the model %s has no event '%s' (its events: "
				 "%s)", mp[k].event, TLOB_SHOWN(m->file), mp[k].event,
				 event_list(m, list, sizeof(list)));
			return TLOB_SECTION_SYNTAX;
		}
		if (map[e] >= 0) {
			snprintf(err, len, "-e %s=...: event '%s' is mapped twice", mp[k].event,
				 mp[k].event);
			return TLOB_SECTION_SYNTAX;
		}
		map[e] = (int)k;
	}
	for (int e = 0; e < m->nevents; e++)
		if (map[e] < 0)
			return refuse(m->file, event_line(m, m->events[e]), err, len,
				      "event '%s' has no -e: map it to a symbol with -e "
				      "%s=PATH:SYMBOL", m->events[e], m->events[e]);
	return TLOB_SECTION_OK;
}

/*
 * Each event's offset and file: event 0's file is the binding's PATH
 * (spec->path), each other file one of the line's fileN= in the order the
 * events name them (up to TLOB_LOGIC_FILES_MAX in all); no two events at
 * one place of one file. Files are told apart by device and inode, so two
 * paths of one file (a link) are one file, named as its first event named
 * it (two probes at one place would make one call two events).
 */
static int places(const struct model *m, const struct mapping *mp, const int *map,
		  unsigned int flags, struct tlob_binding_spec *spec, char *err, size_t len)
{
	struct tlob_binding_spec *other = malloc(sizeof(*other));
	char (*paths)[PATH_MAX] = calloc(TLOB_LOGIC_FILES_MAX, PATH_MAX);
	const char *files[TLOB_LOGIC_FILES_MAX];
	struct stat st[TLOB_LOGIC_FILES_MAX], here;
	struct tlob_logic_table *t = &spec->table;
	unsigned int nfiles = 0, f;
	int ret = TLOB_SECTION_OK;

	if (!other || !paths) {
		free(other);
		free(paths);
		snprintf(err, len, "out of memory");
		return TLOB_SECTION_LOOKUP;
	}
	for (int e = 0; e < m->nevents && !ret; e++) {
		const struct mapping *p = &mp[map[e]];
		uint64_t off;

		ret = tlob_section_place(p->path, p->place, flags, e ? other : spec, &off, err,
					 len);
		if (ret)
			break;
		if (stat(e ? other->path : spec->path, &here)) {
			snprintf(err, len, "%s: %s", TLOB_SHOWN(e ? other->path : spec->path),
				 strerror(errno));
			ret = TLOB_SECTION_LOOKUP;
			break;
		}
		for (f = 0; f < nfiles && (st[f].st_dev != here.st_dev ||
					   st[f].st_ino != here.st_ino); f++)
			;
		if (f == TLOB_LOGIC_FILES_MAX) {
			snprintf(err, len, "the events of a model lie in at most %d files: '%s' "
				 "is in a %dth, %s", TLOB_LOGIC_FILES_MAX, m->events[e],
				 TLOB_LOGIC_FILES_MAX + 1, TLOB_SHOWN(other->path));
			ret = TLOB_SECTION_SYNTAX;
			break;
		}
		if (f == nfiles) {
			st[nfiles] = here;
			strcpy(paths[nfiles++], e ? other->path : spec->path);
		}
		for (int d = 0; d < e && !ret; d++) {
			if (t->offset[d] != off || t->file[d] != f)
				continue;
			snprintf(err, len, "events '%s' and '%s' are one place (0x%" PRIx64 ") of "
				 "%s: each event needs a probe of its own", m->events[d],
				 m->events[e], off, TLOB_SHOWN(paths[f]));
			ret = TLOB_SECTION_SYNTAX;
		}
		t->offset[e] = off;
		t->file[e] = (u8)f;
	}
	for (f = 0; f < nfiles; f++)
		files[f] = paths[f];
	if (!ret && tlob_spec_set_files(spec, files, nfiles)) {
		snprintf(err, len, "the paths of the model's files are too long together "
			 "(%d bytes at most)", PATH_MAX);
		ret = TLOB_SECTION_SYNTAX;
	}
	free(other);
	free(paths);
	return ret;
}

/* rvgen's validated model -> the `l` line's table (names, final states, next[][]). */
static void fill_table(const struct model *m, const char *name, struct tlob_logic_table *t)
{
	strcpy(t->model, name);
	t->nstates = (u8)m->nstates;
	t->nevents = (u8)m->nevents;
	t->initial = (u8)m->initial;
	memset(t->next, TLOB_LOGIC_NONE, sizeof(t->next));
	for (int s = 0; s < m->nstates; s++) {
		strcpy(t->state[s], m->states[s].name);
		if (m->states[s].final)
			t->final |= 1u << s;
		for (int e = 0; e < m->nevents; e++) {
			int next = model_cell(m, s, e)->next;

			if (next < 0)
				continue;
			t->next[s][e] = (u8)next;
			t->nedges++;
		}
	}
	for (int e = 0; e < m->nevents; e++)
		strcpy(t->event[e], m->events[e]);
}

/*
 * A guard's comparisons of the clock, joined by && (time_refused()), as
 * the table's lo <= clock < hi (hi 0: none): each narrows the interval.
 * rvgen bounds numbers to 2^62 - 1 ns, so N + 1 cannot overflow.
 */
static void guard_interval(const struct rv_transition *t, u64 *lo, u64 *hi)
{
	*lo = 0;
	*hi = 0;
	for (int k = 0; k < t->ncmp; k++) {
		u64 n = t->cmp[k].ns, l = 0, h = 0;

		switch (t->cmp[k].op) {
		case RV_LT:
			h = n;
			break;
		case RV_LE:
			h = n + 1;
			break;
		case RV_GT:
			l = n + 1;
			break;
		case RV_GE:
			l = n;
			break;
		case RV_EQ:
			l = n;
			h = n + 1;
			break;
		case RV_NE:	/* refused by time_refused() */
			break;
		}
		if (l > *lo)
			*lo = l;
		if (h && (!*hi || h < *hi))
			*hi = h;
	}
}

/*
 * The clock's part of the table: its name, each edge's reset and guard,
 * each state's invariant. A guard no clock value meets is refused here,
 * with its line.
 */
static int fill_clock(const struct model *m, struct tlob_logic_table *t, char *err, size_t len)
{
	if (!m->nenvs)
		return TLOB_SECTION_OK;
	strcpy(t->clock, m->envs[0].name);
	/*
	 * The table holds "clock < inv": '<=' N is '<' N + 1 (rvgen bounds an
	 * invariant's number to 2^62 - 1 ns, so no overflow; 'clk < 0' it
	 * refuses, so inv is never 0, which would read as none). Numbers
	 * only: time_refused().
	 */
	for (int s = 0; s < m->nstates; s++) {
		const struct rv_invariant *inv = &m->states[s].inv;

		if (inv->present)
			t->inv[s] = inv->ns + (inv->le ? 1 : 0);
	}
	for (int s = 0; s < m->nstates; s++)
		for (int e = 0; e < m->nevents; e++) {
			const struct rv_cell *c = model_cell(m, s, e);
			const struct rv_transition *tr;

			if (c->next < 0 || c->trans < 0)
				continue;
			tr = &m->trans[c->trans];
			if (c->reset >= 0)
				t->reset[s] |= (u16)(1u << e);
			guard_interval(tr, &t->lo[s][e], &t->hi[s][e]);
			if (t->hi[s][e] && t->lo[s][e] >= t->hi[s][e])
				return refuse(m->file, tr->line, err, len, "event '%s' has the "
					      "guard '%s', which no time meets", tr->event, tr->guard);
		}
	return TLOB_SECTION_OK;
}

/* --per, --tolerance, --tag: usage errors before the model is read. */
static int spec_terms(const struct tlob_logic_args *a, struct tlob_binding_spec *spec, char *err,
		      size_t len)
{
	if (a->per && strcmp(a->per, "process") && strcmp(a->per, "task")) {
		snprintf(err, len, "invalid --per '%s' (process or task)", TLOB_SHOWN(a->per));
		return TLOB_SECTION_SYNTAX;
	}
	spec->per = a->per && !strcmp(a->per, "task") ? TLOB_PER_TASK : TLOB_PER_PROCESS;
	if (a->tolerance) {
		char v[32];
		int ret = -EINVAL;

		/* The module's reading of it (kernel/shared/tlob_parse.c). */
		if (strlen(a->tolerance) < sizeof(v))
			ret = tlob_parse_tolerance(strcpy(v, a->tolerance), &spec->tol_k,
						   &spec->tol_w);
		if (ret) {
			snprintf(err, len, ret == -ERANGE ?
				 "--tolerance %s is out of range (K/W: 1 <= K <= W <= %d)" :
				 "--tolerance %s: expected K/W, K violations of the last W "
				 "instances (e.g. 3/10)", TLOB_SHOWN(a->tolerance),
				 TLOB_TOLERANCE_MAX);
			return TLOB_SECTION_SYNTAX;
		}
	}
	if (a->tag) {
		if (tlob_tag_check(a->tag, err, len))
			return TLOB_SECTION_SYNTAX;
		strcpy(spec->tag, a->tag);
	}
	return TLOB_SECTION_OK;
}

/* The line the module gets must fit one write (a page) and TLOB_LINE_MAX. */
static int line_fits(const struct tlob_binding_spec *spec, char *err, size_t len)
{
	char *line = malloc(LINE_BUF);
	size_t n;
	int ret;

	if (!line) {
		snprintf(err, len, "out of memory");
		return TLOB_SECTION_LOOKUP;
	}
	ret = tlob_monline_format(spec, line, LINE_BUF);
	n = ret ? LINE_BUF : strlen(line);
	free(line);
	if (ret == -EINVAL) {
		tlob_spec_check(spec, err, len);
		return TLOB_SECTION_SYNTAX;
	}
	if (n + 1 > TLOB_MONLINE_WRITE_MAX || n > TLOB_LINE_MAX) {
		snprintf(err, len, "the 'l' line of model %s is %s%zu bytes: a monitor line is at "
			 "most %d bytes and its newline (one page; TLOB_LINE_MAX is %d); shorten "
			 "the path or the model's names", spec->table.model, ret ? "over " : "",
			 n, TLOB_MONLINE_WRITE_MAX - 1, TLOB_LINE_MAX);
		return TLOB_SECTION_SYNTAX;
	}
	return TLOB_SECTION_OK;
}

int tlob_logic_build(const struct tlob_logic_args *a, unsigned int flags,
		     struct tlob_binding_spec *spec, char *err, size_t len)
{
	struct mapping *mp = calloc(a->nr_events + 1, sizeof(*mp));
	int map[RV_MAX_EVENTS + 1], ret = TLOB_SECTION_OK;
	char name[TLOB_LOGIC_NAME_MAX + 1];
	struct rv_error e = { 0 };
	struct model *m = NULL;

	memset(spec, 0, sizeof(*spec));
	if (!mp) {
		snprintf(err, len, "out of memory");
		return TLOB_SECTION_LOOKUP;
	}
	for (size_t k = 0; k < a->nr_events && !ret; k++)
		ret = split_event(a->events[k], &mp[k], err, len);
	if (!ret)
		ret = spec_terms(a, spec, err, len);
	if (!ret)
		ret = model_name(a->model, name, sizeof(name), err, len);
	if (!ret) {
		m = model_load(a->model, name, &e);
		if (!m)
			ret = located(&e, err, len);
	}
	if (!ret)
		ret = time_refused(m, err, len);
	if (!ret)
		ret = sizes(m, err, len);
	if (!ret && model_validate(m, &e))
		ret = located(&e, err, len);
	if (!ret)
		ret = name_lengths(m, err, len);
	if (!ret)
		ret = one_clock(m, err, len);
	if (!ret) {
		for (int i = 0; i <= RV_MAX_EVENTS; i++)
			map[i] = -1;
		ret = mapped(m, mp, a->nr_events, map, err, len);
	}
	if (!ret)
		ret = places(m, mp, map, flags, spec, err, len);
	if (!ret)
		fill_table(m, name, &spec->table);
	if (!ret)
		ret = fill_clock(m, &spec->table, err, len);
	if (!ret) {
		spec->logic = true;
		spec->start = spec->table.offset[0];
		ret = line_fits(spec, err, len);
	}
	model_free(m);
	for (size_t k = 0; k < a->nr_events; k++)
		free(mp[k].copy);
	free(mp);
	return ret;
}

bool tlob_logic_violation(const struct tlob_logic_record *r)
{
	return r->verdict == TLOB_VERDICT_ORDER || r->verdict == TLOB_VERDICT_INCOMPLETE ||
	       r->verdict == TLOB_VERDICT_TIMING;
}

int tlob_logic_text(const struct tlob_logic_record *r, const struct tlob_logic_names *n,
		    char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	/* An instance's quiet end (ok, aborted): JSON and the summary have it. */
	if (!tlob_logic_violation(r)) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	/* Upper case for what went wrong, as VIOLATION and ALIVE TOO FEW. */
	tlob_colour_left(&j, TLOB_COLOUR_BAD, r->verdict == TLOB_VERDICT_ORDER ? "LOGIC ORDER" :
			 r->verdict == TLOB_VERDICT_TIMING ? "LOGIC TIMING" : "LOGIC INCOMPLETE", 16);
	jstr(&j, " pid=");
	ju64(&j, r->pid);
	text_key(&j, "comm");
	text_str(&j, r->comm, sizeof(r->comm), "?");
	text_key(&j, "model");
	text_str(&j, n->model, sizeof(n->model), "?");
	if (r->tag[0]) {
		text_key(&j, "tag");
		text_str(&j, r->tag, sizeof(r->tag), "");
	}
	text_key(&j, "state");
	text_str(&j, n->state, sizeof(n->state), "?");
	if (r->verdict == TLOB_VERDICT_ORDER) {
		text_key(&j, "event");
		text_str(&j, n->event, sizeof(n->event), "?");
		jstr(&j, " (not allowed)");
	} else if (r->verdict == TLOB_VERDICT_TIMING && r->event == TLOB_LOGIC_NONE) {
		/*
		 * No event: the state held past its invariant, found by the
		 * module's timer (or by the next event, when that came first).
		 */
		text_key(&j, "clock");
		text_ns(&j, r->clock_ns);
		jstr(&j, " (past the state's invariant)");
	} else if (r->verdict == TLOB_VERDICT_TIMING) {
		text_key(&j, "event");
		text_str(&j, n->event, sizeof(n->event), "?");
		text_key(&j, "clock");
		text_ns(&j, r->clock_ns);
		jstr(&j, " (outside its guard)");
	} else {
		jstr(&j, " (");
		jstr(&j, tlob_abort_name(r->abort_reason));
		jc(&j, ')');
	}
	if (!r->react)
		jstr(&j, " (tolerated)");
	jc(&j, '\n');
	return jend(&j);
}

int tlob_logic_json(const struct tlob_logic_record *r, const struct tlob_logic_names *n,
		    char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	json_begin(&j, "logic");
	json_u64(&j, "binding_id", r->binding_id);
	json_u64(&j, "pid", r->pid);
	json_u64(&j, "tgid", r->tgid);
	json_str(&j, "comm", r->comm, sizeof(r->comm));
	json_str(&j, "model", n->model, sizeof(n->model));
	json_str(&j, "verdict", tlob_verdict_name(r->verdict), 32);
	json_str(&j, "state", n->state, sizeof(n->state));
	json_str(&j, "event", n->event, sizeof(n->event));
	json_u64(&j, "events", r->events);
	json_u64(&j, "clock_ns", r->clock_ns);
	json_u64(&j, "start_ns", r->start_ns);
	json_u64(&j, "end_ns", r->end_ns);
	json_bool(&j, "react", r->react);
	json_str(&j, "abort", tlob_abort_name(r->abort_reason), 32);
	json_str(&j, "tag", r->tag, sizeof(r->tag));
	return json_end(&j);
}

static const char *per_name(const struct tlob_binding_spec *s)
{
	return s->per == TLOB_PER_TASK ? "task" : "process";
}

/* The terms of a logical binding's objects. */
static void json_logic_terms(struct jbuf *j, const struct tlob_binding_spec *s)
{
	tlob_json_binding_head(j, s);
	json_str(j, "tag", s->tag, sizeof(s->tag));
	json_str(j, "kind", "logic", 5);
	json_str(j, "model", s->table.model, sizeof(s->table.model));
	json_str(j, "per", per_name(s), 8);
	json_u64(j, "tolerance_k", tlob_spec_tol_k(s));
	json_u64(j, "tolerance_w", tlob_spec_tol_w(s));
}

int tlob_logic_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len)
{
	return tlob_kind_spec_json(s, json_logic_terms, buf, len);
}

int tlob_logic_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	const struct tlob_logic_stats *l = &st->logic;

	json_begin(&j, "stats");
	json_logic_terms(&j, &st->spec);
	json_u64(&j, "instances", l->instances);
	json_u64(&j, "events", l->events);
	json_u64(&j, "completed", l->completed);
	json_u64(&j, "order", l->order);
	json_u64(&j, "incomplete", l->incomplete);
	json_u64(&j, "timing", l->timing);
	json_u64(&j, "tolerated", l->tolerated);
	json_u64(&j, "aborted", l->aborted);
	json_u64(&j, "dropped", l->dropped);
	return json_end(&j);
}

void tlob_logic_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros)
{
	const struct tlob_logic_stats *l = &st->logic;

	(void)with_zeros;	/* no histogram: a model's binding counts instances */
	fprintf(f, "binding %u: logic %s:0x%" PRIx64 " model=%.*s per %s%s%.*s\n", st->spec.id,
		st->spec.path, st->spec.start, (int)sizeof(st->spec.table.model),
		st->spec.table.model, per_name(&st->spec), st->spec.tag[0] ? " tag=" : "",
		(int)sizeof(st->spec.tag), st->spec.tag);
	/* struct tlob_logic_stats is __u64: unsigned long long */
	fprintf(f, "  instances=%llu events=%llu completed=%llu order=%llu incomplete=%llu "
		"timing=%llu aborted=%llu dropped=%llu", l->instances, l->events, l->completed,
		l->order, l->incomplete, l->timing, l->aborted, l->dropped);
	/* As an alive binding's: a binding with a tolerance holds violations back. */
	if (st->spec.tol_w > 1 || l->tolerated)
		fprintf(f, " tolerated=%llu (tolerance %u/%u)", l->tolerated,
			tlob_spec_tol_k(&st->spec), tlob_spec_tol_w(&st->spec));
	fputc('\n', f);
}
