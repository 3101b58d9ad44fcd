// SPDX-License-Identifier: GPL-2.0
/*
 * Line index over the DOT text, see srcline.h. Matching is textual and
 * deliberately simple: a name matches as "name" in quotes or as a bare
 * word, which is how DOT files spell node ids.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "srcline.h"

/*
 * A copy of TEXT with comments blanked out (newlines kept), so that a
 * name mentioned in a comment is not taken for its declaration. Quoted
 * strings are kept: "//" inside a label is no comment.
 */
static char *mask_comments(const char *text)
{
	enum { CODE, STRING, LINE, BLOCK } st = CODE;
	char *m = strdup(text);
	size_t i;
	bool bol = true;

	if (!m)
		return NULL;
	for (i = 0; m[i]; i++) {
		char c = m[i], next = m[i + 1];

		switch (st) {
		case CODE:
			if (c == '"') {
				st = STRING;
			} else if (c == '/' && next == '/') {
				st = LINE;
			} else if (c == '/' && next == '*') {
				st = BLOCK;
				m[i++] = ' ';
			} else if (c == '#' && bol) {
				st = LINE;	/* cpp-style line, cgraph skips it */
			}
			break;
		case STRING:
			if (c == '\\' && next)
				i++;
			else if (c == '"')
				st = CODE;
			break;
		case LINE:
			if (c == '\n')
				st = CODE;
			break;
		case BLOCK:
			if (c == '*' && next == '/') {
				m[i++] = ' ';
				m[i] = ' ';
				st = CODE;
				continue;
			}
			break;
		}
		if ((st == LINE || st == BLOCK) && m[i] != '\n')
			m[i] = ' ';
		if (m[i] == '\n')
			bol = true;
		else if (m[i] != ' ' && m[i] != '\t')
			bol = false;
	}
	return m;
}

int src_init(struct rv_source *src, const char *text)
{
	size_t cap = 64, i;
	char *masked = mask_comments(text);

	if (!masked)
		return -1;
	text = masked;
	src->text = masked;
	src->nlines = 0;
	src->starts = malloc(cap * sizeof(*src->starts));
	if (!src->starts) {
		free(masked);
		return -1;
	}
	src->starts[src->nlines++] = 0;
	for (i = 0; text[i]; i++) {
		if (text[i] != '\n')
			continue;
		if ((size_t)src->nlines == cap) {
			size_t *n;

			cap *= 2;
			n = realloc(src->starts, cap * sizeof(*n));
			if (!n) {
				src_free(src);
				return -1;
			}
			src->starts = n;
		}
		src->starts[src->nlines++] = i + 1;
	}
	return 0;
}

void src_free(struct rv_source *src)
{
	free(src->text);
	src->text = NULL;
	free(src->starts);
	src->starts = NULL;
}

static size_t line_len(const struct rv_source *src, int i)
{
	const char *p = src->text + src->starts[i];
	const char *nl = strchr(p, '\n');

	return nl ? (size_t)(nl - p) : strlen(p);
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/*
 * Finds NAME in [p, end) as a node id: "NAME" in quotes, or a bare word
 * not glued to another word, a quote or a backslash escape. BEGIN is the
 * start of the line, so p[-1] is only read when it exists.
 */
static const char *find_id(const char *begin, const char *p, const char *end,
			   const char *name)
{
	size_t n = strlen(name);

	if (!n)
		return NULL;
	for (; p + n <= end; p++) {
		char before = p > begin ? p[-1] : ' ';

		if (*p == '"' && p + n + 2 <= end && !memcmp(p + 1, name, n) &&
		    p[n + 1] == '"')
			return p + n + 2;
		if (memcmp(p, name, n))
			continue;
		if (is_word(before) || before == '"' || before == '\\')
			continue;
		if (p + n < end && (is_word(p[n]) || p[n] == '"'))
			continue;
		return p + n;
	}
	return NULL;
}

static bool line_has_id(const char *p, const char *end, const char *name)
{
	return find_id(p, p, end, name) != NULL;
}

static bool line_has_text(const char *p, const char *end, const char *text)
{
	size_t n = strlen(text);

	if (!n)
		return true;
	for (; p + n <= end; p++)
		if (!memcmp(p, text, n))
			return true;
	return false;
}

int src_node_line(const struct rv_source *src, const char *name)
{
	int i;

	for (i = 0; i < src->nlines; i++) {
		const char *p = src->text + src->starts[i];

		if (line_has_id(p, p + line_len(src, i), name))
			return i + 1;
	}
	return 0;
}

int src_node_text_line(const struct rv_source *src, const char *name,
		       const char *hint)
{
	int i;

	for (i = 0; hint && i < src->nlines; i++) {
		const char *p = src->text + src->starts[i];
		const char *end = p + line_len(src, i);

		if (line_has_text(p, end, hint) && line_has_text(p, end, name))
			return i + 1;
	}
	return src_node_line(src, name);
}

static bool line_has_edge(const char *p, const char *end, const char *tail,
			  const char *head)
{
	const char *begin = p, *q;

	while ((q = find_id(begin, p, end, tail))) {
		const char *r = q, *h;

		while (r < end && (*r == ' ' || *r == '\t'))
			r++;
		if (r + 2 <= end && r[0] == '-' && (r[1] == '>' || r[1] == '-')) {
			r += 2;
			while (r < end && (*r == ' ' || *r == '\t'))
				r++;
			h = find_id(begin, r, end, head);
			if (h && h - r == (long)strlen(head) + (*r == '"' ? 2 : 0))
				return true;
		}
		p = q;
	}
	return false;
}

int src_edge_line(const struct rv_source *src, const char *tail,
		  const char *head, int nth, const char *hint)
{
	int i, first = 0, hinted = 0, seen = 0;

	for (i = 0; i < src->nlines; i++) {
		const char *p = src->text + src->starts[i];
		const char *end = p + line_len(src, i);

		if (!line_has_edge(p, end, tail, head))
			continue;
		if (seen++ == nth)
			return i + 1;
		if (!first)
			first = i + 1;
		if (!hinted && hint && line_has_text(p, end, hint))
			hinted = i + 1;
	}
	if (hinted)
		return hinted;
	return first ? first : src_node_line(src, tail);
}

int src_text_line(const struct rv_source *src, const char *text)
{
	int i;

	for (i = 0; i < src->nlines; i++) {
		const char *p = src->text + src->starts[i];

		if (line_has_text(p, p + line_len(src, i), text))
			return i + 1;
	}
	return 0;
}

int src_first_line(const struct rv_source *src)
{
	int i;

	for (i = 0; i < src->nlines; i++) {
		const char *p = src->text + src->starts[i];
		const char *end = p + line_len(src, i);

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p != '/' && *p != '#')
			return i + 1;
	}
	return 1;
}
