#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the sampler's chunked walk: rt, where the sampler is the BPF backend's
#   own detector
# The sampling path's walk of the windows in chunks. Once a deadline is
# due, the sampler (a perf event, hard IRQ) or a scheduler event checks the
# tasks with windows, at most TLOB_BPF_SCAN_CHUNK (64) of them per call,
# resumed at the next call (kernel/bpf/tlob.bpf.c, tlob_scan_due()), not the
# whole windows map at once (up to 65 536 tasks in one hard IRQ). Here
# more tasks than a chunk sleep inside windows whose 2 s budget passes
# while they sleep, so only the walk can find their overruns: each one must
# be reported once, in bounded time, and no call may have checked more
# than a chunk (the programs' own account, tlob_scan_cost, read with
# bpftool while the monitor runs). TLOB_BPF_DETECTOR=sample: the same code
# on every lane.
. /opt/tlob/tests/lib/tap.sh

W=/opt/tlob/bin/tlob-workload
OUT=/tmp/30-scan
P=100		# tasks parked in windows: more than a chunk
CHUNK=64
# detection bound, emulated guest: two walks of ceil(P / CHUNK) calls at
# one per 1 ms sample, and the 200 ms slack the other BPF scripts allow
BOUND=$((2 * ((P + CHUNK - 1) / CHUNK) * 1000000 + 200000000))
mkdir -p $OUT

field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
# the most tasks one call checked, over the CPUs (tlob_scan_cost)
max_visited() {
	bpftool -j map dump name tlob_scan_cost 2>/dev/null | tr '{},[]' '\n\n\n\n\n' |
		awk -F: '/"max_visited"/ { if ($2 > m) m = $2 } END { print m + 0 }'
}

: >$OUT/mon.err
TLOB_BPF_DETECTOR=sample tlob mon --backend bpf --json \
	-b "$W:tlob_section_begin,tlob_section_end,2s,tag=park" >$OUT/mon.json 2>$OUT/mon.err &
mp=$!
wait_line $OUT/mon.err '^tlob: monitoring' 120 $mp
ok $? "tlob mon --backend bpf samples" || sed 's/^/# /' $OUT/mon.err
grep -q 'sampling every' $OUT/mon.err
ok $? "the sampler is the detector" || sed 's/^/# /' $OUT/mon.err

i=0
pids=
while [ $i -lt $P ]; do
	"$W" hold 6 >/dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
# every overrun reported: wait on the records, not a sleep
t0=$(cut -d. -f1 /proc/uptime)
while [ "$(grep -c '"kind_name":"violation"' $OUT/mon.json)" -lt $P ] &&
	[ $(($(cut -d. -f1 /proc/uptime) - t0)) -lt 120 ]; do
	sleep 0.2
done
mv=$(max_visited)
wait $pids
kill -INT $mp
wait $mp
is "$?" 0 "tlob mon exits 0" || sed 's/^/# /' $OUT/mon.err

grep '"kind_name":"violation"' $OUT/mon.json >$OUT/v
is "$(wc -l <$OUT/v | tr -d ' ')" $P "one violation per parked window ($P)"
is "$(field tag <$OUT/v | sort -u)" park "... all of the parked binding"
max=0
for l in $(field detect_latency_ns <$OUT/v); do
	[ "$l" -gt "$max" ] && max=$l
done
diag "detectors: $(field detector_name <$OUT/v | sort | uniq -c | tr -s ' \n' ' ')"
cmp_ok "$max" -le $BOUND "worst detection latency ${max} ns <= $BOUND ns"
cmp_ok "$mv" -gt 0 "the walk ran (tlob_scan_cost: $mv tasks at most in one call)"
cmp_ok "$mv" -le $CHUNK "no call checked more than $CHUNK tasks ($mv)"
done_testing
