// SPDX-License-Identifier: GPL-2.0
/* tlob stats: the kernel's per-binding statistics and log2 latency histograms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"
#include "tlob.h"
#include "utils.h"

static const char *const stats_usage[] = {
	"usage: tlob stats [common options]",
	"",
	"  windows, violations, model errors, aborted windows, min/mean/max",
	"  elapsed and a log2 histogram of elapsed time, per binding",
	"  (with -j: one JSON object per binding)",
	NULL,
};

static int stats_run(struct tlob_params *params)
{
	struct tlob_binding_stats *st = NULL;
	struct tlob_backend be;
	size_t n = 0;
	int ret;

	tlob_require_root("tlob stats");
	if (tlob_open_backend(params, &be, false, false, false))
		return 1;
	ret = be.ops->stats ? be.ops->stats(&be, &st, &n) : -EOPNOTSUPP;
	if (ret) {
		tlob_print_error(&be, ret, "reading statistics");
		tlob_backend_close(&be);
		return 1;
	}
	if (!n && !params->json)
		printf("no bindings\n");
	for (size_t i = 0; i < n; i++) {
		tlob_stats_emit(&st[i], params->json);
	}
	free(st);
	tlob_backend_close(&be);
	return 0;
}

const struct tlob_command tlob_cmd_stats = {
	.name = "stats",
	.usage = stats_usage,
	.opts = TLOB_OPT_JSON,
	.run = stats_run,
};
