/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source lines for the messages that concern the graph as a whole (its
 * kind, no initial state): its first line of text. The lines of nodes,
 * edges and labels are recorded as cgraph reads them (model.c); finding
 * them again by scanning the text would take time quadratic in the model.
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
/* First line that is neither blank nor a comment (1 if none). */
int src_first_line(const struct rv_source *src);

#endif /* RVGEN_SRCLINE_H */
