// SPDX-License-Identifier: GPL-2.0
/* tlob status: enabled or not, the reactor, and every binding (never truncated). */
#include <stdio.h>
#include <stdlib.h>

#include "monline.h"
#include "output.h"
#include "tlob.h"
#include "utils.h"

static const char *const status_usage[] = {
	"usage: tlob status [common options]",
	"",
	"  enabled, reactor and every binding (with -j: one JSON object for the",
	"  state, then one per binding)",
	NULL,
};

static int status_run(struct tlob_params *params)
{
	struct tlob_binding_spec *specs = NULL;
	char reactor[64] = "-", reactors[256] = "", buf[PATH_MAX + 512];
	struct tlob_backend be;
	int enabled, ret;
	size_t n = 0;

	tlob_require_root("tlob status");
	if (tlob_open_backend(params, &be, false, false, false))
		return 1;
	enabled = be.ops->get_enable(&be);
	if (enabled < 0) {
		tlob_print_error(&be, enabled, "reading enable");
		tlob_backend_close(&be);
		return 1;
	}
	if (be.ops->get_reactor && be.ops->get_reactor(&be, reactor, sizeof(reactor)))
		snprintf(reactor, sizeof(reactor), "-");
	if (be.ops->list_reactors && be.ops->list_reactors(&be, reactors, sizeof(reactors)))
		reactors[0] = '\0';
	ret = be.ops->list(&be, &specs, &n);
	if (ret) {
		tlob_print_error(&be, ret, "listing bindings");
		tlob_backend_close(&be);
		return 1;
	}
	if (params->json) {
		char r_esc[sizeof(reactor) * 6], rs_esc[sizeof(reactors) * 6];

		printf("{\"type\":\"status\",\"backend\":\"%s\",\"enabled\":%s,\"reactor\":\"%s\","
		       "\"reactors\":\"%s\",\"bindings\":%zu}\n", be.ops->name,
		       enabled ? "true" : "false",
		       tlob_json_escape(reactor, r_esc, sizeof(r_esc)),
		       tlob_json_escape(reactors, rs_esc, sizeof(rs_esc)), n);
	} else {
		printf("backend: %s\nenabled: %s\nreactor: %s (of %s)\nbindings: %zu\n",
		       be.ops->name, enabled ? "yes" : "no", reactor, reactors, n);
	}
	for (size_t i = 0; i < n; i++) {
		if (params->json) {
			if (tlob_spec_json(&specs[i], buf, sizeof(buf)) > 0)
				puts(buf);
		} else if (!tlob_monline_format(&specs[i], buf, sizeof(buf))) {
			printf("  id=%u %s\n", specs[i].id, buf);
		}
	}
	free(specs);
	tlob_backend_close(&be);
	return 0;
}

const struct tlob_command tlob_cmd_status = {
	.name = "status",
	.usage = status_usage,
	.opts = TLOB_OPT_JSON,
	.run = status_run,
};
