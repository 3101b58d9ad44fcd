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
#include <stdarg.h>
#include <string.h>

#include "names.h"
#include "output.h"
#include "units.h"
#include "utf8.h"

struct jbuf {
	char *buf;
	size_t len;
	size_t used;
	bool overflow;
};

static void jprintf(struct jbuf *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void jprintf(struct jbuf *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (j->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(j->buf + j->used, j->len - j->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= j->len - j->used) {
		j->overflow = true;
		return;
	}
	j->used += (size_t)n;
}

/* At most max bytes of s (fixed-size char arrays), escaped, without quotes. */
static void json_chars(struct jbuf *j, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strnlen(str, max), i = 0, len, bad;

	while (i < n) {
		unsigned char c = s[i];

		if (c < 0x80) {
			if (c == '"' || c == '\\')
				jprintf(j, "\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				jprintf(j, "\\u%04x", c);
			else
				jprintf(j, "%c", c);
			i++;
			continue;
		}
		len = tlob_utf8_seq(s + i, n - i, &bad);
		if (len)
			jprintf(j, "%.*s", (int)len, str + i);
		else
			jprintf(j, "\xef\xbf\xbd");	/* U+FFFD */
		i += len ? len : bad;
	}
}

/* "key":"escaped", at most max bytes of s. */
static void json_str(struct jbuf *j, const char *key, const char *s, size_t max)
{
	jprintf(j, "%s\"%s\":\"", j->used > 1 ? "," : "", key);
	json_chars(j, s, max);
	jprintf(j, "\"");
}

const char *tlob_json_escape(const char *s, char *out, size_t len)
{
	struct jbuf j = { out, len, 0, false };

	if (!len)
		return out;
	json_chars(&j, s, strlen(s));
	/* Cut after the last whole character or escape, never inside one. */
	out[j.used] = '\0';
	return out;
}

static void json_u64(struct jbuf *j, const char *key, uint64_t v)
{
	jprintf(j, "%s\"%s\":%" PRIu64, j->used > 1 ? "," : "", key, v);
}

static void json_s64(struct jbuf *j, const char *key, int64_t v)
{
	jprintf(j, "%s\"%s\":%" PRId64, j->used > 1 ? "," : "", key, v);
}

static void json_bool(struct jbuf *j, const char *key, bool v)
{
	jprintf(j, "%s\"%s\":%s", j->used > 1 ? "," : "", key, v ? "true" : "false");
}

static int json_end(struct jbuf *j)
{
	jprintf(j, "}");
	return j->overflow ? -ENOSPC : (int)j->used;
}

int tlob_record_json(const struct tlob_record *r, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	char name[64];

	jprintf(&j, "{");
	json_str(&j, "type", "record", 6);
	json_u64(&j, "start_ns", r->start_ns);
	json_u64(&j, "end_ns", r->end_ns);
	json_u64(&j, "budget_ns", r->budget_ns);
	json_u64(&j, "elapsed_ns", r->elapsed_ns);
	/* Where the time went and what happened: the model's states and events. */
	for (unsigned int s = 0; s < tlob_nr_states(); s++)
		if (tlob_state_timed(s))
			json_u64(&j, tlob_time_field(s, name, sizeof(name)), r->time_ns[s]);
	json_s64(&j, "detect_latency_ns", r->detect_latency_ns);
	json_u64(&j, "pid", r->pid);
	json_u64(&j, "tgid", r->tgid);
	json_u64(&j, "binding_id", r->binding_id);
	for (unsigned int e = 0; e < tlob_nr_events(); e++)
		if (tlob_event_counted(e))
			json_u64(&j, tlob_count_field(e, name, sizeof(name)), r->count[e]);
	json_u64(&j, "kind", r->kind);
	json_str(&j, "kind_name", tlob_kind_name(r->kind), 32);
	json_u64(&j, "verdict", r->verdict);
	json_str(&j, "verdict_name", tlob_verdict_name(r->verdict), 32);
	json_u64(&j, "abort_reason", r->abort_reason);
	json_str(&j, "abort_reason_name", tlob_abort_name(r->abort_reason), 32);
	json_u64(&j, "detector", r->detector);
	json_str(&j, "detector_name", tlob_detector_name(r->detector), 32);
	json_u64(&j, "state", r->state);
	json_str(&j, "state_name", tlob_state_name(r->state), 32);
	json_u64(&j, "event", r->event);
	json_str(&j, "event_name", tlob_event_name(r->event), 32);
	json_str(&j, "comm", r->comm, sizeof(r->comm));
	json_str(&j, "tag", r->tag, sizeof(r->tag));
	return json_end(&j);
}

int tlob_transition_json(const struct tlob_transition *tr, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	jprintf(&j, "{");
	json_str(&j, "type", "transition", 10);
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

static void json_spec_fields(struct jbuf *j, const struct tlob_binding_spec *s)
{
	json_u64(j, "id", s->id);
	json_str(j, "path", s->path, sizeof(s->path));
	json_u64(j, "start", s->start);
	if (s->stop_is_ret)
		json_str(j, "stop", "ret", 3);
	else
		json_u64(j, "stop", s->stop);
	json_str(j, "tag", s->tag, sizeof(s->tag));
}

int tlob_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };

	jprintf(&j, "{");
	json_str(&j, "type", "binding", 7);
	json_spec_fields(&j, s);
	json_u64(&j, "budget_ns", s->budget_ns);
	json_u64(&j, "pid", (uint64_t)s->pid);
	json_u64(&j, "tgid", (uint64_t)s->tgid);
	if (s->holders[0])
		json_str(&j, "holders", s->holders, sizeof(s->holders));
	return json_end(&j);
}

int tlob_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	bool first = true;

	jprintf(&j, "{");
	json_str(&j, "type", "stats", 5);
	json_spec_fields(&j, &st->spec);
	json_u64(&j, "windows", st->stats.windows);
	json_u64(&j, "violations", st->stats.violations);
	json_u64(&j, "errors", st->stats.errors);
	json_u64(&j, "aborted", st->stats.aborted);
	json_u64(&j, "dropped", st->stats.dropped);
	json_u64(&j, "min_ns", st->stats.min_ns);
	json_u64(&j, "max_ns", st->stats.max_ns);
	json_u64(&j, "mean_ns", st->mean_ns);
	json_u64(&j, "sum_ns", st->stats.sum_ns);
	/* Buckets by log2 index, only the non-empty ones (as the kernel lists them). */
	jprintf(&j, ",\"hist\":{");
	for (int i = 0; i < TLOB_HIST_BUCKETS; i++) {
		if (!st->stats.hist[i])
			continue;
		jprintf(&j, "%s\"%d\":%llu", first ? "" : ",", i, st->stats.hist[i]);
		first = false;
	}
	jprintf(&j, "}");
	return json_end(&j);
}

const char *tlob_fmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3fs", (double)ns / 1e9);
	return buf;
}

void tlob_record_print(FILE *f, const struct tlob_record *r)
{
	char b[6][32];
	const char *what;

	if (r->kind == TLOB_REC_DROPPED) {
		fprintf(f, "%-14s %.*s-%u tgid=%u binding=%u%s%.*s budget=%s: START opened no "
			"window, every window was in use\n", "DROPPED", (int)sizeof(r->comm),
			r->comm[0] ? r->comm : "?", r->pid, r->tgid, r->binding_id,
			r->tag[0] ? " tag=" : "", (int)sizeof(r->tag), r->tag,
			tlob_fmt_budget(r->budget_ns, b[0], sizeof(b[0])));
		return;
	}
	if (r->kind == TLOB_REC_VIOLATION)
		what = "VIOLATION";
	else if (r->verdict == TLOB_VERDICT_OK)
		what = "window ok";
	else
		what = r->verdict == TLOB_VERDICT_OVER_BUDGET ? "window OVER" :
		       r->verdict == TLOB_VERDICT_MODEL_ERROR ? "window ERROR" :
		       "window aborted";

	fprintf(f, "%-14s %.*s-%u tgid=%u binding=%u%s%.*s budget=%s elapsed=%s",
		what, (int)sizeof(r->comm), r->comm[0] ? r->comm : "?", r->pid, r->tgid, r->binding_id,
		r->tag[0] ? " tag=" : "", (int)sizeof(r->tag), r->tag,
		tlob_fmt_budget(r->budget_ns, b[0], sizeof(b[0])),
		tlob_fmt_ns(r->elapsed_ns, b[1], sizeof(b[1])));
	/* Time per state and count per event, by the model's names. */
	for (unsigned int s = 0; s < tlob_nr_states(); s++)
		if (tlob_state_timed(s))
			fprintf(f, " %s=%s", tlob_state_name(s),
				tlob_fmt_ns(r->time_ns[s], b[2], sizeof(b[2])));
	for (unsigned int e = 0; e < tlob_nr_events(); e++)
		if (tlob_event_counted(e))
			fprintf(f, " %s=%u", tlob_event_name(e), r->count[e]);
	if (r->verdict == TLOB_VERDICT_OVER_BUDGET || r->kind == TLOB_REC_VIOLATION)
		fprintf(f, " detector=%s latency=%s", tlob_detector_name(r->detector),
			r->detect_latency_ns >= 0 ?
			tlob_fmt_ns((uint64_t)r->detect_latency_ns, b[5], sizeof(b[5])) : "<0");
	if (r->verdict == TLOB_VERDICT_ABORTED)
		fprintf(f, " reason=%s", tlob_abort_name(r->abort_reason));
	if (r->verdict == TLOB_VERDICT_MODEL_ERROR)
		fprintf(f, " (event %s not expected in state %s)",
			tlob_event_name(r->event), tlob_state_name(r->state));
	fputc('\n', f);
}

/* rv's columns: <TASK>-PID [CPU] TYPE [ID] STATE x EVENT -> NEXT_STATE FINAL */
void tlob_transition_print(FILE *f, const struct tlob_transition *tr)
{
	fprintf(f, "%16.*s [%03d] %s [%d] %s x %s",
		(int)sizeof(tr->comm), tr->comm[0] ? tr->comm : "<...>", tr->cpu,
		tr->error ? "error" : "event", tr->id,
		tlob_state_name(tr->state), tlob_event_name(tr->event));
	if (tr->error)
		fprintf(f, " (not expected)\n");
	else
		fprintf(f, " -> %s%s\n", tlob_state_name(tr->next_state),
			tr->final ? " (final)" : "");
}

void tlob_stats_print(FILE *f, const struct tlob_binding_stats *st)
{
	char b[3][32], stop[32];
	uint64_t peak = 0;
	int lo = -1, hi = -1;

	if (st->spec.stop_is_ret)
		snprintf(stop, sizeof(stop), "ret");
	else
		snprintf(stop, sizeof(stop), "0x%" PRIx64, st->spec.stop);
	fprintf(f, "binding %u: %s:0x%" PRIx64 " %s%s%.*s\n", st->spec.id, st->spec.path,
		st->spec.start, stop, st->spec.tag[0] ? " tag=" : "",
		(int)sizeof(st->spec.tag), st->spec.tag);
	/* struct tlob_stats is __u64: unsigned long long */
	fprintf(f, "  windows=%llu violations=%llu errors=%llu aborted=%llu dropped=%llu\n",
		st->stats.windows,
		st->stats.violations, st->stats.errors, st->stats.aborted, st->stats.dropped);
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

		fprintf(f, "  %12s .. %-12s %10llu |%.*s\n",
			tlob_fmt_ns(1ULL << i, b[0], sizeof(b[0])),
			i < 63 ? tlob_fmt_ns(1ULL << (i + 1), b[1], sizeof(b[1])) : "inf",
			st->stats.hist[i], bar,
			"****************************************");
	}
}

void tlob_stats_emit(const struct tlob_binding_stats *st, bool json)
{
	char buf[4096];

	if (!json)
		tlob_stats_print(stdout, st);
	else if (tlob_stats_json(st, buf, sizeof(buf)) > 0)
		puts(buf);
}
