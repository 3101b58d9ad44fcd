// SPDX-License-Identifier: GPL-2.0
/*
 * Field-by-name decoding. Fields that an event does not have stay 0, so a
 * module that adds or drops an optional field keeps working (the rv tool
 * does the same: optional fields are found in the format, not assumed).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "decode.h"
#include "names.h"

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
 * Copy a char array or __string field into buf[len]: NUL-terminated when
 * it fits, else all len bytes (struct tlob_record's comm/tag are fixed
 * arrays that need not end in NUL); "" if absent.
 */
static void field_str(struct tep_event *ev, struct tep_record *rec,
		      const char *name, char *buf, size_t len)
{
	int flen = 0;
	const char *p;
	size_t n = 0;

	memset(buf, 0, len);
	if (!tep_find_field(ev, name))
		return;
	p = tep_get_field_raw(NULL, ev, name, rec, &flen, 0);
	if (!p || flen <= 0)
		return;
	while (n < (size_t)flen && n < len && p[n])
		n++;
	memcpy(buf, p, n);
}

/* A number field, or for state/event a name mapped through lookup. */
static bool field_num(struct tep_event *ev, struct tep_record *rec, const char *name,
		      int (*lookup)(const char *), unsigned long long *val)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	char text[64] = "";
	int v;

	if (!f)
		return false;
	if (is_text(f)) {
		if (!lookup)
			return false;
		field_str(ev, rec, name, text, sizeof(text) - 1);
		v = lookup(text);
		if (v < 0)
			return false;
		*val = (unsigned long long)v;
		return true;
	}
	return !tep_read_number_field(f, rec->data, val);
}

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
static const struct num_member record_members[] = {
	M(start_ns), M(end_ns), M(budget_ns), M(elapsed_ns), M(detect_latency_ns),
	M(pid), M(tgid), M(binding_id), M(kind), M(verdict), M(abort_reason),
	M(detector), M_NAMED(state, tlob_state_by_name), M_NAMED(event, tlob_event_by_name),
};

static void store(void *dst, size_t size, unsigned long long v)
{
	switch (size) {
	case 1: *(uint8_t *)dst = (uint8_t)v; break;
	case 2: *(uint16_t *)dst = (uint16_t)v; break;
	case 4: *(uint32_t *)dst = (uint32_t)v; break;
	default: *(uint64_t *)dst = (uint64_t)v; break;
	}
}

static void decode_detail_env(struct tep_event *ev, struct tep_record *rec,
			      struct tlob_record *out)
{
	unsigned long long v;

	/* detail_env_tlob(id, threshold_ns, running_ns, waiting_ns, sleeping_ns) */
	if (!out->pid && field_num(ev, rec, "id", NULL, &v))
		out->pid = (uint32_t)v;
	if (field_num(ev, rec, "threshold_ns", NULL, &v))
		out->budget_ns = v;
	out->elapsed_ns = 0;
	for (unsigned int s = 0; s < tlob_nr_states(); s++)
		out->elapsed_ns += out->time_ns[s];
	out->verdict = TLOB_VERDICT_OVER_BUDGET;
}

void tlob_decode_record(enum tlob_decoder dec, struct tep_event *ev,
			struct tep_record *rec, struct tlob_record *out)
{
	unsigned long long v;
	char name[64];

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(record_members) / sizeof(record_members[0]); i++) {
		const struct num_member *m = &record_members[i];

		if (field_num(ev, rec, m->field, m->lookup, &v))
			store((char *)out + m->offset, m->size, v);
	}
	/* STATE_ns and the counts, by the names the model gives them. */
	for (unsigned int s = 0; s < tlob_nr_states(); s++)
		if (tlob_state_timed(s) &&
		    field_num(ev, rec, tlob_time_field(s, name, sizeof(name)), NULL, &v))
			out->time_ns[s] = v;
	for (unsigned int e = 0; e < tlob_nr_events(); e++)
		if (tlob_event_counted(e) &&
		    field_num(ev, rec, tlob_count_field(e, name, sizeof(name)), NULL, &v))
			out->count[e] = (uint32_t)v;
	field_str(ev, rec, "comm", out->comm, sizeof(out->comm));
	field_str(ev, rec, "tag", out->tag, sizeof(out->tag));

	if (dec == TLOB_DEC_DETAIL_ENV)
		decode_detail_env(ev, rec, out);
	if (!out->kind)
		out->kind = dec == TLOB_DEC_WINDOW ? TLOB_REC_WINDOW :
			    dec == TLOB_DEC_DROPPED ? TLOB_REC_DROPPED : TLOB_REC_VIOLATION;
}

int tlob_decode_transition(enum tlob_decoder dec, struct tep_event *ev,
			   struct tep_record *rec, struct tlob_transition *out)
{
	unsigned long long v;

	memset(out, 0, sizeof(*out));
	out->ts_ns = rec->ts;
	out->cpu = rec->cpu;
	out->error = dec == TLOB_DEC_ERROR;
	if (field_num(ev, rec, "id", NULL, &v))
		out->id = (int32_t)v;
	if (!field_num(ev, rec, "state", tlob_state_by_name, &v))
		return -EINVAL;
	out->state = (uint8_t)v;
	if (!field_num(ev, rec, "event", tlob_event_by_name, &v))
		return -EINVAL;
	out->event = (uint8_t)v;
	if (out->error) {
		out->next_state = (uint8_t)tlob_nr_states();
		return 0;
	}
	if (!field_num(ev, rec, "next_state", tlob_state_by_name, &v))
		return -EINVAL;
	out->next_state = (uint8_t)v;
	if (field_num(ev, rec, "final_state", NULL, &v))
		out->final = v != 0;
	return 0;
}
