// SPDX-License-Identifier: GPL-2.0
/*
 * Builds against every kernel: if it does not, the probe build itself is
 * broken (a wrong KDIR, a missing compiler) and kernel/module/compat/probe stops
 * instead of reporting every feature absent.
 */
#include <linux/module.h>

int tlob_probe(void);
int tlob_probe(void)
{
	return 0;
}
