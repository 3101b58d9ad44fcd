// SPDX-License-Identifier: GPL-2.0
/*
 * v6.12, "uprobes: make uprobe_register() return struct uprobe *": the
 * refctr variant folded in, and the caller keeps the uprobe to unregister.
 */
#include <linux/uprobes.h>

struct uprobe *tlob_probe(struct inode *inode, struct uprobe_consumer *uc);
struct uprobe *tlob_probe(struct inode *inode, struct uprobe_consumer *uc)
{
	return uprobe_register(inode, 0, 0, uc);
}
