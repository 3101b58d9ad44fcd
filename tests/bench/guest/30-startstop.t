#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Start/stop cost: windows per second a task manages through a uprobe pair
# (bench_start(); bench_stop(); in a loop, nothing inside, pinned to one CPU)
# with no probe, with the module's binding, with the BPF backend's, and with
# a bpftrace uprobe pair on the same functions that checks the elapsed time
# at STOP. Variants interleave round by round; the BPF backend (reloaded
# every round) in the first BPF_ROUNDS rounds. bpftrace (slow to start
# under emulation) stays attached for the whole run, to a copy of the
# program (another inode), which only its own variant runs.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
BUDGET=600000000000

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
none|no probe|
kmod|module|
bpf|BPF backend|
bt|bpftrace uprobe pair, check at STOP|
L
{
	echo "#### Start/stop cost: windows per second through a uprobe pair ($TLOB_LANE, $CLOCK clock)"
	echo
	awk -v table=ss -v base=none -v floor=- -v order="none kmod bpf bt" \
		-v labels="$DATA/labels" -v unit="windows/s" -v cost=window \
		-f $BIN/bench-ratio.awk "$DATA/samples"
	echo
} >"$DATA/ss.md"
show "$DATA/ss.md"
n=$(grep -c '^ss kmod ' "$DATA/samples")
bt_stop
is "$n" "$ROUNDS" "measured $ROUNDS interleaved rounds"
done_testing
