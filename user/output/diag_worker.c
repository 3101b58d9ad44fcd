// SPDX-License-Identifier: GPL-2.0
/*
 * The thread that names diagnoses (diag_worker.h).
 *
 * Locking: w->lock guards the queue's links, each entry's state, stop,
 * waiting and lowered. The worker names an entry outside the lock: an
 * entry in state NEW or USER is the worker's alone (the reader takes only
 * the head, and only once DONE); done entries are the reader's.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "output/diag_worker.h"
#include "output/symbolize.h"

/* Nice while reading /proc/kallsyms, unless the reader waits. */
#define LOAD_NICE	19

enum naming { NEW, USER, DONE };

struct entry {
	struct entry *next;
	enum naming state;
	char *ustrings;			/* the user half's names, copied */
	struct tlob_named_diag n;
};

struct tlob_diag_worker {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* to the worker: an entry, or stop */
	pthread_cond_t named;		/* to the reader: an entry is DONE */
	pthread_t thread;
	struct entry *head, **tail;
	size_t queued;			/* the reader's count */
	struct tlob_symbolizer *sym;	/* the worker's */
	pid_t tid;			/* the worker's thread id */
	int nice;			/* the reader's */
	bool stop;
	bool waiting;			/* the reader waits for the head */
	bool lowered;			/* the worker runs at LOAD_NICE */
};

static struct entry *entry_of(struct tlob_named_diag *n)
{
	return (struct entry *)((char *)n - offsetof(struct entry, n));
}

/*
 * The user half's strings into one block of the entry's: the
 * symbolizer's last only until its next call (a process it evicts).
 */
#define FRAME_STRINGS	4

static const char **frame_string(struct tlob_frame *f, int i)
{
	const char **s[FRAME_STRINGS] = { &f->name, &f->file, &f->build_id, &f->note };

	return s[i];
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

static int keep_user_names(struct entry *e)
{
	struct tlob_diag_syms *syms = &e->n.syms;
	size_t len = syms->unote ? strlen(syms->unote) + 1 : 0;
	char *to;

	for (unsigned int i = 0; i < TLOB_DIAG_USTACK; i++)
		for (int k = 0; k < FRAME_STRINGS; k++) {
			const char *str = *frame_string(&syms->ustack[i], k);

			len += str ? strlen(str) + 1 : 0;
		}
	to = e->ustrings = malloc(len ? len : 1);
	if (!to)
		return -ENOMEM;
	for (unsigned int i = 0; i < TLOB_DIAG_USTACK; i++)
		for (int k = 0; k < FRAME_STRINGS; k++) {
			const char **str = frame_string(&syms->ustack[i], k);

			*str = copy(&to, *str);
		}
	syms->unote = copy(&to, syms->unote);
	return 0;
}

/* The first entry in @state; NULL none. */
static struct entry *first(struct tlob_diag_worker *w, enum naming state)
{
	for (struct entry *e = w->head; e; e = e->next)
		if (e->state == state)
			return e;
	return NULL;
}

static void name_user(struct tlob_diag_worker *w, struct entry *e)
{
	tlob_symbolize_user(w->sym, &e->n.d, &e->n.syms);
	/* No memory for the copies: raw addresses, rather than stale names. */
	if (keep_user_names(e)) {
		for (unsigned int i = 0; i < TLOB_DIAG_USTACK; i++)
			e->n.syms.ustack[i] = (struct tlob_frame){ .ip = e->n.d.ustack[i] };
		e->n.syms.unote = "out of memory: raw addresses";
	}
}

/* Kernel names (their strings are the symbolizer's: valid until it goes). */
static void name_kernel(struct tlob_diag_worker *w, struct entry *e)
{
	bool load = !tlob_symbolizer_kernel_read(w->sym);

	if (load) {
		pthread_mutex_lock(&w->lock);
		if (!w->waiting && !setpriority(PRIO_PROCESS, (id_t)w->tid, LOAD_NICE))
			w->lowered = true;
		pthread_mutex_unlock(&w->lock);
	}
	tlob_symbolize_kernel(w->sym, &e->n.d, &e->n.syms);
	if (load) {
		pthread_mutex_lock(&w->lock);
		if (w->lowered && !setpriority(PRIO_PROCESS, (id_t)w->tid, w->nice))
			w->lowered = false;
		pthread_mutex_unlock(&w->lock);
	}
}

static void *worker(void *arg)
{
	struct tlob_diag_worker *w = arg;

	pthread_mutex_lock(&w->lock);
	w->tid = gettid();
	pthread_cond_broadcast(&w->named);
	for (;;) {
		struct entry *e = first(w, NEW);
		struct entry *k = e ? NULL : first(w, USER);

		if (w->stop)
			break;
		if (!e && !k) {
			pthread_cond_wait(&w->work, &w->lock);
			continue;
		}
		pthread_mutex_unlock(&w->lock);
		/* Every user stack first: its process may be about to go. */
		if (e)
			name_user(w, e);
		else
			name_kernel(w, k);
		pthread_mutex_lock(&w->lock);
		if (e)
			e->state = e->n.d.nr_kstack ? USER : DONE;
		else
			k->state = DONE;
		pthread_cond_broadcast(&w->named);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct tlob_diag_worker *tlob_diag_worker_new(void)
{
	struct tlob_diag_worker *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int err;

	if (!w)
		return NULL;
	w->sym = tlob_symbolizer_new();
	if (!w->sym) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->tail = &w->head;
	errno = 0;
	w->nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		w->nice = 0;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->named, NULL);
	/* No signal for the worker: SIGINT must end the reader's poll (EINTR). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, NULL, worker, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		tlob_symbolizer_free(w->sym);
		free(w);
		errno = err;
		return NULL;
	}
	/* Its thread id, for its nice (name_kernel(), _next()). */
	pthread_mutex_lock(&w->lock);
	while (!w->tid)
		pthread_cond_wait(&w->named, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return w;
}

int tlob_diag_worker_add(struct tlob_diag_worker *w, const struct tlob_diag *d)
{
	struct entry *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->n.d = *d;
	pthread_mutex_lock(&w->lock);
	*w->tail = e;
	w->tail = &e->next;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
	w->queued++;
	return 0;
}

struct tlob_named_diag *tlob_diag_worker_next(struct tlob_diag_worker *w, bool wait)
{
	struct entry *e;

	pthread_mutex_lock(&w->lock);
	if (wait && w->head && w->head->state != DONE) {
		w->waiting = true;
		if (w->lowered && !setpriority(PRIO_PROCESS, (id_t)w->tid, w->nice))
			w->lowered = false;
		while (w->head->state != DONE)
			pthread_cond_wait(&w->named, &w->lock);
	}
	e = w->head;
	if (e && e->state == DONE) {
		w->head = e->next;
		if (!w->head)
			w->tail = &w->head;
	} else {
		e = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	if (!e)
		return NULL;
	w->queued--;
	return &e->n;
}

size_t tlob_diag_worker_queued(const struct tlob_diag_worker *w)
{
	return w->queued;
}

void tlob_named_diag_free(struct tlob_named_diag *n)
{
	struct entry *e;

	if (!n)
		return;
	e = entry_of(n);
	free(e->ustrings);
	free(e);
}

void tlob_diag_worker_free(struct tlob_diag_worker *w)
{
	struct entry *e;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	while ((e = w->head)) {
		w->head = e->next;
		tlob_named_diag_free(&e->n);
	}
	tlob_symbolizer_free(w->sym);
	pthread_cond_destroy(&w->named);
	pthread_cond_destroy(&w->work);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
