/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnoses named off the reader's thread. Naming one can take the reader
 * away for long: libdwfl reading the maps and ELF symbol tables of a
 * process seen for the first time (50 to 240 ms under emulation), and,
 * once, /proc/kallsyms (200k lines, 1.4 s). Meanwhile the violations that
 * follow must print within 100 ms of their deadline (the print-latency
 * target). So the reader hands each diagnosis to a worker thread, which
 * owns the symbolizer, and prints them once named, in the order they came.
 *
 * The worker names every waiting user stack before any kernel stack: a
 * user stack needs its process alive, kernel names do not go away. It
 * reads /proc/kallsyms at nice 19 (a reader sharing its CPU then
 * preempts it at once; at the same nice the reader waits for its slices,
 * and with both pinned to one CPU that wait alone can take a violation's
 * print past the 100 ms target),
 * and at the reader's nice again once the reader waits for it
 * (tlob_diag_worker_next(.., true)), where the system allows a thread's
 * nice to go back up (root, CAP_SYS_NICE).
 *
 * Locking: one mutex over the queue, the entries' states and the nice
 * handover; an entry's diagnosis and names are the worker's while it
 * names them (state NEW, USER) and the reader's once DONE. Everything the
 * reader calls is from one thread.
 */
#ifndef TLOB_DIAG_WORKER_H
#define TLOB_DIAG_WORKER_H

#include <stdbool.h>
#include <stddef.h>

#include "output/output.h"

/* A diagnosis and its names (valid until tlob_named_diag_free()). */
struct tlob_named_diag {
	struct tlob_diag d;
	struct tlob_diag_syms syms;
};

struct tlob_diag_worker;

/* NULL with errno: no memory, or no thread. */
struct tlob_diag_worker *tlob_diag_worker_new(void);
/* Name a copy of @d; 0 or -ENOMEM. */
int tlob_diag_worker_add(struct tlob_diag_worker *w, const struct tlob_diag *d);
/*
 * The oldest diagnosis, off the queue, once it is named; NULL when the
 * oldest is not named yet (@wait: waits for it) or nothing waits.
 */
struct tlob_named_diag *tlob_diag_worker_next(struct tlob_diag_worker *w, bool wait);
/* How many were added and not yet taken by _next(). */
size_t tlob_diag_worker_queued(const struct tlob_diag_worker *w);
void tlob_named_diag_free(struct tlob_named_diag *n);
/* Stops the worker (what it did not name is dropped); after every _free() above. */
void tlob_diag_worker_free(struct tlob_diag_worker *w);

#endif /* TLOB_DIAG_WORKER_H */
