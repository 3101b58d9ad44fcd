// SPDX-License-Identifier: GPL-2.0
/* The monitor file's line parser; the syntax is in tlob_parse.h. */
#include "tlob_parse.h"

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

/* A file offset: decimal or 0x, nothing else (no sign, no suffix). */
static int tlob_offset(const char *s, u64 *off)
{
	if (*s < '0' || *s > '9')
		return -EINVAL;
	if (kstrtoull(s, 0, off) || *off > (u64)LLONG_MAX)
		return -EINVAL;
	return 0;
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
	if (tlob_offset(colon + 1, &req->start))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_START, colon + 1);
	return 0;
}

static int tlob_tag(const char *v, struct tlob_req *req)
{
	size_t i, len = strlen(v);

	if (!len || len >= TLOB_TAG_LEN)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_TAG, v);
	for (i = 0; i < len; i++)
		if (!tlob_tag_char_ok(v[i]))
			return tlob_refuse(req, -EINVAL, TLOB_WHY_TAG, v);
	memcpy(req->tag, v, len + 1);
	return 0;
}

static int tlob_filter_opt(const char *v, enum tlob_filter f,
			   struct tlob_req *req)
{
	u32 id;

	if (req->filter != TLOB_FILTER_NONE ||
	    *v < '0' || *v > '9' || kstrtou32(v, 10, &id) || !id ||
	    id > (u32)INT_MAX)
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
	int ret;

	if (*v < '0' || *v > '9')
		return tlob_refuse(req, -EINVAL, bad, v);
	ret = kstrtoull(v, 10, out);
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
	u32 k, w;

	if (!slash || *v < '0' || *v > '9' || slash[1] < '0' || slash[1] > '9')
		return -EINVAL;
	*slash = '\0';
	rk = kstrtou32(v, 10, &k);
	rw = kstrtou32(slash + 1, 10, &w);
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
	if (*v < '0' || *v > '9' || kstrtou32(v, 10, out) ||
	    *out > TLOB_EXPECT_MAX)
		return -EINVAL;
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

/* The options of both verbs; each once. */
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
	TLOB_OPT_MAX,
};

static const struct {
	const char *key;
	bool section;		/* on `p` lines */
	bool alive;		/* on `a` lines */
} tlob_opts[TLOB_OPT_MAX] = {
	[TLOB_OPT_THRESHOLD] = { "threshold", true, false },
	[TLOB_OPT_MIN] = { "min", true, false },
	[TLOB_OPT_TOLERANCE] = { "tolerance", true, true },
	[TLOB_OPT_TAG] = { "tag", true, true },
	[TLOB_OPT_PID] = { "pid", true, true },
	[TLOB_OPT_TGID] = { "tgid", true, true },
	[TLOB_OPT_PERIOD] = { "period", false, true },
	[TLOB_OPT_EXPECT] = { "expect", false, true },
	[TLOB_OPT_MARGIN] = { "margin", false, true },
	[TLOB_OPT_PER] = { "per", false, true },
};

/* Which option @key is on this line's verb; TLOB_OPT_MAX: none. */
static enum tlob_opt tlob_opt_of(const char *key, const struct tlob_req *req)
{
	unsigned int i;

	for (i = 0; i < TLOB_OPT_MAX; i++)
		if (!strcmp(key, tlob_opts[i].key))
			return (req->alive ? tlob_opts[i].alive :
				tlob_opts[i].section) ? i : TLOB_OPT_MAX;
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
	default:
		return -EINVAL;
	}
}

/*
 * key=value options after STOP (`p`: threshold= required) or after
 * PATH:CHECKPOINT (`a`: period= and expect= required); a key the verb
 * does not take, or a key given twice, is TLOB_WHY_OPTION.
 */
static int tlob_options(char *rest, struct tlob_req *req)
{
	const char *vals[TLOB_OPT_MAX] = { NULL };
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

int tlob_parse_line(char *line, struct tlob_req *req)
{
	char *rest = line, *tok;

	memset(req, 0, sizeof(*req));
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
	else if (strcmp(tok, "p"))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_VERB, tok);
	tok = tlob_token(&rest);
	if (!tok)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_PATH, NULL);
	if (tlob_path_offset(tok, req))
		return -EINVAL;
	if (req->alive)
		return tlob_options(rest, req);
	tok = tlob_token(&rest);
	if (!tok || strchr(tok, '='))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_NO_STOP, tok);
	if (!strcmp(tok, "ret"))
		req->stop_ret = true;
	else if (tlob_offset(tok, &req->stop))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_STOP, tok);
	else if (req->stop == req->start)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_SAME, tok);
	return tlob_options(rest, req);
}
