#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug dkms
#   the kernel contract: what it checks depends on the kernel
# Clean teardown in every state: task exit and exec mid-window, kill while
# sleeping inside, unbind and disable with windows open, a full pool, and
# rmmod with 100 windows open. The lane fails on any kernel warning; the
# module's own accounting (pool file, and a WARN at exit if a window or a
# binding is still allocated) shows nothing leaks.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

MS=1000000
B=$(off tlob_section_begin)
E1=$(off tlob_section_end)

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
bind tlob_section_begin "$E1" $((500 * MS))

run() {
	trace_start window violation error_tlob
	"$@" >/dev/null 2>&1
	trace_stop
}

# wait_used N: until the pool holds N open windows (60 s at most)
wait_used() {
	_i=0
	while [ "$(pool used)" != "$1" ] && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ "$(pool used)" = "$1" ]
}

# start_holders N: N processes, each inside a window, sleeping
start_holders() {
	pids=
	_i=0
	while [ $_i -lt "$1" ]; do
		$WL hold 600 >/dev/null &
		pids="$pids $!"
		_i=$((_i + 1))
	done
}

stop_holders() {
	kill -9 $pids 2>/dev/null
	wait 2>/dev/null
}

# aborted REASON NAME: every window record aborted for REASON
aborted() {
	is "$(events window | field verdict | sort -u)" "3" "$2: verdict aborted"
	is "$(events window | field abort_reason | sort -u)" "$1" "$2: abort reason $1"
	is "$(events window | field event | sort -u)" "0" "$2: ended by the model's abort event"
}

run $WL exit 10
is "$(events window | wc -l)" "1" "exit mid-window: one record"
aborted 1 "exit mid-window"
is "$(pool used)" "0" "exit mid-window: window freed"

run $WL exec 10
is "$(events window | wc -l)" "1" "exec mid-window: one record"
aborted 2 "exec mid-window"

run $WL fork 10
is "$(events window | wc -l)" "1" "fork mid-window: the child opens no window"
is "$(events window | field verdict)" "0" "fork mid-window: the parent's window ends in budget"

monitor "-$WL:$B"
bind tlob_section_begin "$E1" $((3600000 * MS))
trace_start window error_tlob
start_holders 1
wait_used 1
ok $? "kill -9 while sleeping inside: window open"
stop_holders
trace_stop
aborted 1 "kill -9 while sleeping inside"
is "$(events error_tlob | wc -l)" "0" "kill -9 while sleeping inside: no model error"

monitor "-$WL:$B"
bind tlob_section_begin "$E1" $((10 * MS))
run $WL exit 50
is "$(events violation | wc -l)" "1" "exit after overrun: violation reported"
is "$(events window | field verdict)" "1" "exit after overrun: the window keeps its over-budget verdict"
is "$(pool used)" "0" "exit after overrun: window freed"
monitor "-$WL:$B"
bind tlob_section_begin "$E1" $((3600000 * MS))

trace_start window
start_holders 5
wait_used 5
ok $? "unbind: 5 windows open"
monitor "-$WL:$B"
trace_stop
is "$(events window | wc -l)" "5" "unbind: 5 records"
aborted 3 "unbind"
is "$(pool used)" "0" "unbind: windows freed"
stop_holders

bind tlob_section_begin "$E1" $((3600000 * MS))
trace_start window
start_holders 5
wait_used 5
ok $? "disable: 5 windows open"
echo 0 >$TLOB/enable
trace_stop
is "$(events window | wc -l)" "5" "disable: 5 records"
aborted 4 "disable"
is "$(pool used)" "0" "disable: windows freed"
stop_holders
echo 1 >$TLOB/enable

start_holders 100
wait_used 100
ok $? "rmmod: 100 windows open"
is "$(pool open)" "100" "rmmod: the open-window count agrees"
ok_cmd "rmmod with 100 windows open" kmod_unload
stop_holders
ok_cmd "the holders were not hurt" $WL -n 3 spin 1

kmod_load pool_size=4
echo 1 >$TLOB/enable
bind tlob_section_begin "$E1" $((3600000 * MS))
start_holders 6
wait_used 4
ok $? "full pool: 4 of 6 windows open"
sleep 1
is "$(pool dropped)" "2" "full pool: 2 STARTs counted as dropped, not lost silently"
stop_holders
is "$(pool used)" "0" "full pool: all freed after the holders died"
ok_cmd "rmmod" kmod_unload

# the debug lane has kmemleak: nothing of tlob's may be reported
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	! grep -q tlob /sys/kernel/debug/kmemleak
	ok $? "kmemleak reports nothing of tlob"
else
	skip "no kmemleak on the $TLOB_LANE lane"
fi
done_testing
