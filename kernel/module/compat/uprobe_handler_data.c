// SPDX-License-Identifier: GPL-2.0
/*
 * v6.14, "uprobe: Add data pointer to consumer handlers" (session
 * uprobes): handler and ret_handler take a per-call __u64 *data.
 */
#include <linux/build_bug.h>
#include <linux/uprobes.h>

static int __maybe_unused tlob_probe_handler(struct uprobe_consumer *uc,
					     struct pt_regs *regs, __u64 *data)
{
	return 0;
}

static int __maybe_unused tlob_probe_ret_handler(struct uprobe_consumer *uc,
						 unsigned long func,
						 struct pt_regs *regs,
						 __u64 *data)
{
	return 0;
}

static_assert(__same_type(&tlob_probe_handler,
			  ((struct uprobe_consumer *)NULL)->handler));
static_assert(__same_type(&tlob_probe_ret_handler,
			  ((struct uprobe_consumer *)NULL)->ret_handler));
