#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, migration: START on one CPU, STOP after the task moved to
# the other (its affinity changed from outside, as taskset or a cgroup
# would), while running, waiting and sleeping, and with the deadline
# passing after the move (the timer was armed on the first CPU); then 200
# windows while the affinity flips every few ms. The scheduler's own
# sched_migrate_task event proves each move; every window ends once, at
# STOP, with the verdict its budget gives, and the pool is empty after.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"
monitor "p $FW:$FB $FE threshold=$HOUR" "p $FWX:$FB $FE threshold=$((2000 * MS))" ||
	bail_out "cannot bind"

# moved FILE PID FROM TO: the scheduler moved PID from CPU FROM to TO
moved() { grep -q "sched_migrate_task: .* pid=$2 .* orig_cpu=$3 dest_cpu=$4" "$1"; }

# migrate NAME STATE PROG ARGS...: PROG runs pinned to CPU 0, opens its
# window, is moved to CPU 1 after 1 s; its window must end at STOP
migrate() {
	_name=$1 _st=$2
	shift 2
	trace_bg /tmp/f-mig window violation
	echo 1 >$INST/events/sched/sched_migrate_task/enable
	"$@" >/dev/null 2>&1 &
	_p=$!
	wait_for 20 pool_is 1
	ok $? "$_name: window open on CPU 0"
	sleep 1
	taskset -p 2 $_p >/dev/null
	wait $_p
	echo 0 >$INST/events/sched/sched_migrate_task/enable
	trace_bg_end
	moved /tmp/f-mig $_p 0 1
	ok $? "$_name: moved from CPU 0 to CPU 1 inside the window"
	_r=$(rec /tmp/f-mig $_p)
	is "$(echo "$_r" | grep -c .)" 1 "$_name: one window record"
	is "$(echo "$_r" | field event)/$(echo "$_r" | field abort_reason)" "4/0" "$_name: ended at STOP"
	if [ "$_st" = waiting ]; then
		# how much a busy CPU makes it wait depends on the scheduler
		# (PREEMPT_RT gave it far less than 4/5): it waited, that is all
		[ "$(echo "$_r" | field preemptions)" -ge 1 ] && [ "$(echo "$_r" | field waiting_ns)" -gt 0 ]
		ok $? "$_name: preempted, time spent waiting" || diag "$_r"
	else
		dominant "$_r" "$_st"
		ok $? "$_name: $_st time dominant" || diag "$_r"
	fi
	is "$(pool used)" "0" "$_name: the pool is empty"
}

migrate running running $FW -c 0 spin 6000
is "$(echo "$_r" | field verdict)" "0" "running: in budget"
migrate sleeping sleeping $FW -c 0 sleep 6000
is "$(echo "$_r" | field verdict)" "0" "sleeping: in budget"
# waiting: four CFS busy loops on each CPU, so the task waits ~4/5 of the
# time before and after the move (not a SCHED_FIFO hog: on PREEMPT_RT it
# would starve the CPU's ktimers thread)
hog=
for i in 1 2 3 4; do
	$WL -c 0 burn 20000 >/dev/null 2>&1 &
	hog="$hog $!"
	$WL -c 1 burn 20000 >/dev/null 2>&1 &
	hog="$hog $!"
done
migrate waiting waiting $FW -c 0 spin 6000
is "$(echo "$_r" | field verdict)" "0" "waiting: in budget"
kill_tree $hog

# the deadline (2 s) passes after the move (about 1 s after START), with
# the timer armed on CPU 0
migrate "expired after the move" running $FWX -c 0 spin 6000
v=$(sed -n "s/.* violation: \(pid=$_p .*\)/ \1/p" /tmp/f-mig)
is "$(echo "$v" | grep -c .)" "1" "expired after the move: one violation"
is "$(echo "$v" | field detector)" "1" "expired after the move: detected by the hrtimer armed on CPU 0"
cmp_ok "$(echo "$v" | field elapsed_ns)" -lt $((6000 * MS)) "expired after the move: reported while still inside"
is "$(echo "$_r" | field verdict)" "1" "expired after the move: window over budget"

# --- 200 windows while the affinity flips between the CPUs (10 ms each:
# a flip is a taskset fork and exec, tens of ms on the debug kernel)
trace_bg /tmp/f-flip window
echo 1 >$INST/events/sched/sched_migrate_task/enable
$FW -n 200 spin 10 >/dev/null 2>&1 &
p=$!
cpu=1
while kill -0 $p 2>/dev/null; do
	taskset -p $cpu $p >/dev/null 2>&1
	cpu=$((3 - cpu))
done
wait $p
echo 0 >$INST/events/sched/sched_migrate_task/enable
trace_bg_end
n=$(grep -c "sched_migrate_task: .* pid=$p " /tmp/f-flip)
cmp_ok "$n" -ge 20 "flip: the task was moved $n times"
r=$(rec /tmp/f-flip $p)
is "$(echo "$r" | grep -c .)" "200" "flip: 200 window records"
is "$(echo "$r" | field verdict | sort -u)/$(echo "$r" | field event | sort -u)" "0/4" \
	"flip: all in budget, all ended at STOP"
id=$(sed -n "s/^id=\([0-9]*\) path=$(echo $FW | sed 's,/,\\/,g') .*/\1/p" $TLOB/stats)
is "$(stat_of $id windows) $(stat_of $id errors) $(stat_of $id aborted)" "203 0 0" \
	"stats: 203 windows (3 moved + 200 flipped), no error, none aborted"
is "$(pool used) $(pool open)" "0 0" "the pool is empty"
ok_cmd "rmmod" kmod_unload
done_testing
