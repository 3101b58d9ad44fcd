#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, the pool: 100 windows open at rmmod in every state (the
# scene's four, 94 sleeping holders, 2 spinning threads), each ending once
# with the right record; a small pool (insmod pool_size=8) exhausted,
# every START beyond it counted as dropped (no window, no window record,
# but a tlob:dropped record and the binding's dropped count), then
# refilled as windows end, and back to zero; then the same pool filled
# from one CPU and refilled from it after its windows ended on the other
# (free windows are kept per CPU: a CPU whose list is empty takes the
# others' before a START counts as dropped).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

# holders N [CPU]: N processes of $FW sleeping inside their window
# (pinned to CPU when given)
holders() {
	_i=0
	while [ $_i -lt "$1" ]; do
		$FW ${2:+-c $2} sleep 600000 >/dev/null 2>&1 &
		hp="$hp $!"
		_i=$((_i + 1))
	done
}

SCENE_SECS=300
fault_copies || bail_out "cannot copy the workload"

# --- 100 windows open at rmmod
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
bind_scene || bail_out "cannot bind the scene"
trace_bg /tmp/f-100 window violation
start_scene
ok $? "the scene's 4 windows open"
hp=
holders 94
$FW -c 0 threads 2 600000 >/dev/null 2>&1 &
tp=$!
wait_for 120 pool_is 100
ok $? "... and 94 sleeping holders and 2 spinning threads: 100 windows open"
is "$(pool used) $(pool open) $(pool dropped)" "100 100 0" "pool: 100 used, 100 open, none dropped"
ok_cmd "rmmod with 100 windows open" kmod_unload
dead=0
for p in $hp $tp $scene; do kill -0 $p 2>/dev/null || dead=$((dead + 1)); done
trace_bg_end
recs=$(sed -n 's/.* window: / /p' /tmp/f-100)
is "$(echo "$recs" | grep -c .)" "100" "rmmod: 100 window records"
is "$(echo "$recs" | field pid | sort -u | wc -l)" "100" "rmmod: one per task"
is "$(echo "$recs" | field event | sort -u)" "0" "rmmod: all ended by the model's abort event"
is "$(echo "$recs" | grep -c ' verdict=3 abort_reason=4 ')" "99" "rmmod: 99 aborted for disable"
is "$(rec /tmp/f-100 $X | field verdict)" "1" "rmmod: the expired one stays over budget"
is "$dead" "0" "rmmod: every process lives on"
kill_tree $hp $tp
stop_scene

# --- a pool of 8, exhausted and refilled
kmod_load pool_size=8 || bail_out "insmod pool_size=8 failed"
echo 1 >$TLOB/enable
monitor "p $FW:$FB $FE threshold=$HOUR" || bail_out "cannot bind"
is "$(pool size)" "8" "pool_size=8"
trace_bg /tmp/f-pool window dropped
hp=
holders 8
wait_used 8
ok $? "8 windows fill the pool"
first=$hp
hp=
holders 4
sleep 3
is "$(pool used) $(pool dropped)" "8 4" "4 more STARTs: pool full, 4 counted as dropped"
kill_tree $first
wait_for 10 pool_is 0
ok $? "the 8 windows end, the pool is empty (the 4 dropped ones never opened)"
hp2=$hp
hp=
holders 8
wait_used 8
ok $? "refilled: 8 new windows open"
is "$(pool dropped) $(pool peak)" "4 8" "refilled: nothing more dropped, peak 8"
kill_tree $hp $hp2
wait_for 10 pool_is 0
ok $? "all ended: the pool is empty"
trace_bg_end
is "$(grep -c ' window: ' /tmp/f-pool)" "16" "16 window records: the 4 dropped STARTs made none"
drops=$(sed -n 's/.* dropped: / /p' /tmp/f-pool)
is "$(echo "$drops" | grep -c .)" "4" "4 dropped records, one per START that found the pool full"
is "$(echo "$drops" | field kind | sort -u) $(echo "$drops" | field elapsed_ns | sort -u)" "3 0" \
	"... each of kind 3 (dropped), with no time"
id=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' $TLOB/stats)
is "$(stat_of $id windows) $(stat_of $id aborted) $(stat_of $id dropped)" "16 16 4" \
	"stats: 16 windows, all aborted (killed), 4 STARTs dropped"

# --- the pool of 8 from one CPU: its own free windows, then the other's
hp=
holders 8 1
wait_used 8
ok $? "CPU 1 alone opens all 8 windows (it takes CPU 0's free ones)"
holders 1 0
sleep 3
is "$(pool used) $(pool dropped)" "8 5" "a START on CPU 0 finds the pool full: dropped"
# the windows end on CPU 0 (moved there, then killed), so every free
# window is on CPU 0's list
for p in $hp; do taskset -p 1 $p >/dev/null 2>&1; done
sleep 1
kill_tree $hp
wait_for 10 pool_is 0
ok $? "the 8 windows end on CPU 0, the pool is empty"
hp=
holders 8 1
wait_used 8
ok $? "CPU 1 opens 8 windows again, all from CPU 0's list"
is "$(pool dropped) $(pool peak)" "5 8" "nothing more dropped, peak 8"
kill_tree $hp
wait_for 10 pool_is 0
ok $? "all ended: the pool is empty"
ok_cmd "rmmod" kmod_unload
done_testing
