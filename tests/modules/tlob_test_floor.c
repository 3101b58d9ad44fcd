// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: empty probes on each of the five scheduler tracepoints
 * tlob.ko attaches (kernel/module/tlob_sched.c: sched_switch,
 * sched_wakeup, sched_waking, sched_process_exit, sched_process_exec),
 * copies= of them per tracepoint. Two uses:
 *
 * - copies=1 (the default): the benchmark floor, the least a
 *   tracepoint-based monitor of those events can cost; the benchmarks
 *   (tests/bench/) compare tlob.ko against it.
 * - copies=2: the lanes' pin (tlob.pin=1, tests/harness/init), loaded for
 *   the whole boot so that attaching and detaching a monitor never
 *   patches the kernel's text at those tracepoints' call sites. A
 *   tracepoint with no probe is a static key turned off; with exactly one
 *   probe its static call calls that probe directly; with two or more it
 *   calls the iterator; each change re-patches every call site
 *   (text_poke_bp(): an int3 first, then IPIs to every CPU). Under QEMU
 *   TCG that patching can go wrong at the sched_switch site of
 *   __schedule(): a CPU keeps executing a stale int3 while another waits
 *   in text_poke_bp() (a live-lock), or hits it after the patch is done
 *   (an Oops: int3). One trace event kept enabled is not pin enough: a
 *   monitor's probe still moves the count between one and two, and the
 *   6.12 and newest guests can go down during the module's scripts.
 *   With two held here the count moves only between two and more, and the
 *   call sites stay on the iterator. Users' kernels are patched as usual;
 *   25-tool-every-window.t unloads the pin and runs that way.
 *
 * The tracepoints are not exported to modules, so they are found by name
 * with for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(), exactly as tlob.ko attaches its own probes,
 * with the same prototypes; the copies of one probe differ by their data.
 *
 * Context: sched_switch runs inside __schedule() with the runqueue lock
 * held and interrupts off, sched_wakeup and sched_waking under the woken
 * task's locks; the probes do nothing. No locks are taken here: load and
 * unload are serialised by the module loader.
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

#define FLOOR_COPIES_MAX	2

static unsigned int copies = 1;
module_param(copies, uint, 0444);
MODULE_PARM_DESC(copies, "empty probes per tracepoint: 1 the benchmark floor, 2 the lanes' pin");

/* What tells the copies of one probe apart. */
static int floor_copy[FLOOR_COPIES_MAX];

static struct floor_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	unsigned int attached;		/* copies attached, in order */
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
		struct floor_tp *f = &floor_tps[i];

		while (f->attached) {
			f->attached--;
			tracepoint_probe_unregister(f->tp, f->probe,
						    &floor_copy[f->attached]);
		}
	}
	/* No probe may still run once the module is gone. */
	tracepoint_synchronize_unregister();
}

static int __init tlob_test_floor_init(void)
{
	unsigned int i;
	int ret;

	if (copies < 1 || copies > FLOOR_COPIES_MAX) {
		pr_err("copies=%u: 1 or 2\n", copies);
		return -EINVAL;
	}
	for_each_kernel_tracepoint(floor_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(floor_tps); i++) {
		struct floor_tp *f = &floor_tps[i];

		if (!f->tp) {
			pr_err("tracepoint %s not found\n", f->name);
			ret = -ENOENT;
			goto fail;
		}
		while (f->attached < copies) {
			ret = tracepoint_probe_register(f->tp, f->probe,
							&floor_copy[f->attached]);
			if (ret)
				goto fail;
			f->attached++;
		}
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
MODULE_DESCRIPTION("tlob test-only: empty probes on the five scheduler tracepoints tlob.ko uses (benchmark floor, lanes' pin)");
