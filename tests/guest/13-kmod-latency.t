#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug
#   the kernel contract: what it checks depends on the kernel
# The violation is reported while the task is inside its window, close to
# START + budget: detect_latency_ns (report time - deadline) of every
# tlob:violation, for a spinning task, a sleeping task, and a task whose
# CPU a SCHED_FIFO 99 hog holds. The hard hrtimer fires in hard IRQ on
# both lanes, so the hog changes nothing.
#
# This guest is emulated (QEMU TCG, each vCPU a thread on a shared 2-core
# host): a timer interrupt on a busy vCPU is late by whatever the host
# scheduler gives that thread, milliseconds under load, so absolute
# numbers say little (DESIGN.md: only ratios measured side by side in one
# run mean something). The reference is the same interrupt path without
# tlob, measured in this boot on the same CPU with the same kind of load:
# a SCHED_FIFO 99 sleeper's wakeup lateness on CPU 1 while a spinner
# keeps CPU 1 busy, before and after the tlob cases.
#
# Stated bound: for every case the median detection latency is at most
# 2 x the reference median + 1 ms (LAT_SLACK_NS), and every violation is
# reported before its window's STOP. On hardware expect tens of us.
# All figures are printed as "# latency ..." lines.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

MS=1000000
: "${LAT_SLACK_NS:=1000000}"
N=20

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
bind tlob_section_begin "$(off tlob_section_end)" $((10 * MS))

# measure NAME WORKLOAD-ARGS...: N windows over budget, check every record
measure() {
	name=$1
	shift
	trace_start violation window
	$WL "$@" >/dev/null
	trace_stop
	events violation >/tmp/viol
	is "$(wc -l </tmp/viol)" "$N" "$name: one violation per window"
	# detect_latency_ns is end_ns - (start_ns + budget_ns), never negative
	bad=$(awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		if (f["detect_latency_ns"] != f["end_ns"] - f["start_ns"] - f["budget_ns"] ||
		    f["detect_latency_ns"] < 0) n++
	} END { print n + 0 }' /tmp/viol)
	is "$bad" "0" "$name: detect_latency_ns = end_ns - (start_ns + budget_ns) >= 0"
	# 1: the hrtimer; 5: a scheduler event in an IRQs-off section that
	# the deadline passed in (the timer interrupt was still pending)
	is "$(field detector </tmp/viol | grep -cv '^[15]$')" "0" "$name: detected by the hrtimer or a sched event at the deadline"
	cmp_ok "$(field detector </tmp/viol | grep -c '^1$')" -ge $((N / 2)) "$name: mostly by the hrtimer"
	# inside the window: the violation precedes its window's end
	inside=$(events window | field end_ns | paste -d ' ' - /tmp/viol | awk '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		if (f["end_ns"] < $1) n++
	} END { print n + 0 }')
	is "$inside" "$N" "$name: every violation reported before its STOP"
	p50=$(field detect_latency_ns </tmp/viol | percentile 50)
	p99=$(field detect_latency_ns </tmp/viol | percentile 99)
	max=$(field detect_latency_ns </tmp/viol | percentile 100)
	echo "# latency lane=$TLOB_LANE case=$name n=$N p50_ns=$p50 p99_ns=$p99 max_ns=$max"
	echo "$p50" >>/tmp/p50s
}

# reference NAME: the same timer interrupt without tlob, on a busy CPU 1
reference() {
	$WL -c 1 burn 60000 >/dev/null &
	burner=$!
	$WL -c 1 -f 99 timerlat $N 10 | sed -n 's/^lat_ns=//p' >/tmp/ref
	kill $burner
	wait $burner 2>/dev/null
	is "$(wc -l </tmp/ref)" "$N" "$1: $N timer wakeups measured"
	rp50=$(percentile 50 </tmp/ref)
	echo "# latency lane=$TLOB_LANE case=$1 n=$N p50_ns=$rp50 p99_ns=$(percentile 99 </tmp/ref) max_ns=$(percentile 100 </tmp/ref)"
	[ "$rp50" -gt "${ref:-0}" ] && ref=$rp50
}

: >/tmp/p50s
reference reference-before
measure spin -n $N -g 5 -c 1 spin 30
measure sleep -n $N -g 5 -c 1 sleep 30
# the hog starts inside the window, on the task's CPU, at FIFO 99
rt_throttle_off
measure fifo99-hog -n $N -g 20 -c 1 -p 99 starve 40
rt_throttle_restore
reference reference-after
bound=$((2 * ref + LAT_SLACK_NS))
echo "# latency lane=$TLOB_LANE bound_ns=$bound (2 x reference median $ref + $LAT_SLACK_NS)"
for c in spin sleep fifo99-hog; do
	read -r p50
	cmp_ok "$p50" -le "$bound" "$c: median detection latency $p50 ns <= $bound ns"
done </tmp/p50s
is "$(pool used)" "0" "no window left open"
ok_cmd "rmmod" kmod_unload
done_testing
