// SPDX-License-Identifier: GPL-2.0
/* Diagnoses waiting for their kernel names (diag_queue.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diag_queue.h"

/* The strings a frame or the stack points to, in the order they are copied. */
#define FRAME_STRINGS	4

static const char **frame_string(struct tlob_frame *f, int i)
{
	const char **s[FRAME_STRINGS] = { &f->name, &f->file, &f->build_id, &f->note };

	return s[i];
}

static size_t strings_len(const struct tlob_diag_syms *syms)
{
	size_t len = syms->unote ? strlen(syms->unote) + 1 : 0;

	for (unsigned int i = 0; i < TLOB_DIAG_USTACK; i++) {
		struct tlob_frame f = syms->ustack[i];

		for (int k = 0; k < FRAME_STRINGS; k++) {
			const char *str = *frame_string(&f, k);

			len += str ? strlen(str) + 1 : 0;
		}
	}
	return len;
}

static const char *copy(char **to, const char *str)
{
	const char *at = *to;
	size_t n;

	if (!str)
		return NULL;
	n = strlen(str) + 1;
	memcpy(*to, str, n);
	*to += n;
	return at;
}

int tlob_diag_hold(struct tlob_diag_queue *q, const struct tlob_diag *d,
		   const struct tlob_diag_syms *syms)
{
	struct tlob_held_diag *h = malloc(sizeof(*h) + strings_len(syms));
	char *to;

	if (!h)
		return -ENOMEM;
	h->next = NULL;
	h->d = *d;
	/* The user half only: the kernel's is named later. */
	memset(&h->syms, 0, sizeof(h->syms));
	to = h->strings;
	for (unsigned int i = 0; i < TLOB_DIAG_USTACK; i++) {
		h->syms.ustack[i] = syms->ustack[i];
		for (int k = 0; k < FRAME_STRINGS; k++) {
			const char **str = frame_string(&h->syms.ustack[i], k);

			*str = copy(&to, *str);
		}
	}
	h->syms.unote = copy(&to, syms->unote);
	if (!q->tail)
		q->tail = &q->head;
	*q->tail = h;
	q->tail = &h->next;
	q->n++;
	return 0;
}

struct tlob_held_diag *tlob_diag_next(struct tlob_diag_queue *q)
{
	struct tlob_held_diag *h = q->head;

	if (!h)
		return NULL;
	q->head = h->next;
	if (!q->head)
		q->tail = &q->head;
	q->n--;
	return h;
}

void tlob_diag_queue_free(struct tlob_diag_queue *q)
{
	struct tlob_held_diag *h;

	while ((h = tlob_diag_next(q)))
		free(h);
}
