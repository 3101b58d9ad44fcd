// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: the benchmark floor. Attaches an empty probe to sched_switch,
 * the least any tracepoint-based monitor can cost: the benchmarks
 * (tests/bench/) compare tlob.ko and the BPF backend against it.
 *
 * sched_switch is not exported to modules, so it is found by name with
 * for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(), exactly as tlob.ko attaches its own probe.
 *
 * Context: the probe runs inside __schedule() with the runqueue lock held
 * and interrupts off; it does nothing. No locks are taken here: load and
 * unload are serialised by the module loader.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static struct tracepoint *floor_tp;

static void floor_probe(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state)
{
}

static void floor_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		floor_tp = tp;
}

static int __init tlob_test_floor_init(void)
{
	for_each_kernel_tracepoint(floor_find_tp, NULL);
	if (!floor_tp) {
		pr_err("tracepoint sched_switch not found\n");
		return -ENOENT;
	}
	return tracepoint_probe_register(floor_tp, floor_probe, NULL);
}
module_init(tlob_test_floor_init);

static void __exit tlob_test_floor_exit(void)
{
	tracepoint_probe_unregister(floor_tp, floor_probe, NULL);
	/* No call of floor_probe() may still run once the module is gone. */
	tracepoint_synchronize_unregister();
}
module_exit(tlob_test_floor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob benchmark floor: an empty sched_switch probe");
