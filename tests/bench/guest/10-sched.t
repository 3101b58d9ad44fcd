#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scheduler overhead: the context-switch rate of a pipe ping-pong pinned to
# one CPU (1 pair, and 8 pairs = 16 tasks) with the monitor absent, the
# module loaded without a binding, with bindings but no open window, with
# 1/64/1024 tasks parked inside windows (sleeping on CPU 0 while the
# ping-pong runs outside any window), and with the ping-pong tasks
# themselves inside windows (bound through the monitor file, then through
# 1 and 3 /dev/tlob sessions sharing the binding: the same cost within
# 3 points); the same for the BPF backend (1 and 3 tlob mon sessions on
# the one shared set of programs). Each backend is measured
# against the floor that attaches what it attaches: empty
# probes on the module's five scheduler tracepoints (tlob_test_floor.ko),
# empty tp_btf programs on the same five for BPF, and on hrtimer_expire_exit
# where bpf_timer loads, or an empty program on the sampler's perf event
# (at the backend's period) where it does not (bench-bpffloor sched).
# With two CPUs or more (make bench BENCH_SMP=2) also: the ping-pong inside
# windows while another CPU opens and ends windows as fast as it can (a
# START/STOP loop of bench-windows on CPU 0), beside the same loop with
# the monitor absent: what one CPU's windows cost the other CPU's
# scheduler (shared cache lines: the open-window indicator, the pool).
# Every round runs every variant (A B C ... A B C ...); ratios are per round.
# The BPF variants (the backend reloads every round) run in the first
# BPF_ROUNDS rounds. Targets are stated thresholds on the median over the
# rounds; a missed one is a failed check. They are the project's overhead
# targets: the module 0.5 pt with bindings, 3 pt with 64 parked, 5 pt with
# the ping-pong inside windows; BPF 0.5 pt with bindings, 4 pt with 1, 64
# or 1024 parked.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

BUDGET=600000000000	# 10 min: parked windows never reach their deadline
PARKS="1 64 1024"
PARK_BIN=$BIN/bench-park
PP_BIN=$BIN/bench-pingpong
WIN_BIN=$BIN/bench-windows
# cross-CPU variants: the ping-pong runs on the last CPU, the churn on 0
churn=0
[ "$(nproc)" -ge 2 ] && churn=1
CHURN_PID=
# churn_start: bench-windows opens and ends windows on CPU 0 until
# churn_stop (longer than both ping-pongs of one measurement)
churn_start() {
	"$WIN_BIN" -t $((MS * 4)) -c 0 >/dev/null 2>&1 &
	CHURN_PID=$!
}
churn_stop() {
	[ -n "$CHURN_PID" ] || return 0
	kill "$CHURN_PID" 2>/dev/null
	wait "$CHURN_PID" 2>/dev/null
	CHURN_PID=
}

# m VARIANT ROUND [-w]: one measurement of both ping-pong sizes
m() {
	_v=$1 _r=$2
	shift 2
	sample pp2 "$_v" "$_r" "$(pingpong 1 "$@")"
	sample pp16 "$_v" "$_r" "$(pingpong 8 "$@")"
}

bpf=0
if have_bpf; then bpf=1; fi
[ -r "$TLOB_KO" ] || bail_out "no module at $TLOB_KO"

diag "lane $TLOB_LANE, $(uname -r), $CLOCK clock, $(nproc) CPU(s), $ROUNDS rounds of ${MS} ms per measurement (BPF: $BPF_ROUNDS rounds), BPF backend: $bpf"
# Warm-up, not recorded: the first ping-pong of a boot runs slower.
pingpong 1 >/dev/null
pingpong 8 >/dev/null
r=1
while [ "$r" -le "$ROUNDS" ]; do
	progress "round $r"
	m absent $r
	if [ $churn = 1 ]; then
		churn_start
		m absent_churn $r
		churn_stop
	fi

	floor_in
	rc=$?
	[ $r = 1 ] && ok $rc "the module's floor loads (empty probes on its 5 tracepoints)"
	m floor $r
	floor_out

	if [ $bpf = 1 ]; then
		bpf_floor_in sched
		rc=$?
		if [ $r = 1 ]; then
			bpf_floor_n=$(sed -n 's/^attached //p' "$DATA/bpffloor.out")
			ok $rc "the BPF floor attaches ($bpf_floor_n empty programs)"
			diag "$(grep '^sampler' "$DATA/bpffloor.out" || echo 'no sampler: bpf_timer loads')"
		fi
		[ $rc = 0 ] || diag "$(cat "$DATA/bpffloor.out")"
		m bpf_floor $r
		bpf_floor_out
	fi

	mod_in && mod_enable
	rc=$?
	[ $r = 1 ] && ok $rc "tlob.ko loads and enables"
	m kmod_loaded $r
	mod_bind bench-park $BUDGET && mod_bind bench-pingpong $BUDGET
	rc=$?
	[ $r = 1 ] && ok $rc "two bindings (bench-park, bench-pingpong)"
	m kmod_bound $r
	for n in $PARKS; do
		progress "round $r: module, $n parked"
		park_start $n
		[ $r = 1 ] && is "$(mod_open)" "$n" "$n parked tasks hold $n open windows"
		m kmod_park$n $r
		park_stop
	done
	m kmod_inwin $r -w
	if [ $churn = 1 ]; then
		progress "round $r: module, windows churning on CPU 0"
		mod_bind bench-windows $BUDGET
		rc=$?
		[ $r = 1 ] && ok $rc "a third binding (bench-windows)"
		churn_start
		m kmod_inwin_churn $r -w
		churn_stop
	fi
	mod_out

	# Several users, one monitor: 1, then 3 /dev/tlob sessions on the
	# same section share one binding, so the ping-pong costs the same.
	mod_in && exec 7<>/dev/tlob && sess_bind 7 bench-pingpong $BUDGET
	rc=$?
	[ $r = 1 ] && ok $rc "one /dev/tlob session binds bench-pingpong (monitor disabled)"
	m kmod_s1_inwin $r -w
	exec 8<>/dev/tlob 9<>/dev/tlob && sess_bind 8 bench-pingpong $BUDGET &&
		sess_bind 9 bench-pingpong $BUDGET
	rc=$?
	[ $r = 1 ] && ok $rc "two more sessions join it"
	[ $r = 1 ] && is "$(grep -c . "$TLOB_SYS/stats")" 1 "... one binding for the three"
	m kmod_s3_inwin $r -w
	exec 7>&- 8>&- 9>&-
	[ $r = 1 ] && is "$(grep -c . "$TLOB_SYS/stats")" 0 "the sessions' end leaves no binding"
	mod_out

	m absent2 $r

	if [ $bpf = 1 ] && [ $r -le $BPF_ROUNDS ]; then
		progress "round $r: BPF"
		bpf_mon -q -b "$PARK_BIN:bench_start,bench_stop,600s" \
			-b "$PP_BIN:bench_start,bench_stop,600s"
		rc=$?
		[ $r = 1 ] && ok $rc "tlob mon --backend bpf runs with two bindings"
		m bpf_bound $r
		for n in $PARKS; do
			park_start $n
			m bpf_park$n $r
			park_stop
		done
		m bpf_inwin $r -w
		# Two more sessions on the same section share the one set of
		# programs and the binding: the same cost.
		bpf_more 2 -q -b "$PP_BIN:bench_start,bench_stop,600s"
		rc=$?
		[ $r = 1 ] && ok $rc "two more BPF sessions join the ping-pong's binding"
		[ $r = 1 ] && is "$(bpftool prog show | grep -c 'name tlob_switch')" 1 \
			"... three sessions, one scheduler program"
		m bpf_s3_inwin $r -w
		bpf_more_stop
		bpf_stop
	fi
	r=$((r + 1))
done

cat >"$DATA/labels" <<'L'
absent|monitor absent||
absent2|monitor absent (again: noise)||
floor|module floor: 5 empty tracepoint probes||
kmod_loaded|module loaded, enabled, no binding|over:0.5|
kmod_bound|module: 2 bindings, no window open|floor:0.5|
kmod_park1|module: 1 task parked in a window||
kmod_park64|module: 64 tasks parked in windows|floor:3|
kmod_park1024|module: 1024 tasks parked in windows||
kmod_inwin|module: ping-pong tasks inside windows|floor:5|
kmod_s1_inwin|module: ping-pong inside windows, 1 /dev/tlob session||
kmod_s3_inwin|module: ping-pong inside windows, 3 sessions on the same section|same:kmod_s1_inwin:3|
absent_churn|monitor absent, START/STOP loop on CPU 0||
kmod_inwin_churn|module: ping-pong tasks inside windows, windows churning on CPU 0||
bpf_bound|BPF: 2 bindings, no window open|floor:0.5|bpf_floor
bpf_park1|BPF: 1 task parked in a window|floor:4|bpf_floor
bpf_park64|BPF: 64 tasks parked in windows|floor:4|bpf_floor
bpf_park1024|BPF: 1024 tasks parked in windows|floor:4|bpf_floor
bpf_inwin|BPF: ping-pong tasks inside windows||bpf_floor
bpf_s3_inwin|BPF: ping-pong inside windows, 3 sessions on the same section|same:bpf_inwin:3|bpf_floor
L
# The floor's label says how many programs it attached on this kernel:
# what the backend attaches varies with bpf_timer (the sampler where it
# does not load) and the kernel's preemptible tracepoint programs
# (user/backend/bpf/kernel_caps.c).
bpf_floor_what="tp_btf programs"
bpf_floor_sampler=$(sed -n 's/^sampler //p' "$DATA/bpffloor.out" 2>/dev/null)
[ -n "$bpf_floor_sampler" ] &&
	bpf_floor_what="programs (tp_btf; the sampler $bpf_floor_sampler)"
echo "bpf_floor|BPF floor: ${bpf_floor_n:-?} empty $bpf_floor_what||bpf_floor" >>"$DATA/labels"
order="absent absent2 floor kmod_loaded kmod_bound kmod_park1 kmod_park64 kmod_park1024 kmod_inwin kmod_s1_inwin kmod_s3_inwin"
[ $churn = 1 ] && order="$order absent_churn kmod_inwin_churn"
[ $bpf = 1 ] && order="$order bpf_floor bpf_bound bpf_park1 bpf_park64 bpf_park1024 bpf_inwin bpf_s3_inwin"
for t in pp2 pp16; do
	case $t in
	pp2) what="2 tasks (1 pair)" ;;
	*) what="16 tasks (8 pairs)" ;;
	esac
	echo "#### Scheduler overhead: pipe ping-pong, $what on CPU $CPU ($TLOB_LANE, $CLOCK clock)" >"$DATA/$t.md"
	echo >>"$DATA/$t.md"
	awk -v table=$t -v base=absent -v floor=floor -v order="$order" \
		-v labels="$DATA/labels" -v unit="switches/s" -v verdicts="$DATA/$t.verdicts" \
		-f $BIN/bench-ratio.awk "$DATA/samples" >>"$DATA/$t.md"
	echo >>"$DATA/$t.md"
	show "$DATA/$t.md"
	targets "$DATA/$t.verdicts"
done
[ $bpf = 1 ] || diag "BPF backend not available in this build: its rows are missing"
n=$(grep -c '^pp2 absent ' "$DATA/samples")
is "$n" "$ROUNDS" "measured $ROUNDS interleaved rounds"
done_testing
