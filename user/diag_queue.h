/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnoses held back until their kernel names are read
 * (tlob_symbolizer_kernel_ready()), in the order they came: the reader
 * prints the violations meanwhile instead of waiting the second or more
 * that /proc/kallsyms takes to read. Each one keeps a copy of its user
 * stack's names, resolved when it came (the process may be gone later,
 * and the symbolizer's strings last until its next call only).
 */
#ifndef TLOB_DIAG_QUEUE_H
#define TLOB_DIAG_QUEUE_H

#include <stddef.h>

#include "output.h"

struct tlob_held_diag {
	struct tlob_held_diag *next;
	struct tlob_diag d;
	struct tlob_diag_syms syms;	/* the user stack's; the kernel's to fill in */
	char strings[];			/* the copies syms points to */
};

struct tlob_diag_queue {
	struct tlob_held_diag *head;
	struct tlob_held_diag **tail;	/* NULL: an empty queue never used */
	size_t n;
};

/* A copy of d and of syms' user half at the tail; 0 or -ENOMEM. */
int tlob_diag_hold(struct tlob_diag_queue *q, const struct tlob_diag *d,
		   const struct tlob_diag_syms *syms);
/* The oldest, off the queue (the caller frees it); NULL: none. */
struct tlob_held_diag *tlob_diag_next(struct tlob_diag_queue *q);
void tlob_diag_queue_free(struct tlob_diag_queue *q);

#endif /* TLOB_DIAG_QUEUE_H */
