// SPDX-License-Identifier: GPL-2.0
/*
 * tlob: task latency over budget.
 *
 * Module init and exit, and nothing else: the windows (and their pool),
 * the alive and the logical instances first, then the control files and
 * the session device that let anything be bound; on the way out they go
 * first (no new request; no session is open, each holds the module), then
 * the control core disables and frees every binding, then the windows'
 * and the alive instances' timers are synced and the pools freed, and
 * last the reactors' irq_work is flushed.
 *
 * Context: process context (module load and unload); no lock of its own.
 */
#include <linux/module.h>

#include "tlob.h"

static int __init tlob_init(void)
{
	int ret;

	ret = tlob_monitor_init();
	if (ret)
		return ret;
	ret = tlob_alive_init();
	if (ret)
		goto out_monitor;
	ret = tlob_logic_init();
	if (ret)
		goto out_alive;
	ret = tlob_sysfs_init();
	if (ret)
		goto out_logic;
	ret = tlob_session_init();
	if (ret)
		goto out_sysfs;
	return 0;
out_sysfs:
	tlob_sysfs_exit();
out_logic:
	tlob_logic_exit();
out_alive:
	tlob_alive_exit();
out_monitor:
	tlob_monitor_exit();
	return ret;
}

static void __exit tlob_exit(void)
{
	tlob_session_exit();
	tlob_sysfs_exit();
	tlob_control_exit();
	tlob_logic_exit();
	tlob_alive_exit();
	tlob_monitor_exit();
	tlob_reactor_sync();
	/* After every timer and probe: nothing queues it any more. */
	tlob_notify_sync();
}

module_init(tlob_init);
module_exit(tlob_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob: task latency over budget, a runtime verification monitor");
MODULE_VERSION(TLOB_MODULE_VERSION);
