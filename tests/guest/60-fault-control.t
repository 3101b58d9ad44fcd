#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, control side: disable, unbind and rmmod while windows are
# open in every state at once (running, waiting, sleeping, and past their
# deadline; see lib/fault.sh). Each open window ends exactly once, with
# the abort reason the ABI names (a violated window stays over budget),
# the time of the state it was in dominant; the pool is empty right after,
# the statistics count what the records say, the bindings listing is what
# the fault promises, and the processes live on unharmed.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"
bind_scene || bail_out "cannot bind the scene"

# bid PATH: the id of PATH's binding
bid() { sed -n "s/^id=\([0-9]*\) path=$(echo "$1" | sed 's,/,\\/,g') .*/\1/p" $TLOB/stats; }

alive() {
	_dead=
	for _p in $scene; do kill -0 "$_p" 2>/dev/null || _dead="$_dead $_p"; done
	[ -z "$_dead" ] && return 0
	diag "gone:$_dead (R=$R W=$W S=$S X=$X)"
	return 1
}

# --- disable: every window aborted (4), the bindings stay
trace_bg /tmp/f-dis window violation
start_scene
ok $? "disable: 4 windows open, one per state"
before=$(listing)
echo 0 >$TLOB/enable
alive
lived=$?
is "$(pool used) $(pool open)" "0 0" "disable: the pool is empty at once"
trace_bg_end
check_scene /tmp/f-dis 4 disable
is "$(listing)" "$before" "disable: the bindings stay listed"
id=$(bid $FW)
idx=$(bid $FWX)
is "$(stat_of $id windows) $(stat_of $id aborted) $(stat_of $id violations)" "3 3 0" \
	"disable: stats of the 1 h binding: 3 windows, 3 aborted"
is "$(stat_of $idx windows) $(stat_of $idx aborted) $(stat_of $idx violations)" "1 0 1" \
	"disable: stats of the 20 ms binding: 1 window, over budget, not counted aborted"
ok $lived "disable: the processes live on"
stop_scene
echo 1 >$TLOB/enable
trace_bg /tmp/f-dis2 window
$FW spin 1 >/dev/null
trace_bg_end
is "$(rec /tmp/f-dis2 '[0-9]*' | field verdict)" "0" "re-enabled: the kept binding works again"

# --- unbind: one binding's windows only, then the other's
trace_bg /tmp/f-unb window violation
start_scene
ok $? "unbind: 4 windows open, one per state"
monitor "-$FWX:$FB"
ok $? "unbind the 20 ms binding"
is "$(pool used)" "3" "unbind: only its window ended"
monitor "-$FW:$FB"
ok $? "unbind the 1 h binding"
alive
lived=$?
is "$(pool used) $(pool open)" "0 0" "unbind: the pool is empty"
trace_bg_end
check_scene /tmp/f-unb 3 unbind
is "$(listing)" "" "unbind: nothing listed"
is "$(grep -c . $TLOB/stats)" "0" "unbind: no stats line left"
ok $lived "unbind: the processes live on"
stop_scene

# --- rmmod: every window aborted (disable) as the module goes
bind_scene
trace_bg /tmp/f-rm window violation
start_scene
ok $? "rmmod: 4 windows open, one per state"
ok_cmd "rmmod with a window in every state" kmod_unload
alive
lived=$?
trace_bg_end
check_scene /tmp/f-rm 4 rmmod
ok $lived "rmmod: the processes live on"
stop_scene
kmod_load || bail_out "insmod after rmmod failed"
is "$(pool used) $(pool open) $(pool bindings)" "0 0 0" "reloaded: empty pool, no binding"
ok_cmd "rmmod" kmod_unload
done_testing
