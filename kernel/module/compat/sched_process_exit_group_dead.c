// SPDX-License-Identifier: GPL-2.0
/*
 * sched_process_exit gained a group_dead argument (after v6.12; Debian's
 * 7.3 headers have it): a probe without it is called through a pointer of
 * another type, which a kCFI kernel traps.
 */
#include <linux/build_bug.h>
#include <linux/sched.h>
#include <trace/events/sched.h>

static_assert(__builtin_types_compatible_p(typeof(__traceiter_sched_process_exit),
					   int (void *, struct task_struct *, bool)));
