#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Start/stop cost: windows per second a task manages through a uprobe pair
# (bench_start(); bench_stop(); in a loop, nothing inside, pinned to one CPU)
# with no probe, with the module's binding, with the BPF backend's, and with
# a bpftrace uprobe pair on the same functions that checks the elapsed time
# at STOP. Each backend twice: bound with no reader (the module through its
# control file; BPF by tlob bind, whose records then go nowhere) and bound
# by `tlob mon -q`, which reads every window's record; the cost target
# (BPF at most 1.5x the module) compares the two backends like for like.
# Each is also measured against the floor that attaches what it attaches:
# for the module, a tracefs uprobe pair enabled into a buffer
# that is off (the kernel's own uprobe consumer, doing nothing); for the
# BPF backend and bpftrace, one empty BPF uprobe program at START and STOP
# (bench-bpffloor uprobe). Variants interleave round by round; the BPF
# backend (reloaded every round) in the first BPF_ROUNDS rounds. bpftrace
# (slow to start under emulation) stays attached for the whole run, to a
# copy of the program (another inode), which only its own variant runs.
#
# The cost of a violation (its diagnosis is captured at the deadline, so a
# violation costs more than a window in budget): the same loop with a 1 us
# budget, so that every window overruns (START and STOP alone take longer
# than that) and is detected, reported and diagnosed, against the same
# binding with a budget no window reaches, both with what a reader
# enables: for the module the tlob events of a violation (violation,
# violation_detail, window) into a trace instance with its buffer on, for
# the BPF backend tlob mon reading its ring. The difference per window is
# the cost of one violation.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

WIN=$BIN/bench-windows
BUDGET=600000000000
# Targets: the monitor's own work per window (START + STOP), in us of the
# guest's clock (icount: 62.5 instructions each) above the floor that
# attaches what it attaches: the module's at most 20 (1250 instructions for
# a lookup, a timer armed and cancelled, a record), the BPF backend's at
# most twice that, and at most 1.5 times the module's own
# (each above its floor, per round).
COST_KMOD=20
COST_BPF=40
# Per violation, above the same binding in budget: the module's at most
# 200 us (12 500 instructions: two stack walks, five trace events), the
# BPF backend's at most 400.
COST_KMOD_VIOL=200
COST_BPF_VIOL=400
INST=/sys/kernel/tracing/instances/bench-viol
# events_on: the module's events a reader of violations enables
events_on() {
	mkdir -p $INST || return 1
	for e in violation violation_detail window; do
		echo 1 >$INST/events/tlob/$e/enable || return 1
	done
}
events_off() { [ -d $INST ] && rmdir $INST; }

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

	# The module read by tlob mon, as the BPF backend's variant below is.
	mod_in && mod_enable
	rc=$?
	rm -f "$DATA/kmon.out" "$DATA/kmon.err"	# (bench.sh, bpf_mon: a stale "monitoring")
	"$BIN/bench-sigdfl" tlob mon --backend kmod -q -b "$WIN:bench_start,bench_stop,600s" \
		>"$DATA/kmon.out" 2>"$DATA/kmon.err" &
	kpid=$!
	wait_for 600 "grep -q 'monitoring' $DATA/kmon.err" || rc=1
	[ $r = 1 ] && ok $rc "module bound by tlob mon -q"
	sample ss kmod_mon $r "$(rate)"
	stop_proc $kpid INT "tlob mon --backend kmod"
	mod_out

	mod_in && mod_bind bench-windows $BUDGET && mod_enable && events_on
	rc=$?
	[ $r = 1 ] && ok $rc "module bound, violation events on (budget never reached)"
	sample ss kmod_ev $r "$(rate)"
	events_off
	mod_out

	mod_in && mod_bind bench-windows 1000 && mod_enable && events_on
	rc=$?
	[ $r = 1 ] && ok $rc "module bound with a 1 us budget, violation events on"
	sample ss kmod_viol $r "$(rate)"
	if [ $r = 1 ]; then
		st=$(cat $TLOB_SYS/stats)
		w=$(echo "$st" | kv windows)
		v=$(echo "$st" | kv violations)
		d=$(grep -c 'violation_detail:' $INST/trace)
		ok $([ -n "$w" ] && [ "$w" -gt 0 ] && [ "$v" = "$w" ]; echo $?) \
			"every window of the 1 us binding overran (windows=$w violations=$v)"
		ok $([ "$d" -gt 0 ]; echo $?) "violations were diagnosed (violation_detail events: $d)"
	fi
	events_off
	mod_out

	if [ $bpf = 1 ] && [ $r -le $BPF_ROUNDS ]; then
		# A persistent binding nobody reads: the programs' own work,
		# as the module's variant with no reader.
		tlob bind --backend bpf -b "$WIN:bench_start,bench_stop,600s" >"$DATA/bbind.out" 2>&1
		rc=$?
		[ $r = 1 ] && ok $rc "BPF backend: a persistent binding of bench-windows, no reader"
		[ $rc = 0 ] || diag "$(cat "$DATA/bbind.out")"
		sample ss bpf_bound $r "$(rate)"
		tlob unbind --backend bpf -a >/dev/null 2>&1

		bpf_mon -q -b "$WIN:bench_start,bench_stop,600s"
		rc=$?
		[ $r = 1 ] && ok $rc "BPF backend bound to bench-windows"
		sample ss bpf $r "$(rate)"
		bpf_stop

		bpf_mon -q -j -b "$WIN:bench_start,bench_stop,1us"
		rc=$?
		[ $r = 1 ] && ok $rc "BPF backend bound with a 1 us budget"
		sample ss bpf_viol $r "$(rate)"
		bpf_stop
		if [ $r = 1 ]; then
			# -q prints no records: the binding's statistics line
			# says what it counted, the summary what the reader got.
			st=$(grep '^{"type":"stats"' "$DATA/bpf.out" | head -n 1)
			w=$(echo "$st" | sed -n 's/.*"windows":\([0-9]*\).*/\1/p')
			v=$(echo "$st" | sed -n 's/.*"violations":\([0-9]*\).*/\1/p')
			ok $([ -n "$w" ] && [ "$w" -gt 0 ] && [ "$v" = "$w" ]; echo $?) \
				"BPF: every window of the 1 us binding overran (windows=$w violations=$v)"
			su=$(grep '^{"type":"summary"' "$DATA/bpf.out" | head -n 1)
			rv=$(echo "$su" | sed -n 's/.*"violations":\([0-9]*\).*/\1/p')
			rd=$(echo "$su" | sed -n 's/.*"diags":\([0-9]*\).*/\1/p')
			ok $([ -n "$rd" ] && [ "$rd" -gt 0 ] && [ "$rd" = "$rv" ]; echo $?) \
				"BPF: every violation the reader got came with its diagnosis (violations=$rv diags=$rd)"
		fi
	fi

	[ $btok = 1 ] && sample ss bt $r "$(rate "$BTWIN")"
	r=$((r + 1))
done

# Where the BPF backend's START/STOP time goes: one more run of the
# binding with no reader, with the kernel's BPF statistics on (they time
# every program run, so this run is not one of the samples above): each
# program's runs and mean time per run, in us of this guest's clock.
if [ $bpf = 1 ] && command -v bpftool >/dev/null &&
   tlob bind --backend bpf -b "$WIN:bench_start,bench_stop,600s" >/dev/null 2>&1; then
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	n=$(rate)
	bpftool prog show >"$DATA/progs" 2>&1
	echo 0 >/proc/sys/kernel/bpf_stats_enabled
	tlob unbind --backend bpf -a >/dev/null 2>&1
	{
		echo "#### BPF programs during one more run of the binding with no reader ($n windows/s with the statistics on; $TLOB_LANE, $CLOCK clock)"
		echo
		echo "| program | runs | mean us per run |"
		echo "|---|---:|---:|"
		awk '/ name / && / run_cnt / {
			for (i = 1; i < NF; i++) {
				if ($i == "name") name = $(i + 1)
				if ($i == "run_time_ns") t = $(i + 1)
				if ($i == "run_cnt") c = $(i + 1)
			}
			if (c > 0) printf "| %s | %d | %.2f |\n", name, c, t / c / 1000
		}' "$DATA/progs"
		echo
	} >"$DATA/progs.md"
	show "$DATA/progs.md"
fi

cat >"$DATA/labels" <<'L'
none|no probe||-
tfloor|module floor: tracefs uprobe pair, buffer off||tfloor
bfloor|BPF floor: empty BPF uprobe pair||bfloor
kmod|module|cost:COST_KMOD|tfloor
kmod_mon|module, read by tlob mon -q||tfloor
kmod_ev|module, violation events on||kmod
kmod_viol|module, every window a violation|cost:COST_KMOD_VIOL|kmod_ev
bpf_bound|BPF backend, bound, no reader|costx:kmod:1.5|bfloor
bpf|BPF backend, read by tlob mon -q|cost:COST_BPF;costx:kmod_mon:1.5|bfloor
bpf_viol|BPF backend, every window a violation|cost:COST_BPF_VIOL|bpf
bt|bpftrace uprobe pair, check at STOP||bfloor
L
sed -i "s/COST_KMOD_VIOL/$COST_KMOD_VIOL/; s/COST_BPF_VIOL/$COST_BPF_VIOL/; s/COST_KMOD/$COST_KMOD/; s/COST_BPF/$COST_BPF/" "$DATA/labels"
{
	echo "#### Start/stop cost: windows per second through a uprobe pair ($TLOB_LANE, $CLOCK clock)"
	echo
	awk -v table=ss -v base=none -v floor=- -v order="none tfloor bfloor kmod kmod_mon kmod_ev kmod_viol bpf_bound bpf bpf_viol bt" \
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
