#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: debug
#   the debug lane's kernel has kmemleak; the others have none and skip it
# kmemleak after rmmod (the debug lane's kernel has it): a module lifetime
# that walks every allocation path -- bindings added, refused (malformed,
# missing file, duplicate, over max_bindings) and removed; windows ended
# by STOP, by the deadline, by exit, exec, unbind and disable; reactions
# queued; stats and listings read -- then rmmod, and kmemleak, scanned
# twice (an object must stay unreferenced across scans to be reported),
# must report nothing. What boot left behind is cleared first. Skips on
# kernels without kmemleak (the stock and RT lanes).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

KL=/sys/kernel/debug/kmemleak
[ -e $KL ] || skip_all "no kmemleak on the $TLOB_LANE lane ($(uname -r))"
cat $KL >/dev/null 2>&1 || skip_all "kmemleak is present but disabled on this kernel"
echo scan >$KL
echo clear >$KL

kmod_load max_bindings=3 || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"
echo printk >$TLOB/reactors
monitor "p $FW:$FB $FE threshold=$((10 * MS)) tag=leak" "p $FWX:$FB ret threshold=$HOUR"
ok $? "two bindings"
is "$(errno_of "p $FW:$FB $FE threshold=1000000")" "File exists" "a duplicate is refused"
is "$(errno_of "p $FDIR/none:$FB $FE threshold=1000000")" "No such file or directory" "a missing file is refused"
is "$(errno_of "p $FW:$FB $FE threshhold=1")" "Invalid argument" "a malformed line is refused"
is "$(errno_of "p $WL:$FB $FE threshold=1000000" "p $FDIR/wl2:1 2 threshold=1000000")" \
	"No such file or directory" "a write failing on its second line is refused"
cp $WL $FDIR/wl3
is "$(errno_of "p $WL:$FB $FE threshold=1000000" "p $FDIR/wl3:$FB $FE threshold=1000000")" \
	"No space left on device" "a write beyond max_bindings is refused"
$FW -n 3 spin 1 >/dev/null
$FW spin 30 >/dev/null
$FW exit 5 >/dev/null
$FW exec 5 >/dev/null
$FWX sleep 20 >/dev/null
# (the ret binding's window ends when tlob_section_begin returns: the
# windows left open are the other binding's)
$FW sleep 20000 >/dev/null &
p1=$!
$FW sleep 20000 >/dev/null &
p2=$!
wait_used 2
ok $? "two windows open"
echo 0 >$TLOB/enable
is "$(pool used)" "0" "disable with two windows open"
echo 1 >$TLOB/enable
$FW sleep 20000 >/dev/null &
p3=$!
wait_used 1
ok $? "a window open again"
monitor "-$FW:$FB"
ok $? "unbind with a window open"
is "$(pool used)" "0" "... which ended it"
kill $p1 $p2 $p3
wait $p1 $p2 $p3 2>/dev/null
cat $TLOB/monitor $TLOB/stats $TLOB/pool $TLOB/reactors >/dev/null
echo nop >$TLOB/reactors
ok_cmd "rmmod" kmod_unload

echo scan >$KL
sleep 6
echo scan >$KL
n=$(grep -c 'unreferenced object' $KL)
is "$n" "0" "kmemleak reports no unreferenced object after rmmod"
[ "$n" = 0 ] || head -n 60 $KL | sed 's/^/# /'
done_testing
