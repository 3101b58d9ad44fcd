#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, concurrency: 256 threads of one process start and stop
# windows at once for 60 s (15 s on the debug lane, ~4x slower), with a
# 20 ms budget that the crowd on two CPUs often overruns, so timers fire
# while STOPs, sched events and other windows' starts run on both CPUs.
# Every window is accounted exactly once: the stats' windows equal the
# windows the threads ran, split into in-budget and over-budget ones
# (no model error, no abort), the histogram holds them all, and the pool
# is empty with nothing dropped.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

DUR=$(soak 60 10)
T=256
N=4
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"
monitor "p $FW:$FB $FE threshold=$((20 * MS))" || bail_out "cannot bind"
id=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' $TLOB/stats)

end=$(($(date +%s) + DUR))
runs=0
peak=0
while [ "$(date +%s)" -lt $end ]; do
	$FW -n $N threads $T 1 >/tmp/f-thr.out 2>&1 || break
	grep -q "^windows=$((T * N)) " /tmp/f-thr.out || break
	runs=$((runs + 1))
done
n=$((runs * T * N))
diag "$runs runs of $T threads x $N windows: $n windows in $DUR s"
cmp_ok "$runs" -ge 1 "the workload ran (last: $(cat /tmp/f-thr.out))"
is "$(stat_of $id windows)" "$n" "stats: windows = $n, each counted once"
w=$(stat_of $id windows)
v=$(stat_of $id violations)
diag "violations: $v of $w"
is "$(stat_of $id errors) $(stat_of $id aborted)" "0 0" "stats: no model error, nothing aborted"
h=$(stat_of $id hist | tr ',' '\n' | awk -F: '{ s += $2 } END { print s + 0 }')
is "$h" "$n" "stats: the histogram holds every window"
cmp_ok "$(stat_of $id max_ns)" -ge "$(stat_of $id min_ns)" "stats: max >= min"
is "$(pool used) $(pool open) $(pool dropped)" "0 0 0" "the pool is empty, nothing dropped"
cmp_ok "$(pool peak)" -le "$T" "pool peak $(pool peak) <= $T threads"
ok_cmd "rmmod" kmod_unload
done_testing
