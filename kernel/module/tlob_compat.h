/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences, in one place. Each shim is keyed on what the
 * headers being built against declare, found by kernel/module/compat/probe at
 * build time (TLOB_HAVE_*, one probe file per upstream change, named
 * after it), never on a version number: distribution kernels backport.
 * Built and tested on Debian's 6.1, 6.12 and newest kernels, stock and
 * PREEMPT_RT (docs/lanes.md: supported kernels).
 */
#ifndef TLOB_COMPAT_H
#define TLOB_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/sysfs.h>
#include <linux/uprobes.h>

#include "tlob_compat_probed.h"

/* compat/hrtimer_setup.c: hrtimer_setup() replaced hrtimer_init(). */
#ifdef TLOB_HAVE_HRTIMER_SETUP
#define tlob_hrtimer_setup hrtimer_setup
#else
static inline void
tlob_hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*fn)(struct hrtimer *),
		   clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
}
#endif

/*
 * compat/uprobe_handler_data.c: consumer handlers gained a per-call data
 * pointer (session uprobes). The handlers are declared through these
 * macros; their parameters are named uc, regs (and func for the return
 * handler).
 */
#ifdef TLOB_HAVE_UPROBE_HANDLER_DATA
#define TLOB_UPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data)
#define TLOB_URETPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, unsigned long func, \
		 struct pt_regs *regs, __u64 *data)
#else
#define TLOB_UPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, struct pt_regs *regs)
#define TLOB_URETPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, unsigned long func, \
		 struct pt_regs *regs)
#endif

/*
 * compat/uprobe_register_returns_uprobe.c: uprobe_register() returns the
 * struct uprobe that unregistering takes;
 * compat/uprobe_unregister_nosync.c: unregistering is split into a
 * nosync part and a sync part (which waits for running handlers).
 */
/* Both landed in v6.12; no kernel tlob was built for has only one. */
#if defined(TLOB_HAVE_UPROBE_REGISTER_RETURNS_UPROBE) != \
	defined(TLOB_HAVE_UPROBE_UNREGISTER_NOSYNC)
#error "uprobe API between v6.12's two changes: no shim for it (kernel/module/compat/)"
#endif

struct tlob_uprobe {
#ifdef TLOB_HAVE_UPROBE_REGISTER_RETURNS_UPROBE
	struct uprobe *uprobe;
#endif
};

static inline int tlob_uprobe_add(struct tlob_uprobe *u, struct inode *inode,
				  loff_t off, struct uprobe_consumer *uc)
{
#ifdef TLOB_HAVE_UPROBE_REGISTER_RETURNS_UPROBE
	u->uprobe = uprobe_register(inode, off, 0, uc);
	return PTR_ERR_OR_ZERO(u->uprobe);
#else
	return uprobe_register(inode, off, uc);
#endif
}

/*
 * Removes @uc; handlers may still be running until tlob_uprobe_sync().
 * The sync is one (tasks-trace) RCU grace period, slow on an idle
 * PREEMPT_RT guest: callers remove several probes, then sync once.
 */
static inline void tlob_uprobe_del_nosync(struct tlob_uprobe *u,
					  struct inode *inode, loff_t off,
					  struct uprobe_consumer *uc)
{
#ifdef TLOB_HAVE_UPROBE_REGISTER_RETURNS_UPROBE
	uprobe_unregister_nosync(u->uprobe, uc);
#else
	/* Already waits until no handler of @uc runs (register_rwsem). */
	uprobe_unregister(inode, off, uc);
#endif
}

/* After it, no handler of any consumer removed before it runs. */
static inline void tlob_uprobe_sync(void)
{
#ifdef TLOB_HAVE_UPROBE_REGISTER_RETURNS_UPROBE
	uprobe_unregister_sync();
#endif
}

/*
 * compat/sched_delayed_dequeue.c: a fair task that blocked may stay on the
 * runqueue, marked sched_delayed (tlob_switch_rule.h says why it matters).
 */
static inline bool tlob_task_blocked(struct task_struct *p)
{
#ifdef TLOB_HAVE_SCHED_DELAYED_DEQUEUE
	return !READ_ONCE(p->on_rq) || READ_ONCE(p->se.sched_delayed);
#else
	return !READ_ONCE(p->on_rq);
#endif
}

/*
 * compat/sched_process_exit_group_dead.c: sched_process_exit's probe takes
 * whether the thread group died with the task. The probe is declared
 * through this macro; its parameters are named data and p.
 */
#ifdef TLOB_HAVE_SCHED_PROCESS_EXIT_GROUP_DEAD
#define TLOB_EXIT_PROBE(name) \
	void name(void *data, struct task_struct *p, bool group_dead)
#else
#define TLOB_EXIT_PROBE(name) \
	void name(void *data, struct task_struct *p)
#endif

/* compat/assign_str_one_arg.c: __assign_str() lost its source argument. */
#ifdef TLOB_HAVE_ASSIGN_STR_ONE_ARG
#define tlob_assign_str(dst, src) __assign_str(dst)
#else
#define tlob_assign_str(dst, src) __assign_str(dst, src)
#endif

/*
 * compat/bin_attribute_const.c: bin_attribute callbacks take a const
 * attribute and attribute_group::bin_attrs is a const array.
 */
#ifdef TLOB_HAVE_BIN_ATTRIBUTE_CONST
#define tlob_bin_attr const struct bin_attribute
#define tlob_bin_attr_list const struct bin_attribute *const
#else
#define tlob_bin_attr struct bin_attribute
#define tlob_bin_attr_list struct bin_attribute *
#endif

#endif /* TLOB_COMPAT_H */
