// SPDX-License-Identifier: GPL-2.0
/* tlob list: the backends this tlob has, whether each can run, and its state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/tlob.h"
#include "lib/utils.h"
#include "output/colour.h"
#include "output/output.h"

static const char *const list_usage[] = {
	"usage: tlob list [common options]",
	"",
	"  lists the tlob backends, whether each is usable here (and why not),",
	"  and for a usable one: enabled or not, reactor, number of bindings and",
	"  the overrun detector it runs on this kernel (the BPF backend loads its",
	"  programs to let the verifier decide, then unloads them)",
	"  (with -j: one JSON object per backend); --backend kmod|bpf lists that",
	"  one alone, and touches no other (listing BPF loads its programs)",
	NULL,
};

static int list_run(struct tlob_params *params)
{
	bool colour = !params->json && tlob_colour_wanted(params->colour, stdout);

	tlob_require_root("tlob list");

	if (!params->json)
		printf("%-6s %-6s %-7s %-9s %-9s %-10s %s\n", "name", "usable", "enabled",
		       "reactor", "bindings", "detector", "description");
	for (int i = 0; tlob_backends[i]; i++) {
		const struct tlob_backend_ops *ops = tlob_backends[i];
		struct tlob_backend_opts opts = { .control_root = params->control_root };
		struct tlob_binding_spec *specs = NULL;
		struct tlob_backend be;
		char why[sizeof(be.err)] = "", reactor[64] = "-", esc[1024], reactor_esc[400];
		char det[16] = "-", detail[512] = "", desc[sizeof(detail)], desc_esc[1024];
		int enabled = -1;
		size_t n = 0;
		bool usable;

		if (params->backend_given && strcmp(params->backend, "auto") &&
		    strcmp(params->backend, ops->name))
			continue;
		usable = !ops->probe(params->control_root, why, sizeof(why));
		if (usable && !tlob_backend_open(&be, ops->name, &opts)) {
			enabled = ops->get_enable ? ops->get_enable(&be) : -1;
			if (ops->get_reactor && ops->get_reactor(&be, reactor, sizeof(reactor)))
				snprintf(reactor, sizeof(reactor), "-");
			if (!ops->list || ops->list(&be, &specs, &n))
				n = 0;
			free(specs);
			if (ops->detector &&
			    ops->detector(&be, det, sizeof(det), detail, sizeof(detail))) {
				snprintf(det, sizeof(det), "-");
				snprintf(detail, sizeof(detail), "cannot tell: %.480s", be.err);
			}
			tlob_backend_close(&be);
		} else if (usable) {
			usable = false;
			snprintf(why, sizeof(why), "%s", be.err);
		}

		/* What this kernel runs says more than the generic description. */
		snprintf(desc, sizeof(desc), "%s", !usable ? why : *detail ? detail : ops->desc);
		if (params->json) {
			tlob_json_escape(usable ? ops->desc : why, esc, sizeof(esc));
			tlob_json_escape(detail, desc_esc, sizeof(desc_esc));
			tlob_json_escape(reactor, reactor_esc, sizeof(reactor_esc));
			printf("{\"type\":\"backend\",\"name\":\"%s\",\"usable\":%s,\"enabled\":%s,"
			       "\"reactor\":\"%s\",\"bindings\":%zu,\"transitions\":%s,"
			       "\"detector\":\"%s\",\"detector_detail\":\"%s\",\"%s\":\"%s\"}\n",
			       ops->name, usable ? "true" : "false",
			       enabled == 1 ? "true" : "false", reactor_esc, n,
			       ops->caps & TLOB_CAP_TRANSITIONS ? "true" : "false",
			       det, desc_esc, usable ? "description" : "reason", esc);
			continue;
		}
		printf("%-6s ", ops->name);
		tlob_colour_fputs(stdout, colour, usable ? TLOB_COLOUR_GOOD : TLOB_COLOUR_BAD,
				  usable ? "yes" : "no", 6);
		printf(" %-7s %-9s %-9zu %-10s %s\n",
		       enabled < 0 ? "-" : enabled ? "[ON]" : "[OFF]", reactor, n, det, desc);
	}
	return 0;
}

const struct tlob_command tlob_cmd_list = {
	.name = "list",
	.usage = list_usage,
	.opts = TLOB_OPT_JSON | TLOB_OPT_COLOR,
	.run = list_run,
};
