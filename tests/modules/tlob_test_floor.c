// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: the benchmark floor. Attaches an empty probe to each of the
 * five scheduler tracepoints tlob.ko attaches (kernel/module/tlob_sched.c:
 * sched_switch, sched_wakeup, sched_waking, sched_process_exit,
 * sched_process_exec),
 * the least a tracepoint-based monitor of those events can cost: the
 * benchmarks (tests/bench/) compare tlob.ko against it.
 *
 * The tracepoints are not exported to modules, so they are found by name
 * with for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(), exactly as tlob.ko attaches its own probes,
 * with the same prototypes.
 *
 * Context: sched_switch runs inside __schedule() with the runqueue lock
 * held and interrupts off, sched_wakeup and sched_waking under the woken
 * task's locks; the
 * probes do nothing. No locks are taken here: load and unload are
 * serialised by the module loader.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

struct linux_binprm;

static void floor_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
}

static void floor_wakeup(void *data, struct task_struct *p)
{
}

static void floor_waking(void *data, struct task_struct *p)
{
}

static void floor_exit(void *data, struct task_struct *p)
{
}

static void floor_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
}

static struct floor_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool attached;
} floor_tps[] = {
	{ "sched_switch", floor_switch },
	{ "sched_wakeup", floor_wakeup },
	{ "sched_waking", floor_waking },
	{ "sched_process_exit", floor_exit },
	{ "sched_process_exec", floor_exec },
};

static void floor_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(floor_tps); i++)
		if (!strcmp(tp->name, floor_tps[i].name))
			floor_tps[i].tp = tp;
}

static void floor_detach(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(floor_tps); i++) {
		if (!floor_tps[i].attached)
			continue;
		tracepoint_probe_unregister(floor_tps[i].tp, floor_tps[i].probe,
					    NULL);
		floor_tps[i].attached = false;
	}
	/* No probe may still run once the module is gone. */
	tracepoint_synchronize_unregister();
}

static int __init tlob_test_floor_init(void)
{
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(floor_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(floor_tps); i++) {
		if (!floor_tps[i].tp) {
			pr_err("tracepoint %s not found\n", floor_tps[i].name);
			ret = -ENOENT;
			goto fail;
		}
		ret = tracepoint_probe_register(floor_tps[i].tp,
						floor_tps[i].probe, NULL);
		if (ret)
			goto fail;
		floor_tps[i].attached = true;
	}
	return 0;
fail:
	floor_detach();
	return ret;
}
module_init(tlob_test_floor_init);

static void __exit tlob_test_floor_exit(void)
{
	floor_detach();
}
module_exit(tlob_test_floor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tlob benchmark floor: empty probes on the five scheduler tracepoints tlob.ko uses");
