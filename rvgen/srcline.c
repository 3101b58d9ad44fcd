// SPDX-License-Identifier: GPL-2.0
/*
 * Line index over the DOT text, see srcline.h.
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
