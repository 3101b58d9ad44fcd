#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reader cost: CPU used by `tlob mon -j` (module backend, records to a
# file, counted) while windows stream at a given rate, against
# `trace-cmd stream -e tlob:window` on the same events; and the records each
# lost. Also `tlob mon` as it runs by default (a text line per window), its
# records counted from the summary's "records: N", and the BPF backend's
# reader, `tlob mon --backend bpf -j` on a persistent binding (tlob bind),
# against the same binding with no reader (its records then go to a ring
# buffer nobody reads). A reader's cost is the busy time of all CPUs
# (the reader and whatever the kernel does for it, children included)
# minus that of the same interval with the same workload and no reader,
# measured in the same round. Busy time is all CPUs' time minus their idle
# time (/proc/uptime), not /proc/stat's busy fields: those are sampled by
# the tick, and under QEMU's instruction counter an interval can gain
# more "system" time than its length with the idle time unchanged, so
# readers and no reader alike would jump to over 100 % of the CPU at
# random.
# Then each reader once more, sustained: READER_S seconds (BENCH_READER_S,
# default 60) at 1000 and at 10000 windows/s.
# Targets: at 1000 windows/s in the short rounds (medians)
# each tlob reader's extra CPU is at most TARGET_FACTOR (1) times
# trace-cmd's; in the sustained runs the same for `tlob mon -j` and the
# BPF reader (the text reader's CPU is in the table, not checked), except
# at a rate that saturates the CPU, and no tlob reader loses a record.
# The fastest rate a reader keeps up with is what the short rounds' "as
# fast as it goes" row and the sustained rows show.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
BUDGET=600000000000
RATES="0 1000 10000 max"	# 0: no windows at all (idle reader)
SECS=$(((MS * 2 + 999) / 1000))
R=$HEAVY_ROUNDS
READER_S=$(barg tlob.bench_reader_s)
: "${READER_S:=60}"
SUSTAINED="1000 10000"
: "${TARGET_FACTOR:=1}"
bpf=0
have_bpf && bpf=1

# busy time of all CPUs so far, in 1/100 s: their time minus their idle
# time (both from /proc/uptime, the idle time as the kernel keeps it for
# each CPU). NCPU is read once: a fork of nproc inside every measured
# interval would count as busy.
NCPU=$(nproc)
busy() { awk -v n="$NCPU" '{ printf "%.0f\n", ($1 * n - $2) * 100 }' /proc/uptime; }

# load RATE: the workload for SECS seconds at RATE windows/s; prints windows=
load() {
	case $1 in
	0) sleep "$SECS"; echo "windows=0" ;;
	max) "$WIN" -t $((SECS * 1000)) -c "$CPU" ;;
	*) "$WIN" -t $((SECS * 1000)) -r "$1" -c "$CPU" ;;
	esac
}

# start_reader READER: start it, and wait until it reads (none, bnone: no
# reader; b*: the BPF backend's persistent binding)
start_reader() {
	rm -f "$DATA/rd.out" "$DATA/rd.err"	# (bench.sh, bpf_mon: a stale "monitoring")
	case $1 in
	none|bnone) return 0 ;;
	tlob) "$BIN/bench-sigdfl" tlob mon --backend kmod -j >"$DATA/rd.out" 2>"$DATA/rd.err" & ;;
	tlobtext) "$BIN/bench-sigdfl" tlob mon --backend kmod >"$DATA/rd.out" 2>"$DATA/rd.err" & ;;
	btlob) "$BIN/bench-sigdfl" tlob mon --backend bpf -j >"$DATA/rd.out" 2>"$DATA/rd.err" & ;;
	tracecmd) "$BIN/bench-sigdfl" trace-cmd stream -e tlob:window >"$DATA/rd.out" 2>"$DATA/rd.err" &
		pid=$!
		wait_for 30 "grep -q -i -e 'Hit Ctrl' -e 'stream' $DATA/rd.err" || sleep 2
		return 0 ;;
	esac
	pid=$!
	wait_for 600 "grep -q monitoring $DATA/rd.err"
}

# measure READER RATE ROUND [PREFIX]: SECS seconds of windows, then 1 s
# for the reader to catch up, then its stop; samples cpu (the busy time
# from the first window to the end of that second, per second of windows,
# in 1/100 % of one CPU) as PREFIXREADER_RATE, and the records lost. The
# no-reader interval takes the same second. What a reader does for these
# windows in the second after the last one counts (with the interval
# ending at the last window, a reader's catch-up falls outside it, and
# its extra CPU then depends on the round's length, not on the rate);
# its start and its exit do not (an idle tlob mon's exit alone, which
# removes its trace instances, costs seconds of the emulated CPU, and
# trace-cmd's more: a session's fixed cost, not the cost of reading).
measure() {
	start_reader "$1"
	a=$(busy)
	n=$(load "$2" | kv windows)
	sleep 1
	b=$(busy)
	case $1 in
	none|bnone) ;;
	*) stop_proc $pid INT "$1" ;;
	esac
	# trace-cmd stream's recorders (one process per CPU) have outlived
	# their parent when it had to be killed: none may be left to run into
	# the next measurement.
	if [ "$1" = tracecmd ] && pidof trace-cmd >/dev/null; then
		echo "# trace-cmd processes left after its stop: $(pidof trace-cmd) (killed)"
		kill -KILL $(pidof trace-cmd) 2>/dev/null
		wait_for 10 "! pidof trace-cmd >/dev/null"
	fi
	key=$4$1_$2
	used=$(((b - a) * 100 / SECS))
	sample cpu "$key" "$3" "$used"
	progress "round $3: $1 at $2/s for ${SECS}s: cpu $used"
	case $1 in
	tlob|btlob) got=$(grep -c '"type":"record"' "$DATA/rd.out") ;;
	tlobtext) got=$(sed -n 's/^records: \([0-9]*\).*/\1/p' "$DATA/rd.out" | head -n 1) ;;
	tracecmd) got=$(grep -c ' window: ' "$DATA/rd.out") ;;
	*) got=$n ;;
	esac
	[ -n "$got" ] || got=0
	# What the reader itself counted lost (ring or trace buffer overruns)
	case $1 in
	tlob|btlob) said=$(sed -n 's/^{"type":"summary".*"lost":\([0-9]*\).*/\1/p' "$DATA/rd.out" | head -n 1) ;;
	tlobtext) said=$(sed -n 's/^records: .*lost: \([0-9]*\).*/\1/p' "$DATA/rd.out" | head -n 1) ;;
	*) said=- ;;
	esac
	echo "$4$1 $2 $3 $n $got ${said:--}" >>"$DATA/lost"
}

# sustained READER...: each reader once for READER_S seconds at each
# SUSTAINED rate (samples and records as sus_READER)
sustained() {
	_secs=$SECS
	SECS=$READER_S
	for rate in $SUSTAINED; do
		for rd in "$@"; do
			measure "$rd" "$rate" 1 sus_
		done
	done
	SECS=$_secs
}

# med KEY: the median cpu sample of KEY (READER_RATE), "-" if none
med() {
	awk -v t="cpu $1" '$1 " " $2 == t { print $4 }' "$DATA/samples" | sort -n |
		awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "-" }'
}
# lost READER RATE: windows made minus records READER printed, summed
lost() { awk -v d="$1" -v r="$2" '$1 == d && $2 == r { s += $4 - $5 } END { print s + 0 }' "$DATA/lost"; }
made() { awk -v d="$1" -v r="$2" '$1 == d && $2 == r { s += $4 } END { print s + 0 }' "$DATA/lost"; }
# said READER RATE: the lost count READER reported itself, summed ("-": none)
said() {
	awk -v d="$1" -v r="$2" '$1 == d && $2 == r && $6 != "-" { s += $6; n++ }
		END { print n ? s : "-" }' "$DATA/lost"
}
# saturated RATE: the sustained run with no reader kept the CPU busy (90 %
# of one CPU or more): a reader's extra CPU cannot be told apart there
saturated() { [ "$(med sus_none_$1)" != - ] && [ "$(med sus_none_$1)" -ge 9000 ]; }
# extra A B: A minus B, "-" when either was not measured
extra() { case "$1$2" in *-*) echo - ;; *) echo $(($1 - $2)) ;; esac; }
ratelabel() {
	case $1 in
	0) echo "0 (idle)" ;;
	max) echo "as fast as it goes" ;;
	*) echo "$1" ;;
	esac
}

mod_in && mod_bind bench-windows $BUDGET && mod_enable
ok $? "module bound to bench-windows"
diag "lane $TLOB_LANE, $(uname -r), $R rounds of ${SECS} s per rate, then ${READER_S} s at each of $SUSTAINED/s; BPF backend: $bpf"
r=1
while [ "$r" -le "$R" ]; do
	for rate in $RATES; do
		progress "round $r: $rate/s"
		for rd in none tlob tlobtext tracecmd; do
			measure $rd $rate $r
		done
	done
	r=$((r + 1))
done
sustained none tlob tlobtext tracecmd
mod_out

if [ $bpf = 1 ]; then
	tlob bind --backend bpf -b "$WIN:bench_start,bench_stop,600s" >"$DATA/bind.out" 2>&1
	ok $? "BPF backend: a persistent binding of bench-windows" || { bpf=0; sed 's/^/# /' "$DATA/bind.out"; }
fi
if [ $bpf = 1 ]; then
	r=1
	while [ "$r" -le "$R" ]; do
		for rate in $RATES; do
			progress "round $r: BPF $rate/s"
			for rd in bnone btlob; do
				measure $rd $rate $r
			done
		done
		r=$((r + 1))
	done
	sustained bnone btlob
	tlob unbind --backend bpf -a >/dev/null 2>&1
fi

{
	echo "#### Reader cost: CPU busy, all CPUs, in 1/100 % of one CPU, while records stream, module backend ($TLOB_LANE, $CLOCK clock)"
	echo
	echo "| windows/s asked | no reader | tlob mon -j | tlob mon (text) | trace-cmd stream | tlob mon -j extra | tlob mon (text) extra | trace-cmd extra | windows made | tlob -j records lost | tlob (text) records lost | trace-cmd records lost |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for rate in $RATES; do
		n0=$(med none_$rate) n1=$(med tlob_$rate) n3=$(med tlobtext_$rate) n2=$(med tracecmd_$rate)
		echo "| $(ratelabel $rate) | $n0 | $n1 | $n3 | $n2 | $(extra $n1 $n0) | $(extra $n3 $n0) | $(extra $n2 $n0) | $(made tlob $rate) | $(lost tlob $rate) | $(lost tlobtext $rate) | $(lost tracecmd $rate) |"
	done
	echo
	echo "CPU values are medians over $R rounds of ${SECS} s of windows: busy time from the first window to 1 s after the last (the reader's start and exit left out), per second of windows; lost = windows the workload made minus records the reader printed, summed over the rounds."
	echo
	if [ $bpf = 1 ]; then
		echo "#### Reader cost, BPF backend: the same, a persistent binding read by tlob mon --backend bpf -j against none ($TLOB_LANE, $CLOCK clock)"
		echo
		echo "| windows/s asked | bound, no reader | tlob mon --backend bpf -j | its extra | trace-cmd extra (module, above) | windows made | records lost |"
		echo "|---|---:|---:|---:|---:|---:|---:|"
		for rate in $RATES; do
			b0=$(med bnone_$rate) b1=$(med btlob_$rate)
			echo "| $(ratelabel $rate) | $b0 | $b1 | $(extra $b1 $b0) | $(extra "$(med tracecmd_$rate)" "$(med none_$rate)") | $(made btlob $rate) | $(lost btlob $rate) |"
		done
		echo
	fi
	echo "#### Sustained: each reader for ${READER_S} s at a steady rate ($TLOB_LANE, $CLOCK clock)"
	echo
	echo "| windows/s asked | reader | CPU | extra over no reader | extra / trace-cmd's | windows made | made per s | records lost | lost, as the reader counted it |"
	echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
	for rate in $SUSTAINED; do
		tc=$(extra "$(med sus_tracecmd_$rate)" "$(med sus_none_$rate)")
		for rd in tlob tlobtext tracecmd btlob; do
			base=none what="tlob mon -j (module)"
			case $rd in
			tlobtext) what="tlob mon, text (module)" ;;
			tracecmd) what="trace-cmd stream (module's events)" ;;
			btlob) base=bnone what="tlob mon --backend bpf -j" ;;
			esac
			c=$(med sus_${rd}_$rate)
			[ "$c" = - ] && continue
			x=$(extra "$c" "$(med sus_${base}_$rate)")
			ratio=$(awk -v a="$x" -v b="$tc" 'BEGIN { if (a == "-" || b == "-" || b <= 0) print "-"; else printf "%.2f", a / b }')
			m=$(made sus_$rd $rate)
			echo "| $rate | $what | $c | $x | $ratio | $m | $((m / READER_S)) | $(lost sus_$rd $rate) | $(said sus_$rd $rate) |"
		done
	done
	echo
	echo "One run of ${READER_S} s per reader and rate; the no-reader runs (module bound; BPF bound) are the baselines. records lost = windows made minus records the reader printed; the last column is the reader's own count of records the kernel dropped before it could read them (trace-cmd: not counted)."
	for rate in $SUSTAINED; do
		saturated $rate && echo "At $rate/s asked the CPU is busy $(med sus_none_$rate)/10000 with no reader: the workload makes what it can (made per s), and the CPU columns cannot tell a reader's cost apart."
	done
	echo
} >"$DATA/reader.md"
show "$DATA/reader.md"
# The target lines go into the results with the table (TAP comments).
# target_cpu WHAT EXTRA TRACECMD_EXTRA: EXTRA at most TARGET_FACTOR x
target_cpu() {
	if [ "$2" = - ] || [ "$3" = - ]; then
		echo "# target: $1: not measured"
		ok 1 "$1: not measured"
		return
	fi
	if [ "$2" -le $((TARGET_FACTOR * $3)) ]; then verdict=met; else verdict="NOT met"; fi
	echo "# target: $1: extra CPU ($2) at most ${TARGET_FACTOR}x trace-cmd stream's ($3): $verdict"
	cmp_ok "$2" -le $((TARGET_FACTOR * $3)) "$1 within ${TARGET_FACTOR}x of trace-cmd's extra CPU ($2 vs $3)"
}
# target_lost WHAT N: no record lost
target_lost() {
	if [ "$2" -eq 0 ]; then verdict=met; else verdict="NOT met"; fi
	echo "# target: $1: records lost $2, none: $verdict"
	cmp_ok "$2" -eq 0 "$1 loses no record"
}
x2=$(extra "$(med tracecmd_1000)" "$(med none_1000)")
target_cpu "tlob mon -j at 1000/s" "$(extra "$(med tlob_1000)" "$(med none_1000)")" "$x2"
target_cpu "tlob mon (text) at 1000/s" "$(extra "$(med tlobtext_1000)" "$(med none_1000)")" "$x2"
[ $bpf = 1 ] && target_cpu "tlob mon --backend bpf -j at 1000/s" "$(extra "$(med btlob_1000)" "$(med bnone_1000)")" "$x2"
for rate in $SUSTAINED; do
	tc=$(extra "$(med sus_tracecmd_$rate)" "$(med sus_none_$rate)")
	cpu=1
	if saturated $rate; then
		cpu=0
		echo "# target: sustained ${READER_S} s at $rate/s: CPU not measurable here (busy $(med sus_none_$rate)/10000 with no reader)"
	fi
	[ $cpu = 1 ] && target_cpu "sustained ${READER_S} s at $rate/s: tlob mon -j" "$(extra "$(med sus_tlob_$rate)" "$(med sus_none_$rate)")" "$tc"
	target_lost "sustained ${READER_S} s at $rate/s: tlob mon -j" "$(lost sus_tlob $rate)"
	target_lost "sustained ${READER_S} s at $rate/s: tlob mon (text)" "$(lost sus_tlobtext $rate)"
	if [ $bpf = 1 ]; then
		[ $cpu = 1 ] && target_cpu "sustained ${READER_S} s at $rate/s: tlob mon --backend bpf -j" "$(extra "$(med sus_btlob_$rate)" "$(med sus_bnone_$rate)")" "$tc"
		target_lost "sustained ${READER_S} s at $rate/s: tlob mon --backend bpf -j" "$(lost sus_btlob $rate)"
	fi
done
done_testing
