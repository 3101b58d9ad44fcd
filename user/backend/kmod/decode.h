/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace event -> struct tlob_record / struct tlob_transition, by field
 * NAME through libtraceevent (never by parsing printed text). One decoder
 * serves the module's tlob:window, tlob:violation and tlob:dropped (fields named like
 * the struct's members), and upstream's detail_env_tlob, event_tlob and
 * error_tlob (the rv system of an in-kernel tlob). tlob:violation_detail
 * decodes the same way into a struct tlob_diag, tlob:alive_cycle into a
 * struct tlob_alive_record, tlob:logic into a struct tlob_logic_record and
 * the names it carries.
 */
#ifndef TLOB_DECODE_H
#define TLOB_DECODE_H

#include <event-parse.h>

#include "backend/backend.h"

enum tlob_decoder {
	TLOB_DEC_NONE = 0,
	TLOB_DEC_WINDOW,	/* tlob:window */
	TLOB_DEC_VIOLATION,	/* tlob:violation */
	TLOB_DEC_DROPPED,	/* tlob:dropped: a START that opened no window */
	TLOB_DEC_DETAIL_ENV,	/* detail_env_tlob: a violation, upstream's way */
	TLOB_DEC_TRANSITION,	/* event_tlob */
	TLOB_DEC_ERROR,		/* error_tlob */
	TLOB_DEC_DIAG,		/* tlob:violation_detail: a violation's diagnosis */
	TLOB_DEC_ALIVE,		/* tlob:alive_cycle: an alive binding's reference cycle */
	TLOB_DEC_LOGIC,		/* tlob:logic: a logical binding's violation or instance end */
};

/* Which decoder an event of this name needs. */
enum tlob_decoder tlob_decoder_for(const char *event_name);

/* The struct tlob_record members the events carry as numbers (decode.c). */
#define TLOB_DEC_MEMBERS	16
/* The struct tlob_diag members violation_detail carries (decode.c). */
#define TLOB_DEC_DIAG_MEMBERS	19
/* The struct tlob_alive_record members alive_cycle carries as numbers (decode.c). */
#define TLOB_DEC_ALIVE_MEMBERS	15
/* The struct tlob_logic_record members logic carries as numbers (decode.c). */
#define TLOB_DEC_LOGIC_MEMBERS	12
/* ... and the names it carries as strings: model, state, event (decode.c). */
#define TLOB_DEC_LOGIC_NAMES	3

/*
 * An event's fields, looked up by name once (tlob_decode_init()), so that
 * decoding a record reads each field where it is: no lookup by name per
 * record. A field the event does not have is NULL, and its member stays 0.
 */
struct tlob_decode {
	enum tlob_decoder dec;
	struct tep_event *ev;
	struct tep_format_field *member[TLOB_DEC_MEMBERS];
	struct tep_format_field *time[state_max_tlob];	/* STATE_ns */
	struct tep_format_field *count[event_max_tlob];	/* the event counts */
	struct tep_format_field *comm, *tag;
	/* upstream's: detail_env_tlob, event_tlob, error_tlob */
	struct tep_format_field *id, *threshold_ns, *next_state, *final_state;
	/* violation_detail: numbers, strings and arrays, decode.c's table */
	struct tep_format_field *diag[TLOB_DEC_DIAG_MEMBERS];
	/* alive_cycle: its numbers (decode.c's table); comm and tag above */
	struct tep_format_field *alive[TLOB_DEC_ALIVE_MEMBERS];
	/* logic: its numbers and names (decode.c's tables); comm and tag above */
	struct tep_format_field *logic[TLOB_DEC_LOGIC_MEMBERS];
	struct tep_format_field *logic_name[TLOB_DEC_LOGIC_NAMES];
};

void tlob_decode_init(struct tlob_decode *d, enum tlob_decoder dec, struct tep_event *ev);

/* Fill out from rec (kind from the decoder if the event has no kind field). */
void tlob_decode_record(const struct tlob_decode *d, const struct tep_record *rec,
			struct tlob_record *out);

/*
 * A violation_detail into out: every member the event has; the stacks'
 * lengths are their dynamic arrays' (at most TLOB_DIAG_USTACK/KSTACK),
 * nr_ran at most TLOB_DIAG_RAN.
 */
void tlob_decode_diag(const struct tlob_decode *d, const struct tep_record *rec,
		      struct tlob_diag *out);

/* An alive_cycle into out: every member the event has, the rest 0. */
void tlob_decode_alive(const struct tlob_decode *d, const struct tep_record *rec,
		       struct tlob_alive_record *out);

/*
 * A logic event into r and its names into n: every member the event has,
 * the rest 0; a name the event lacks is the index ("#2"; the event's "":
 * none, for TLOB_LOGIC_NONE).
 */
void tlob_decode_logic(const struct tlob_decode *d, const struct tep_record *rec,
		       struct tlob_logic_record *r, struct tlob_logic_names *n);

/*
 * What a logic event lacks, as one sentence into why: -ENOENT a number a
 * record is judged by (verdict, binding_id, state, event: its records
 * cannot be read), 1 a name (model, state_name, event_name: read, with
 * indices for names), 0 nothing.
 */
int tlob_decode_logic_check(const struct tlob_decode *d, char *why, size_t len);

/* 0, or -EINVAL when a state/event name is not one of the model's. */
int tlob_decode_transition(const struct tlob_decode *d, const struct tep_record *rec,
			   struct tlob_transition *out);

#endif /* TLOB_DECODE_H */
