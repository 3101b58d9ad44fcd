// SPDX-License-Identifier: GPL-2.0
/*
 * tlob bind / tlob unbind: persistent bindings. bind also enables the
 * monitor (a binding that never fires surprises people); unbind --all
 * removes every binding and disables it again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/monline.h"
#include "cmd/tlob.h"
#include "kinds/kind.h"
#include "lib/utils.h"
#include "output/output.h"
#include "section/section.h"

static const char *const bind_usage[] = {
	"usage: tlob bind -b SECTION... [-p PID] [--force-offset] [common options]",
	"       tlob bind --model FILE -e EVENT=PATH:SYMBOL... [--per process|task]",
	"                 [--tolerance K/W] [--tag NAME] [-p PID] [common options]",
	"",
	"  adds bindings that stay after tlob exits, and enables the monitor",
	"  -b, --bind SECTION   /path/app:frame_begin,frame_end,10ms (see tlob mon -h)",
	"      --model FILE     a model's order of events, logical supervision",
	"                       (see tlob mon -h); its events with -e EVENT=PATH:SYMBOL",
	"  -p, --pid PID        only this process",
	"      --force-offset   bind offsets tlob cannot check for an instruction",
	"                       boundary (in no function symbol, not x86-64)",
	"  prints the bindings it added (with -j: one JSON object each)",
	NULL,
};

static const char *const unbind_usage[] = {
	"usage: tlob unbind (-b SECTION... | -a) [common options]",
	"",
	"  -b, --bind SECTION   the binding to remove: PATH:START is enough",
	"                       (/path/app:frame_begin), a whole SECTION works too;",
	"                       a model's: PATH:OFFSET of the first event of its l line",
	"  -a, --all            remove every binding and disable the monitor",
	"  prints the bindings it removed (with -j: one JSON object each)",
	NULL,
};

static void print_spec(const struct tlob_params *params, const char *what,
		       const struct tlob_binding_spec *spec)
{
	char buf[PATH_MAX + 512];

	if (params->json) {
		if (tlob_spec_json(spec, buf, sizeof(buf)) > 0)
			puts(buf);
		return;
	}
	if (tlob_monline_format(spec, buf, sizeof(buf)))
		return;
	printf("%s id=%u %s\n", what, spec->id, buf);
}

static int bind_run(struct tlob_params *params)
{
	struct tlob_backend be;
	char why[1024];
	int ret = 0, err;

	if (!params->nr_specs)
		tlob_usage_error("bind: give at least one -b SECTION, or --model FILE");
	if (tlob_sections_distinct(params->specs, params->nr_specs, why, sizeof(why)))
		tlob_usage_error("%s", why);
	tlob_require_root("tlob bind");
	if (tlob_open_backend(params, &be, false, false, true))
		return 1;
	for (size_t i = 0; i < params->nr_specs; i++) {
		err = be.ops->bind(&be, &params->specs[i], &params->specs[i].id);
		if (err) {
			tlob_binding_error(&be, false, &params->specs[i], err);
			ret = 1;
			continue;
		}
		print_spec(params, "bound", &params->specs[i]);
	}
	err = be.ops->get_enable(&be);
	if (!ret && err == 0) {
		if (be.ops->set_enable(&be, true)) {
			tlob_print_error(&be, -EIO, "enabling");
			ret = 1;
		} else if (!params->json) {
			fprintf(stderr, "tlob: monitor enabled\n");
		}
	}
	tlob_backend_close(&be);
	return ret;
}

static int unbind_run(struct tlob_params *params)
{
	struct tlob_binding_spec *specs = params->specs;
	size_t n = params->nr_specs;
	struct tlob_backend be;
	int ret = 0, err;

	if (!n && !params->all)
		tlob_usage_error("unbind: give -b SECTION or --all");
	if (n && params->all)
		tlob_usage_error("unbind: -b and --all exclude each other");
	tlob_require_root("tlob unbind");
	if (tlob_open_backend(params, &be, false, false, true))
		return 1;
	if (params->all) {
		specs = NULL;
		err = be.ops->list(&be, &specs, &n);
		if (err) {
			tlob_print_error(&be, err, "listing bindings");
			tlob_backend_close(&be);
			return 1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		err = be.ops->unbind(&be, &specs[i]);
		if (err) {
			tlob_binding_error(&be, true, &specs[i], err);
			ret = 1;
			continue;
		}
		print_spec(params, "unbound", &specs[i]);
	}
	if (params->all) {
		free(specs);
		if (be.ops->get_enable(&be) == 1 && be.ops->set_enable(&be, false)) {
			tlob_print_error(&be, -EIO, "disabling");
			ret = 1;
		}
	}
	tlob_backend_close(&be);
	return ret;
}

const struct tlob_command tlob_cmd_bind = {
	.name = "bind",
	.usage = bind_usage,
	.opts = TLOB_OPT_BIND | TLOB_OPT_PID | TLOB_OPT_JSON | TLOB_OPT_FORCE_OFFSET |
		TLOB_OPT_MODEL,
	.run = bind_run,
};

const struct tlob_command tlob_cmd_unbind = {
	.name = "unbind",
	.usage = unbind_usage,
	.opts = TLOB_OPT_BIND | TLOB_OPT_ALL | TLOB_OPT_JSON,
	.section_start_only = true,
	.run = unbind_run,
};
