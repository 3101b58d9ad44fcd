// SPDX-License-Identifier: GPL-2.0
/*
 * Invariant glue for BPF programs: __u64 and bool come from vmlinux.h,
 * which the program includes first; the header lives in kernel/bpf/, one
 * directory below the shared model header.
 */
#include "emit_ha.h"

static const struct ha_flavour bpf = {
	.what = "BPF programs (after vmlinux.h)",
	.file_fmt = "%s_model_ha.bpf.h",
	.u64 = "__u64",
	.includes = "",
	.model_fmt = "\"../%s_model.h\"",
};

int emit_bpf_ha(const struct model *m, FILE *out)
{
	return emit_ha(m, out, &bpf);
}
