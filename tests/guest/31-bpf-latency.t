#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock 6.12-rt debug
#   bpf_timer (stock) and the sampler (6.12-rt)
# How late the BPF backend reports an overrun, per detection path, and
# that it says which path it runs:
# - stock: bpf_timer (a soft timer armed once at START);
# - PREEMPT_RT: the verifier refuses bpf_timer, so the sampler runs (a
#   cpu-clock perf event every TLOB_BPF_SAMPLE_US, 1000 us by default,
#   checking every open window); it is also measured on stock, forced
#   with TLOB_BPF_DETECTOR=sample, so both paths are compared on one kernel.
# Stated bounds. On hardware: bpf_timer <= the soft timer's latency (a
# softirq after the deadline); sampler <= one period (1 ms) + the hard
# timer's latency. In this emulated guest (TCG on a shared host, where the
# vCPUs lose the host CPU for tens of ms and the cpu-clock event delivers
# ~250 samples/s instead of 1000) the tested bound is that plus 200 ms of
# emulation slack; the figures measured are printed as diagnostics, next
# to tlob.ko's hard hrtimer measured the same way in the same boot.
#   bpf_timer: detect_latency_ns <= 200 ms
#   sampler:   detect_latency_ns <= 1 ms + 200 ms
# Windows spin (running) or sleep 40 ms against a 10 ms budget, so every
# window must produce exactly one violation while still inside.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/bpf.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end,10ms,tag=lat"
OUT=/tmp/31-bpf
N=10
SLACK=200000000
mkdir -p $OUT

field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }

# "monitoring": every hook is attached (tlob mon says so last)
ready() { grep -q '^tlob: monitoring' "$1"; }

# measure NAME DETECTOR WORKLOAD-MODE [BACKEND]: N windows under tlob mon
measure() {
	: >"$OUT/$1.err"	# before the child: ready() below may read first
	TLOB_BPF_DETECTOR=$2 tlob mon --backend "${4:-bpf}" --json -b "$S1" \
		>"$OUT/$1.json" 2>"$OUT/$1.err" &
	mp=$!
	i=0
	while ! ready "$OUT/$1.err" && kill -0 $mp 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$W" -c 0 -n $N -g 20 "$3" 40 >/dev/null 2>&1
	sleep 0.5
	kill -INT $mp
	wait $mp
	grep '"kind_name":"violation"' "$OUT/$1.json" >"$OUT/$1.v"
}

# judge NAME "DETECTORS ALLOWED" BOUND_NS
# A timer path's allowed detectors include "sched": a scheduler event that
# finds the deadline already past reports it first (the late check: e.g.
# the task is switched out inside __schedule(), IRQs off, while the timer's
# interrupt is pending). It is never later than the timer; the bound holds
# for both. Seen on a loaded host: 9 hrtimer, 1 sched.
judge() {
	is "$(wc -l <"$OUT/$1.v" | tr -d ' ')" "$N" "$1: one violation per window" ||
		sed 's/^/# /' "$OUT/$1.err"
	max=0 sum=0 n=0 bad=
	dets=$(field detector_name <"$OUT/$1.v" | sort | uniq -c | tr -s ' \n' ' ')
	for l in $(field detect_latency_ns <"$OUT/$1.v"); do
		[ "$l" -gt "$max" ] && max=$l
		sum=$((sum + l))
		n=$((n + 1))
	done
	for d in $(field detector_name <"$OUT/$1.v"); do
		case " $2 " in *" $d "*) ;; *) bad="$bad $d" ;; esac
	done
	is "$bad" "" "$1: detected by $2"
	[ $n -gt 0 ] && diag "$1: detect_latency_ns max=$max mean=$((sum / n)) n=$n detectors:$dets"
	cmp_ok "$max" -le "$3" "$1: worst detection latency ${max} ns <= $3 ns"
}

measure auto-spin auto spin
[ "$TLOB_FLAVOUR" = rt ] || is "$BPF_DETECTOR" bpf_timer "stock kernel: tlob list names bpf_timer as the BPF detector"
if [ "$BPF_DETECTOR" = sampling ]; then
	grep -q "refuses bpf_timer on PREEMPT_RT.*sampling every 1000 us" "$OUT/auto-spin.err"
	ok $? "sampling: says bpf_timer is refused and the sampler runs" ||
		sed 's/^/# /' "$OUT/auto-spin.err"
	judge auto-spin "sample sched" $((1000000 + SLACK))
else
	grep -q "overruns detected by bpf_timer" "$OUT/auto-spin.err"
	ok $? "stock: says bpf_timer detects overruns" || sed 's/^/# /' "$OUT/auto-spin.err"
	judge auto-spin "bpf_timer sched" $SLACK
	measure auto-sleep auto sleep
	judge auto-sleep "bpf_timer sched" $SLACK
fi
# The sampler on every lane: running and sleeping tasks alike.
measure sample-spin sample spin
grep -q "TLOB_BPF_DETECTOR=sample; overruns detected by sampling" "$OUT/sample-spin.err"
ok $? "forced sampler says so" || sed 's/^/# /' "$OUT/sample-spin.err"
judge sample-spin "sample sched" $((1000000 + SLACK))
measure sample-sleep sample sleep
judge sample-sleep "sample sched" $((1000000 + SLACK))

# Reference, same boot: the module's hard hrtimer.
if [ -f "$TLOB_KO" ] && insmod "$TLOB_KO" 2>/dev/null; then
	measure kmod-spin - spin kmod
	judge kmod-spin "hrtimer sched" $SLACK
	rmmod tlob
else
	skip "tlob.ko reference: not loadable here"
fi
done_testing
