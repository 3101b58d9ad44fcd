/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlob stats as fleet metrics: OpenMetrics 1.0 text, or the Prometheus
 * text format 0.0.4 that node_exporter's textfile collector reads. Per
 * binding, labelled binding (its id: two bindings of one section, with
 * other budgets or filters, are two series), path, start, stop (symbols
 * where the tool knows them, else file offsets), tag, and pid or tgid
 * where the binding has that filter:
 *
 *   tlob_windows_total, tlob_violations_total, tlob_model_errors_total,
 *   tlob_aborted_windows_total           counters
 *   tlob_budget_seconds                  gauge
 *   tlob_window_elapsed_seconds          histogram (_bucket{le}, _sum, _count)
 *   tlob_window_elapsed_{min,max,mean}_seconds   gauges, once a window ended
 *   tlob_bindings                        gauge, no labels
 *
 * and, when there is an alive binding, its own families (labelled binding,
 * path, checkpoint, tag and the filter; the families above leave it out):
 *
 *   tlob_alive_cycles_total, tlob_alive_too_few_total,
 *   tlob_alive_too_many_total, tlob_alive_tolerated_total,
 *   tlob_alive_aborted_total, tlob_alive_dropped_total   counters
 *   tlob_alive_period_seconds            gauge
 */
#ifndef TLOB_METRICS_H
#define TLOB_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"

enum tlob_metrics_format {
	TLOB_METRICS_OPENMETRICS,	/* counters' family without _total, # UNIT, # EOF */
	TLOB_METRICS_PROMETHEUS,	/* text 0.0.4 */
};

/*
 * The log2 buckets exported as le boundaries: bucket i holds
 * [2^i, 2^(i+1)) ns, so everything up to 2^(i+1) - 1 ns (elapsed is a
 * whole number of ns: le is exact). From 1.023us to 73 min, which holds
 * every budget (1us..1h); faster windows count in the first, slower ones
 * only in +Inf. One fixed set for every binding, so that buckets add up
 * across bindings and machines.
 */
#define TLOB_METRICS_FIRST_BUCKET	9
#define TLOB_METRICS_LAST_BUCKET	41

struct tlob_metric_binding {
	const struct tlob_binding_stats *st;
	uint64_t budget_ns;	/* 0: unknown (no tlob_budget_seconds sample) */
	const char *start;	/* label values: "frame_begin", "frame_begin+0x4" or "0x1139" */
	const char *stop;	/* ... or "ret" */
	int32_t pid, tgid;	/* the listing's filter (pid=, tgid=); 0: none */
};

/* "openmetrics", "prometheus" -> fmt; -1 if neither. */
int tlob_metrics_format_parse(const char *name);

/* Every family, each binding in it; returns ferror(f) ? -EIO : 0. */
int tlob_metrics_write(FILE *f, enum tlob_metrics_format fmt,
		       const struct tlob_metric_binding *b, size_t n);

/* ns as exact decimal seconds ("0.000001023", "2", "4398.046511103"). */
const char *tlob_metrics_seconds(uint64_t ns, char *buf, size_t len);

#endif /* TLOB_METRICS_H */
