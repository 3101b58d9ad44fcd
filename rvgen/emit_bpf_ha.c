// SPDX-License-Identifier: GPL-2.0
/*
 * Invariant glue for BPF programs: __u64 and bool come from vmlinux.h,
 * which the program includes first. The model header is included by its
 * name, like the kernel flavour does, so that what `rvgen -o DIR` writes
 * compiles from DIR; the tree's BPF build finds kernel/tlob_model.h from
 * kernel/bpf/ through its -Ikernel.
 */
#include "emit_ha.h"

static const struct ha_flavour bpf = {
	.what = "BPF programs (after vmlinux.h)",
	.guard = RV_ID_GUARD_BPF_HA,
	.file_fmt = "%s_model_ha.bpf.h",
	.u64 = "__u64",
	.includes = "",
};

int emit_bpf_ha(const struct model *m, FILE *out)
{
	return emit_ha(m, out, &bpf);
}
