// SPDX-License-Identifier: GPL-2.0
/* Invariant glue for the kernel module: kernel types from linux/types.h. */
#include "emit_ha.h"

static const struct ha_flavour kernel = {
	.what = "the kernel module",
	.guard = RV_ID_GUARD_KERNEL_HA,
	.file_fmt = "%s_model_ha.h",
	.u64 = "u64",
	.includes = "#include <linux/types.h>\n",
};

int emit_kernel_ha(const struct model *m, FILE *out)
{
	return emit_ha(m, out, &kernel);
}
