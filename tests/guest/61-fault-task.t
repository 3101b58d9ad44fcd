#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, task side: the task exits or execs while its window is in
# each state (running, waiting, sleeping, past its deadline), with the
# other states' windows open around it (lib/fault.sh's scene). A task can
# only exec while it runs, so exec is met running and expired; exit is met
# in all four (SIGKILL: a waiting task exits once it gets the CPU, which
# its fair share of CPU 1 gives it at once; a sleeping one is woken to
# die). Each fault ends that task's window only, once, with the ABI's
# abort reason, and nothing else.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"
bind_scene || bail_out "cannot bind the scene"

trace_bg /tmp/f-task window violation
start_scene
ok $? "4 windows open, one per state"

# --- exec while the scene's windows stay open
$FW exec 50 >/dev/null 2>&1 &
ep=$!
wait $ep
is "$(pool used)" "4" "exec (running): only the exec'ing task's window ended"
$FWX exec 100 >/dev/null 2>&1 &
exp=$!
wait $exp
is "$(pool used)" "4" "exec (expired): only the exec'ing task's window ended"

# --- exit (SIGKILL) of each scene task, the others' windows open
kill -9 "$R"
wait "$R" 2>/dev/null
is "$(pool used)" "3" "kill while running: that window ended"
kill -9 "$W"
wait "$W" 2>/dev/null
is "$(pool used)" "2" "kill while waiting: that window ended (once it got the CPU)"
kill -9 "$S"
wait "$S" 2>/dev/null
is "$(pool used)" "1" "kill while sleeping: that window ended"
kill -9 "$X"
wait "$X" 2>/dev/null
is "$(pool used) $(pool open)" "0 0" "kill after the deadline: the pool is empty"
stop_scene

# --- a voluntary exit inside the window, and a whole thread group
$FW exit 20 >/dev/null 2>&1 &
vp=$!
wait $vp
$FW threads 8 20000 >/dev/null 2>&1 &
tg=$!
wait_for 20 pool_is 8
ok $? "8 threads of one process inside their windows"
kill -9 $tg
wait $tg 2>/dev/null
is "$(pool used) $(pool open)" "0 0" "kill of the thread group: the pool is empty"
trace_bg_end

recs=$(sed -n 's/.* window: / /p' /tmp/f-task)
is "$(echo "$recs" | grep -c .)" "15" "15 window records: 2 exec, 4 scene, 1 exit, 8 threads"
is "$(echo "$recs" | field event | sort -u)" "0" "every window ended by the model's abort event"
e=$(rec /tmp/f-task $ep)
is "$(echo "$e" | grep -c .)" "1" "exec (running): one record"
is "$(echo "$e" | field verdict)/$(echo "$e" | field abort_reason)" "3/2" "exec (running): aborted, reason 2"
x=$(rec /tmp/f-task $exp)
is "$(grep -c " violation: pid=$exp " /tmp/f-task)" "1" "exec (expired): one violation"
is "$(echo "$x" | field verdict)/$(echo "$x" | field abort_reason)" "1/0" \
	"exec (expired): over budget sticks, no abort reason"
check_scene /tmp/f-task 1 "exit"
tgr=$(echo "$recs" | grep " tgid=$tg ")
is "$(echo "$tgr" | field pid | sort -u | wc -l)" "8" "thread group: 8 threads, one record each"
is "$(echo "$tgr" | field abort_reason | sort -u)" "1" "thread group: all aborted for exit"
v=$(rec /tmp/f-task $vp)
is "$(echo "$v" | field verdict)/$(echo "$v" | field abort_reason)" "3/1" "voluntary exit: aborted, reason 1"
dominant "$v" running
ok $? "voluntary exit: running time dominant"
id=$(sed -n "s/^id=\([0-9]*\) path=$(echo $FW | sed 's,/,\\/,g') .*/\1/p" $TLOB/stats)
is "$(stat_of $id windows) $(stat_of $id aborted) $(stat_of $id violations)" "13 13 0" \
	"stats of the 1 h binding: 13 windows, all aborted"
ok_cmd "rmmod" kmod_unload
done_testing
