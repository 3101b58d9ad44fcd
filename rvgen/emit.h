/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emitters: each turns a validated model into one output on a stream.
 * They print, they do not decide: everything they need is in the model.
 */
#ifndef RVGEN_EMIT_H
#define RVGEN_EMIT_H

#include <stdio.h>

#include "model.h"

int emit_header(const struct model *m, FILE *out);	/* NAME_model.h */
int emit_ha(const struct model *m, FILE *out);		/* NAME_model_ha.h */
int emit_md(const struct model *m, FILE *out);		/* NAME.md */
int emit_svg(const struct model *m, FILE *out);		/* NAME.svg */
int emit_promela(const struct model *m, FILE *out);	/* NAME.pml */
int emit_dump(const struct model *m, FILE *out);	/* NAME.dump, for tests */

/* Shared by the C emitters. */
struct list_out {
	FILE *out;
	int col;
	int indent;	/* tabs */
};

void list_begin(struct list_out *l, FILE *out, int indent);
void list_item(struct list_out *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void list_end(struct list_out *l);

/* Opens or closes the include guard GUARD (from model->ids). */
void emit_guard(FILE *out, const char *guard, bool open);

#endif /* RVGEN_EMIT_H */
