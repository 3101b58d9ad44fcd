#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scheduler overhead: the context-switch rate of a pipe ping-pong pinned to
# one CPU (1 pair, and 8 pairs = 16 tasks) with the monitor absent, the
# empty-probe floor, the module loaded without a binding, with bindings
# but no open window, with 1/64/1024 tasks parked inside windows (sleeping
# on CPU 0 while the ping-pong runs outside any window), and with the
# ping-pong tasks themselves inside windows (bound through the monitor
# file, then through 1 and 3 /dev/tlob sessions sharing the binding: the
# same cost within noise); the same for the BPF backend.
# Every round runs every variant (A B C ... A B C ...); ratios are per round.
# The BPF variants (the backend reloads every round) run in the first
# BPF_ROUNDS rounds.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

BUDGET=600000000000	# 10 min: parked windows never reach their deadline
PARKS="1 64 1024"
PARK_BIN=$BIN/bench-park
PP_BIN=$BIN/bench-pingpong

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

	floor_in
	rc=$?
	[ $r = 1 ] && ok $rc "the empty-probe floor module loads"
	m floor $r
	floor_out

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
		bpf_stop
	fi
	r=$((r + 1))
done

cat >"$DATA/labels" <<'L'
absent|monitor absent|
absent2|monitor absent (again: noise)|
floor|empty sched_switch probe (floor)|
kmod_loaded|module loaded, enabled, no binding|noise:absent2
kmod_bound|module: 2 bindings, no window open|floor:0.5
kmod_park1|module: 1 task parked in a window|
kmod_park64|module: 64 tasks parked in windows|floor:3
kmod_park1024|module: 1024 tasks parked in windows|
kmod_inwin|module: ping-pong tasks inside windows|
kmod_s1_inwin|module: ping-pong inside windows, 1 session|
kmod_s3_inwin|module: ping-pong inside windows, 3 sessions on the same section|like:kmod_s1_inwin:absent2
bpf_bound|BPF: 2 bindings, no window open|floor:0.5
bpf_park1|BPF: 1 task parked in a window|
bpf_park64|BPF: 64 tasks parked in windows|floor:3
bpf_park1024|BPF: 1024 tasks parked in windows|
bpf_inwin|BPF: ping-pong tasks inside windows|
L
order="absent absent2 floor kmod_loaded kmod_bound kmod_park1 kmod_park64 kmod_park1024 kmod_inwin kmod_s1_inwin kmod_s3_inwin"
[ $bpf = 1 ] && order="$order bpf_bound bpf_park1 bpf_park64 bpf_park1024 bpf_inwin"
for t in pp2 pp16; do
	case $t in
	pp2) what="2 tasks (1 pair)" ;;
	*) what="16 tasks (8 pairs)" ;;
	esac
	echo "#### Scheduler overhead: pipe ping-pong, $what on CPU $CPU ($TLOB_LANE, $CLOCK clock)" >"$DATA/$t.md"
	echo >>"$DATA/$t.md"
	awk -v table=$t -v base=absent -v floor=floor -v order="$order" \
		-v labels="$DATA/labels" -v unit="switches/s" \
		-f $BIN/bench-ratio.awk "$DATA/samples" >>"$DATA/$t.md"
	echo >>"$DATA/$t.md"
	show "$DATA/$t.md"
done
! grep -q 'same as kmod_s1_inwin.*MISSED' "$DATA/pp2.md" "$DATA/pp16.md"
ok $? "3 sessions on one section cost what 1 does (within the noise of the base measured twice)"
[ $bpf = 1 ] || diag "BPF backend not available in this build: its rows are missing"
n=$(grep -c '^pp2 absent ' "$DATA/samples")
is "$n" "$ROUNDS" "measured $ROUNDS interleaved rounds"
done_testing
