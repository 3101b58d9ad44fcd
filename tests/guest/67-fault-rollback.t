#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, a write that fails half way: a monitor write whose first
# line binds a busy binary and whose second line's uprobe cannot be
# registered (/proc/kcore: a regular file, large, but procfs cannot give
# uprobes its pages: -EIO). The write must fail and change nothing: the
# first binding's uprobes were live for a moment, and threads hammering
# its START/STOP in a loop may have hit them, so a rollback that leaves
# those windows open (pointing at a binding it frees) or lets them report
# breaks "nothing changed" -- and is a use-after-free when they end.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

BAD=/proc/kcore
[ -f $BAD ] || skip_all "no $BAD on this kernel"
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"

bad_e=$(errno_of "p $BAD:4096 8192 threshold=1000000")
[ "$bad_e" != ok ] || { monitor "-$BAD:4096"; skip_all "this kernel lets uprobes on $BAD"; }
# only a failure of the uprobe registration reaches the rollback
[ "$bad_e" = "Input/output error" ] || skip_all "a binding on $BAD fails before registration: $bad_e"

# hammer_start: a thread entering and leaving the section as fast as it
# can (one CPU stays for the shell), our events streamed to /tmp/f-rb
hammer_start() {
	$FW -n 1000000000 threads 1 0 >/dev/null 2>&1 &
	busy=$!
	trace_bg /tmp/f-rb window violation
}
# hammer_end WHAT: stop it; WHAT left no window record
hammer_end() {
	kill_tree $busy
	trace_bg_end
	n=$(grep -c ' window: ' /tmp/f-rb)
	is "$n" "0" "no window record from $1"
	[ "$n" = 0 ] || diag "e.g. $(grep -m 1 ' window: ' /tmp/f-rb | sed 's/.* window: //')"
}

hammer_start
i=0
fails=0
while [ $i -lt 50 ]; do
	r=$(errno_of "p $FW:$FB $FE threshold=$HOUR" "p $BAD:4096 8192 threshold=1000000")
	[ "$r" = "$bad_e" ] && fails=$((fails + 1))
	i=$((i + 1))
done
is "$fails" "50" "50 half-failing writes, each failed ($bad_e)"
is "$(listing)" "" "nothing listed"
is "$(pool used)" "0" "no window left open by a failed write"
hammer_end "a failed write"
is "$(pool used) $(pool bindings)" "0 0" "the pool is empty, no binding"

# The same through a session that joins a binding the monitor file holds
# while disabled (so disarmed): the join arms it for the moment of the
# write, and the failing second line must leave no window and no record
# of it either.
echo 0 >$TLOB/enable
monitor "p $FW:$FB $FE threshold=$HOUR" || bail_out "cannot bind $FW"
printf '%s\n' "p $FW:$FB $FE threshold=$HOUR" "p $BAD:4096 8192 threshold=1000000" >/tmp/f-join
hammer_start
i=0
fails=0
while [ $i -lt 50 ]; do
	dd if=/tmp/f-join of=/dev/tlob bs=4096 conv=notrunc 2>/dev/null || fails=$((fails + 1))
	i=$((i + 1))
done
is "$fails" "50" "50 half-failing session writes joining a disarmed binding, each failed"
is "$(pool used)" "0" "no window left open by them"
hammer_end "them"
is "$(listing)" "p $FW:$(printf 0x%x $FB) $(printf 0x%x $FE) threshold=$HOUR" "the monitor file still holds its binding"
is "$(pool bindings)" "1" "and only it"
ok_cmd "rmmod" kmod_unload
done_testing
