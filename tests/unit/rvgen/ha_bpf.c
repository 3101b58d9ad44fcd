// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF flavour of the invariant glue (kernel/bpf/tlob_model_ha.bpf.h),
 * built in userspace: __u64 from the uapi linux/types.h, bool from
 * stdbool.h, as vmlinux.h would provide them. Checks in ha_check.h.
 */
#include <stdbool.h>
#include <linux/types.h>

#define HA_U64 __u64

struct ha_clocks_tlob;
static unsigned long long budget_of(const struct ha_clocks_tlob *clk);
#define BUDGET_NS() budget_of(clk)

#include "bpf/tlob_model_ha.bpf.h"
#include "ha_check.h"

int main(void)
{
	return run_checks();
}
