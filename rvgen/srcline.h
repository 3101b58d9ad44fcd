/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source line lookup for error messages. cgraph parses the DOT text but
 * keeps no line numbers for nodes and edges, so messages find them again:
 * the first line that mentions the node, the edge or the label text.
 * This only locates; it never decides what the model means.
 */
#ifndef RVGEN_SRCLINE_H
#define RVGEN_SRCLINE_H

#include <stddef.h>

struct rv_source {
	char *text;		/* the DOT text, comments blanked */
	size_t *starts;		/* offset of each line */
	int nlines;
};

int src_init(struct rv_source *src, const char *text);
void src_free(struct rv_source *src);
/* First line mentioning node NAME (quoted or bare), 0 if none. */
int src_node_line(const struct rv_source *src, const char *name);
/* First line with NAME and the text HINT, else src_node_line(). */
int src_node_text_line(const struct rv_source *src, const char *name,
		       const char *hint);
/*
 * Line of the NTH (from 0) "TAIL -> HEAD" in the file, preferring one that
 * contains HINT (may be NULL) when there are fewer than NTH+1; else the
 * tail's line. cgraph keeps parallel edges in creation order, so the nth
 * edge it returns for a pair is the nth one written.
 */
int src_edge_line(const struct rv_source *src, const char *tail,
		  const char *head, int nth, const char *hint);
/* First line containing TEXT, 0 if none. */
int src_text_line(const struct rv_source *src, const char *text);
/* First line that is neither blank nor a comment (1 if none). */
int src_first_line(const struct rv_source *src);

#endif /* RVGEN_SRCLINE_H */
