#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The BPF sampler's walk: its hard-IRQ time needs a bound, and a bound
# that is measured, not assumed. On the timer-free path (PREEMPT_RT;
# forced here with TLOB_BPF_DETECTOR=sample on every lane, so a stock lane
# measures the same code) a due deadline makes the next sample - a perf
# event in hard IRQ - or the next scheduler event walk the whole windows
# map (bpf_for_each_map_elem, tlob.bpf.c's tlob_scan_due()). The walk is
# bounded by the map's size (--bpf-tasks, default 1024 tasks, at most
# 65 536); its time grows with the tasks that have a window slot. Here a
# START/STOP loop whose every window overruns a 1 us budget keeps a
# deadline due at every sample, beside 0, 64 and 1024 tasks parked in
# windows (a 600 s budget: never due themselves), and the programs' own
# account (the per-CPU map tlob_scan_cost: walks, windows visited, total
# and longest time, read with bpftool) says what each walk took. Measured
# in ascending order: the longest walk is the longest so far, which the
# biggest map sets. A walk at a sample also reports the overrun it finds
# (the violation with its diagnosis: RESULTS.md's cost of one violation),
# so the walk's own cost is the slope: what each parked window adds to the
# mean walk. On the instruction-counter clock (62.5 instructions per us of
# the guest) that is a count of instructions; target: at most 200 per
# window visited, so the default map's 1024 tasks add at most about
# 200 000 instructions of hard IRQ to a due sample.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
PARKS="0 64 1024"
PER_WINDOW_MAX=200	# instructions per window visited (icount)
IPS=62.5		# instructions per us of the icount guest clock (tests/bench/icount)
have_bpf || skip_all "no BPF backend in this build"
diag "lane $TLOB_LANE, $(uname -r), $CLOCK clock, $(nproc) CPU(s), ${MS} ms per measurement"

# cost: "walks visited sum_ns max_ns max_visited" of tlob_scan_cost,
# summed over the CPUs (max: the largest)
cost() {
	bpftool -j map dump name tlob_scan_cost 2>/dev/null | tr '{},[]' '\n\n\n\n\n' |
		awk -F: '
		/"walks"/ { w += $2 } /"visited"/ { v += $2 } /"sum_ns"/ { s += $2 }
		/"max_ns"/ { if ($2 > m) m = $2 } /"max_visited"/ { if ($2 > mv) mv = $2 }
		END { printf "%d %d %d %d %d\n", w, v, s, m, mv }'
}

export TLOB_BPF_DETECTOR=sample
bpf_mon -q --bpf-tasks 2048 -b "$BIN/bench-park:bench_start,bench_stop,600s" \
	-b "$WIN:bench_start,bench_stop,1us"
rc=$?
ok $rc "tlob mon --backend bpf samples, with a parked binding and a 1 us one"
[ $rc = 0 ] || { diag "$(cat "$DATA/bpf.err")"; done_testing; exit 1; }
grep -q 'sampl' "$DATA/bpf.err"
ok $? "the sampler is the detector ($(grep -m 1 'tlob: bpf:' "$DATA/bpf.err"))"
set -- $(cost)
[ $# = 5 ]
ok $? "bpftool reads tlob_scan_cost ($*)"

echo "#### The BPF sampler's walk of the windows map ($TLOB_LANE, $CLOCK clock)" >"$DATA/scan.md"
echo >>"$DATA/scan.md"
echo "| tasks parked in windows | walks | windows visited per walk | mean walk (us) | longest walk so far (us) |" >>"$DATA/scan.md"
echo "|---:|---:|---:|---:|---:|" >>"$DATA/scan.md"
for n in $PARKS; do
	progress "$n parked"
	if [ "$n" -gt 0 ]; then
		park_start "$n" || bail_out "bench-park $n did not get ready"
	fi
	set -- $(cost)
	w0=$1 v0=$2 s0=$3
	"$WIN" -t "$MS" -r 2000 -c "$CPU" >/dev/null
	set -- $(cost)
	walks=$(($1 - w0)) visited=$(($2 - v0)) sum=$(($3 - s0)) max=$4
	park_stop
	cmp_ok "$walks" -ge 1 "$n parked: the due deadlines were walked for ($walks walks)"
	[ "$walks" -gt 0 ] || walks=1
	awk -v n="$n" -v w="$walks" -v v="$visited" -v s="$sum" -v m="$max" \
		'BEGIN { printf "| %d | %d | %.1f | %.2f | %.2f |\n", n, w, v / w, s / w / 1000, m / 1000 }' \
		>>"$DATA/scan.md"
	echo "$n $walks $visited $sum $max" >>"$DATA/scan.raw"
done
bpf_stop

echo >>"$DATA/scan.md"
# The walk's own cost: the slope of the mean walk from the fewest to the
# most windows visited.
awk -v clock="$CLOCK" -v ips=$IPS -v t=$PER_WINDOW_MAX '
	{ n[NR] = $1; v[NR] = $3 / $2; s[NR] = $4 / $2 }
	END {
		per = (v[NR] > v[1]) ? (s[NR] - s[1]) / (v[NR] - v[1]) : 0
		printf "Per window visited: %.0f ns of the guest clock (the mean walk with %d parked against %d).\n", per, n[NR], n[1]
		if (clock != "icount") {
			print "Target (instructions per window visited): not judged on the wall clock: SKIP"
			exit
		}
		i = per * ips / 1000
		printf "That is %.0f instructions per window: %.0f more for the default map full (1024 tasks), %.0f for the largest (--bpf-tasks 65536).\n", i, i * 1024, i * 65536
		printf "Target: at most %d instructions per window visited: %s\n", t, (i <= t) ? "PASS" : "FAIL"
	}' "$DATA/scan.raw" >>"$DATA/scan.md"
show "$DATA/scan.md"
if grep -q ': SKIP$' "$DATA/scan.md"; then
	skip "instructions per window: not on the wall clock"
else
	grep -q ': PASS$' "$DATA/scan.md"
	ok $? "the walk costs at most $PER_WINDOW_MAX instructions per window visited"
fi
done_testing
