#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug
#   the kernel contract: what it checks depends on the kernel
# Races: windows ending right at their deadline (the timer against STOP,
# slots reused at once), threads on both CPUs, while the binding is
# removed and re-added and the monitor disabled and enabled under them.
# The lane fails on any kernel report; the pool must end empty.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

B=$(off tlob_section_begin)
E1=$(off tlob_section_end)
kmod_load pool_size=8 || bail_out "insmod failed"
echo 1 >$TLOB/enable
# 1 ms budget, 1 ms windows: about half overrun, at STOP or by the timer
bind tlob_section_begin "$E1" 1000000

trace_start window violation
$WL -n 300 threads 4 1 >/tmp/wl1 &
w1=$!
$WL -n 300 -g 1 sleep 1 >/tmp/wl2 &
w2=$!
# The churn starts once a window is open (30 s at most). On 6.12-rt under
# emulation a cycle takes about 1.2 s (the script 29 s, 4 to 5 on the
# other lanes): a first unbind that came before the workloads' first
# START left them to run their 1200 windows unbound, and none was
# recorded (a CI run, 6.12-rt: pool peak=0).
n=0
while [ "$(pool peak)" = 0 ] && [ $n -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
i=0
while [ $i -lt 20 ]; do
	monitor "-$WL:$B"
	bind tlob_section_begin "$E1" 1000000
	echo 0 >$TLOB/enable
	echo 1 >$TLOB/enable
	i=$((i + 1))
done
wait $w1
ok $? "threads workload survived 20 unbind/disable cycles"
wait $w2
ok $? "sleeping workload survived them"
trace_stop
is "$(cat /tmp/wl1)" "windows=1200 sigxcpu=0" "1200 windows ran"
cmp_ok "$(events window | wc -l)" -gt 0 "windows were recorded"
cmp_ok "$(events violation | wc -l)" -gt 0 "some overran"
is "$(events window | field abort_reason | grep -cv '^[034]$')" "0" "aborts only by unbind/disable"
is "$(pool used) $(pool open)" "0 0" "the pool is empty"
echo "# $(cat $TLOB/pool)"
ok_cmd "rmmod" kmod_unload
done_testing
