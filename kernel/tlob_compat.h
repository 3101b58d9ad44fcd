/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences, in one place, keyed on the kernel version
 * (TLOB_KERNEL_AT_LEAST(a, b) is LINUX_VERSION_CODE >= KERNEL_VERSION(a, b,
 * 0) spelled with the major/patchlevel macros of the same header).
 * Built and tested on Debian's 6.1 (stock and PREEMPT_RT); the newer
 * branches follow the upstream API changes and are compile-untested.
 */
#ifndef TLOB_COMPAT_H
#define TLOB_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/uprobes.h>
#include <linux/version.h>

#define TLOB_KERNEL_AT_LEAST(a, b) \
	(KERNEL_VERSION(LINUX_VERSION_MAJOR, LINUX_VERSION_PATCHLEVEL, 0) >= \
	 KERNEL_VERSION(a, b, 0))

/* 6.13 replaced hrtimer_init() + ->function with hrtimer_setup(). */
#if TLOB_KERNEL_AT_LEAST(6, 13)
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
 * Uprobes: 6.12 made uprobe_register() return the struct uprobe and split
 * unregistering into a nosync part and a sync part; handlers gained a
 * per-call data pointer (6.12) and the entry handler's signature changed
 * with it. The handlers are declared through these macros; their
 * parameters are named uc, regs (and func for the return handler).
 */
#if TLOB_KERNEL_AT_LEAST(6, 12)
#define TLOB_UPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data)
#define TLOB_URETPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, unsigned long func, \
		 struct pt_regs *regs, __u64 *data)
struct tlob_uprobe {
	struct uprobe *uprobe;
};

static inline int tlob_uprobe_add(struct tlob_uprobe *u, struct inode *inode,
				  loff_t off, struct uprobe_consumer *uc)
{
	u->uprobe = uprobe_register(inode, off, 0, uc);
	if (IS_ERR(u->uprobe))
		return PTR_ERR(u->uprobe);
	return 0;
}

static inline void tlob_uprobe_del(struct tlob_uprobe *u, struct inode *inode,
				   loff_t off, struct uprobe_consumer *uc)
{
	uprobe_unregister_nosync(u->uprobe, uc);
	uprobe_unregister_sync();
}
#else
#define TLOB_UPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, struct pt_regs *regs)
#define TLOB_URETPROBE_HANDLER(name) \
	int name(struct uprobe_consumer *uc, unsigned long func, \
		 struct pt_regs *regs)
struct tlob_uprobe {
};

static inline int tlob_uprobe_add(struct tlob_uprobe *u, struct inode *inode,
				  loff_t off, struct uprobe_consumer *uc)
{
	return uprobe_register(inode, off, uc);
}

/* On 6.1 this waits until no handler of @uc runs (register_rwsem). */
static inline void tlob_uprobe_del(struct tlob_uprobe *u, struct inode *inode,
				   loff_t off, struct uprobe_consumer *uc)
{
	uprobe_unregister(inode, off, uc);
}
#endif

/* 6.10 dropped the source argument of __assign_str(). */
#if TLOB_KERNEL_AT_LEAST(6, 10)
#define tlob_assign_str(dst, src) __assign_str(dst)
#else
#define tlob_assign_str(dst, src) __assign_str(dst, src)
#endif

#endif /* TLOB_COMPAT_H */
