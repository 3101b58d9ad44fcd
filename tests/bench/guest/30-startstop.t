#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Start/stop cost: windows per second a task manages through a uprobe pair
# (bench_start(); bench_stop(); in a loop, nothing inside, pinned to CPU 1)
# with no probe, with the module's binding, with the BPF backend's, and with
# a bpftrace uprobe pair on the same functions that checks the elapsed time
# at STOP. Variants interleave round by round.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
BUDGET=600000000000

rate() { "$WIN" -t "$MS" -c 1 | kv windows_per_s; }

bpf=0
have_bpf && bpf=1
btok=0
command -v bpftrace >/dev/null && btok=1
diag "lane $TLOB_LANE, $(uname -r), $ROUNDS rounds of ${MS} ms; BPF backend: $bpf, bpftrace: $btok"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	sample ss none $r "$(rate)"

	mod_in && mod_bind bench-windows $BUDGET && mod_enable
	rc=$?
	[ $r = 1 ] && ok $rc "module bound to bench-windows"
	sample ss kmod $r "$(rate)"
	[ $r = 1 ] && diag "module stats: $(cat $TLOB_SYS/stats)"
	mod_out

	if [ $bpf = 1 ]; then
		bpf_mon -q -b "$WIN:bench_start,bench_stop,600s"
		rc=$?
		[ $r = 1 ] && ok $rc "BPF backend bound to bench-windows"
		sample ss bpf $r "$(rate)"
		bpf_stop
	fi

	if [ $btok = 1 ]; then
		bt_start "$(bt_stopcheck "$WIN" $BUDGET)"
		rc=$?
		[ $r = 1 ] && ok $rc "bpftrace uprobe pair attached"
		sample ss bt $r "$(rate)"
		bt_stop
	fi
	r=$((r + 1))
done

cat >"$DATA/labels" <<'L'
none|no probe|
kmod|module|
bpf|BPF backend|
bt|bpftrace uprobe pair, check at STOP|
L
{
	echo "#### Start/stop cost: windows per second through a uprobe pair ($TLOB_LANE)"
	echo
	awk -v table=ss -v base=none -v floor=- -v order="none kmod bpf bt" \
		-v labels="$DATA/labels" -v unit="windows/s" -v cost=window \
		-f $BIN/bench-ratio.awk "$DATA/samples"
	echo
} >"$DATA/ss.md"
show "$DATA/ss.md"
n=$(grep -c '^ss kmod ' "$DATA/samples")
is "$n" "$ROUNDS" "measured $ROUNDS interleaved rounds"
done_testing
