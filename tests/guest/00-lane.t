#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug dkms
#   the kernel contract: what it checks depends on the kernel
# The lane is what it claims: the right kernel flavour, tracefs mounted,
# the facilities every other guest test relies on.
. /opt/tlob/tests/lib/tap.sh

krel=$(sed -n 's/.*tlob\.krel=\([^ ]*\).*/\1/p' /proc/cmdline)
is "$(uname -r)" "$krel" "kernel release is the lane's ($krel)"
case "$TLOB_FLAVOUR" in
rt)
	uname -v | grep -q PREEMPT_RT
	ok $? "uname -v shows PREEMPT_RT on the $TLOB_LANE lane"
	;;
*)
	uname -v | grep -q PREEMPT_RT
	ok $((! $?)) "uname -v shows no PREEMPT_RT on the $TLOB_LANE lane"
	;;
esac
grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts
ok $? "tracefs is mounted at /sys/kernel/tracing"
[ -d /sys/kernel/tracing/events/sched/sched_switch ]
ok $? "sched_switch tracepoint is visible"
grep -q uprobe /sys/kernel/tracing/README 2>/dev/null
ok $? "the kernel supports uprobes"
[ -r "$TLOB_KO" ]
ok $? "the monitor module is in the guest ($TLOB_KO)"
if grep -q 'tlob\.pin=1' /proc/cmdline; then
	grep -q '^tlob_test_floor ' /proc/modules
	ok $? "tlob.pin=1: the scheduler tracepoints are pinned (tlob_test_floor.ko copies=2)"
fi
[ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ]
ok $? "the guest has at least 2 CPUs"
done_testing
