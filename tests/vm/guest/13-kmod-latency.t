#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The violation is reported while the task is inside its window, close to
# START + budget: detect_latency_ns (report time - deadline) of every
# tlob:violation, for a spinning task, a sleeping task, and a task whose
# CPU a SCHED_FIFO 99 hog holds. The hard hrtimer fires in hard IRQ on
# both lanes, so the hog changes nothing.
#
# Stated bounds: median <= LAT_P50_NS (default 2 ms), maximum <=
# LAT_MAX_NS (default 20 ms). This guest is emulated (QEMU TCG, vCPUs as
# threads on a shared 2-core host): a timer interrupt is late whenever the
# host deschedules the vCPU thread, so the maximum bounds a host scheduling
# slice, not the module; on hardware expect tens of microseconds. For
# scale, the emulator's own timer floor is measured side by side (a
# SCHED_FIFO 99 sleeper's wakeup lateness, no tlob window). The figures
# are printed as "# latency ..." lines.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

MS=1000000
: "${LAT_P50_NS:=2000000}" "${LAT_MAX_NS:=20000000}"
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
	is "$(field detector </tmp/viol | sort -u)" "1" "$name: all detected by the hrtimer"
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
	cmp_ok "$p50" -le "$LAT_P50_NS" "$name: median detection latency $p50 ns <= $LAT_P50_NS ns"
	cmp_ok "$max" -le "$LAT_MAX_NS" "$name: max detection latency $max ns <= $LAT_MAX_NS ns"
}

# the emulator's timer floor, for scale: no window, FIFO 99 on CPU 1
$WL -c 1 -f 99 timerlat $N 10 | sed -n 's/^lat_ns=//p' >/tmp/floor
is "$(wc -l </tmp/floor)" "$N" "reference: $N timer wakeups measured"
echo "# latency lane=$TLOB_LANE case=reference-fifo99-sleeper n=$N p50_ns=$(percentile 50 </tmp/floor) p99_ns=$(percentile 99 </tmp/floor) max_ns=$(percentile 100 </tmp/floor)"

measure spin -n $N -g 5 spin 30
measure sleep -n $N -g 5 sleep 30
# the hog starts inside the window, on the task's CPU, at FIFO 99
measure fifo99-hog -n $N -c 1 -p 99 starve 40
is "$(pool used)" "0" "no window left open"
ok_cmd "rmmod" kmod_unload
done_testing
