// SPDX-License-Identifier: GPL-2.0
/*
 * Output formats. JSON is written by hand because the objects are flat
 * and every value is a number or a short string; json_chars() escapes per
 * RFC 8259 so a comm or path with quotes or control bytes stays valid,
 * and replaces what is not UTF-8 (a comm the kernel cut inside a
 * character, a path in another encoding) with U+FFFD, so every line is
 * valid UTF-8 (RFC 8259 section 8.1).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "backend/names.h"
#include "lib/jbuf.h"
#include "lib/units.h"
#include "lib/utf8.h"
#include "output/colour.h"
#include "output/output.h"
#include "tlob_model.h"
#include "version.h"

const char *tlob_json_escape(const char *s, char *out, size_t len)
{
	struct jbuf j = { out, len, 0, false };

	if (!len)
		return out;
	/* Cut after the last whole character or escape, never inside one. */
	json_chars(&j, s, strlen(s));
	jend(&j);
	return out;
}

/*
 * The record's field names of the model's times and counts (names.h),
 * made once: "" for a state with no time, an event with no count.
 */
struct field_key {
	char json[56];		/* ,"NAME": */
	size_t len;		/* of json; 0: no such field */
	char text[56];		/* " NAME=" (the model's state/event name) */
	size_t tlen;
};

static struct {
	bool done;
	struct field_key time[state_max_tlob];
	struct field_key count[event_max_tlob];
} fields;

static void field_key(struct field_key *k, const char *json_name, const char *text_name)
{
	k->len = (size_t)snprintf(k->json, sizeof(k->json), ",\"%s\":", json_name);
	k->tlen = (size_t)snprintf(k->text, sizeof(k->text), " %s=", text_name);
}

static void fields_init(void)
{
	char name[48];

	if (fields.done)
		return;
	for (unsigned int s = 0; s < state_max_tlob; s++)
		if (tlob_state_timed(s))
			field_key(&fields.time[s], tlob_time_field(s, name, sizeof(name)),
				  tlob_state_name(s));
	for (unsigned int e = 0; e < event_max_tlob; e++)
		if (tlob_event_counted(e))
			field_key(&fields.count[e], tlob_count_field(e, name, sizeof(name)),
				  tlob_event_name(e));
	fields.done = true;
}

int tlob_record_json(const struct tlob_record *r, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	fields_init();
	json_begin(&j, "record");
	json_u64(&j, "start_ns", r->start_ns);
	json_u64(&j, "end_ns", r->end_ns);
	json_u64(&j, "budget_ns", r->budget_ns);
	json_u64(&j, "min_time_ns", r->min_ns);
	json_u64(&j, "elapsed_ns", r->elapsed_ns);
	/* Where the time went and what happened: the model's states and events. */
	for (unsigned int s = 0; s < state_max_tlob; s++)
		if (fields.time[s].len) {
			jmem(&j, fields.time[s].json, fields.time[s].len);
			ju64(&j, r->time_ns[s]);
		}
	json_s64(&j, "detect_latency_ns", r->detect_latency_ns);
	json_u64(&j, "pid", r->pid);
	json_u64(&j, "tgid", r->tgid);
	json_u64(&j, "binding_id", r->binding_id);
	for (unsigned int e = 0; e < event_max_tlob; e++)
		if (fields.count[e].len) {
			jmem(&j, fields.count[e].json, fields.count[e].len);
			ju64(&j, r->count[e]);
		}
	json_u64(&j, "kind", r->kind);
	json_name(&j, "kind_name", tlob_kind_name(r->kind));
	json_u64(&j, "verdict", r->verdict);
	json_name(&j, "verdict_name", tlob_verdict_name(r->verdict));
	json_u64(&j, "abort_reason", r->abort_reason);
	json_name(&j, "abort_reason_name", tlob_abort_name(r->abort_reason));
	json_u64(&j, "detector", r->detector);
	json_name(&j, "detector_name", tlob_detector_name(r->detector));
	json_u64(&j, "state", r->state);
	json_name(&j, "state_name", tlob_state_name(r->state));
	json_u64(&j, "event", r->event);
	json_name(&j, "event_name", tlob_event_name(r->event));
	json_bool(&j, "react", r->react);
	json_str(&j, "comm", r->comm, sizeof(r->comm));
	json_str(&j, "tag", r->tag, sizeof(r->tag));
	return json_end(&j);
}

int tlob_transition_json(const struct tlob_transition *tr, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	json_begin(&j, "transition");
	json_u64(&j, "ts_ns", tr->ts_ns);
	json_s64(&j, "id", tr->id);
	json_s64(&j, "cpu", tr->cpu);
	json_str(&j, "comm", tr->comm, sizeof(tr->comm));
	json_str(&j, "state", tlob_state_name(tr->state), 32);
	json_str(&j, "event", tlob_event_name(tr->event), 32);
	json_str(&j, "next_state", tr->error ? "" : tlob_state_name(tr->next_state), 32);
	json_bool(&j, "final", tr->final);
	json_bool(&j, "error", tr->error);
	return json_end(&j);
}

void tlob_json_binding_head(struct jbuf *j, const struct tlob_binding_spec *s)
{
	json_u64(j, "id", s->id);
	json_str(j, "path", s->path, sizeof(s->path));
	json_offset(j, "start", s->start);
}

static void json_spec_fields(struct jbuf *j, const struct tlob_binding_spec *s)
{
	tlob_json_binding_head(j, s);
	if (s->stop_is_ret)
		json_str(j, "stop", "ret", 3);
	else
		json_offset(j, "stop", s->stop);
	json_str(j, "tag", s->tag, sizeof(s->tag));
}

/* A section's terms in its binding object. */
static void json_section_terms(struct jbuf *j, const struct tlob_binding_spec *s)
{
	json_spec_fields(j, s);
	json_u64(j, "budget_ns", s->budget_ns);
	json_u64(j, "min_time_ns", s->min_ns);
	json_u64(j, "tolerance_k", tlob_spec_tol_k(s));
	json_u64(j, "tolerance_w", tlob_spec_tol_w(s));
}

int tlob_kind_spec_json(const struct tlob_binding_spec *s,
			void (*terms)(struct jbuf *j, const struct tlob_binding_spec *s),
			char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	json_begin(&j, "binding");
	terms(&j, s);
	json_u64(&j, "pid", (uint64_t)s->pid);
	json_u64(&j, "tgid", (uint64_t)s->tgid);
	if (s->holders[0])
		json_str(&j, "holders", s->holders, sizeof(s->holders));
	return json_end(&j);
}

int tlob_section_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len)
{
	return tlob_kind_spec_json(s, json_section_terms, buf, len);
}

int tlob_section_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	bool first = true;

	json_begin(&j, "stats");
	json_spec_fields(&j, &st->spec);
	json_u64(&j, "windows", st->stats.windows);
	json_u64(&j, "violations", st->stats.violations);
	json_u64(&j, "errors", st->stats.errors);
	json_u64(&j, "aborted", st->stats.aborted);
	json_u64(&j, "early", st->stats.early);
	json_u64(&j, "tolerated", st->stats.tolerated);
	json_u64(&j, "dropped", st->stats.dropped);
	json_u64(&j, "min_ns", st->stats.min_ns);
	json_u64(&j, "max_ns", st->stats.max_ns);
	json_u64(&j, "mean_ns", st->mean_ns);
	json_u64(&j, "sum_ns", st->stats.sum_ns);
	/* Buckets by log2 index, only the non-empty ones (as the kernel lists them). */
	jstr(&j, ",\"hist\":{");
	for (int i = 0; i < TLOB_HIST_BUCKETS; i++) {
		if (!st->stats.hist[i])
			continue;
		if (!first)
			jc(&j, ',');
		jc(&j, '"');
		ju64(&j, (uint64_t)i);
		jmem(&j, "\":", 2);
		ju64(&j, st->stats.hist[i]);
		first = false;
	}
	jc(&j, '}');
	return json_end(&j);
}

const char *tlob_fmt_ns(uint64_t ns, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	text_ns(&j, ns);
	jend(&j);
	return buf;
}

/* WHAT TASK-PID tgid=N binding=N[ tag=TAG] budget=B[ min=M], WHAT in colour c */
static void text_who(struct jbuf *j, const char *what, enum tlob_colour c,
		     const struct tlob_record *r)
{
	tlob_colour_left(j, c, what, 14);
	jc(j, ' ');
	text_str(j, r->comm, sizeof(r->comm), "?");
	jc(j, '-');
	ju64(j, r->pid);
	text_key(j, "tgid");
	ju64(j, r->tgid);
	text_key(j, "binding");
	ju64(j, r->binding_id);
	if (r->tag[0]) {
		text_key(j, "tag");
		text_str(j, r->tag, sizeof(r->tag), "");
	}
	text_key(j, "budget");
	text_budget(j, r->budget_ns);
	if (r->min_ns) {
		text_key(j, "min");
		text_budget(j, r->min_ns);
	}
}

int tlob_record_text(const struct tlob_record *r, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	enum tlob_colour c = TLOB_COLOUR_BAD;
	const char *what;

	if (r->kind == TLOB_REC_DROPPED) {
		text_who(&j, "DROPPED", TLOB_COLOUR_WARN, r);
		jstr(&j, ": START opened no window, every window was in use\n");
		return jend(&j);
	}
	/* Upper case, in the one colour, for what went wrong. */
	if (r->kind == TLOB_REC_VIOLATION) {
		what = "VIOLATION";
	} else if (r->verdict == TLOB_VERDICT_OK) {
		what = "window ok";
		c = TLOB_COLOUR_GOOD;
	} else {
		what = r->verdict == TLOB_VERDICT_OVER_BUDGET ? "window OVER" :
		       r->verdict == TLOB_VERDICT_MODEL_ERROR ? "window ERROR" :
		       r->verdict == TLOB_VERDICT_EARLY ? "window EARLY" : NULL;
	}
	/* Nothing judged: quiet. */
	if (!what) {
		what = "window aborted";
		c = TLOB_COLOUR_QUIET;
	}

	fields_init();
	text_who(&j, what, c, r);
	text_key(&j, "elapsed");
	text_ns(&j, r->elapsed_ns);
	/* Time per state and count per event, by the model's names. */
	for (unsigned int s = 0; s < state_max_tlob; s++)
		if (fields.time[s].len) {
			jmem(&j, fields.time[s].text, fields.time[s].tlen);
			text_ns(&j, r->time_ns[s]);
		}
	for (unsigned int e = 0; e < event_max_tlob; e++)
		if (fields.count[e].len) {
			jmem(&j, fields.count[e].text, fields.count[e].tlen);
			ju64(&j, r->count[e]);
		}
	if (r->verdict == TLOB_VERDICT_EARLY) {
		/* Before its minimum: at STOP, no detection latency to tell. */
		jstr(&j, " (");
		jstr(&j, tlob_event_name(r->event));
		jstr(&j, " before min)");
	} else if (r->verdict == TLOB_VERDICT_OVER_BUDGET || r->kind == TLOB_REC_VIOLATION) {
		text_key(&j, "detector");
		jstr(&j, tlob_detector_name(r->detector));
		text_key(&j, "latency");
		if (r->detect_latency_ns >= 0)
			text_ns(&j, (uint64_t)r->detect_latency_ns);
		else
			jstr(&j, "<0");
	}
	if (r->verdict == TLOB_VERDICT_ABORTED) {
		text_key(&j, "reason");
		jstr(&j, tlob_abort_name(r->abort_reason));
	}
	/* Recorded, not reacted to: within the binding's tolerance=. */
	if (r->kind == TLOB_REC_VIOLATION && !r->react)
		jstr(&j, " (tolerated)");
	if (r->verdict == TLOB_VERDICT_MODEL_ERROR) {
		jstr(&j, " (event ");
		jstr(&j, tlob_event_name(r->event));
		jstr(&j, " not expected in state ");
		jstr(&j, tlob_state_name(r->state));
		jc(&j, ')');
	}
	jc(&j, '\n');
	return jend(&j);
}

void tlob_record_print(FILE *f, const struct tlob_record *r)
{
	char buf[1024];
	int n = tlob_record_text(r, buf, sizeof(buf));

	if (n > 0)
		fwrite(buf, 1, (size_t)n, f);
}

/* rv's columns: <TASK>-PID [CPU] TYPE [ID] STATE x EVENT -> NEXT_STATE FINAL */
int tlob_transition_text(const struct tlob_transition *tr, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	size_t n = strnlen(tr->comm, sizeof(tr->comm));

	/* "%16.*s [%03d]", the comm escaped (jbuf.h) */
	if (!n)
		jstr(&j, "           <...>");
	else
		for (size_t k = n; k < 16; k++)
			jc(&j, ' ');
	text_str(&j, tr->comm, n, "");
	jstr(&j, " [");
	if (tr->cpu < 0) {
		jc(&j, '-');
		jpad_u64(&j, (uint64_t)0 - (uint64_t)(int64_t)tr->cpu, 2, '0');
	} else {
		jpad_u64(&j, (uint64_t)tr->cpu, 3, '0');
	}
	jstr(&j, tr->error ? "] error [" : "] event [");
	js64(&j, tr->id);
	jstr(&j, "] ");
	jstr(&j, tlob_state_name(tr->state));
	jstr(&j, " x ");
	jstr(&j, tlob_event_name(tr->event));
	if (tr->error) {
		jstr(&j, " (not expected)\n");
	} else {
		jstr(&j, " -> ");
		jstr(&j, tlob_state_name(tr->next_state));
		jstr(&j, tr->final ? " (final)\n" : "\n");
	}
	return jend(&j);
}

void tlob_transition_print(FILE *f, const struct tlob_transition *tr)
{
	char buf[256];
	int n = tlob_transition_text(tr, buf, sizeof(buf));

	if (n > 0)
		fwrite(buf, 1, (size_t)n, f);
}

const char *tlob_text_shown(const char *s, size_t max, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	text_str(&j, s, max, "");
	jend(&j);
	return buf;
}

/*
 * Whether the histogram prints bucket i of the range of filled buckets:
 * a filled one always, an empty one between them only when asked (as
 * rtla's --with-zeros), so that a few filled buckets far apart read as a
 * few lines.
 */
static bool hist_row_shown(const struct tlob_binding_stats *st, int i, bool with_zeros)
{
	return with_zeros || st->stats.hist[i];
}

void tlob_section_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros)
{
	/* Each byte escaped is at most 4 ("\\xNN"). */
	char b[3][32], stop[32], path[sizeof(st->spec.path) * 4], tag[sizeof(st->spec.tag) * 4];
	uint64_t peak = 0;
	int lo = -1, hi = -1;

	if (st->spec.stop_is_ret)
		snprintf(stop, sizeof(stop), "ret");
	else
		snprintf(stop, sizeof(stop), "0x%" PRIx64, st->spec.stop);
	fprintf(f, "binding %u: %s:0x%" PRIx64 " %s%s%s\n", st->spec.id,
		tlob_text_shown(st->spec.path, sizeof(st->spec.path), path, sizeof(path)),
		st->spec.start, stop, st->spec.tag[0] ? " tag=" : "",
		tlob_text_shown(st->spec.tag, sizeof(st->spec.tag), tag, sizeof(tag)));
	/* struct tlob_stats is __u64: unsigned long long */
	fprintf(f, "  windows=%llu violations=%llu errors=%llu aborted=%llu dropped=%llu",
		st->stats.windows,
		st->stats.violations, st->stats.errors, st->stats.aborted, st->stats.dropped);
	/* Only a binding with a minimum can end early: its count where it can. */
	if (st->spec.min_ns || st->stats.early)
		fprintf(f, " early=%llu", st->stats.early);
	/* Likewise, only a binding with a tolerance holds violations back. */
	if (st->spec.tol_w > 1 || st->stats.tolerated)
		fprintf(f, " tolerated=%llu (tolerance %u/%u)", st->stats.tolerated,
			tlob_spec_tol_k(&st->spec), tlob_spec_tol_w(&st->spec));
	fputc('\n', f);
	if (!st->stats.windows)
		return;
	fprintf(f, "  elapsed min=%s mean=%s max=%s\n",
		tlob_fmt_ns(st->stats.min_ns, b[0], sizeof(b[0])),
		tlob_fmt_ns(st->mean_ns, b[1], sizeof(b[1])),
		tlob_fmt_ns(st->stats.max_ns, b[2], sizeof(b[2])));
	for (int i = 0; i < TLOB_HIST_BUCKETS; i++) {
		if (!st->stats.hist[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (st->stats.hist[i] > peak)
			peak = st->stats.hist[i];
	}
	if (lo < 0)
		return;
	fprintf(f, "  %12s .. %-12s %10s\n", "from", "to", "count");
	for (int i = lo; i <= hi; i++) {
		int bar = (int)(st->stats.hist[i] * 40 / peak);

		if (!hist_row_shown(st, i, with_zeros))
			continue;
		fprintf(f, "  %12s .. %-12s %10llu |%.*s\n",
			tlob_fmt_ns(1ULL << i, b[0], sizeof(b[0])),
			i < 63 ? tlob_fmt_ns(1ULL << (i + 1), b[1], sizeof(b[1])) : "inf",
			st->stats.hist[i], bar,
			"****************************************");
	}
}

/*
 * A violation's diagnosis. Written with the same writer as the records
 * (no printf per field): a diagnosis comes with every violation, and a
 * burst of violations is when the reader has the least time.
 */

const char *tlob_policy_name(unsigned int policy)
{
	/* The kernel's SCHED_* values (uapi/linux/sched.h): 4 is unused. */
	static const char *const n[] = {
		[0] = "other", [1] = "fifo", [2] = "rr", [3] = "batch",
		[5] = "idle", [6] = "deadline",
	};

	return policy < sizeof(n) / sizeof(n[0]) && n[policy] ? n[policy] : "?";
}

const char *tlob_stack_when_name(unsigned int when)
{
	return when == TLOB_STACK_DEADLINE ? "deadline" :
	       when == TLOB_STACK_DEFERRED ? "deferred" : "none";
}

/* "s" escaped, or null. */
static void json_str_or_null(struct jbuf *j, const char *s)
{
	if (!s) {
		jstr(j, "null");
		return;
	}
	jc(j, '"');
	json_chars(j, s, strlen(s));
	jc(j, '"');
}

/* [{"ip":"0x..","sym":"name+0xoff"|null,...}...] of n frames */
static void json_frames(struct jbuf *j, const __u64 *ips, unsigned int n,
			const struct tlob_frame *fr, bool user)
{
	jc(j, '[');
	for (unsigned int i = 0; i < n; i++) {
		const struct tlob_frame *f = fr ? &fr[i] : NULL;

		if (i)
			jc(j, ',');
		jstr(j, "{\"ip\":\"");
		jhex(j, ips[i]);
		jstr(j, "\",\"sym\":");
		if (f && f->name) {
			/* A symbol name is bytes from an ELF file: escaped as any string. */
			jc(j, '"');
			json_chars(j, f->name, strlen(f->name));
			jc(j, '+');
			jhex(j, f->off);
			jc(j, '"');
		} else {
			jstr(j, "null");
		}
		if (!user) {
			jc(j, '}');
			continue;
		}
		jstr(j, ",\"file\":");
		json_str_or_null(j, f ? f->file : NULL);
		jstr(j, ",\"build_id\":");
		json_str_or_null(j, f ? f->build_id : NULL);
		if (f && f->note) {
			jstr(j, ",\"note\":");
			json_str_or_null(j, f->note);
		}
		jc(j, '}');
	}
	jc(j, ']');
}

int tlob_header_json(const char *backend, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	json_begin(&j, "header");
	json_u64(&j, "version", TLOB_JSON_VERSION);
	json_str(&j, "tool", "tlob", 8);
	json_str(&j, "tool_version", TLOB_VERSION, 64);
	json_str(&j, "backend", backend, 32);
	jc(&j, '}');
	return jend(&j);
}

/* A count of the diagnosis, never past its array (the kernel's word is not trusted). */
#define DIAG_NR(n, max)		((n) < (max) ? (unsigned int)(n) : (unsigned int)(max))

int tlob_diag_json(const struct tlob_diag *d, const struct tlob_diag_syms *syms,
		   char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	unsigned int nu = DIAG_NR(d->nr_ustack, TLOB_DIAG_USTACK);
	unsigned int nk = DIAG_NR(d->nr_kstack, TLOB_DIAG_KSTACK);
	unsigned int nr = DIAG_NR(d->nr_ran, TLOB_DIAG_RAN);

	/* The contract's object (user/README.md "JSON"), its keys in its order. */
	jstr(&j, "{\"type\":\"diagnosis\",\"kind_name\":\"diag\"");
	json_u64(&j, "pid", d->pid);
	json_u64(&j, "tgid", d->tgid);
	json_u64(&j, "binding_id", d->binding_id);
	json_u64(&j, "start_ns", d->start_ns);
	json_u64(&j, "cpu", d->cpu);
	json_u64(&j, "migrations", d->migrations);
	json_str(&j, "state", tlob_state_name(d->state), 32);
	json_u64(&j, "waker_pid", d->waker_pid);
	json_str(&j, "waker_comm", d->waker_comm, sizeof(d->waker_comm));
	json_str(&j, "ustack_when", tlob_stack_when_name(d->ustack_when), 16);
	json_key(&j, "ustack");
	json_frames(&j, d->ustack, nu, syms ? syms->ustack : NULL, true);
	json_key(&j, "kstack");
	json_frames(&j, d->kstack, nk, syms ? syms->kstack : NULL, false);
	json_key(&j, "ran");
	jc(&j, '[');
	for (unsigned int i = 0; i < nr; i++) {
		const struct tlob_ran *r = &d->ran[i];

		jstr(&j, i ? ",{\"pid\":" : "{\"pid\":");
		ju64(&j, r->pid);
		json_str(&j, "comm", r->comm, sizeof(r->comm));
		json_str(&j, "policy", tlob_policy_name(r->policy), 16);
		json_u64(&j, "prio", r->prio);
		json_u64(&j, "ns", r->ns);
		jc(&j, '}');
	}
	jc(&j, ']');
	/* Beyond the contract, after it: when the stack was taken, and why it has no names. */
	json_u64(&j, "capture_ns", d->capture_ns);
	if (syms && syms->unote)
		json_str(&j, "ustack_note", syms->unote, strlen(syms->unote));
	if (syms && syms->knote && nk)
		json_str(&j, "kstack_note", syms->knote, strlen(syms->knote));
	return json_end(&j);
}

/* A name of a frame, a file: text_str() (jbuf.h), NUL-terminated. */
#define TEXT_SHOWN(j, s)	text_str((j), (s), strlen(s), "?")

/* "PREFIXNAME+0xOFF (FILE)", "PREFIX0xIP (FILE: NOTE)", "PREFIX0xIP", a newline */
static void text_frame(struct jbuf *j, const char *prefix, uint64_t ip,
		       const struct tlob_frame *f)
{
	jstr(j, prefix);
	if (f && f->name) {
		TEXT_SHOWN(j, f->name);
		jc(j, '+');
		jhex(j, f->off);
	} else {
		jhex(j, ip);
	}
	if (f && f->file) {
		jstr(j, " (");
		TEXT_SHOWN(j, f->file);
		if (f->note) {
			jstr(j, ": ");
			jstr(j, f->note);
		}
		jc(j, ')');
	}
	jc(j, '\n');
}

/* "    module FILE build-id HEX", once per file of the user stack. */
static void text_modules(struct jbuf *j, const struct tlob_frame *f, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		bool seen = false;

		if (!f[i].file || !f[i].build_id)
			continue;
		for (unsigned int k = 0; k < i && !seen; k++)
			seen = f[k].file && f[k].build_id && !strcmp(f[k].file, f[i].file);
		if (seen)
			continue;
		jstr(j, "    module ");
		TEXT_SHOWN(j, f[i].file);
		jstr(j, " build-id ");
		jstr(j, f[i].build_id);
		jc(j, '\n');
	}
}

/* "COMM-PID policy/prio TIME" of each task that ran instead, sep between; "none" */
static void text_ran(struct jbuf *j, const struct tlob_diag *d, unsigned int nr,
		     const char *sep)
{
	if (!nr)
		jstr(j, "none");
	for (unsigned int i = 0; i < nr; i++) {
		const struct tlob_ran *r = &d->ran[i];

		if (i)
			jstr(j, sep);
		text_str(j, r->comm, sizeof(r->comm), "?");
		jc(j, '-');
		ju64(j, r->pid);
		jc(j, ' ');
		jstr(j, tlob_policy_name(r->policy));
		jc(j, '/');
		ju64(j, r->prio);
		jc(j, ' ');
		text_ns(j, r->ns);
	}
}

int tlob_frames_text(const __u64 *ips, const struct tlob_frame *f, unsigned int n,
		     char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	for (unsigned int i = 0; i < n; i++)
		text_frame(&j, "", ips[i], f ? &f[i] : NULL);
	/* Lines, not a line: no newline after the last. */
	if (j.used && !j.overflow)
		j.used--;
	return jend(&j);
}

int tlob_ran_text(const struct tlob_diag *d, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	text_ran(&j, d, DIAG_NR(d->nr_ran, TLOB_DIAG_RAN), "\n");
	return jend(&j);
}

int tlob_diag_text_late(const struct tlob_diag *d, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	text_left(&j, "DIAGNOSIS", 14);
	jstr(&j, " pid=");
	ju64(&j, d->pid);
	text_key(&j, "tgid");
	ju64(&j, d->tgid);
	text_key(&j, "binding");
	ju64(&j, d->binding_id);
	text_key(&j, "start_ns");
	ju64(&j, d->start_ns);
	jstr(&j, " (late: its stacks were being named)\n");
	return jend(&j);
}

int tlob_diag_text(const struct tlob_diag *d, const struct tlob_diag_syms *syms,
		   char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	unsigned int nu = DIAG_NR(d->nr_ustack, TLOB_DIAG_USTACK);
	unsigned int nk = DIAG_NR(d->nr_kstack, TLOB_DIAG_KSTACK);
	unsigned int nr = DIAG_NR(d->nr_ran, TLOB_DIAG_RAN);

	/* where: the state at the deadline, then the user stack, innermost first */
	jstr(&j, "  where: ");
	tlob_colour_left(&j, TLOB_COLOUR_NOTE, tlob_state_name(d->state), 0);
	if (d->ustack_when == TLOB_STACK_NONE || !nu) {
		jstr(&j, ", no user stack (the backend took none)\n");
	} else {
		jstr(&j, d->ustack_when == TLOB_STACK_DEADLINE ?
		     ", user stack at the deadline" :
		     ", user stack after the deadline (the task's next time on a CPU)");
		if (syms && syms->unote) {
			jstr(&j, " (");
			jstr(&j, syms->unote);
			jc(&j, ')');
		}
		jc(&j, '\n');
		for (unsigned int i = 0; i < nu; i++)
			text_frame(&j, "    at ", d->ustack[i], syms ? &syms->ustack[i] : NULL);
		if (syms)
			text_modules(&j, syms->ustack, nu);
	}
	if (nk) {
		jstr(&j, "  kernel:");
		if (syms && syms->knote) {
			jstr(&j, " (");
			jstr(&j, syms->knote);
			jc(&j, ')');
		}
		jc(&j, '\n');
		for (unsigned int i = 0; i < nk; i++)
			text_frame(&j, "    at ", d->kstack[i], syms ? &syms->kstack[i] : NULL);
	}
	jstr(&j, "  last cpu: ");
	ju64(&j, d->cpu);
	jstr(&j, "\n  migrations: ");
	ju64(&j, d->migrations);
	jstr(&j, "\n  woken by: ");
	if (d->waker_pid) {
		ju64(&j, d->waker_pid);
		jc(&j, ':');
		text_str(&j, d->waker_comm, sizeof(d->waker_comm), "?");
	} else {
		jstr(&j, "none");
	}
	jstr(&j, "\n  ran instead: ");
	text_ran(&j, d, nr, ", ");
	jc(&j, '\n');
	return jend(&j);
}
