// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel flavour of the invariant glue (kernel/tlob_model_ha.h),
 * built in userspace: the uapi linux/types.h has __u64, the kernel's u64
 * and bool are supplied here. Checks in ha_check.h.
 */
#include <stdbool.h>
#include <linux/types.h>

typedef __u64 u64;
#define HA_U64 u64

struct ha_clocks_tlob;
static unsigned long long budget_of(const struct ha_clocks_tlob *clk);
#define BUDGET_NS() budget_of(clk)

#include "tlob_model_ha.h"
#include "ha_check.h"

int main(void)
{
	return run_checks();
}
