// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: WARN_ON(1) at load, so the VM harness can show that a kernel
 * warning fails the lane even when every TAP line passed.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init tlob_test_warn_init(void)
{
	WARN_ON(1);
	return 0;
}
module_init(tlob_test_warn_init);

static void __exit tlob_test_warn_exit(void)
{
}
module_exit(tlob_test_warn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob harness self-test: WARN_ON(1) at load");
