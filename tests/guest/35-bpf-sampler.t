#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The BPF backend's sampler (the detector of PREEMPT_RT kernels, forced
# with TLOB_BPF_DETECTOR=sample elsewhere) does bounded work in hard
# interrupt context (issue 16): it keeps the open windows in a heap by
# deadline, so a period with nothing due costs O(1), and it takes at most
# TLOB_BPF_SAMPLE_STEPS (32) steps per period (filing a window a START
# handed over, or handling a deadline that came due), leaving the rest to
# the next period and counting that period as deferred.
#
# HOLDERS workloads each sleep inside a window with a 10 ms budget, with
# the sampling period at 1 s: every deadline comes due between two
# samples, so the sampler has 2 x HOLDERS steps to do at once. Each
# window must still get its violation, no period may take more than the
# bound, and the periods that left work must be counted. Then the same
# with the windows parked far from their deadline (3600 s): the periods
# with nothing due do nothing but look at the heap's top. The sampler's
# time per period is printed (tlob: bpf: sampler: ..., from the BPF
# programs' own counters): emulated time, so a diagnostic, not a bound.
. /opt/tlob/tests/lib/tap.sh

W=/opt/tlob/bin/tlob-workload
OUT=/tmp/35-bpf
HOLDERS=64
BOUND=32
mkdir -p $OUT

field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
# stat NAME FILE: a figure of the sampler's line
stat() { sed -n "s/^tlob: bpf: sampler: .* $1=\([0-9]*\).*/\1/p" "$2"; }

# run NAME BUDGET PERIOD_US HOLD_S: HOLDERS windows under tlob mon
run() {
	: >"$OUT/$1.err"
	TLOB_BPF_DETECTOR=sample TLOB_BPF_SAMPLE_US=$3 TLOB_BPF_SAMPLER_STATS=1 \
		tlob mon --backend bpf --json -b "$W:tlob_section_begin,tlob_section_end,$2" \
		>"$OUT/$1.json" 2>"$OUT/$1.err" &
	mp=$!
	i=0
	while ! grep -q '^tlob: monitoring' "$OUT/$1.err" && kill -0 $mp 2>/dev/null &&
		[ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	hp=
	i=0
	while [ $i -lt $HOLDERS ]; do
		"$W" hold "$4" >/dev/null 2>&1 &
		hp="$hp $!"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # $hp: the pids
	wait $hp
	kill -INT $mp
	wait $mp
	line=$(grep '^tlob: bpf: sampler:' "$OUT/$1.err")
	ok $? "$1: the sampler's counters are printed" || sed 's/^/# /' "$OUT/$1.err"
	diag "$1: $line"
}

run due 10ms 1000000 8
is "$(grep -c '"kind_name":"violation"' $OUT/due.json)" $HOLDERS \
	"due: every one of the $HOLDERS windows gets its violation"
is "$(grep '"kind_name":"violation"' $OUT/due.json | field detector_name | sort -u | tr '\n' ' ')" \
	"sample " "due: ... from the sampler (no scheduler event: they sleep)"
is "$(grep -c '"kind_name":"window"' $OUT/due.json)" $HOLDERS "due: ... and its window record"
cmp_ok "$(stat max_steps $OUT/due.err)" -le $BOUND "due: no period took more than $BOUND steps"
cmp_ok "$(stat deferred $OUT/due.err)" -ge 1 "due: the periods that left work are counted"
cmp_ok "$(stat heap_max $OUT/due.err)" -ge $HOLDERS "due: the heap held every window"

run parked 3600s 1000 3
is "$(grep -c '"kind_name":"violation"' $OUT/parked.json)" 0 "parked: no violation"
is "$(grep -c '"kind_name":"window"' $OUT/parked.json)" $HOLDERS "parked: every window recorded"
# Each window is filed once (one step) and nothing comes due after.
cmp_ok "$(stat steps $OUT/parked.err)" -le $HOLDERS "parked: one step per window, none per period"
cmp_ok "$(stat deferred $OUT/parked.err)" -le $((HOLDERS / BOUND)) \
	"parked: at most the filing of the STARTs was deferred"
cmp_ok "$(stat runs $OUT/parked.err)" -gt "$(stat busy $OUT/parked.err)" \
	"parked: periods with nothing due did nothing"
done_testing
