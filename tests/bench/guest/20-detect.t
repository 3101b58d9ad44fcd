#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Detection latency: time reported minus deadline (start + budget) for a
# task that sleeps 3 ms inside a 1 ms window, pinned to the last CPU, idle
# and under a SCHED_FIFO hog on that CPU: the module (hard hrtimer; the
# tlob:violation event's detect_latency_ns), the BPF backend (the tool's
# records), and what a user would write instead: a bpftrace uprobe pair
# that checks the elapsed time at STOP. Floor, on kernels that have it:
# rtla timerlat's hard-timer IRQ latency on that CPU in the same boot.
# Variants interleave round by round.
#
# Print latency (the target: a violation printed within 100 ms of its
# deadline): `tlob mon -j` of each backend writing into a pipe, each line
# stamped with its arrival (bench-stamp, CLOCK_MONOTONIC, the records'
# clock); the sample is a violation line's arrival minus its deadline
# (start_ns + budget_ns): detection, the reader's wakeup, its formatting
# and its write, all in one.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

BUDGET=1000000	# 1 ms
INSIDE_US=3000	# every window overruns by 2 ms
# Every variant reloads its backend each round (the BPF one takes tens of
# seconds under emulation): few rounds, many windows per round.
R=$HEAVY_ROUNDS
N=$((200 / R))
WIN=$BIN/bench-windows
TL_S=5
# The hog: SCHED_FIFO 50, spinning 20 ms then resting 0.5 ms (see
# bench-hog: on PREEMPT_RT a hog that never rests starves the timer
# softirq thread, and the measured task would never wake up).
HOG="-p 50 -b 20 -s 500"

run_windows() { "$WIN" -n "$N" -i "$INSIDE_US" -c "$CPU" >>"$DATA/windows.out"; }

# run_kmod VARIANT ROUND HOG: module, events from the top-level trace buffer
run_kmod() {
	mod_in && mod_bind bench-windows $BUDGET && mod_enable || return 1
	echo 1 >"$TRACE/events/tlob/violation/enable"
	echo >"$TRACE/trace"
	[ "$3" = hog ] && hog_start "$CPU" $HOG
	run_windows
	hog_stop
	echo 0 >"$TRACE/events/tlob/violation/enable"
	sed -n 's/.*detect_latency_ns=\(-*[0-9]*\).*/\1/p' "$TRACE/trace" | samples lat "$1" "$2"
	sed -n 's/.*detector=\([0-9]*\).*/\1/p' "$TRACE/trace" >>"$DATA/$1.detectors"
	mod_out
}

# run_bpf VARIANT ROUND HOG: the BPF backend through the tool's JSON records
run_bpf() {
	bpf_mon -j -b "$WIN:bench_start,bench_stop,1ms" || { bpf_stop; return 1; }
	[ "$3" = hog ] && hog_start "$CPU" $HOG
	run_windows
	hog_stop
	bpf_stop
	grep '"kind":1,' "$DATA/bpf.out" |
		sed -n 's/.*"detect_latency_ns":\(-*[0-9]*\).*/\1/p' | samples lat "$1" "$2"
	grep '"kind":1,' "$DATA/bpf.out" | sed -n 's/.*"detector_name":"\([^"]*\)".*/\1/p' >>"$DATA/$1.detectors"
}

# run_print VARIANT ROUND HOG BACKEND: tlob mon -j into a pipe that
# bench-stamp reads; a violation's arrival minus its deadline. The module
# is loaded (tlob mon binds and enables it) for that backend only.
run_print() {
	[ "$4" = kmod ] && { mod_in || return 1; }
	rm -f "$DATA/print.fifo"
	mkfifo "$DATA/print.fifo" || { [ "$4" = kmod ] && mod_out; return 1; }
	# (after the module: a reader with no writer to come would block for good)
	"$BIN/bench-stamp" <"$DATA/print.fifo" >"$DATA/print.out" &
	_sp=$!
	rm -f "$DATA/print.err"	# (bench.sh, bpf_mon: a stale "monitoring")
	"$BIN/bench-sigdfl" tlob mon --backend "$4" -j -b "$WIN:bench_start,bench_stop,1ms" \
		>"$DATA/print.fifo" 2>"$DATA/print.err" &
	_mp=$!
	wait_for 600 "grep -q monitoring $DATA/print.err"
	_rc=$?
	if [ $_rc = 0 ]; then
		[ "$3" = hog ] && hog_start "$CPU" $HOG
		run_windows
		hog_stop
		# a line still on its way arrives late, and counts so
		sleep 1
	fi
	stop_proc $_mp INT "tlob mon --backend $4"
	wait $_sp
	[ "$4" = kmod ] && mod_out
	awk '/"kind_name":"violation"/ {
		s = $0; sub(/.*"start_ns":/, "", s); sub(/,.*/, "", s)
		b = $0; sub(/.*"budget_ns":/, "", b); sub(/,.*/, "", b)
		print $1 - s - b
	}' "$DATA/print.out" | samples print "$1" "$2"
	return $_rc
}
run_pkmod() { run_print "$1" "$2" "$3" kmod; }
run_pbpf() { run_print "$1" "$2" "$3" bpf; }

# run_bt VARIANT ROUND HOG: the bpftrace check at STOP
run_bt() {
	bt_start "$(bt_stopcheck "$WIN" $BUDGET)" || { bt_stop; return 1; }
	[ "$3" = hog ] && hog_start "$CPU" $HOG
	run_windows
	hog_stop
	bt_stop
	sed -n 's/^late \([0-9]*\)$/\1/p' "$DATA/bt.out" | samples lat "$1" "$2"
}

# run_tl VARIANT ROUND HOG: rtla's IRQ latency histogram on $CPU (us
# buckets), as samples (one per timer, at the bucket's value)
run_tl() {
	[ "$3" = hog ] && hog_start "$CPU" $HOG
	rtla timerlat hist -c "$CPU" -d $TL_S -E 20000 --no-thread >"$DATA/tl.out" 2>&1
	rc=$?
	hog_stop
	awk '/^[0-9]+[ \t]+[0-9]+/ { for (i = 0; i < $2; i++) print $1 * 1000 }' "$DATA/tl.out" |
		samples lat "$1" "$2"
	return $rc
}

use_kmod=1 use_bpf=0 use_bt=0 use_tl=0 use_pkmod=1 use_pbpf=0
have_bpf && use_bpf=1 use_pbpf=1
command -v bpftrace >/dev/null && use_bt=1
[ -d "$TRACE/osnoise" ] && command -v rtla >/dev/null && use_tl=1
name_kmod=module name_bpf="BPF backend" name_bt="bpftrace check at STOP" name_tl="rtla timerlat"
name_pkmod="tlob mon, module" name_pbpf="tlob mon, BPF backend"
[ -r "$TLOB_KO" ] || bail_out "no module at $TLOB_KO"
diag "lane $TLOB_LANE, $(uname -r), $R rounds x $N windows; BPF backend: $use_bpf, timerlat: $use_tl, bpftrace: $use_bt"

r=1
while [ "$r" -le "$R" ]; do
	for load in idle hog; do
		progress "round $r: $load"
		for b in kmod bpf bt tl pkmod pbpf; do
			eval "[ \$use_$b = 1 ]" || continue
			run_$b ${b}_$load $r $load
			rc=$?
			[ $r = 1 ] && ok $rc "$(eval echo \$name_$b), $load: a round ran"
		done
	done
	r=$((r + 1))
done

# Which detector reported (enum tlob_detector in kernel/shared/tlob_abi.h).
for v in kmod_idle kmod_hog bpf_idle bpf_hog; do
	[ -s "$DATA/$v.detectors" ] || continue
	echo "$v: $(sort "$DATA/$v.detectors" | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')"
done >"$DATA/detectors"

cat >"$DATA/labels" <<'L'
kmod_idle|module, idle|p99<=1.5*tl_idle
kmod_hog|module, SCHED_FIFO hog on the CPU|p99<=10*kmod_idle;p99<=1.5*tl_hog
bpf_idle|BPF backend, idle|
bpf_hog|BPF backend, SCHED_FIFO hog on the CPU|p99<=10*bpf_idle
bt_idle|bpftrace check at STOP, idle|reports at STOP: the overrun itself (2 ms) plus the wakeup
bt_hog|bpftrace check at STOP, SCHED_FIFO hog on the CPU|waits for the task to reach STOP
tl_idle|rtla timerlat IRQ latency, idle (floor)|
tl_hog|rtla timerlat IRQ latency, SCHED_FIFO hog (floor)|
L
{
	echo "#### Detection latency: reported minus deadline, 1 ms budget, 3 ms inside, CPU $CPU; hog: bench-hog $HOG ($TLOB_LANE, $CLOCK clock)"
	echo
	sort -k4,4n "$DATA/samples" | awk -v table=lat -v ref=${TL_REF:-tl_idle} \
		-v order="kmod_idle kmod_hog bpf_idle bpf_hog bt_idle bt_hog tl_idle tl_hog" \
		-v labels="$DATA/labels" -v verdicts="$DATA/lat.verdicts" -f $BIN/bench-pct.awk
	echo
	echo "Detectors that reported (module: enum tlob_detector, 1 hrtimer, 4 at STOP, 5 at a sched event; BPF: by name): $(tr '\n' ';' <"$DATA/detectors" 2>/dev/null)"
	[ $use_tl = 1 ] || echo "rtla timerlat: not available on this kernel (no osnoise/timerlat tracer): no floor row."
	echo
} >"$DATA/lat.md"
show "$DATA/lat.md"
targets "$DATA/lat.verdicts"

cat >"$DATA/print.labels" <<'L'
pkmod_idle|tlob mon -j, module, idle|p99<=100ms
pkmod_hog|tlob mon -j, module, SCHED_FIFO hog on the CPU|p99<=100ms
pbpf_idle|tlob mon -j, BPF backend, idle|p99<=100ms
pbpf_hog|tlob mon -j, BPF backend, SCHED_FIFO hog on the CPU|p99<=100ms
L
{
	echo "#### Print latency: a violation's line at the end of a pipe from tlob mon -j, minus its deadline; 1 ms budget, 3 ms inside, CPU $CPU ($TLOB_LANE, $CLOCK clock)"
	echo
	sort -k4,4n "$DATA/samples" | awk -v table=print \
		-v order="pkmod_idle pkmod_hog pbpf_idle pbpf_hog" \
		-v labels="$DATA/print.labels" -v verdicts="$DATA/print.verdicts" -f $BIN/bench-pct.awk
	echo
} >"$DATA/print.md"
show "$DATA/print.md"
targets "$DATA/print.verdicts"
n=$(grep -c '^lat kmod_idle ' "$DATA/samples")
cmp_ok "$n" -ge "$R" "module idle: at least one violation per round measured ($n)"
done_testing
