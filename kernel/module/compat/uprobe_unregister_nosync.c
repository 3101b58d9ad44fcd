// SPDX-License-Identifier: GPL-2.0
/*
 * v6.12, "uprobes: split uprobe_unregister() further and expose
 * uprobe_unregister_sync()": unregistering is a nosync part per consumer
 * and one sync (an SRCU/RCU grace period) for a batch.
 */
#include <linux/uprobes.h>

void tlob_probe(struct uprobe *u, struct uprobe_consumer *uc);
void tlob_probe(struct uprobe *u, struct uprobe_consumer *uc)
{
	uprobe_unregister_nosync(u, uc);
	uprobe_unregister_sync();
}
