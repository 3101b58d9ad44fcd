// SPDX-License-Identifier: GPL-2.0
/*
 * The backend registry: which backends this tlob was built with, and the
 * --backend kmod|bpf|auto choice. auto takes the module when it is loaded
 * (it also works on kernels without BPF), else BPF. It sits above the
 * backends (kmod/, bpf/), which share only backend.c's helpers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"

#ifndef TLOB_HAVE_BPF
/*
 * Built without user/backend/bpf/backend_bpf.c: "bpf" exists as a name so that
 * --backend bpf and tlob list say plainly that it is not built, instead of
 * "unknown backend" or a silent fallback to the module.
 */
static int bpf_not_built(const char *control_root, char *why, size_t len)
{
	(void)control_root;
	snprintf(why, len, "this tlob was built without the BPF backend");
	return -ENOSYS;
}

static int bpf_open_not_built(struct tlob_backend *be,
			      const struct tlob_backend_opts *opts)
{
	(void)opts;
	return tlob_backend_err(be, ENOSYS,
				"this tlob was built without the BPF backend");
}

const struct tlob_backend_ops tlob_backend_bpf = {
	.name = "bpf",
	.desc = "BPF programs (not built)",
	.probe = bpf_not_built,
	.open = bpf_open_not_built,
};
#endif

const struct tlob_backend_ops *const tlob_backends[] = {
	&tlob_backend_kmod,
	&tlob_backend_bpf,
	NULL,
};

const struct tlob_backend_ops *tlob_backend_find(const char *name)
{
	for (int i = 0; tlob_backends[i]; i++)
		if (!strcmp(tlob_backends[i]->name, name))
			return tlob_backends[i];
	return NULL;
}

static int open_one(struct tlob_backend *be, const struct tlob_backend_ops *ops,
		    const struct tlob_backend_opts *opts)
{
	int ret;

	memset(be, 0, sizeof(*be));
	be->ops = ops;
	ret = ops->open(be, opts);
	if (ret < 0 && !be->err[0])
		snprintf(be->err, sizeof(be->err), "%s backend: %s",
			 ops->name, strerror(-ret));
	return ret;
}

int tlob_backend_open(struct tlob_backend *be, const char *name,
		      const struct tlob_backend_opts *opts)
{
	const char *root = opts ? opts->control_root : NULL;
	char why_kmod[256], why_bpf[256];
	const struct tlob_backend_ops *ops;

	if (strcmp(name, "auto")) {
		ops = tlob_backend_find(name);
		if (!ops) {
			memset(be, 0, sizeof(*be));
			return tlob_backend_err(be, EINVAL,
				"unknown backend '%s' (kmod, bpf or auto)", name);
		}
		return open_one(be, ops, opts);
	}

	if (!tlob_backend_kmod.probe(root, why_kmod, sizeof(why_kmod)))
		return open_one(be, &tlob_backend_kmod, opts);
	if (!tlob_backend_bpf.probe(root, why_bpf, sizeof(why_bpf)))
		return open_one(be, &tlob_backend_bpf, opts);

	memset(be, 0, sizeof(*be));
	return tlob_backend_err(be, ENODEV,
				"no backend usable: kmod: %s; bpf: %s",
				why_kmod, why_bpf);
}
