// SPDX-License-Identifier: GPL-2.0
/*
 * tlob stats: the kernel's per-binding statistics and log2 latency
 * histograms, readable, as JSON, or as fleet metrics (metrics.c), on
 * stdout or replacing a file atomically, once or every --interval.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/tlob.h"
#include "config/atomic.h"
#include "kinds/kind.h"
#include "lib/utils.h"
#include "output/metrics.h"
#include "output/output.h"
#include "section/elfsym.h"

static const char *const stats_usage[] = {
	"usage: tlob stats [--format FMT] [-o FILE [--interval DURATION]] [--with-zeros]",
	"                  [common options]",
	"",
	"  windows, violations, model errors, aborted windows, min/mean/max",
	"  elapsed and a log2 histogram of elapsed time, per binding; for an alive",
	"  binding its cycles, too few, too many, aborted instances and min/mean/max",
	"  checkpoints per cycle; for a model's binding (--model) its instances,",
	"  events, completed instances, order and incomplete violations",
	"      --format FMT       text (default), json (one object per binding, as -j),",
	"                         openmetrics (OpenMetrics 1.0) or prometheus (text",
	"                         0.0.4, what node_exporter's textfile collector reads)",
	"  -o, --output FILE      replace FILE atomically (a temporary file beside it,",
	"                         renamed over it) instead of writing to stdout",
	"      --interval D       with -o: rewrite FILE every D (15s, 1m) until",
	"                         SIGINT/SIGTERM",
	"      --with-zeros       text: the histogram's empty buckets between its filled",
	"                         ones too (default: filled buckets only)",
	NULL,
};

enum { FMT_TEXT = 100, FMT_JSON };

static int parse_format(const struct tlob_params *params)
{
	int fmt;

	if (!params->format)
		return params->json ? FMT_JSON : FMT_TEXT;
	if (!strcmp(params->format, "text"))
		fmt = FMT_TEXT;
	else if (!strcmp(params->format, "json"))
		fmt = FMT_JSON;
	else
		fmt = tlob_metrics_format_parse(params->format);
	if (fmt < 0)
		tlob_usage_error("stats: unknown format '%s' (text, json, openmetrics, prometheus)",
				 params->format);
	if (params->json && fmt != FMT_JSON)
		tlob_usage_error("stats: -j and --format %s exclude each other", params->format);
	return fmt;
}

/* START/STOP as label values: the symbol there now, else the offset. */
static void end_label(const char *path, uint64_t off, char *buf, size_t len)
{
	if (tlob_elf_symbolize(path, off, buf, len))
		snprintf(buf, len, "0x%" PRIx64, off);
}

/* The listing, for the metrics' budgets (with fmt text or json: none). */
struct listing {
	struct tlob_binding_spec *specs;
	size_t n;
};

/*
 * Read the listing the metrics take their budgets from. Without it, no
 * budget sample; but a listing the caller may not read is an error, not
 * a budget quietly left out. 0 or TLOB_EXIT_ERROR.
 */
static int read_listing(int fmt, struct tlob_backend *be, struct listing *l)
{
	int ret;

	l->specs = NULL;
	l->n = 0;
	if (fmt == FMT_TEXT || fmt == FMT_JSON)
		return 0;
	ret = be->ops->list(be, &l->specs, &l->n);
	if (tlob_err_denied(ret)) {
		tlob_print_error(be, ret, "listing bindings");
		return TLOB_EXIT_ERROR;
	}
	if (ret)
		l->n = 0;
	return 0;
}

static int write_metrics(FILE *f, int fmt, const struct listing *l,
			 const struct tlob_binding_stats *st, size_t n)
{
	const struct tlob_binding_spec *specs = l->specs;
	struct tlob_metric_binding *mb;
	char (*names)[2][256];
	size_t nspecs = l->n;
	int ret;

	mb = calloc(n + 1, sizeof(*mb));
	names = calloc(n + 1, sizeof(*names));
	if (!mb || !names) {
		free(mb);
		free(names);
		return -ENOMEM;
	}
	/* The budget is in the listing (read_listing()), not in the statistics. */
	for (size_t i = 0; i < n; i++) {
		const struct tlob_binding_spec *s = &st[i].spec;

		mb[i].st = &st[i];
		/*
		 * An alive binding's START is its checkpoint, its only label but
		 * the tag; a logical binding's labels are its model and tag.
		 */
		end_label(s->path, s->start, names[i][0], sizeof(names[i][0]));
		if (s->stop_is_ret || s->alive || s->logic)
			snprintf(names[i][1], sizeof(names[i][1]),
				 s->alive || s->logic ? "" : "ret");
		else
			end_label(s->path, s->stop, names[i][1], sizeof(names[i][1]));
		mb[i].start = names[i][0];
		mb[i].stop = names[i][1];
		/* The listing's binding of the same id: its budget and filter are this one's. */
		for (size_t j = 0; j < nspecs; j++)
			if (specs[j].id && specs[j].id == s->id) {
				mb[i].budget_ns = specs[j].budget_ns;
				mb[i].pid = specs[j].pid;
				mb[i].tgid = specs[j].tgid;
			}
	}
	ret = tlob_metrics_write(f, (enum tlob_metrics_format)fmt, mb, n);
	free(names);
	free(mb);
	return ret;
}

static int write_stats(FILE *f, int fmt, const struct tlob_params *params,
		       const struct listing *l, const struct tlob_binding_stats *st, size_t n)
{
	char buf[PATH_MAX + 2048];

	if (fmt != FMT_TEXT && fmt != FMT_JSON)
		return write_metrics(f, fmt, l, st, n);
	if (!n && fmt == FMT_TEXT)
		fprintf(f, "no bindings\n");
	for (size_t i = 0; i < n; i++) {
		if (fmt == FMT_TEXT)
			tlob_stats_print(f, &st[i], params->with_zeros);
		else if (tlob_stats_json(&st[i], buf, sizeof(buf)) > 0)
			fprintf(f, "%s\n", buf);
	}
	return ferror(f) ? -EIO : 0;
}

/* One round: read the statistics, write them where asked. 0 or TLOB_EXIT_ERROR. */
static int stats_once(const struct tlob_params *params, int fmt, struct tlob_backend *be)
{
	struct tlob_binding_stats *st = NULL;
	char err[PATH_MAX + 128];
	struct tlob_atomic a;
	struct listing l;
	size_t n = 0;
	int ret;

	ret = be->ops->stats ? be->ops->stats(be, &st, &n) : -EOPNOTSUPP;
	if (ret) {
		tlob_print_error(be, ret, "reading statistics");
		return TLOB_EXIT_ERROR;
	}
	if (read_listing(fmt, be, &l)) {
		free(st);
		return TLOB_EXIT_ERROR;
	}
	if (!params->output) {
		ret = write_stats(stdout, fmt, params, &l, st, n);
		free(l.specs);
		free(st);
		return ret ? TLOB_EXIT_ERROR : TLOB_EXIT_OK;
	}
	ret = tlob_atomic_open(&a, params->output, err, sizeof(err));
	if (!ret && write_stats(a.f, fmt, params, &l, st, n)) {
		tlob_atomic_abort(&a);
		snprintf(err, sizeof(err), "cannot write %s", TLOB_SHOWN(params->output));
		ret = -EIO;
	} else if (!ret) {
		ret = tlob_atomic_commit(&a, err, sizeof(err));
	}
	free(l.specs);
	free(st);
	if (ret) {
		fprintf(stderr, "tlob: %s\n", err);
		return TLOB_EXIT_ERROR;
	}
	return TLOB_EXIT_OK;
}

/* Sleep ns, or less when SIGINT/SIGTERM arrives (they stay blocked outside ppoll). */
static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	ppoll(NULL, 0, &ts, tlob_wait_sigmask());
}

static int stats_run(struct tlob_params *params)
{
	int fmt = parse_format(params), ret;
	struct tlob_backend be;

	if (params->interval_ns && !params->output)
		tlob_usage_error("stats: --interval rewrites a file: give -o FILE");
	if (params->interval_ns)
		tlob_signals_setup();
	if (tlob_open_backend(params, &be, false, false, false))
		return TLOB_EXIT_ERROR;
	do {
		ret = stats_once(params, fmt, &be);
		if (ret || !params->interval_ns)
			break;
		nap(params->interval_ns);
	} while (!tlob_should_stop());
	tlob_backend_close(&be);
	return ret;
}

const struct tlob_command tlob_cmd_stats = {
	.name = "stats",
	.usage = stats_usage,
	.opts = TLOB_OPT_JSON | TLOB_OPT_FORMAT | TLOB_OPT_OUTPUT | TLOB_OPT_INTERVAL |
		TLOB_OPT_WITH_ZEROS,
	.run = stats_run,
};
