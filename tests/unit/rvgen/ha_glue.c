// SPDX-License-Identifier: GPL-2.0
/*
 * The invariant glue (kernel/shared/tlob_model_ha.h, one header for the module,
 * the BPF programs and userspace), built in userspace: __u64 from the
 * uapi linux/types.h, bool from stdbool.h, both included by the header
 * itself outside the kernel and BPF. The bounds take what they read, the
 * clocks, as their argument. Checks in ha_check.h.
 */
struct ha_clocks_tlob;
static unsigned long long budget_of(const struct ha_clocks_tlob *clk);
static unsigned long long min_of(const struct ha_clocks_tlob *clk);
#define BUDGET_NS(clk) budget_of(clk)
#define MIN_NS(clk) min_of(clk)

#include "tlob_model_ha.h"
#include "ha_check.h"

int main(void)
{
	return run_checks();
}
