#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Start/stop cost: windows per second a task manages through a uprobe pair
# (bench_start(); bench_stop(); in a loop, nothing inside, pinned to one CPU)
# with no probe, with the module's binding, with the BPF backend's, and with
# a bpftrace uprobe pair on the same functions that checks the elapsed time
# at STOP. Each is also measured against the floor that attaches what it
# attaches: for the module, a tracefs uprobe pair enabled into a buffer
# that is off (the kernel's own uprobe consumer, doing nothing); for the
# BPF backend and bpftrace, one empty BPF uprobe program at START and STOP
# (bench-bpffloor uprobe). Variants interleave round by round; the BPF
# backend (reloaded every round) in the first BPF_ROUNDS rounds. bpftrace
# (slow to start under emulation) stays attached for the whole run, to a
# copy of the program (another inode), which only its own variant runs.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
BUDGET=600000000000
# Targets: the monitor's own work per window (START + STOP), in us of the
# guest's clock (icount: 62.5 instructions each) above the floor that
# attaches what it attaches: the module's at most 20 (1250 instructions for
# a lookup, a timer armed and cancelled, a record), the BPF backend's at
# most twice that.
COST_KMOD=20
COST_BPF=40

BTWIN=/tmp/bench-windows-bt
cp "$WIN" "$BTWIN"
rate() { "${1:-$WIN}" -t "$MS" -c "$CPU" | kv windows_per_s; }

bpf=0
have_bpf && bpf=1
btok=0
command -v bpftrace >/dev/null && btok=1
diag "lane $TLOB_LANE, $(uname -r), $CLOCK clock, $ROUNDS rounds of ${MS} ms (BPF: $BPF_ROUNDS); BPF backend: $bpf, bpftrace: $btok"
if [ $btok = 1 ]; then
	bt_start "$(bt_stopcheck "$BTWIN" $BUDGET)"
	ok $? "bpftrace uprobe pair attached (to a copy of bench-windows)"
fi
r=1
while [ "$r" -le "$ROUNDS" ]; do
	progress "round $r"
	sample ss none $r "$(rate)"

	trace_floor_in "$WIN"
	rc=$?
	[ $r = 1 ] && ok $rc "tracefs uprobe pair (buffer off) on bench-windows"
	sample ss tfloor $r "$(rate)"
	trace_floor_out

	if [ $bpf = 1 ]; then
		bpf_floor_in uprobe "$WIN"
		rc=$?
		[ $r = 1 ] && ok $rc "empty BPF uprobe pair on bench-windows"
		[ $rc = 0 ] || diag "$(cat "$DATA/bpffloor.out")"
		sample ss bfloor $r "$(rate)"
		bpf_floor_out
	fi

	mod_in && mod_bind bench-windows $BUDGET && mod_enable
	rc=$?
	[ $r = 1 ] && ok $rc "module bound to bench-windows"
	sample ss kmod $r "$(rate)"
	[ $r = 1 ] && diag "module stats: $(cat $TLOB_SYS/stats)"
	mod_out

	if [ $bpf = 1 ] && [ $r -le $BPF_ROUNDS ]; then
		bpf_mon -q -b "$WIN:bench_start,bench_stop,600s"
		rc=$?
		[ $r = 1 ] && ok $rc "BPF backend bound to bench-windows"
		sample ss bpf $r "$(rate)"
		bpf_stop
	fi

	[ $btok = 1 ] && sample ss bt $r "$(rate "$BTWIN")"
	r=$((r + 1))
done

cat >"$DATA/labels" <<'L'
none|no probe||-
tfloor|module floor: tracefs uprobe pair, buffer off||tfloor
bfloor|BPF floor: empty BPF uprobe pair||bfloor
kmod|module|cost:COST_KMOD|tfloor
bpf|BPF backend|cost:COST_BPF|bfloor
bt|bpftrace uprobe pair, check at STOP||bfloor
L
sed -i "s/COST_KMOD/$COST_KMOD/; s/COST_BPF/$COST_BPF/" "$DATA/labels"
{
	echo "#### Start/stop cost: windows per second through a uprobe pair ($TLOB_LANE, $CLOCK clock)"
	echo
	awk -v table=ss -v base=none -v floor=- -v order="none tfloor bfloor kmod bpf bt" \
		-v labels="$DATA/labels" -v unit="windows/s" -v cost=window \
		-v verdicts="$DATA/ss.verdicts" -f $BIN/bench-ratio.awk "$DATA/samples"
	echo
} >"$DATA/ss.md"
show "$DATA/ss.md"
targets "$DATA/ss.verdicts"
n=$(grep -c '^ss kmod ' "$DATA/samples")
bt_stop
is "$n" "$ROUNDS" "measured $ROUNDS interleaved rounds"
done_testing
