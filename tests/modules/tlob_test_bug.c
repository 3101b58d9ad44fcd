// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: oops on load, so the VM harness can show that a guest oops
 * fails the lane even when every TAP line passed.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init tlob_test_bug_init(void)
{
	BUG();
	return 0;
}
module_init(tlob_test_bug_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob harness self-test: BUG() at load");
