// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics text formats, written by hand like JSON in output.c: the
 * lines are flat and few, and the rules that matter (label escaping, valid
 * UTF-8, cumulative buckets, each family's samples together, # EOF) are
 * checked by the tests with prometheus_client's own parsers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/utf8.h"
#include "output/metrics.h"

int tlob_metrics_format_parse(const char *name)
{
	if (!strcmp(name, "openmetrics"))
		return TLOB_METRICS_OPENMETRICS;
	if (!strcmp(name, "prometheus"))
		return TLOB_METRICS_PROMETHEUS;
	return -1;
}

const char *tlob_metrics_seconds(uint64_t ns, char *buf, size_t len)
{
	const uint64_t billion = 1000000000;
	uint64_t frac = ns % billion;
	int digits = 9;

	if (!frac) {
		snprintf(buf, len, "%" PRIu64, ns / billion);
		return buf;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64, ns / billion, digits, frac);
	return buf;
}

/*
 * A label value: backslash, double quote and newline escaped (the same
 * three in both formats), and what is not UTF-8 (a path in Latin-1) as
 * U+FFFD, since both formats are UTF-8.
 */
static void label_value(FILE *f, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strnlen(s, max), i = 0, len, bad;

	while (i < n) {
		if (u[i] < 0x80) {
			if (u[i] == '\\' || u[i] == '"')
				fprintf(f, "\\%c", u[i]);
			else if (u[i] == '\n')
				fputs("\\n", f);
			else
				fputc(u[i], f);
			i++;
			continue;
		}
		len = tlob_utf8_seq(u + i, n - i, &bad);
		if (len)
			fwrite(s + i, 1, len, f);
		else
			fputs("\xef\xbf\xbd", f);
		i += len ? len : bad;
	}
}

/*
 * {binding="ID",path="...",start="...",stop="...",tag="..."[,pid="N"|,tgid="N"][,le="..."]};
 * an alive binding's {binding="ID",path="...",checkpoint="...",tag="..."...},
 * a logical one's {binding="ID",path="...",model="...",tag="..."...}. The id
 * tells apart bindings of one section, which every other label may share.
 */
static void labels(FILE *f, const struct tlob_metric_binding *b, const char *le)
{
	const struct tlob_binding_spec *s = &b->st->spec;

	fprintf(f, "{binding=\"%" PRIu32 "\",path=\"", s->id);
	label_value(f, s->path, sizeof(s->path));
	fputs(s->alive ? "\",checkpoint=\"" : s->logic ? "\",model=\"" : "\",start=\"", f);
	if (s->logic)
		label_value(f, s->table.model, sizeof(s->table.model));
	else
		label_value(f, b->start, 256);
	if (!s->alive && !s->logic) {
		fputs("\",stop=\"", f);
		label_value(f, b->stop, 256);
	}
	fputs("\",tag=\"", f);
	label_value(f, b->st->spec.tag, sizeof(b->st->spec.tag));
	fputc('"', f);
	if (b->pid)
		fprintf(f, ",pid=\"%" PRId32 "\"", b->pid);
	else if (b->tgid)
		fprintf(f, ",tgid=\"%" PRId32 "\"", b->tgid);
	if (le)
		fprintf(f, ",le=\"%s\"", le);
	fputc('}', f);
}

enum kind { COUNTER, GAUGE, HISTOGRAM };

/*
 * The metadata of a family. OpenMetrics names a counter's family without
 * _total and its sample with it; text 0.0.4 has no families, so its TYPE
 * line names the sample.
 */
static void family(FILE *f, enum tlob_metrics_format fmt, const char *name, enum kind kind,
		   const char *unit, const char *help)
{
	static const char *const types[] = { "counter", "gauge", "histogram" };
	const char *suffix = kind == COUNTER && fmt == TLOB_METRICS_PROMETHEUS ? "_total" : "";

	fprintf(f, "# HELP %s%s %s\n", name, suffix, help);
	fprintf(f, "# TYPE %s%s %s\n", name, suffix, types[kind]);
	if (unit && fmt == TLOB_METRICS_OPENMETRICS)
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

/*
 * The families of a section (tlob_window_*, tlob_budget_seconds, ...) are
 * written for sections only, tlob_alive_* for alive bindings only,
 * tlob_logic_* for logical ones only: each binding's samples mean what
 * their family says.
 */
static bool in_family(const struct tlob_metric_binding *b, const char *name)
{
	return b->st->spec.alive == !strncmp(name, "tlob_alive_", 11) &&
	       b->st->spec.logic == !strncmp(name, "tlob_logic_", 11);
}

/* Whether a binding of the families starting with @prefix is there. */
static bool any_in(const struct tlob_metric_binding *b, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++)
		if (in_family(&b[i], prefix))
			return true;
	return false;
}

static void counter(FILE *f, enum tlob_metrics_format fmt, const char *name, const char *help,
		    const struct tlob_metric_binding *b, size_t n, size_t field)
{
	family(f, fmt, name, COUNTER, NULL, help);
	for (size_t i = 0; i < n; i++) {
		if (!in_family(&b[i], name))
			continue;
		fprintf(f, "%s_total", name);
		labels(f, &b[i], NULL);
		fprintf(f, " %" PRIu64 "\n", *(const uint64_t *)((const char *)b[i].st + field));
	}
}

/* Whether @field (an offset in struct tlob_binding_stats) is a term of the binding's spec. */
static bool spec_field(size_t field)
{
	/* Unsigned: an offset before spec wraps to a large value. */
	return field - offsetof(struct tlob_binding_stats, spec) <
	       sizeof(struct tlob_binding_spec);
}

/*
 * Gauges in seconds: @field of each binding in the family, or its budget
 * (SIZE_MAX). A term of the binding (its period) always; elapsed ones
 * only for bindings that ended a window (0 would be made up); the budget
 * only where there is one.
 */
static void seconds_gauge(FILE *f, enum tlob_metrics_format fmt, const char *name,
			  const char *help, const struct tlob_metric_binding *b, size_t n,
			  size_t field)
{
	char v[32];

	family(f, fmt, name, GAUGE, "seconds", help);
	for (size_t i = 0; i < n; i++) {
		uint64_t ns = field == SIZE_MAX ? b[i].budget_ns :
			      *(const uint64_t *)((const char *)b[i].st + field);

		if (!in_family(&b[i], name) ||
		    (field == SIZE_MAX ? !b[i].budget_ns :
		     !spec_field(field) && !b[i].st->stats.windows))
			continue;
		fputs(name, f);
		labels(f, &b[i], NULL);
		fprintf(f, " %s\n", tlob_metrics_seconds(ns, v, sizeof(v)));
	}
}

static void histogram(FILE *f, enum tlob_metrics_format fmt, const struct tlob_metric_binding *b,
		      size_t n)
{
	static const char name[] = "tlob_window_elapsed_seconds";
	char le[32], v[32];

	family(f, fmt, name, HISTOGRAM, "seconds",
	       "Elapsed wall-clock time of ended windows (log2 buckets)");
	for (size_t i = 0; i < n; i++) {
		const struct tlob_binding_stats *st = b[i].st;
		uint64_t cum = 0;
		int k = 0;

		if (!in_family(&b[i], name))
			continue;
		/* Buckets below the first boundary count in it: le is cumulative. */
		for (; k <= TLOB_METRICS_LAST_BUCKET; k++) {
			cum += st->stats.hist[k];
			if (k < TLOB_METRICS_FIRST_BUCKET)
				continue;
			fprintf(f, "%s_bucket", name);
			labels(f, &b[i], tlob_metrics_seconds((2ULL << k) - 1, le, sizeof(le)));
			fprintf(f, " %" PRIu64 "\n", cum);
		}
		for (; k < TLOB_HIST_BUCKETS; k++)
			cum += st->stats.hist[k];
		fprintf(f, "%s_bucket", name);
		labels(f, &b[i], "+Inf");
		fprintf(f, " %" PRIu64 "\n", cum);
		/* The +Inf bucket's count, which both formats require _count to equal. */
		fprintf(f, "%s_count", name);
		labels(f, &b[i], NULL);
		fprintf(f, " %" PRIu64 "\n", cum);
		fprintf(f, "%s_sum", name);
		labels(f, &b[i], NULL);
		fprintf(f, " %s\n", tlob_metrics_seconds(st->stats.sum_ns, v, sizeof(v)));
	}
}

/*
 * Alive supervision's families, only when an alive binding is there (a
 * fleet of sections reads as it did).
 */
static void alive_families(FILE *f, enum tlob_metrics_format fmt,
			   const struct tlob_metric_binding *b, size_t n)
{
	if (!any_in(b, n, "tlob_alive_"))
		return;
	counter(f, fmt, "tlob_alive_cycles", "Reference cycles of alive bindings judged", b, n,
		offsetof(struct tlob_binding_stats, alive.cycles));
	counter(f, fmt, "tlob_alive_too_few",
		"Cycles with fewer checkpoints than expect - margin", b, n,
		offsetof(struct tlob_binding_stats, alive.too_few));
	counter(f, fmt, "tlob_alive_too_many",
		"Cycles with more checkpoints than expect + margin", b, n,
		offsetof(struct tlob_binding_stats, alive.too_many));
	counter(f, fmt, "tlob_alive_tolerated",
		"Alive violations held back by the binding's tolerance= (no reaction)", b, n,
		offsetof(struct tlob_binding_stats, alive.tolerated));
	counter(f, fmt, "tlob_alive_aborted",
		"Alive instances ended by task exit or exec, unbind or disable", b, n,
		offsetof(struct tlob_binding_stats, alive.aborted));
	counter(f, fmt, "tlob_alive_dropped",
		"First checkpoints that found no free alive instance", b, n,
		offsetof(struct tlob_binding_stats, alive.dropped));
	seconds_gauge(f, fmt, "tlob_alive_period_seconds", "The alive binding's reference cycle",
		      b, n, offsetof(struct tlob_binding_stats, spec.period_ns));
}

/* Logical supervision's counters: the tlob_logic_stats members, one family each. */
#define LOGIC(member) offsetof(struct tlob_binding_stats, logic.member)
static const struct {
	const char *name, *help;
	size_t field;
} logic_counters[] = {
	{ "tlob_logic_instances", "Instances of logical bindings begun", LOGIC(instances) },
	{ "tlob_logic_events", "Events the models allowed", LOGIC(events) },
	{ "tlob_logic_completed", "Instances ended in a final state", LOGIC(completed) },
	{ "tlob_logic_order_violations", "Events the model does not allow in the instance's state",
	  LOGIC(order) },
	{ "tlob_logic_incomplete", "Instances whose process or task ended outside a final state",
	  LOGIC(incomplete) },
	{ "tlob_logic_timing_violations",
	  "Events the model allows in the instance's state, at a time its guard refuses",
	  LOGIC(timing) },
	{ "tlob_logic_tolerated",
	  "Logical violations held back by the binding's tolerance= (no reaction)",
	  LOGIC(tolerated) },
	{ "tlob_logic_aborted", "Instances ended by unbind or disable", LOGIC(aborted) },
	{ "tlob_logic_dropped", "First events that found no free instance", LOGIC(dropped) },
};

/* Logical supervision's families, only when a logical binding is there. */
static void logic_families(FILE *f, enum tlob_metrics_format fmt,
			   const struct tlob_metric_binding *b, size_t n)
{
	if (!any_in(b, n, "tlob_logic_"))
		return;
	for (size_t i = 0; i < sizeof(logic_counters) / sizeof(logic_counters[0]); i++)
		counter(f, fmt, logic_counters[i].name, logic_counters[i].help, b, n,
			logic_counters[i].field);
}

int tlob_metrics_write(FILE *f, enum tlob_metrics_format fmt,
		       const struct tlob_metric_binding *b, size_t n)
{
	family(f, fmt, "tlob_bindings", GAUGE, NULL, "Bindings the backend holds");
	fprintf(f, "tlob_bindings %zu\n", n);
	counter(f, fmt, "tlob_windows", "Windows ended, whatever their verdict", b, n,
		offsetof(struct tlob_binding_stats, stats.windows));
	counter(f, fmt, "tlob_violations", "Windows that overran their budget", b, n,
		offsetof(struct tlob_binding_stats, stats.violations));
	counter(f, fmt, "tlob_model_errors",
		"Windows ended by an event the model does not allow", b, n,
		offsetof(struct tlob_binding_stats, stats.errors));
	counter(f, fmt, "tlob_aborted_windows",
		"Windows that ended without STOP (task exit or exec, unbind, disable)", b, n,
		offsetof(struct tlob_binding_stats, stats.aborted));
	counter(f, fmt, "tlob_tolerated_violations",
		"Violations held back by the binding's tolerance= (no reaction)", b, n,
		offsetof(struct tlob_binding_stats, stats.tolerated));
	counter(f, fmt, "tlob_early_windows",
		"Windows that ended before their minimum (min=)", b, n,
		offsetof(struct tlob_binding_stats, stats.early));
	counter(f, fmt, "tlob_dropped_starts",
		"STARTs that opened no window: every window was in use", b, n,
		offsetof(struct tlob_binding_stats, stats.dropped));
	seconds_gauge(f, fmt, "tlob_budget_seconds", "The binding's budget", b, n, SIZE_MAX);
	histogram(f, fmt, b, n);
	seconds_gauge(f, fmt, "tlob_window_elapsed_min_seconds", "Shortest window", b, n,
		      offsetof(struct tlob_binding_stats, stats.min_ns));
	seconds_gauge(f, fmt, "tlob_window_elapsed_max_seconds", "Longest window", b, n,
		      offsetof(struct tlob_binding_stats, stats.max_ns));
	seconds_gauge(f, fmt, "tlob_window_elapsed_mean_seconds", "Mean window", b, n,
		      offsetof(struct tlob_binding_stats, mean_ns));
	alive_families(f, fmt, b, n);
	logic_families(f, fmt, b, n);
	if (fmt == TLOB_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}
