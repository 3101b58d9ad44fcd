// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands (tlob_<cmd>.c) share: opening the backend a command
 * line asks for, and wording its errors the same way for every backend.
 * Outside tlob.c (main) so that the unit tests link it too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tlob.h"

void tlob_print_error(const struct tlob_backend *be, int err, const char *what)
{
	if (be && be->err[0])
		fprintf(stderr, "tlob: %s\n", be->err);
	else
		fprintf(stderr, "tlob: %s: %s\n", what, strerror(err < 0 ? -err : err));
}

void tlob_binding_error(const struct tlob_backend *be, bool unbind,
			const struct tlob_binding_spec *spec, int err)
{
	const char *why = NULL;

	if (!unbind && err == -EEXIST)
		why = "binding already present: ";
	else if (unbind && err == -ENOENT)
		why = "no binding for ";
	else if (!unbind && err == -ERANGE)
		why = "budget out of range (1us..1h): ";
	else if (!unbind && err == -ENOSPC)
		why = "no room for another binding (the backend's table is full): ";
	if (!why) {
		tlob_print_error(be, err, unbind ? "removing a binding" : "adding a binding");
		return;
	}
	fprintf(stderr, "tlob: %s%s:0x%" PRIx64 "%s\n", why, spec->path, spec->start,
		!unbind && err == -EEXIST ? " (tlob unbind it first)" : "");
}

int tlob_open_backend(const struct tlob_params *params, struct tlob_backend *be,
		      bool reader, bool transitions, bool persist)
{
	struct tlob_backend_opts opts = {
		.control_root = params->control_root,
		.reader = reader,
		.transitions = transitions,
		.persist = persist,
		.buffer_kb = params->buffer_kb,
		.bpf_tasks = params->bpf_tasks,
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
