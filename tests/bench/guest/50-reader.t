#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reader cost: CPU used by `tlob mon -j` (module backend, records to
# /dev/null... a file, counted) while windows stream at a given rate,
# against `trace-cmd stream -e tlob:window` on the same events; and the
# records each lost. Also `tlob mon` as it runs by default (a text line
# per window), its records counted from the summary's "records: N". A reader's cost is the busy time of all CPUs
# (/proc/stat: the reader and whatever the kernel does for it, children
# included) minus that of the same interval with the same workload and no
# reader, measured in the same round. Target (issue 16): at 1000 windows/s
# each tlob reader's extra CPU is at most TARGET_FACTOR (1) times
# trace-cmd's (the medians; the faster rates saturate the one emulated
# CPU, see the table).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
BUDGET=600000000000
RATES="0 1000 5000 20000 max"	# 0: no windows at all (idle reader)
SECS=$(((MS * 2 + 999) / 1000))
R=$HEAVY_ROUNDS
: "${TARGET_FACTOR:=1}"

# busy ticks of all CPUs (user nice system irq softirq steal)
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
hz() { getconf CLK_TCK 2>/dev/null || echo 100; }

# load RATE: the workload for SECS seconds at RATE windows/s; prints windows=
load() {
	case $1 in
	0) sleep "$SECS"; echo "windows=0" ;;
	max) "$WIN" -t $((SECS * 1000)) -c "$CPU" ;;
	*) "$WIN" -t $((SECS * 1000)) -r "$1" -c "$CPU" ;;
	esac
}

# measure READER RATE ROUND: one interval; samples cpu (% of one CPU) and
# lost records
measure() {
	case $1 in
	none) ;;
	tlob) "$BIN/bench-sigdfl" tlob mon --backend kmod -j >"$DATA/rd.out" 2>"$DATA/rd.err" &
		pid=$!
		wait_for 60 "grep -q monitoring $DATA/rd.err" ;;
	tlobtext) "$BIN/bench-sigdfl" tlob mon --backend kmod >"$DATA/rd.out" 2>"$DATA/rd.err" &
		pid=$!
		wait_for 60 "grep -q monitoring $DATA/rd.err" ;;
	tracecmd) "$BIN/bench-sigdfl" trace-cmd stream -e tlob:window >"$DATA/rd.out" 2>"$DATA/rd.err" &
		pid=$!
		wait_for 30 "grep -q -i -e 'Hit Ctrl' -e 'stream' $DATA/rd.err" || sleep 2 ;;
	esac
	a=$(busy)
	n=$(load "$2" | kv windows)
	b=$(busy)
	if [ "$1" != none ]; then
		sleep 1	# let the reader catch up before it is told to stop
		stop_proc $pid INT "$1"
	fi
	# trace-cmd stream's recorders (one process per CPU) outlived their
	# parent when it had to be killed, and went on spinning through the
	# measurements after it (the next "no reader" at 113 %): none may be
	# left before the next measurement.
	if [ "$1" = tracecmd ] && pidof trace-cmd >/dev/null; then
		echo "# trace-cmd processes left after its stop: $(pidof trace-cmd) (killed)"
		kill -KILL $(pidof trace-cmd) 2>/dev/null
		wait_for 10 "! pidof trace-cmd >/dev/null"
	fi
	sample cpu "$1_$2" "$3" "$(((b - a) * 10000 / $(hz) / SECS))"
	progress "round $3: $1 at $2/s: cpu $(((b - a) * 10000 / $(hz) / SECS))"
	case $1 in
	tlob) got=$(grep -c '"type":"record"' "$DATA/rd.out") ;;
	tlobtext) got=$(sed -n 's/^records: \([0-9]*\).*/\1/p' "$DATA/rd.out" | head -n 1) ;;
	tracecmd) got=$(grep -c ' window: ' "$DATA/rd.out") ;;
	*) got=$n ;;
	esac
	echo "$1 $2 $3 $n $got" >>"$DATA/lost"
}

mod_in && mod_bind bench-windows $BUDGET && mod_enable
ok $? "module bound to bench-windows"
diag "lane $TLOB_LANE, $(uname -r), $R rounds of ${SECS} s per rate"
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
mod_out

{
	echo "#### Reader cost: CPU busy, all CPUs, in 1/100 % of one CPU, while records stream, module backend ($TLOB_LANE, $CLOCK clock)"
	echo
	echo "| windows/s asked | no reader | tlob mon -j | tlob mon (text) | trace-cmd stream | tlob mon -j extra | tlob mon (text) extra | trace-cmd extra | windows made | tlob -j records lost | tlob (text) records lost | trace-cmd records lost |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for rate in $RATES; do
		med() { awk -v t="cpu $1_$rate" '$1 " " $2 == t { print $4 }' "$DATA/samples" | sort -n |
			awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "-" }'; }
		n0=$(med none) n1=$(med tlob) n3=$(med tlobtext) n2=$(med tracecmd)
		made=$(awk -v r=$rate '$2 == r && $1 == "tlob" { s += $4 } END { print s + 0 }' "$DATA/lost")
		l1=$(awk -v r=$rate '$2 == r && $1 == "tlob" { s += $4 - $5 } END { print s + 0 }' "$DATA/lost")
		l2=$(awk -v r=$rate '$2 == r && $1 == "tracecmd" { s += $4 - $5 } END { print s + 0 }' "$DATA/lost")
		l3=$(awk -v r=$rate '$2 == r && $1 == "tlobtext" { s += $4 - $5 } END { print s + 0 }' "$DATA/lost")
		lbl=$rate
		[ $rate = 0 ] && lbl="0 (idle)"
		[ $rate = max ] && lbl="as fast as it goes"
		echo "| $lbl | $n0 | $n1 | $n3 | $n2 | $((n1 - n0)) | $((n3 - n0)) | $((n2 - n0)) | $made | $l1 | $l3 | $l2 |"
	done
	echo
	echo "CPU values are medians over $R rounds of ${SECS} s; lost = windows the workload made minus records the reader printed, summed over the rounds."
	echo
} >"$DATA/reader.md"
show "$DATA/reader.md"
med1() { awk -v t="cpu $1_1000" '$1 " " $2 == t { print $4 }' "$DATA/samples" | sort -n |
	awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : 0 }'; }
x2=$(($(med1 tracecmd) - $(med1 none)))
# The target lines go into the results with the table (TAP comments).
for rd in tlob tlobtext; do
	x1=$(($(med1 $rd) - $(med1 none)))
	what="tlob mon -j"
	[ $rd = tlobtext ] && what="tlob mon (text)"
	if [ "$x1" -le $((TARGET_FACTOR * x2)) ]; then verdict=met; else verdict="NOT met"; fi
	echo "# target: at 1000 windows/s, $what's extra CPU ($x1) at most ${TARGET_FACTOR}x trace-cmd stream's ($x2): $verdict"
	cmp_ok "$x1" -le $((TARGET_FACTOR * x2)) "$what at 1000/s within ${TARGET_FACTOR}x of trace-cmd's extra CPU ($x1 vs $x2)"
done
done_testing
