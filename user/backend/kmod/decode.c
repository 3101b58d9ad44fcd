// SPDX-License-Identifier: GPL-2.0
/*
 * Field-by-name decoding. Fields that an event does not have stay 0, so a
 * module that adds or drops an optional field keeps working (the rv tool
 * does the same: optional fields are found in the format, not assumed).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "backend/kmod/decode.h"
#include "backend/names.h"

enum tlob_decoder tlob_decoder_for(const char *name)
{
	static const struct {
		const char *name;
		enum tlob_decoder dec;
	} map[] = {
		{ "window", TLOB_DEC_WINDOW },
		{ "violation", TLOB_DEC_VIOLATION },
		{ "dropped", TLOB_DEC_DROPPED },
		{ "detail_env_tlob", TLOB_DEC_DETAIL_ENV },
		{ "event_tlob", TLOB_DEC_TRANSITION },
		{ "error_tlob", TLOB_DEC_ERROR },
		{ "violation_detail", TLOB_DEC_DIAG },
		{ "alive_cycle", TLOB_DEC_ALIVE },
		{ "logic", TLOB_DEC_LOGIC },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, name))
			return map[i].dec;
	return TLOB_DEC_NONE;
}

static bool is_text(const struct tep_format_field *f)
{
	return f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY);
}

/*
 * Where a field's bytes are in rec: a fixed field or array in place, a
 * __data_loc/__rel_loc one (a dynamic string or array) where its offset
 * says, with the length it says. false if absent or outside the record.
 */
static bool field_bytes(const struct tep_format_field *f, const struct tep_record *rec,
			const unsigned char **bytes, size_t *len)
{
	const unsigned char *p;
	size_t flen;

	if (!f || f->offset < 0 || (size_t)f->offset + (size_t)f->size > (size_t)rec->size)
		return false;
	p = (const unsigned char *)rec->data + f->offset;
	flen = (size_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: offset in the low 16 bits, length in the high ones */
		unsigned long long loc = tep_read_number(f->event->tep, p, f->size);
		size_t off = loc & 0xffff;

		flen = (size_t)(loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)	/* __rel_loc: from the field's end */
			off += (size_t)f->offset + (size_t)f->size;
		if (off + flen > (size_t)rec->size)
			return false;
		p = (const unsigned char *)rec->data + off;
	}
	*bytes = p;
	*len = flen;
	return true;
}

/*
 * Copy a char array or __string field into buf[len]: NUL-terminated when
 * it fits, else all len bytes (struct tlob_record's comm/tag are fixed
 * arrays that need not end in NUL); "" if absent.
 */
static void field_str(const struct tep_format_field *f, const struct tep_record *rec,
		      char *buf, size_t len)
{
	const unsigned char *p;
	size_t n = 0, flen;

	memset(buf, 0, len);
	if (!field_bytes(f, rec, &p, &flen))
		return;
	while (n < flen && n < len && p[n])
		n++;
	memcpy(buf, p, n);
}

/* A number field, or for state/event a name mapped through lookup. */
static bool field_num(const struct tep_format_field *f, const struct tep_record *rec,
		      int (*lookup)(const char *), unsigned long long *val)
{
	char text[64] = "";
	int v;

	if (!f)
		return false;
	if (is_text(f)) {
		if (!lookup)
			return false;
		field_str(f, rec, text, sizeof(text) - 1);
		v = lookup(text);
		if (v < 0)
			return false;
		*val = (unsigned long long)v;
		return true;
	}
	return !tep_read_number_field((struct tep_format_field *)f, rec->data, val);
}

static void diag_init(struct tlob_decode *d, struct tep_event *ev);
static void alive_init(struct tlob_decode *d, struct tep_event *ev);
static void logic_init(struct tlob_decode *d, struct tep_event *ev);

struct num_member {
	const char *field;
	size_t offset;
	size_t size;
	int (*lookup)(const char *);
};

#define M(name) { #name, offsetof(struct tlob_record, name), \
		  sizeof(((struct tlob_record *)0)->name), NULL }
#define M_NAMED(name, fn) { #name, offsetof(struct tlob_record, name), \
		  sizeof(((struct tlob_record *)0)->name), fn }

/* The times and counts are the model's (names.h), decoded below. */
static const struct num_member record_members[TLOB_DEC_MEMBERS] = {
	M(start_ns), M(end_ns), M(budget_ns), M(elapsed_ns), M(detect_latency_ns),
	M(pid), M(tgid), M(binding_id), M(kind), M(verdict), M(abort_reason),
	M(detector), M_NAMED(state, tlob_state_by_name), M_NAMED(event, tlob_event_by_name),
	M(min_ns), M(react),
};

/* The members of the transition are the record's state and event. */
#define MEMBER_STATE	12
#define MEMBER_EVENT	13

void tlob_decode_init(struct tlob_decode *d, enum tlob_decoder dec, struct tep_event *ev)
{
	char name[64];

	memset(d, 0, sizeof(*d));
	d->dec = dec;
	d->ev = ev;
	for (size_t i = 0; i < TLOB_DEC_MEMBERS; i++)
		d->member[i] = tep_find_field(ev, record_members[i].field);
	/* STATE_ns and the counts, by the names the model gives them. */
	for (unsigned int s = 0; s < state_max_tlob; s++)
		if (tlob_state_timed(s))
			d->time[s] = tep_find_field(ev, tlob_time_field(s, name, sizeof(name)));
	for (unsigned int e = 0; e < event_max_tlob; e++)
		if (tlob_event_counted(e))
			d->count[e] = tep_find_field(ev, tlob_count_field(e, name, sizeof(name)));
	d->comm = tep_find_field(ev, "comm");
	d->tag = tep_find_field(ev, "tag");
	d->id = tep_find_field(ev, "id");
	d->threshold_ns = tep_find_field(ev, "threshold_ns");
	d->next_state = tep_find_field(ev, "next_state");
	d->final_state = tep_find_field(ev, "final_state");
	if (dec == TLOB_DEC_DIAG)
		diag_init(d, ev);
	if (dec == TLOB_DEC_ALIVE)
		alive_init(d, ev);
	if (dec == TLOB_DEC_LOGIC)
		logic_init(d, ev);
}

static void store(void *dst, size_t size, unsigned long long v)
{
	switch (size) {
	case 1: *(uint8_t *)dst = (uint8_t)v; break;
	case 2: *(uint16_t *)dst = (uint16_t)v; break;
	case 4: *(uint32_t *)dst = (uint32_t)v; break;
	default: *(uint64_t *)dst = (uint64_t)v; break;
	}
}

static void decode_detail_env(const struct tlob_decode *d, const struct tep_record *rec,
			      struct tlob_record *out)
{
	unsigned long long v;

	/* detail_env_tlob(id, threshold_ns, running_ns, waiting_ns, sleeping_ns) */
	if (!out->pid && field_num(d->id, rec, NULL, &v))
		out->pid = (uint32_t)v;
	if (field_num(d->threshold_ns, rec, NULL, &v))
		out->budget_ns = v;
	out->elapsed_ns = 0;
	for (unsigned int s = 0; s < tlob_nr_states(); s++)
		out->elapsed_ns += out->time_ns[s];
	out->verdict = TLOB_VERDICT_OVER_BUDGET;
}

void tlob_decode_record(const struct tlob_decode *d, const struct tep_record *rec,
			struct tlob_record *out)
{
	unsigned long long v;

	memset(out, 0, sizeof(*out));
	/* An event without react (upstream's detail_env_tlob) reacts always. */
	out->react = 1;
	for (size_t i = 0; i < TLOB_DEC_MEMBERS; i++) {
		const struct num_member *m = &record_members[i];

		if (field_num(d->member[i], rec, m->lookup, &v))
			store((char *)out + m->offset, m->size, v);
	}
	for (unsigned int s = 0; s < state_max_tlob; s++)
		if (field_num(d->time[s], rec, NULL, &v))
			out->time_ns[s] = v;
	for (unsigned int e = 0; e < event_max_tlob; e++)
		if (field_num(d->count[e], rec, NULL, &v))
			out->count[e] = (uint32_t)v;
	field_str(d->comm, rec, out->comm, sizeof(out->comm));
	field_str(d->tag, rec, out->tag, sizeof(out->tag));

	if (d->dec == TLOB_DEC_DETAIL_ENV)
		decode_detail_env(d, rec, out);
	if (!out->kind)
		out->kind = d->dec == TLOB_DEC_WINDOW ? TLOB_REC_WINDOW :
			    d->dec == TLOB_DEC_DROPPED ? TLOB_REC_DROPPED : TLOB_REC_VIOLATION;
}

/*
 * struct tlob_diag as violation_detail carries it (kernel/module/
 * tlob_trace.h): each field by its name, its elements at @stride bytes
 * in the struct from @offset, at most @max of them, and @count where the
 * number of elements goes (the stacks: their dynamic arrays' lengths).
 * Numbers are read element by element in the trace's byte order; char
 * fields are copied (@elem 1).
 */
enum { DIAG_NUM, DIAG_STR };

struct diag_member {
	const char *field;
	int kind;
	size_t offset, size;	/* of one element in struct tlob_diag */
	size_t stride;		/* between elements (arrays); 0: one value */
	unsigned int max;
	size_t count;		/* where the number of elements goes; 0: none */
};

#define DM(name) { #name, DIAG_NUM, offsetof(struct tlob_diag, name), \
		   sizeof(((struct tlob_diag *)0)->name), 0, 1, 0 }
#define DSTACK(name) { #name, DIAG_NUM, offsetof(struct tlob_diag, name), \
		       sizeof(((struct tlob_diag *)0)->name[0]), \
		       sizeof(((struct tlob_diag *)0)->name[0]), \
		       sizeof(((struct tlob_diag *)0)->name) / \
		       sizeof(((struct tlob_diag *)0)->name[0]), \
		       offsetof(struct tlob_diag, nr_##name) }
#define DRAN(field, member) { field, DIAG_NUM, \
		offsetof(struct tlob_diag, ran) + offsetof(struct tlob_ran, member), \
		sizeof(((struct tlob_ran *)0)->member), sizeof(struct tlob_ran), \
		TLOB_DIAG_RAN, 0 }

static const struct diag_member diag_members[TLOB_DEC_DIAG_MEMBERS] = {
	DM(start_ns), DM(capture_ns), DM(pid), DM(tgid), DM(binding_id), DM(cpu),
	DM(migrations), DM(waker_pid), DM(state), DM(ustack_when), DM(nr_ran),
	{ "waker_comm", DIAG_STR, offsetof(struct tlob_diag, waker_comm),
	  TLOB_COMM_LEN, 0, 1, 0 },
	DSTACK(ustack), DSTACK(kstack),
	DRAN("ran_pid", pid), DRAN("ran_prio", prio), DRAN("ran_policy", policy),
	DRAN("ran_ns", ns),
	{ "ran_comm", DIAG_STR, offsetof(struct tlob_diag, ran) + offsetof(struct tlob_ran, comm),
	  TLOB_COMM_LEN, sizeof(struct tlob_ran), TLOB_DIAG_RAN, 0 },
};

static void diag_init(struct tlob_decode *d, struct tep_event *ev)
{
	for (size_t i = 0; i < TLOB_DEC_DIAG_MEMBERS; i++)
		d->diag[i] = tep_find_field(ev, diag_members[i].field);
}

/*
 * One table entry: its elements out of the field's bytes, in order. A
 * number is as wide as the event says (a scalar's size, a fixed array's
 * element size; a dynamic array's elements are the struct's), a char
 * element is m->size bytes, kept NUL-terminated.
 */
static void diag_member(const struct diag_member *m, const struct tep_format_field *f,
			const struct tep_record *rec, struct tlob_diag *out)
{
	const unsigned char *p;
	size_t len, esz = m->size;
	unsigned int n, i;

	if (!field_bytes(f, rec, &p, &len))
		return;
	if (m->kind == DIAG_NUM && !(f->flags & TEP_FIELD_IS_DYNAMIC))
		esz = (f->flags & TEP_FIELD_IS_ARRAY) ? (size_t)f->elementsize : (size_t)f->size;
	if (!esz || (m->kind == DIAG_NUM && esz > 8))
		return;
	n = (unsigned int)(len / esz);
	if (n > m->max)
		n = m->max;
	for (i = 0; i < n; i++) {
		char *dst = (char *)out + m->offset + i * m->stride;
		const unsigned char *src = p + i * esz;

		if (m->kind == DIAG_STR) {
			size_t k = 0;

			while (k < m->size - 1 && k < esz && src[k])
				k++;
			memcpy(dst, src, k);
		} else {
			store(dst, m->size, tep_read_number(f->event->tep, src, (int)esz));
		}
	}
	if (m->count)
		*((uint8_t *)out + m->count) = (uint8_t)n;
}

void tlob_decode_diag(const struct tlob_decode *d, const struct tep_record *rec,
		      struct tlob_diag *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < TLOB_DEC_DIAG_MEMBERS; i++)
		diag_member(&diag_members[i], d->diag[i], rec, out);
	if (out->nr_ran > TLOB_DIAG_RAN)
		out->nr_ran = TLOB_DIAG_RAN;
}

/*
 * struct tlob_alive_record as alive_cycle carries it (kernel/module/
 * tlob_trace.h: field for field, by the struct's member names).
 */
#define AM(name) { #name, offsetof(struct tlob_alive_record, name), \
		   sizeof(((struct tlob_alive_record *)0)->name), NULL }

static const struct num_member alive_members[TLOB_DEC_ALIVE_MEMBERS] = {
	AM(start_ns), AM(end_ns), AM(period_ns), AM(detect_latency_ns), AM(pid), AM(tgid),
	AM(binding_id), AM(checkpoints), AM(expect_min), AM(expect_max), AM(cycles),
	AM(verdict), AM(detector), AM(react), AM(abort_reason),
};

static void alive_init(struct tlob_decode *d, struct tep_event *ev)
{
	for (size_t i = 0; i < TLOB_DEC_ALIVE_MEMBERS; i++)
		d->alive[i] = tep_find_field(ev, alive_members[i].field);
}

void tlob_decode_alive(const struct tlob_decode *d, const struct tep_record *rec,
		       struct tlob_alive_record *out)
{
	unsigned long long v;

	memset(out, 0, sizeof(*out));
	/* As a record's: an event without react reacts always. */
	out->react = 1;
	for (size_t i = 0; i < TLOB_DEC_ALIVE_MEMBERS; i++) {
		const struct num_member *m = &alive_members[i];

		if (field_num(d->alive[i], rec, NULL, &v))
			store((char *)out + m->offset, m->size, v);
	}
	field_str(d->comm, rec, out->comm, sizeof(out->comm));
	field_str(d->tag, rec, out->tag, sizeof(out->tag));
}

/*
 * struct tlob_logic_record as the logic event carries it (kernel/module/
 * tlob_trace.h: its members by name), and the names of the model, the
 * state and the event as strings.
 */
#define LM(name) { #name, offsetof(struct tlob_logic_record, name), \
		   sizeof(((struct tlob_logic_record *)0)->name), NULL }

static const struct num_member logic_members[TLOB_DEC_LOGIC_MEMBERS] = {
	LM(start_ns), LM(end_ns), LM(events), LM(pid), LM(tgid), LM(binding_id),
	LM(verdict), LM(state), LM(event), LM(react), LM(abort_reason), LM(clock_ns),
};
/* What a record is judged by: verdict, binding_id, state, event. */
static const unsigned int logic_needed[] = { 6, 5, 7, 8 };
static const char *const logic_names[TLOB_DEC_LOGIC_NAMES] = {
	"model", "state_name", "event_name",
};

static void logic_init(struct tlob_decode *d, struct tep_event *ev)
{
	for (size_t i = 0; i < TLOB_DEC_LOGIC_MEMBERS; i++)
		d->logic[i] = tep_find_field(ev, logic_members[i].field);
	for (size_t i = 0; i < TLOB_DEC_LOGIC_NAMES; i++)
		d->logic_name[i] = tep_find_field(ev, logic_names[i]);
}

int tlob_decode_logic_check(const struct tlob_decode *d, char *why, size_t len)
{
	const char *system = d->ev ? d->ev->system : "tlob";

	for (size_t i = 0; i < sizeof(logic_needed) / sizeof(logic_needed[0]); i++) {
		if (d->logic[logic_needed[i]])
			continue;
		snprintf(why, len, "the module's %s:logic event has no field '%s' (this tool "
			 "reads verdict, binding_id, state and event): logical supervision's "
			 "records are not read", system, logic_members[logic_needed[i]].field);
		return -ENOENT;
	}
	for (size_t i = 0; i < TLOB_DEC_LOGIC_NAMES; i++) {
		if (d->logic_name[i] && is_text(d->logic_name[i]))
			continue;
		snprintf(why, len, "the module's %s:logic event has no string field '%s': "
			 "records show the index (#N) for the names", system, logic_names[i]);
		return 1;
	}
	return 0;
}

void tlob_decode_logic(const struct tlob_decode *d, const struct tep_record *rec,
		       struct tlob_logic_record *r, struct tlob_logic_names *n)
{
	char *name[TLOB_DEC_LOGIC_NAMES] = { n->model, n->state, n->event };
	unsigned long long v;

	memset(r, 0, sizeof(*r));
	memset(n, 0, sizeof(*n));
	r->react = 1;
	for (size_t i = 0; i < TLOB_DEC_LOGIC_MEMBERS; i++) {
		const struct num_member *m = &logic_members[i];

		if (field_num(d->logic[i], rec, NULL, &v))
			store((char *)r + m->offset, m->size, v);
	}
	if (!d->logic[8])
		r->event = TLOB_LOGIC_NONE;
	field_str(d->comm, rec, r->comm, sizeof(r->comm));
	field_str(d->tag, rec, r->tag, sizeof(r->tag));
	for (size_t i = 0; i < TLOB_DEC_LOGIC_NAMES; i++)
		if (d->logic_name[i] && is_text(d->logic_name[i]))
			field_str(d->logic_name[i], rec, name[i], TLOB_LOGIC_NAME_MAX);
	/* A name the event lacks: its index, so that a line still says which. */
	if (!d->logic_name[1] || !is_text(d->logic_name[1]))
		snprintf(n->state, sizeof(n->state), "#%u", r->state);
	if ((!d->logic_name[2] || !is_text(d->logic_name[2])) && r->event != TLOB_LOGIC_NONE)
		snprintf(n->event, sizeof(n->event), "#%u", r->event);
}

int tlob_decode_transition(const struct tlob_decode *d, const struct tep_record *rec,
			   struct tlob_transition *out)
{
	unsigned long long v;

	memset(out, 0, sizeof(*out));
	out->ts_ns = rec->ts;
	out->cpu = rec->cpu;
	out->error = d->dec == TLOB_DEC_ERROR;
	if (field_num(d->id, rec, NULL, &v))
		out->id = (int32_t)v;
	if (!field_num(d->member[MEMBER_STATE], rec, tlob_state_by_name, &v))
		return -EINVAL;
	out->state = (uint8_t)v;
	if (!field_num(d->member[MEMBER_EVENT], rec, tlob_event_by_name, &v))
		return -EINVAL;
	out->event = (uint8_t)v;
	if (out->error) {
		out->next_state = (uint8_t)tlob_nr_states();
		return 0;
	}
	if (!field_num(d->next_state, rec, tlob_state_by_name, &v))
		return -EINVAL;
	out->next_state = (uint8_t)v;
	if (field_num(d->final_state, rec, NULL, &v))
		out->final = v != 0;
	return 0;
}
