#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, the timer racing STOP: windows of ~1 ms with budgets at
# the 25th and 75th percentile of their measured length, back to back for
# 30 s (8 s with a short soak), so the deadline timer fires
# just before, at, or just after STOP. Whoever wins, the ABI holds for
# every window: one record, ended at STOP, over budget exactly when its
# elapsed time reached the budget, one violation record per over-budget
# window (never two, never one for a window in budget), and the stats say
# the same.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

DUR=$(soak 30 8)
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"

# calibrate: the length of 40 windows of "spin 1" with a loose budget
monitor "p $FW:$FB $FE threshold=$HOUR" || bail_out "cannot bind"
trace_bg /tmp/f-cal window
$FW -n 40 spin 1 >/dev/null
trace_bg_end
sed -n 's/.* window: / /p' /tmp/f-cal | field elapsed_ns >/tmp/f-cal.el
is "$(wc -l </tmp/f-cal.el)" "40" "calibration: 40 windows"
lo=$(percentile 25 </tmp/f-cal.el)
hi=$(percentile 75 </tmp/f-cal.el)
[ "$hi" -gt "$lo" ] || hi=$((lo + 50000))
diag "window length p25 $lo ns, p75 $hi ns"
monitor "-$FW:$FB" "p $FW:$FB $FE threshold=$lo" "p $FWX:$FB $FE threshold=$hi" ||
	bail_out "cannot rebind"

trace_bg /tmp/f-race window violation
end=$(($(date +%s) + DUR))
runs=0
while [ "$(date +%s)" -lt $end ]; do
	$FW -n 50 spin 1 >/dev/null
	$FWX -n 50 spin 1 >/dev/null
	runs=$((runs + 1))
done
trace_bg_end
n=$((runs * 100))
diag "$n windows in $DUR s"

sed -n 's/.* window: / /p' /tmp/f-race >/tmp/f-race.w
sed -n 's/.* violation: / /p' /tmp/f-race >/tmp/f-race.v
is "$(wc -l </tmp/f-race.w)" "$n" "one window record per window ($n)"
is "$(field event </tmp/f-race.w | sort -u)" "4" "every window ended at STOP"
is "$(field verdict </tmp/f-race.w | sort -u | tr '\n' ' ')" "0 1 " "verdicts: both in budget and over it, nothing else"
# over budget exactly when elapsed >= budget (the same clock read decides)
bad=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if ((f["verdict"] == 1) != (f["elapsed_ns"] + 0 >= f["budget_ns"] + 0)) n++ }
	END { print n + 0 }' /tmp/f-race.w)
is "$bad" "0" "verdict over budget iff elapsed_ns >= budget_ns"
over=$(grep -c ' verdict=1 ' /tmp/f-race.w)
diag "$over of $n over budget; violations by the hrtimer: $(grep -c ' detector=1 ' /tmp/f-race.v), at STOP: $(grep -c ' detector=4 ' /tmp/f-race.v)"
is "$(wc -l </tmp/f-race.v)" "$over" "one violation record per over-budget window"
# pair them: every violation names a window over budget (pid, start_ns)
key() { awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	print f["pid"], f["start_ns"] }' | sort; }
key </tmp/f-race.v >/tmp/f-race.vk
grep ' verdict=1 ' /tmp/f-race.w | key >/tmp/f-race.wk
ok_cmd "every violation belongs to a window over budget, and vice versa" cmp -s /tmp/f-race.vk /tmp/f-race.wk
late=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["elapsed_ns"] + 0 < f["budget_ns"] + 0 || f["detect_latency_ns"] + 0 < 0) n++ }
	END { print n + 0 }' /tmp/f-race.v)
is "$late" "0" "no violation reported before its deadline"
for b in $FW $FWX; do
	id=$(sed -n "s/^id=\([0-9]*\) path=$(echo $b | sed 's,/,\\/,g') .*/\1/p" $TLOB/stats)
	bud=$(sed -n "s/^p $(echo $b | sed 's,/,\\/,g'):.* threshold=\([0-9]*\).*/\1/p" $TLOB/monitor)
	w=$(grep -c " budget_ns=$bud " /tmp/f-race.w)
	v=$(grep " budget_ns=$bud " /tmp/f-race.w | grep -c ' verdict=1 ')
	is "$(stat_of $id windows) $(stat_of $id violations) $(stat_of $id errors) $(stat_of $id aborted)" \
		"$w $v 0 0" "stats of the $bud ns binding agree with its records"
done
is "$(pool used) $(pool open) $(pool dropped)" "0 0 0" "the pool is empty, nothing dropped"
ok_cmd "rmmod" kmod_unload
done_testing
