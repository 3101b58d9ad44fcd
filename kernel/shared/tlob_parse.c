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
 * A decimal number of ns into *@out, once per line (*@out 0 until then):
 * @bad when it is not one, @range when it overflows u64.
 */
static int tlob_decimal(const char *v, u64 *out, enum tlob_parse_why bad,
			enum tlob_parse_why range, struct tlob_req *req)
{
	int ret;

	if (*out)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_OPTION, v);
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

/* key=value options after STOP; threshold= is required. */
static int tlob_options(char *rest, struct tlob_req *req)
{
	const char *min = NULL;
	bool have_tag = false, have_tol = false;
	char *tok, *v;
	int ret;

	while ((tok = tlob_token(&rest))) {
		v = strchr(tok, '=');
		if (!v)
			return tlob_refuse(req, -EINVAL, TLOB_WHY_OPTION, tok);
		*v++ = '\0';
		if (!strcmp(tok, "threshold")) {
			ret = tlob_threshold(v, req);
		} else if (!strcmp(tok, "tag") && !have_tag) {
			ret = tlob_tag(v, req);
			have_tag = true;
		} else if (!strcmp(tok, "tolerance") && !have_tol) {
			ret = tlob_tolerance(v, req);
			have_tol = true;
		} else if (!strcmp(tok, "min")) {
			ret = tlob_min(v, req);
			min = v;
		} else if (!strcmp(tok, "pid")) {
			ret = tlob_filter_opt(v, TLOB_FILTER_PID, req);
		} else if (!strcmp(tok, "tgid")) {
			ret = tlob_filter_opt(v, TLOB_FILTER_TGID, req);
		} else {
			ret = tlob_refuse(req, -EINVAL, TLOB_WHY_OPTION, tok);
		}
		if (ret)
			return ret;
	}
	if (!req->budget_ns)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_NO_THRESHOLD, NULL);
	if (!have_tol) {
		req->tol_k = 1;
		req->tol_w = 1;
	}
	if (req->min_ns >= req->budget_ns)
		return tlob_refuse(req, -ERANGE, TLOB_WHY_MIN_RANGE, min);
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
	if (strcmp(tok, "p"))
		return tlob_refuse(req, -EINVAL, TLOB_WHY_VERB, tok);
	tok = tlob_token(&rest);
	if (!tok)
		return tlob_refuse(req, -EINVAL, TLOB_WHY_PATH, NULL);
	if (tlob_path_offset(tok, req))
		return -EINVAL;
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
