#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt debug
#   the fault matrix: under PREEMPT_RT, and under KASAN
# Fault matrix, the file side: the bound binary is deleted, or replaced by
# a new file under the same path (rename over it, as package managers do),
# while its windows are open in every state (lib/fault.sh's scene).
# A binding follows the file it was made on, not the path: the running
# processes keep their windows, which end at STOP as if nothing happened;
# the binding stays listed under the path it was given and can still be
# removed by that path; a new process from the replacing file is not
# monitored until it is bound anew.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

SCENE_SECS=15
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable

# check_stop FILE NAME: every scene window ended at its STOP, R W S in
# budget and X over it, with the time of its state dominant
check_stop() {
	for _p in $scene; do
		case $_p in
		"$R") _who=running _st=running _v=0 ;;
		"$W") _who=waiting _st=waiting _v=0 ;;
		"$S") _who=sleeping _st=sleeping _v=0 ;;
		"$X") _who=expired _st=sleeping _v=1 ;;
		esac
		_r=$(rec "$1" "$_p")
		is "$(echo "$_r" | grep -c .)" 1 "$2, $_who: one window record"
		is "$(echo "$_r" | field verdict)/$(echo "$_r" | field abort_reason)/$(echo "$_r" | field event)" \
			"$_v/0/4" "$2, $_who: ended at STOP, verdict $_v"
		dominant "$_r" $_st
		ok $? "$2, $_who: $_st time dominant" || diag "$_r"
	done
}

scene_done() { wait $scene 2>/dev/null; stop_scene; }

# --- deleted
fault_copies || bail_out "cannot copy the workload"
bind_scene || bail_out "cannot bind the scene"
before=$(listing)
trace_bg /tmp/f-del window violation
start_scene
ok $? "delete: 4 windows open, one per state"
rm -f $FW $FWX
ok $? "both bound binaries deleted"
is "$(listing)" "$before" "delete: the bindings stay listed under their paths"
scene_done
trace_bg_end
check_stop /tmp/f-del delete
is "$(pool used)" "0" "delete: the pool is empty"
monitor "-$FW:$FB" "-$FWX:$FB"
ok $? "delete: the bindings are removed by the deleted paths"
is "$(listing)" "" "delete: nothing listed"

# --- replaced (a new file renamed over the bound one)
fault_copies || bail_out "cannot copy the workload"
bind_scene || bail_out "cannot bind the scene"
before=$(listing)
trace_bg /tmp/f-rep window violation
start_scene
ok $? "replace: 4 windows open, one per state"
cp $WL $FW.new && mv $FW.new $FW
ok $? "the bound binary replaced"
is "$(listing)" "$before" "replace: the binding stays listed"
$FW spin 1 >/dev/null
is "$(pool used)" "4" "replace: a process of the new file opens no window"
scene_done
trace_bg_end
check_stop /tmp/f-rep replace
is "$(grep -c ' window: ' /tmp/f-rep)" "4" "replace: the scene's 4 records, none from the new file"
monitor "-$FW:$FB"
ok $? "replace: the old binding is removed by its path"
is "$(listing)" "p $FWX:$(printf 0x%x $FB) $(printf 0x%x $FE) threshold=$((20 * MS))" \
	"replace: only the other binding is left"
monitor "p $FW:$FB $FE threshold=$HOUR"
ok $? "replace: the new file can be bound"
trace_bg /tmp/f-rep2 window
$FW spin 1 >/dev/null &
np=$!
wait $np
trace_bg_end
is "$(rec /tmp/f-rep2 $np | field verdict)" "0" "replace: ... and its window is monitored"
is "$(pool used) $(pool open)" "0 0" "the pool is empty"
ok_cmd "rmmod" kmod_unload
done_testing
