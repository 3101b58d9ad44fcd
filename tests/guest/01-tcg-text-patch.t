#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all
#   the emulator's canary: TCG's text patching under each kernel
# The emulator, not tlob: the kernel patches its own text each time a
# tracepoint gets its first probe or loses its last one (a monitor's attach
# and detach). Bookworm's QEMU 7.2 live-locks its TCG guests on that: this
# loop, with both CPUs busy, hangs a stock guest for good before its first
# report, and in other scripts the same fault is an "Oops: int3" in
# __hrtimer_run_queues (the BPF backend's hrtimer_expire_exit) or a hung
# consumer. QEMU 10.0 from bookworm-backports (.ci/deps) runs it for as
# long as it is asked. A lane whose emulator cannot do this stops here,
# named, rather than at random later.
# 8 s (about 200 rounds) in make check: QEMU 7.2 hangs within the first
# ones; PATCH_SECS=150 in its environment (by hand, make vm-shell)
# repeats the long run.
# Runs unpinned (tlob.pin's floor module unloaded), as a user's kernel does.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/pin.sh
: "${PATCH_SECS:=8}"
pin 0
E=/sys/kernel/tracing/events
(while :; do :; done) &
s1=$!
(while :; do sleep 0.001; done) &
s2=$!
end=$(($(date +%s) + PATCH_SECS))
n=0
while [ "$(date +%s)" -lt $end ]; do
	echo 1 >$E/timer/hrtimer_expire_exit/enable
	echo 1 >$E/sched/sched_switch/enable
	echo 0 >$E/timer/hrtimer_expire_exit/enable
	echo 0 >$E/sched/sched_switch/enable
	n=$((n + 1))
done
kill $s1 $s2
wait 2>/dev/null
pin 1
ok_cmd "the kernel patched two busy tracepoints' call sites $((n * 4)) times in ${PATCH_SECS}s and lived" \
	[ $n -ge 10 ]
done_testing
