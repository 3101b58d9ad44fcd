/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The invariant glue (clocks, deadlines, timer arm/cancel) is the same
 * code for the kernel module and for BPF programs; only the types and the
 * includes differ. emit_kernel_ha.c and emit_bpf_ha.c pick a flavour.
 */
#ifndef RVGEN_EMIT_HA_H
#define RVGEN_EMIT_HA_H

#include "emit.h"

struct ha_flavour {
	const char *what;	/* "the kernel", "BPF programs" */
	const char *file_fmt;	/* "%s_model_ha.h" */
	enum rv_id guard;	/* its include guard */
	const char *u64;	/* "u64", "__u64" */
	const char *includes;	/* printed before the model header include */
};

int emit_ha(const struct model *m, FILE *out, const struct ha_flavour *f);

#endif /* RVGEN_EMIT_HA_H */
