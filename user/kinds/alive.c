// SPDX-License-Identifier: GPL-2.0
/*
 * Alive supervision's output (alive.h). A cycle's line is written like a
 * window's (output.c): the same writer (jbuf.h), the same columns, so a
 * reader of tlob mon's text or JSON finds both kinds in one stream and
 * tells them apart by the first word or "type".
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "backend/names.h"
#include "kinds/alive.h"
#include "lib/jbuf.h"
#include "lib/units.h"
#include "output/colour.h"
#include "output/output.h"
#include "tlob_parse.h"

bool tlob_alive_violation(const struct tlob_alive_record *r)
{
	return r->verdict == TLOB_VERDICT_TOO_FEW || r->verdict == TLOB_VERDICT_TOO_MANY;
}

/* "8..12", or "10" when the bounds are one count. */
static void text_range(struct jbuf *j, uint64_t lo, uint64_t hi)
{
	ju64(j, lo);
	if (hi == lo)
		return;
	jmem(j, "..", 2);
	ju64(j, hi);
}

int tlob_alive_text(const struct tlob_alive_record *r, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	bool violation = tlob_alive_violation(r);

	/* Upper case for what went wrong, as VIOLATION and window OVER, in their colour. */
	tlob_colour_left(&j, violation ? TLOB_COLOUR_BAD :
			 r->verdict == TLOB_VERDICT_OK ? TLOB_COLOUR_GOOD : TLOB_COLOUR_QUIET,
			 r->verdict == TLOB_VERDICT_TOO_FEW ? "ALIVE TOO FEW" :
			 r->verdict == TLOB_VERDICT_TOO_MANY ? "ALIVE TOO MANY" :
			 r->verdict == TLOB_VERDICT_ABORTED ? "alive aborted" :
			 r->verdict == TLOB_VERDICT_OK ? "alive ok" : "alive ?", 14);
	jc(&j, ' ');
	text_str(&j, r->comm, sizeof(r->comm), "?");
	jc(&j, '-');
	ju64(&j, r->pid);
	text_key(&j, "tgid");
	ju64(&j, r->tgid);
	text_key(&j, "binding");
	ju64(&j, r->binding_id);
	if (r->tag[0]) {
		text_key(&j, "tag");
		text_str(&j, r->tag, sizeof(r->tag), "");
	}
	text_key(&j, "period");
	text_budget(&j, r->period_ns);
	/* Cycles without a checkpoint that went by unjudged: one record. */
	if (r->cycles > 1) {
		text_key(&j, "cycles");
		ju64(&j, r->cycles);
	}
	text_key(&j, "checkpoints");
	ju64(&j, r->checkpoints);
	text_key(&j, "expect");
	text_range(&j, r->expect_min, r->expect_max);
	if (violation) {
		/* hrtimer: at the cycle's end; checkpoint: found by the next one. */
		text_key(&j, "detector");
		jstr(&j, tlob_detector_name(r->detector));
		text_key(&j, "latency");
		if (r->detect_latency_ns >= 0)
			text_ns(&j, (uint64_t)r->detect_latency_ns);
		else
			jstr(&j, "<0");
		if (!r->react)
			jstr(&j, " (tolerated)");
	}
	if (r->verdict == TLOB_VERDICT_ABORTED) {
		text_key(&j, "reason");
		jstr(&j, tlob_abort_name(r->abort_reason));
	}
	jc(&j, '\n');
	return jend(&j);
}

int tlob_alive_json(const struct tlob_alive_record *r, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	json_begin(&j, "alive_cycle");
	json_u64(&j, "start_ns", r->start_ns);
	json_u64(&j, "end_ns", r->end_ns);
	json_u64(&j, "period_ns", r->period_ns);
	json_s64(&j, "detect_latency_ns", r->detect_latency_ns);
	json_u64(&j, "pid", r->pid);
	json_u64(&j, "tgid", r->tgid);
	json_u64(&j, "binding_id", r->binding_id);
	json_u64(&j, "checkpoints", r->checkpoints);
	json_u64(&j, "expect_min", r->expect_min);
	json_u64(&j, "expect_max", r->expect_max);
	json_u64(&j, "cycles", r->cycles);
	json_u64(&j, "verdict", r->verdict);
	json_str(&j, "verdict_name", tlob_verdict_name(r->verdict), 32);
	json_u64(&j, "detector", r->detector);
	json_str(&j, "detector_name", tlob_detector_name(r->detector), 32);
	json_bool(&j, "react", r->react);
	json_u64(&j, "abort_reason", r->abort_reason);
	json_str(&j, "abort_reason_name", tlob_abort_name(r->abort_reason), 32);
	json_str(&j, "comm", r->comm, sizeof(r->comm));
	json_str(&j, "tag", r->tag, sizeof(r->tag));
	return json_end(&j);
}

static const char *per_name(const struct tlob_binding_spec *s)
{
	return s->per == TLOB_PER_TASK ? "task" : "process";
}

const char *tlob_alive_terms(const struct tlob_binding_spec *s, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	jstr(&j, "period=");
	text_budget(&j, s->period_ns);
	jstr(&j, " expect=");
	ju64(&j, s->expect);
	if (s->margin) {
		jstr(&j, "\xc2\xb1");	/* U+00B1 PLUS-MINUS SIGN */
		ju64(&j, s->margin);
	}
	jstr(&j, " per ");
	jstr(&j, per_name(s));
	jend(&j);
	return buf;
}

/* The terms of an alive binding's objects, after its id, path, start and tag. */
static void json_alive_terms(struct jbuf *j, const struct tlob_binding_spec *s)
{
	tlob_json_binding_head(j, s);
	json_str(j, "tag", s->tag, sizeof(s->tag));
	json_str(j, "kind", "alive", 5);
	json_u64(j, "period_ns", s->period_ns);
	json_u64(j, "expect", s->expect);
	json_u64(j, "margin", s->margin);
	json_str(j, "per", per_name(s), 8);
	json_u64(j, "tolerance_k", tlob_spec_tol_k(s));
	json_u64(j, "tolerance_w", tlob_spec_tol_w(s));
}

int tlob_alive_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len)
{
	return tlob_kind_spec_json(s, json_alive_terms, buf, len);
}

/* sum / n with two decimals, rounded half up ("9.98"); 0 when n is 0. */
static void jmean(struct jbuf *j, uint64_t sum, uint64_t n)
{
	uint64_t q = n ? sum / n : 0, frac = n ? ((sum % n) * 100 + n / 2) / n : 0;

	if (frac == 100) {
		q++;
		frac = 0;
	}
	ju64(j, q);
	jc(j, '.');
	jpad_u64(j, frac, 2, '0');
}

int tlob_alive_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	const struct tlob_alive_stats *a = &st->alive;

	json_begin(&j, "stats");
	json_alive_terms(&j, &st->spec);
	json_u64(&j, "cycles", a->cycles);
	json_u64(&j, "too_few", a->too_few);
	json_u64(&j, "too_many", a->too_many);
	json_u64(&j, "tolerated", a->tolerated);
	json_u64(&j, "aborted", a->aborted);
	json_u64(&j, "errors", a->errors);
	json_u64(&j, "dropped", a->dropped);
	json_u64(&j, "instances", a->instances);
	json_u64(&j, "min_checkpoints", a->min_checkpoints);
	json_u64(&j, "max_checkpoints", a->max_checkpoints);
	json_key(&j, "mean_checkpoints");
	jmean(&j, a->sum_checkpoints, a->cycles);
	json_u64(&j, "sum_checkpoints", a->sum_checkpoints);
	return json_end(&j);
}

void tlob_alive_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros)
{
	const struct tlob_alive_stats *a = &st->alive;
	char terms[96], mean[32];
	struct jbuf j = { mean, sizeof(mean), 0, false };

	(void)with_zeros;	/* no histogram: an alive binding counts checkpoints */
	fprintf(f, "binding %u: alive %s:0x%" PRIx64 " %s%s%.*s\n", st->spec.id, st->spec.path,
		st->spec.start, tlob_alive_terms(&st->spec, terms, sizeof(terms)),
		st->spec.tag[0] ? " tag=" : "", (int)sizeof(st->spec.tag), st->spec.tag);
	/* struct tlob_alive_stats is __u64: unsigned long long */
	fprintf(f, "  cycles=%llu too_few=%llu too_many=%llu errors=%llu aborted=%llu "
		"dropped=%llu instances=%llu", a->cycles, a->too_few, a->too_many, a->errors,
		a->aborted, a->dropped, a->instances);
	/* As a section's: a binding with a tolerance holds violations back. */
	if (st->spec.tol_w > 1 || a->tolerated)
		fprintf(f, " tolerated=%llu (tolerance %u/%u)", a->tolerated,
			tlob_spec_tol_k(&st->spec), tlob_spec_tol_w(&st->spec));
	fputc('\n', f);
	if (!a->cycles)
		return;
	jmean(&j, a->sum_checkpoints, a->cycles);
	jend(&j);
	fprintf(f, "  checkpoints per cycle min=%llu mean=%s max=%llu\n", a->min_checkpoints,
		mean, a->max_checkpoints);
}
