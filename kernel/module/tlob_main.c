// SPDX-License-Identifier: GPL-2.0
/*
 * tlob: task latency over budget.
 *
 * Module init and exit, and nothing else: the windows (and their pool),
 * the alive and the logical instances first, then the control files and
 * the session device that let anything be bound; on the way out, and when
 * init fails part way, they go first (no new request; no session is open,
 * each holds the module), then the control core disables and frees every
 * binding, then the windows' and the alive instances' timers are synced
 * and the pools freed, and last the reactors' irq_work is flushed.
 *
 * Context: process context (module load and unload); no lock of its own.
 */
#include <linux/module.h>

#include "tlob.h"

/* What init sets up, in order; unwinding undoes it in reverse. */
enum tlob_stage {
	TLOB_STAGE_MONITOR,
	TLOB_STAGE_ALIVE,
	TLOB_STAGE_LOGIC,
	TLOB_STAGE_SYSFS,
	TLOB_STAGE_SESSION,
	TLOB_STAGES,
};

static int (* const tlob_stage_init[TLOB_STAGES])(void) __initconst = {
	tlob_monitor_init,
	tlob_alive_init,
	tlob_logic_init,
	tlob_sysfs_init,
	tlob_session_init,
};

/*
 * Undo the first @done stages, last first. Once the control files have
 * been live, anything may have been bound and enabled through them (even
 * when a later stage then fails): the control core unregisters every
 * probe before the pools and the module's text can go, and the reactors'
 * and notifications' work queued by windows meanwhile is flushed last.
 */
static void tlob_unwind(int done)
{
	if (done > TLOB_STAGE_SESSION)
		tlob_session_exit();
	if (done > TLOB_STAGE_SYSFS) {
		tlob_sysfs_exit();
		tlob_control_exit();
	}
	if (done > TLOB_STAGE_LOGIC)
		tlob_logic_exit();
	if (done > TLOB_STAGE_ALIVE)
		tlob_alive_exit();
	if (done > TLOB_STAGE_MONITOR)
		tlob_monitor_exit();
	tlob_reactor_sync();
	/* After every timer and probe: nothing queues it any more. */
	tlob_notify_sync();
}

static int __init tlob_init(void)
{
	int i, ret;

	for (i = 0; i < TLOB_STAGES; i++) {
		ret = tlob_stage_init[i]();
		if (ret) {
			tlob_unwind(i);
			return ret;
		}
	}
	return 0;
}

static void __exit tlob_exit(void)
{
	tlob_unwind(TLOB_STAGES);
}

module_init(tlob_init);
module_exit(tlob_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob: task latency over budget, a runtime verification monitor");
MODULE_VERSION(TLOB_MODULE_VERSION);
