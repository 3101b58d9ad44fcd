// SPDX-License-Identifier: GPL-2.0
/*
 * tlob: task latency over budget.
 *
 * Module init/exit and the enable switch: which probes are attached when.
 * The scheduler tracepoints are attached only while the monitor is
 * enabled and has at least one binding; uprobes only while enabled.
 * Order matters both ways: scheduler probes before the uprobes that open
 * windows; on the way down uprobes first (no new window), then every
 * window ends, then the scheduler probes go.
 *
 * Locking: tlob_ctl_mutex serialises every control operation (sysfs
 * writes, enable, exit); process context only.
 */
#include <linux/module.h>
#include <linux/mutex.h>

#include "tlob.h"

DEFINE_MUTEX(tlob_ctl_mutex);	/* every control operation */
static bool tlob_on;		/* tlob_ctl_mutex */
static bool tlob_sched_on;	/* tlob_ctl_mutex */

bool tlob_enabled(void)
{
	return READ_ONCE(tlob_on);
}

/* Whether the scheduler probes are attached (shown in the pool file). */
bool tlob_sched_attached(void)
{
	return READ_ONCE(tlob_sched_on);
}

/* Attach or detach the scheduler probes to match enable and bindings. */
int tlob_sync_locked(void)
{
	bool want = tlob_on && tlob_nr_bindings();
	int ret;

	lockdep_assert_held(&tlob_ctl_mutex);
	if (want && !tlob_sched_on) {
		ret = tlob_sched_attach();
		if (ret)
			return ret;
		WRITE_ONCE(tlob_sched_on, true);
	} else if (!want && tlob_sched_on) {
		tlob_sched_detach();
		WRITE_ONCE(tlob_sched_on, false);
	}
	return 0;
}

static void __tlob_disable(void)
{
	lockdep_assert_held(&tlob_ctl_mutex);
	tlob_bindings_unregister_all();
	tlob_abort_binding(NULL, TLOB_ABORT_DISABLE);
	WRITE_ONCE(tlob_on, false);
	tlob_sync_locked();
}

int tlob_set_enabled(bool on)
{
	int ret = 0;

	mutex_lock(&tlob_ctl_mutex);
	if (on == tlob_on)
		goto out;
	if (!on) {
		__tlob_disable();
		goto out;
	}
	WRITE_ONCE(tlob_on, true);
	ret = tlob_sync_locked();
	if (!ret)
		ret = tlob_bindings_register_all();
	if (ret)
		__tlob_disable();
out:
	mutex_unlock(&tlob_ctl_mutex);
	return ret;
}

static int __init tlob_init(void)
{
	int ret;

	ret = tlob_pool_init();
	if (ret)
		return ret;
	ret = tlob_sysfs_init();
	if (ret)
		tlob_pool_exit();
	return ret;
}

static void __exit tlob_exit(void)
{
	tlob_sysfs_exit();
	mutex_lock(&tlob_ctl_mutex);
	__tlob_disable();
	tlob_bindings_destroy();
	mutex_unlock(&tlob_ctl_mutex);
	tlob_pool_exit();
	tlob_reactor_sync();
}

module_init(tlob_init);
module_exit(tlob_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob: task latency over budget, a runtime verification monitor");
MODULE_VERSION(TLOB_MODULE_VERSION);
