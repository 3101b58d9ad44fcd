// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands (tlob_<cmd>.c) share: opening the backend a command
 * line asks for. Outside tlob.c (main) so that the unit tests link it too.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "backend/messages.h"
#include "cmd/tlob.h"
#include "lib/units.h"
#include "lib/utils.h"

int tlob_open_backend(const struct tlob_params *params, struct tlob_backend *be,
		      bool reader, bool transitions, bool persist)
{
	struct tlob_backend_opts opts = {
		.control_root = params->control_root,
		.reader = reader,
		.reader_all = reader && !params->nr_specs,
		.transitions = transitions,
		.persist = persist,
		.buffer_kb = params->buffer_kb,
		.bpf_tasks = params->bpf_tasks,
		.flush_ns = params->flush_ns,
	};
	const struct tlob_backend_ops *named = tlob_backend_find(params->backend);
	int ret;

	/* Refuse before loading anything when the named backend cannot do it. */
	if (named && transitions && !(named->caps & TLOB_CAP_TRANSITIONS)) {
		fprintf(stderr, "tlob: the %s backend does not report state transitions (-t); "
			"use --backend kmod\n", named->name);
		return -1;
	}
	ret = tlob_backend_open(be, params->backend, &opts);
	if (ret) {
		tlob_print_error(be, ret, "cannot open the backend");
		return -1;
	}
	if (!strcmp(params->backend, "auto"))
		fprintf(stderr, "tlob: using the %s backend\n", be->ops->name);
	if (transitions && !(be->ops->caps & TLOB_CAP_TRANSITIONS)) {
		fprintf(stderr, "tlob: the %s backend does not report state transitions (-t); "
			"use --backend kmod\n", be->ops->name);
		tlob_backend_close(be);
		return -1;
	}
	return 0;
}
