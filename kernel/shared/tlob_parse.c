// SPDX-License-Identifier: GPL-2.0
/* The monitor file's line parser; the syntax is in tlob_parse.h. */
#include "tlob_parse.h"
#include "tlob_logic.h"

/* Refuse the line with @err, noting why and where for the tool. */
static int tlob_refuse(struct tlob_req *req, int err, enum tlob_parse_why why,
		       const char *bad)
{
	req->why = why;
	req->bad = bad;
	return err;
}

static bool tlob_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Next whitespace-separated token of *@s (NUL-terminated), or NULL. */
static char *tlob_token(char **s)
{
	char *p = *s, *tok;

	while (tlob_blank(*p))
		p++;
	if (!*p) {
		*s = p;
		return NULL;
	}
	tok = p;
	while (*p && !tlob_blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return tok;
}

/* A hex number's "0x" or "0X". */
static bool tlob_hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/*
 * A number into *@out: decimal digits (@base 10) or "0x" and hex digits
 * (@base 16), nothing else (kstrto*() alone would also take a sign, a hex
 * number without its "0x" and a trailing newline): -EINVAL when @s is
 * anything else, -ERANGE above @max.
 */
static int tlob_digits(const char *s, unsigned int base, u64 max, u64 *out)
{
	const char *p = s;
	int ret;

	if (base == 16) {
		if (!tlob_hex_prefix(p))
			return -EINVAL;
		p += 2;
	}
	if (!*p)
		return -EINVAL;
	for (; *p; p++)
		if (!(*p >= '0' && *p <= '9') &&
		    !(base == 16 && ((*p >= 'a' && *p <= 'f') ||
				     (*p >= 'A' && *p <= 'F'))))
			return -EINVAL;
	ret = kstrtoull(s, base, out);
	if (ret)
		return ret;
	return *out > max ? -ERANGE : 0;
}

/* A file offset: decimal or 0x, nothing else (no sign, no suffix, no octal). */
int tlob_parse_offset(const char *s, u64 *off)
{
	return tlob_digits(s, tlob_hex_prefix(s) ? 16 : 10, (u64)LLONG_MAX, off) ?
	       -EINVAL : 0;
}

/*
 * "PATH:OFFSET", split at the last ':'; PATH must be absolute and hold
 * only what a line can carry (tlob_path_char_ok(): no control byte, which
 * the blanks between tokens already are not), so a hand-written line
 * cannot name a file the tool could never show or bind.
 */
static int tlob_path_offset(char *tok, struct tlob_req *req)
{
	char *colon = strrchr(tok, ':'), *p;

	if (!colon || tok[0] != '/' || colon - tok >= PATH_MAX)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_PATH, tok);
	for (p = tok; p < colon; p++)
		if (!tlob_path_char_ok(*p))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_PATH_CHAR, tok);
	*colon = '\0';
	req->path = tok;
	if (tlob_parse_offset(colon + 1, &req->start))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_START, colon + 1);
	return 0;
}

bool tlob_tag_ok(const char *v)
{
	size_t i, len = strlen(v);

	if (!len || len >= TLOB_TAG_LEN || !strcmp(v, TLOB_TAG_NONE))
		return false;
	for (i = 0; i < len; i++)
		if (!tlob_tag_char_ok(v[i]))
			return false;
	return true;
}

static int tlob_tag(const char *v, struct tlob_req *req)
{
	if (!tlob_tag_ok(v))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_TAG, v);
	memcpy(req->tag, v, strlen(v) + 1);
	return 0;
}

static int tlob_filter_opt(const char *v, enum tlob_filter f,
			   struct tlob_req *req)
{
	u64 id;

	if (req->filter != TLOB_FILTER_NONE ||
	    tlob_digits(v, 10, INT_MAX, &id) || !id)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_FILTER, v);
	req->filter = f;
	req->filter_id = id;
	return 0;
}

/*
 * A decimal number of ns into *@out: @bad when it is not one, @range when
 * it overflows u64 (a key given twice is refused before: tlob_options()).
 */
static int tlob_decimal(const char *v, u64 *out, enum tlob_parse_why bad,
			enum tlob_parse_why range, struct tlob_req *req)
{
	int ret = tlob_digits(v, 10, ~0ULL, out);

	if (ret == -ERANGE)
		return tlob_refuse(req, -ERANGE, range, v);
	if (ret)
		return tlob_refuse(req, -EINVAL, bad, v);
	return 0;
}

static int tlob_threshold(const char *v, struct tlob_req *req)
{
	int ret = tlob_decimal(v, &req->budget_ns, TLOB_WHY_THRESHOLD,
			       TLOB_WHY_RANGE, req);

	if (ret)
		return ret;
	if (req->budget_ns < TLOB_BUDGET_MIN_NS ||
	    req->budget_ns > TLOB_BUDGET_MAX_NS)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_RANGE, v);
	return 0;
}

/*
 * min=NS: the section's minimum, 0 < min < threshold (checked once both
 * are read, whatever their order).
 */
static int tlob_min(const char *v, struct tlob_req *req)
{
	int ret = tlob_decimal(v, &req->min_ns, TLOB_WHY_MIN,
			       TLOB_WHY_MIN_RANGE, req);

	if (ret)
		return ret;
	if (!req->min_ns)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_MIN_RANGE, v);
	return 0;
}

int tlob_parse_tolerance(char *v, u8 *kp, u8 *wp)
{
	char *slash = strchr(v, '/');
	int rk, rw;
	u64 k, w;

	if (!slash)
		return -EINVAL;
	*slash = '\0';
	rk = tlob_digits(v, 10, ~0ULL, &k);
	rw = tlob_digits(slash + 1, 10, ~0ULL, &w);
	*slash = '/';
	if (rk == -EINVAL || rw == -EINVAL)
		return -EINVAL;
	if (rk || rw || !k || k > w || w > TLOB_TOLERANCE_MAX)
		return -ERANGE;
	*kp = k;
	*wp = w;
	return 0;
}

static int tlob_tolerance(char *v, struct tlob_req *req)
{
	int ret = tlob_parse_tolerance(v, &req->tol_k, &req->tol_w);

	if (ret)
		return tlob_refuse(req, ret, ret == -ERANGE ?
				   TLOB_WHY_TOLERANCE_RANGE : TLOB_WHY_TOLERANCE, v);
	return 0;
}

/* period=NS of an `a` line: TLOB_PERIOD_MIN_NS .. TLOB_BUDGET_MAX_NS. */
static int tlob_period(const char *v, struct tlob_req *req)
{
	int ret = tlob_decimal(v, &req->period_ns, TLOB_WHY_PERIOD,
			       TLOB_WHY_PERIOD_RANGE, req);

	if (ret)
		return ret;
	if (req->period_ns < TLOB_PERIOD_MIN_NS ||
	    req->period_ns > TLOB_BUDGET_MAX_NS)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_PERIOD_RANGE, v);
	return 0;
}

/* A count of checkpoints, 0 .. TLOB_EXPECT_MAX, in decimal. */
static int tlob_count(const char *v, u32 *out)
{
	u64 n;

	if (tlob_digits(v, 10, TLOB_EXPECT_MAX, &n))
		return -EINVAL;
	*out = n;
	return 0;
}

static int tlob_per_opt(const char *v, struct tlob_req *req)
{
	if (!strcmp(v, "process"))
		req->per = TLOB_PER_PROCESS;
	else if (!strcmp(v, "task"))
		req->per = TLOB_PER_TASK;
	else
		return tlob_refuse(req, -EINVAL, TLOB_WHY_PER, v);
	return 0;
}

/* The options of the three verbs; each once. */
enum tlob_opt {
	TLOB_OPT_THRESHOLD,
	TLOB_OPT_MIN,
	TLOB_OPT_TOLERANCE,
	TLOB_OPT_TAG,
	TLOB_OPT_PID,
	TLOB_OPT_TGID,
	TLOB_OPT_PERIOD,
	TLOB_OPT_EXPECT,
	TLOB_OPT_MARGIN,
	TLOB_OPT_PER,
	/* An `l` line's table: read once the line's every key is known. */
	TLOB_OPT_MODEL,
	TLOB_OPT_STATES,
	TLOB_OPT_EVENTS,
	TLOB_OPT_EDGES,
	TLOB_OPT_FINAL,
	TLOB_OPT_INITIAL,
	TLOB_OPT_CLOCK,
	TLOB_OPT_INV,
	TLOB_OPT_FILE1,		/* .. TLOB_OPT_FILE1 + TLOB_LOGIC_FILES_MAX - 2 */
	TLOB_OPT_FILE2,
	TLOB_OPT_FILE3,
	TLOB_OPT_MAX,
};

static const struct {
	const char *key;
	bool section;		/* on `p` lines */
	bool alive;		/* on `a` lines */
	bool logic;		/* on `l` lines */
} tlob_opts[TLOB_OPT_MAX] = {
	[TLOB_OPT_THRESHOLD] = { "threshold", true, false, false },
	[TLOB_OPT_MIN] = { "min", true, false, false },
	[TLOB_OPT_TOLERANCE] = { "tolerance", true, true, true },
	[TLOB_OPT_TAG] = { "tag", true, true, true },
	[TLOB_OPT_PID] = { "pid", true, true, true },
	[TLOB_OPT_TGID] = { "tgid", true, true, true },
	[TLOB_OPT_PERIOD] = { "period", false, true, false },
	[TLOB_OPT_EXPECT] = { "expect", false, true, false },
	[TLOB_OPT_MARGIN] = { "margin", false, true, false },
	[TLOB_OPT_PER] = { "per", false, true, true },
	[TLOB_OPT_MODEL] = { "model", false, false, true },
	[TLOB_OPT_STATES] = { "states", false, false, true },
	[TLOB_OPT_EVENTS] = { "events", false, false, true },
	[TLOB_OPT_EDGES] = { "edges", false, false, true },
	[TLOB_OPT_FINAL] = { "final", false, false, true },
	[TLOB_OPT_INITIAL] = { "initial", false, false, true },
	[TLOB_OPT_CLOCK] = { "clock", false, false, true },
	[TLOB_OPT_INV] = { "inv", false, false, true },
	[TLOB_OPT_FILE1] = { "file1", false, false, true },
	[TLOB_OPT_FILE2] = { "file2", false, false, true },
	[TLOB_OPT_FILE3] = { "file3", false, false, true },
};

static_assert(TLOB_OPT_FILE3 - TLOB_OPT_FILE1 + 2 == TLOB_LOGIC_FILES_MAX,
	      "one fileN= option per file beyond PATH");

/* Which option @key is on this line's verb; TLOB_OPT_MAX: none. */
static enum tlob_opt tlob_opt_of(const char *key, const struct tlob_req *req)
{
	unsigned int i;
	bool on;

	for (i = 0; i < TLOB_OPT_MAX; i++) {
		if (strcmp(key, tlob_opts[i].key))
			continue;
		on = req->logic ? tlob_opts[i].logic :
		     req->alive ? tlob_opts[i].alive : tlob_opts[i].section;
		return on ? i : TLOB_OPT_MAX;
	}
	return TLOB_OPT_MAX;
}

/* One option's value into @req. */
static int tlob_option(enum tlob_opt opt, char *v, struct tlob_req *req)
{
	switch (opt) {
	case TLOB_OPT_THRESHOLD:
		return tlob_threshold(v, req);
	case TLOB_OPT_MIN:
		return tlob_min(v, req);
	case TLOB_OPT_TOLERANCE:
		return tlob_tolerance(v, req);
	case TLOB_OPT_TAG:
		return tlob_tag(v, req);
	case TLOB_OPT_PID:
		return tlob_filter_opt(v, TLOB_FILTER_PID, req);
	case TLOB_OPT_TGID:
		return tlob_filter_opt(v, TLOB_FILTER_TGID, req);
	case TLOB_OPT_PERIOD:
		return tlob_period(v, req);
	case TLOB_OPT_EXPECT:
		if (tlob_count(v, &req->expect) || !req->expect)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_EXPECT, v);
		return 0;
	case TLOB_OPT_MARGIN:
		if (tlob_count(v, &req->margin))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_MARGIN, v);
		return 0;
	case TLOB_OPT_PER:
		return tlob_per_opt(v, req);
	case TLOB_OPT_MODEL:
	case TLOB_OPT_STATES:
	case TLOB_OPT_EVENTS:
	case TLOB_OPT_EDGES:
	case TLOB_OPT_FINAL:
	case TLOB_OPT_INITIAL:
	case TLOB_OPT_CLOCK:
	case TLOB_OPT_INV:
	case TLOB_OPT_FILE1:
	case TLOB_OPT_FILE2:
	case TLOB_OPT_FILE3:
		/* edges= needs states= and events=: tlob_logic_opts() */
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * `l` lines: the table, key by key in the order of its text (each needs
 * the ones before it), into req->table, then tlob_logic_check().
 */

/* Refuse an `l` line for one of the table's rules (tlob_logic.h). */
static int tlob_logic_refuse(struct tlob_req *req, int err,
			     enum tlob_logic_rule rule, unsigned int at,
			     const char *bad)
{
	req->logic_rule = rule;
	req->logic_at = at;
	return tlob_refuse(req, err, TLOB_WHY_LOGIC_TABLE, bad);
}

/* The elements of a list: its length (a ',' more than it has). */
static unsigned int tlob_list_len(const char *v)
{
	unsigned int n = 1;

	while ((v = strchr(v, ','))) {
		v++;
		n++;
	}
	return n;
}

/* The next element of the list at *@s, NUL-terminated; NULL at its end. */
static char *tlob_list_next(char **s)
{
	char *e = *s, *comma;

	if (!e)
		return NULL;
	comma = strchr(e, ',');
	if (comma)
		*comma++ = '\0';
	*s = comma;
	return e;
}

/*
 * A decimal index at *@s ended by @end, moved past: false when there is
 * none. Above any index (a few digits) it stays at 1000: out of range.
 */
static bool tlob_logic_num(const char **s, char end, unsigned int *out)
{
	const char *p = *s;
	unsigned int v = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v >= 1000 ? 1000 : v * 10 + (*p - '0');
	if (*p != end)
		return false;
	*s = end ? p + 1 : p;
	*out = v;
	return true;
}

/* A name of the model (model=, a state, an event) into @dst. */
static int tlob_logic_name(const char *v, size_t len, char *dst,
			   struct tlob_req *req)
{
	if (!tlob_logic_name_ok(v, len))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_NAME, v);
	memcpy(dst, v, len);
	dst[len] = '\0';
	return 0;
}

/* states=S0,S1,..: the states by index. */
static int tlob_logic_states(char *v, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	unsigned int n = tlob_list_len(v);
	char *e;
	int ret;

	if (n > TLOB_LOGIC_STATES_MAX)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_LOGIC_RANGE, v);
	while ((e = tlob_list_next(&v))) {
		if (!*e)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		ret = tlob_logic_name(e, strlen(e), t->state[t->nstates], req);
		if (ret)
			return ret;
		t->nstates++;
	}
	return 0;
}

/*
 * events=E0@OFF,E1@N:OFF,..: the events by index, each at its offset of
 * PATH, or of the line's fileN= (N 1..TLOB_LOGIC_FILES_MAX - 1; that the
 * file was given is tlob_logic_check()'s rule, through nfiles).
 */
static int tlob_logic_events(char *v, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	unsigned int n = tlob_list_len(v), file;
	const char *p;
	char *e, *at;
	int ret;

	if (n > TLOB_LOGIC_EVENTS_MAX)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_LOGIC_RANGE, v);
	while ((e = tlob_list_next(&v))) {
		at = strchr(e, '@');
		if (!*e || !at)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		ret = tlob_logic_name(e, at - e, t->event[t->nevents], req);
		if (ret)
			return ret;
		p = at + 1;
		file = 0;
		if (strchr(p, ':') &&
		    (!tlob_logic_num(&p, ':', &file) ||
		     !file || file >= TLOB_LOGIC_FILES_MAX))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		if (tlob_parse_offset(p, &t->offset[t->nevents]))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		t->file[t->nevents] = file;
		t->nevents++;
	}
	return 0;
}

/*
 * A decimal count of ns at *@s ended by @end, moved past: false when
 * there is none or it overflows u64.
 */
static bool tlob_logic_ns(const char **s, char end, u64 *out)
{
	const char *p = *s;
	u64 v = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (~0ULL - (*p - '0')) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	if (*p != end)
		return false;
	*s = end ? p + 1 : p;
	*out = v;
	return true;
}

/*
 * An edge's timing after its F.E.T: ".r" (it resets the clock), then
 * ".gLO-HI" or ".gLO-" (its guard: LO <= clock < HI, or no HI); either
 * may be missing, neither repeated, and a guard bounds something (not
 * ".g0-"). An HI of 0 is malformed, not "no bound": read as written,
 * clock < 0 could never hold. False when malformed.
 */
static bool tlob_logic_edge_clock(const char *p, struct tlob_logic_table *t,
				  unsigned int from, unsigned int ev)
{
	if (p[0] == 'r' && (p[1] == '\0' || p[1] == '.')) {
		t->reset[from] |= 1U << ev;
		if (!p[1])
			return true;
		p += 2;
	}
	if (*p++ != 'g' ||
	    !tlob_logic_ns(&p, '-', &t->lo[from][ev]))
		return false;
	/* no HI: no upper bound (0) */
	if (*p && (!tlob_logic_ns(&p, '\0', &t->hi[from][ev]) ||
		   !t->hi[from][ev]))
		return false;
	return t->lo[from][ev] || t->hi[from][ev];
}

/*
 * edges=F.E.T[.r][.gLO-[HI]],..: next[F][E] = T, once per (F,E) (a second
 * edge, even to the same T, would make the model nondeterministic), and
 * the edge's reset and guard of the clock.
 */
static int tlob_logic_edges(char *v, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	unsigned int from, ev, to;
	const char *p;
	char *e;

	if (tlob_list_len(v) > (unsigned int)t->nstates * t->nevents)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_LOGIC_RANGE, v);
	while ((e = tlob_list_next(&v))) {
		const char *rest;

		p = e;
		if (!tlob_logic_num(&p, '.', &from) ||
		    !tlob_logic_num(&p, '.', &ev))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		rest = strchr(p, '.');
		if (!tlob_logic_num(&p, rest ? '.' : '\0', &to) ||
		    (rest && !*p))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		if (from >= t->nstates || ev >= t->nevents || to >= t->nstates)
			return tlob_logic_refuse(req, -EINVAL,
						 TLOB_LOGIC_RULE_EDGE, 0, e);
		if (t->next[from][ev] != TLOB_LOGIC_NONE)
			return tlob_logic_refuse(req, -EINVAL,
						 TLOB_LOGIC_RULE_NONDET, from, e);
		if (rest && !tlob_logic_edge_clock(p, t, from, ev))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		t->next[from][ev] = to;
		t->nedges++;
	}
	return 0;
}

/* final=I,J..: the final states, each once. */
static int tlob_logic_final(char *v, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	unsigned int s;
	const char *p;
	char *e;

	while ((e = tlob_list_next(&v))) {
		p = e;
		if (!tlob_logic_num(&p, '\0', &s))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		if (s >= t->nstates || (t->final & (1U << s)))
			return tlob_logic_refuse(req, -EINVAL,
						 TLOB_LOGIC_RULE_FINAL, 0, e);
		t->final |= 1U << s;
	}
	return 0;
}

/*
 * inv=S.HI,..: state S may be held while the clock reads less than HI ns
 * (HI > 0: clock < 0 could never hold), once per state.
 */
static int tlob_logic_inv(char *v, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	unsigned int s;
	const char *p;
	char *e;
	u64 hi;

	if (tlob_list_len(v) > t->nstates)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_LOGIC_RANGE, v);
	while ((e = tlob_list_next(&v))) {
		p = e;
		if (!tlob_logic_num(&p, '.', &s) ||
		    !tlob_logic_ns(&p, '\0', &hi) || !hi)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		if (s >= t->nstates)
			return tlob_logic_refuse(req, -EINVAL,
						 TLOB_LOGIC_RULE_INVARIANT, 0, e);
		if (t->inv[s])
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, e);
		t->inv[s] = hi;
	}
	return 0;
}

/* initial=I (default 0). */
static int tlob_logic_initial(const char *v, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	const char *p = v;
	unsigned int s;

	if (!tlob_logic_num(&p, '\0', &s))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_LIST, v);
	if (s >= t->nstates)
		return tlob_logic_refuse(req, -EINVAL, TLOB_LOGIC_RULE_INITIAL,
					 0, v);
	t->initial = s;
	return 0;
}

/*
 * An `l` line's file, its PATH or a fileN=: absolute, what a line can
 * carry, and whole (no :OFFSET: the offsets are the events'). Returns
 * TLOB_WHY_NONE, or why not.
 */
static enum tlob_parse_why tlob_logic_path_why(const char *path)
{
	const char *p;

	if (path[0] != '/' || strlen(path) >= PATH_MAX)
		return TLOB_WHY_PATH;
	for (p = path; *p; p++)
		if (!tlob_path_char_ok(*p))
			return TLOB_WHY_PATH_CHAR;
	return TLOB_WHY_NONE;
}

/*
 * file1= .. file3=: the files beyond PATH that events lie in, into
 * req->files[] and nfiles. Each is a file of its own (no two the same
 * path, none PATH itself) and they are numbered without a gap, so that
 * one set of files has one line.
 */
static int tlob_logic_files(char **vals, struct tlob_req *req)
{
	unsigned int f, g;
	char *v;

	req->files[0] = req->path;
	req->table->nfiles = 1;
	for (f = 1; f < TLOB_LOGIC_FILES_MAX; f++) {
		v = vals[TLOB_OPT_FILE1 + f - 1];
		if (!v)
			continue;
		if (tlob_logic_path_why(v) != TLOB_WHY_NONE ||
		    req->table->nfiles != f)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_FILE, v);
		for (g = 0; g < f; g++)
			if (!strcmp(req->files[g], v))
				return tlob_refuse(req, -EINVAL,
						   TLOB_WHY_LOGIC_FILE, v);
		req->files[f] = v;
		req->table->nfiles = f + 1;
	}
	return 0;
}

/*
 * The table of an `l` line from its keys' values @vals (each given once,
 * tlob_options()), then the rules no one key shows (tlob_logic_check()).
 * START, the binding's key, is event 0's offset.
 */
static int tlob_logic_opts(char **vals, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	enum tlob_logic_rule rule;
	unsigned int at;
	int ret;

	if (!vals[TLOB_OPT_MODEL] || !vals[TLOB_OPT_STATES] ||
	    !vals[TLOB_OPT_EVENTS] || !vals[TLOB_OPT_EDGES] ||
	    !vals[TLOB_OPT_FINAL])
		return tlob_refuse(req, -EINVAL, TLOB_WHY_LOGIC_MISSING, NULL);
	ret = tlob_logic_files(vals, req);
	if (!ret)
		ret = tlob_logic_name(vals[TLOB_OPT_MODEL],
				      strlen(vals[TLOB_OPT_MODEL]), t->model, req);
	if (!ret)
		ret = tlob_logic_states(vals[TLOB_OPT_STATES], req);
	if (!ret)
		ret = tlob_logic_events(vals[TLOB_OPT_EVENTS], req);
	if (!ret)
		ret = tlob_logic_edges(vals[TLOB_OPT_EDGES], req);
	if (!ret)
		ret = tlob_logic_final(vals[TLOB_OPT_FINAL], req);
	if (!ret && vals[TLOB_OPT_INITIAL])
		ret = tlob_logic_initial(vals[TLOB_OPT_INITIAL], req);
	if (!ret && vals[TLOB_OPT_CLOCK])
		ret = tlob_logic_name(vals[TLOB_OPT_CLOCK],
				      strlen(vals[TLOB_OPT_CLOCK]), t->clock, req);
	if (!ret && vals[TLOB_OPT_INV])
		ret = tlob_logic_inv(vals[TLOB_OPT_INV], req);
	if (ret)
		return ret;
	ret = tlob_logic_check(t, &rule, &at);
	if (ret)
		return tlob_logic_refuse(req, ret, rule, at, NULL);
	req->start = t->offset[0];
	return 0;
}

/*
 * key=value options after STOP (`p`: threshold= required), after
 * PATH:CHECKPOINT (`a`: period= and expect= required) or after PATH
 * (`l`: model=, states=, events=, edges= and final= required); a key the
 * verb does not take, or a key given twice, is TLOB_WHY_OPTION.
 */
static int tlob_options(char *rest, struct tlob_req *req)
{
	char *vals[TLOB_OPT_MAX] = { NULL };
	enum tlob_opt opt;
	char *tok, *v;
	int ret;

	while ((tok = tlob_token(&rest))) {
		v = strchr(tok, '=');
		if (!v)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_OPTION, tok);
		*v++ = '\0';
		opt = tlob_opt_of(tok, req);
		if (opt == TLOB_OPT_MAX || vals[opt])
			return tlob_refuse(req, -EINVAL, TLOB_WHY_OPTION, tok);
		vals[opt] = v;
		ret = tlob_option(opt, v, req);
		if (ret)
			return ret;
	}
	if (!vals[TLOB_OPT_TOLERANCE]) {
		req->tol_k = 1;
		req->tol_w = 1;
	}
	if (req->logic)
		return tlob_logic_opts(vals, req);
	if (req->alive) {
		if (!req->period_ns)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_NO_PERIOD, NULL);
		if (!req->expect)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_NO_EXPECT, NULL);
		if (req->margin > req->expect)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_MARGIN,
					   vals[TLOB_OPT_MARGIN]);
		return 0;
	}
	if (!req->budget_ns)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_NO_THRESHOLD, NULL);
	if (req->min_ns >= req->budget_ns)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_MIN_RANGE,
				   vals[TLOB_OPT_MIN]);
	return 0;
}

/*
 * An `l` line's PATH (tlob_logic_path_why()). Its table starts empty,
 * with no edge anywhere, so two lines of one table are one table byte
 * for byte.
 */
static int tlob_logic_path(char *tok, struct tlob_req *req)
{
	struct tlob_logic_table *t = req->table;
	enum tlob_parse_why why = tlob_logic_path_why(tok);

	memset(t, 0, sizeof(*t));
	memset(t->next, TLOB_LOGIC_NONE, sizeof(t->next));
	if (why != TLOB_WHY_NONE)
		return tlob_refuse(req, -EINVAL, why, tok);
	req->path = tok;
	return 0;
}

int tlob_parse_line(char *line, struct tlob_req *req)
{
	struct tlob_logic_table *table = req->table;
	char *rest = line, *tok;

	memset(req, 0, sizeof(*req));
	req->table = table;
	if (strlen(line) > TLOB_LINE_MAX)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_TOO_LONG, NULL);
	tok = tlob_token(&rest);
	if (!tok)
		return 1;
	if (tok[0] == '-') {
		req->remove = true;
		if (tlob_path_offset(tok + 1, req))
			return -EINVAL;
		tok = tlob_token(&rest);
		if (tok)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_TRAILING, tok);
		return 0;
	}
	if (!strcmp(tok, "a"))
		req->alive = true;
	else if (!strcmp(tok, "l") && req->table)
		req->logic = true;
	else if (strcmp(tok, "p"))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_VERB, tok);
	tok = tlob_token(&rest);
	if (!tok)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_PATH, NULL);
	if (req->logic) {
		if (tlob_logic_path(tok, req))
			return -EINVAL;
		return tlob_options(rest, req);
	}
	if (tlob_path_offset(tok, req))
		return -EINVAL;
	if (req->alive)
		return tlob_options(rest, req);
	tok = tlob_token(&rest);
	if (!tok || strchr(tok, '='))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_NO_STOP, tok);
	if (!strcmp(tok, "ret"))
		req->stop_ret = true;
	else if (tlob_parse_offset(tok, &req->stop))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_STOP, tok);
	else if (req->stop == req->start)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_SAME, tok);
	return tlob_options(rest, req);
}

/* The canonical text being written: snprintf() semantics over many calls. */
struct tlob_fmt {
	char *buf;
	size_t size;
	size_t n;		/* length needed so far */
};

static __printf(2, 3) void tlob_fmt(struct tlob_fmt *f, const char *fmt, ...)
{
	size_t at = f->n < f->size ? f->n : f->size;
	va_list ap;

	va_start(ap, fmt);
	f->n += vsnprintf(f->buf ? f->buf + at : NULL, f->size - at, fmt, ap);
	va_end(ap);
}

int tlob_logic_format(const struct tlob_logic_table *t,
		      const char *const *files, char *buf, size_t size)
{
	struct tlob_fmt f = { buf, size, 0 };
	const char *sep = "";
	unsigned int s, e;

	tlob_fmt(&f, "model=%s states=", t->model);
	for (s = 0; s < t->nstates; s++)
		tlob_fmt(&f, "%s%s", s ? "," : "", t->state[s]);
	tlob_fmt(&f, " events=");
	for (e = 0; e < t->nevents; e++) {
		tlob_fmt(&f, "%s%s@", e ? "," : "", t->event[e]);
		if (t->file[e])
			tlob_fmt(&f, "%u:", t->file[e]);
		tlob_fmt(&f, "0x%llx", (unsigned long long)t->offset[e]);
	}
	tlob_fmt(&f, " edges=");
	for (s = 0; s < t->nstates; s++)
		for (e = 0; e < t->nevents; e++) {
			if (t->next[s][e] == TLOB_LOGIC_NONE)
				continue;
			tlob_fmt(&f, "%s%u.%u.%u", sep, s, e, t->next[s][e]);
			if (t->reset[s] & (1U << e))
				tlob_fmt(&f, ".r");
			if (t->lo[s][e] || t->hi[s][e])
				tlob_fmt(&f, ".g%llu-",
					 (unsigned long long)t->lo[s][e]);
			if (t->hi[s][e])
				tlob_fmt(&f, "%llu",
					 (unsigned long long)t->hi[s][e]);
			sep = ",";
		}
	tlob_fmt(&f, " final=");
	sep = "";
	for (s = 0; s < t->nstates; s++) {
		if (!(t->final & (1U << s)))
			continue;
		tlob_fmt(&f, "%s%u", sep, s);
		sep = ",";
	}
	tlob_fmt(&f, " initial=%u", t->initial);
	if (t->clock[0])
		tlob_fmt(&f, " clock=%s", t->clock);
	sep = " inv=";
	for (s = 0; s < t->nstates; s++) {
		if (!t->inv[s])
			continue;
		tlob_fmt(&f, "%s%u.%llu", sep, s, (unsigned long long)t->inv[s]);
		sep = ",";
	}
	for (s = 1; s < t->nfiles && files; s++)
		tlob_fmt(&f, " file%u=%s", s, files[s]);
	return f.n;
}
