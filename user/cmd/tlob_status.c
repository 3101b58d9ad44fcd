// SPDX-License-Identifier: GPL-2.0
/*
 * tlob status: enabled or not, the reactor, and every binding (never
 * truncated) with who holds it: "monitor" (tlob bind, tlob apply) and
 * "PID:COMM" for each session (a running tlob mon); the bindings only
 * sessions hold follow the persistent ones.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/monline.h"
#include "cmd/tlob.h"
#include "kinds/kind.h"
#include "lib/utils.h"
#include "output/colour.h"
#include "output/output.h"

static const char *const status_usage[] = {
	"usage: tlob status [common options]",
	"",
	"  enabled, reactor and every binding with its holders: monitor (tlob bind)",
	"  and PID:COMM of each session (tlob mon) (with -j: one JSON object for the",
	"  state, then one per binding); on BPF also, once some window got no",
	"  overrun timer since the monitor was loaded, how many (\"untimed\")",
	NULL,
};

/*
 * Bindings that only sessions hold (in stats, not in the monitor listing),
 * appended to specs; their new count in *n. A statistics file the caller
 * may not read is its error (the bindings it would show are unknown);
 * any other failure leaves the listing as it is.
 */
static int session_only(struct tlob_backend *be, struct tlob_binding_spec **specs, size_t *n)
{
	struct tlob_binding_stats *st = NULL;
	struct tlob_binding_spec *v;
	size_t nst = 0, k = *n;
	int ret = be->ops->stats ? be->ops->stats(be, &st, &nst) : -EOPNOTSUPP;

	if (tlob_err_denied(ret))
		return ret;
	if (ret) {
		be->err[0] = '\0';
		return 0;
	}
	for (size_t i = 0; i < nst; i++) {
		bool listed = false;

		for (size_t j = 0; j < *n && !listed; j++)
			listed = (*specs)[j].id && (*specs)[j].id == st[i].spec.id;
		/*
		 * Only what the module lists with its terms (budget, alive's, a
		 * model's name) and holders.
		 */
		if (listed || (!st[i].spec.budget_ns && !st[i].spec.alive && !st[i].spec.logic) ||
		    !st[i].spec.holders[0])
			continue;
		v = realloc(*specs, (k + 1) * sizeof(**specs));
		if (!v)
			break;
		*specs = v;
		v[k++] = st[i].spec;
	}
	free(st);
	*n = k;
	return 0;
}

/*
 * The current reactor and the list of them into their buffers, "-" and ""
 * where the backend has none to tell; a file the caller may not read is
 * an error.
 */
static int read_reactors(struct tlob_backend *be, char *reactor, size_t rlen, char *reactors,
			 size_t len)
{
	int ret = be->ops->get_reactor ? be->ops->get_reactor(be, reactor, rlen) : 0;

	if (tlob_err_denied(ret))
		return ret;
	if (ret)
		snprintf(reactor, rlen, "-");
	ret = be->ops->list_reactors ? be->ops->list_reactors(be, reactors, len) : 0;
	if (tlob_err_denied(ret))
		return ret;
	if (ret)
		reactors[0] = '\0';
	be->err[0] = '\0';
	return 0;
}

static int status_run(struct tlob_params *params)
{
	struct tlob_binding_spec *specs = NULL;
	char reactor[64] = "-", reactors[256] = "", buf[PATH_MAX + 512];
	struct tlob_backend be;
	uint64_t untimed = 0;
	int enabled, ret;
	size_t n = 0;

	if (tlob_open_backend(params, &be, false, false, false))
		return 1;
	enabled = be.ops->get_enable(&be);
	if (enabled < 0) {
		tlob_print_error(&be, enabled, "reading enable");
		tlob_backend_close(&be);
		return 1;
	}
	ret = read_reactors(&be, reactor, sizeof(reactor), reactors, sizeof(reactors));
	if (!ret)
		ret = be.ops->list(&be, &specs, &n);
	if (!ret)
		ret = session_only(&be, &specs, &n);
	if (ret) {
		tlob_print_error(&be, ret, "listing bindings");
		free(specs);
		tlob_backend_close(&be);
		return 1;
	}
	/* Only when it happened: a sound monitor's status keeps its form for scripts. */
	if (be.ops->untimed)
		be.ops->untimed(&be, false, &untimed);
	if (params->json) {
		char r_esc[sizeof(reactor) * 6], rs_esc[sizeof(reactors) * 6];

		printf("{\"type\":\"status\",\"backend\":\"%s\",\"enabled\":%s,\"reactor\":\"%s\","
		       "\"reactors\":\"%s\",\"bindings\":%zu", be.ops->name,
		       enabled ? "true" : "false",
		       tlob_json_escape(reactor, r_esc, sizeof(r_esc)),
		       tlob_json_escape(reactors, rs_esc, sizeof(rs_esc)), n);
		if (untimed)
			printf(",\"untimed\":%" PRIu64, untimed);
		printf("}\n");
	} else {
		printf("backend: %s\nenabled: ", be.ops->name);
		tlob_colour_fputs(stdout, tlob_colour_wanted(params->colour, stdout),
				  enabled ? TLOB_COLOUR_GOOD : TLOB_COLOUR_BAD, enabled ? "yes" : "no", 0);
		printf("\nreactor: %s (of %s)\nbindings: %zu\n", reactor, reactors, n);
		if (untimed)
			printf("untimed: %" PRIu64 " window(s) since the monitor was loaded got no "
			       "overrun timer (their overruns found late, at a switch or at STOP)\n",
			       untimed);
	}
	for (size_t i = 0; i < n; i++) {
		if (params->json) {
			if (tlob_spec_json(&specs[i], buf, sizeof(buf)) > 0)
				puts(buf);
		} else if (!tlob_monline_format(&specs[i], buf, sizeof(buf))) {
			printf("  id=%u %s%s%s\n", specs[i].id, buf,
			       specs[i].holders[0] ? " holders=" : "", specs[i].holders);
		} else if (specs[i].logic) {
			/* A session's model, known from its statistics: no table. */
			printf("  id=%u l %s:0x%llx model=%s per=%s%s%s%s%s\n", specs[i].id,
			       specs[i].path, (unsigned long long)specs[i].start,
			       specs[i].table.model,
			       specs[i].per == TLOB_PER_TASK ? "task" : "process",
			       specs[i].tag[0] ? " tag=" : "", specs[i].tag,
			       specs[i].holders[0] ? " holders=" : "", specs[i].holders);
		}
	}
	free(specs);
	tlob_backend_close(&be);
	return 0;
}

const struct tlob_command tlob_cmd_status = {
	.name = "status",
	.usage = status_usage,
	.opts = TLOB_OPT_JSON | TLOB_OPT_COLOR,
	.run = status_run,
};
