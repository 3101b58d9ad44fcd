#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt debug
#   the stats arithmetic is tlob_abi.h's (the host's engine test checks it)
#   and the per-CPU sum is the module's; the stats file's read path is the
#   monitor file's (bin_attribute), which 10-12 run on every lane
# The stats file: per binding, windows/violations/errors/aborted, min/max/
# mean/sum of elapsed and the log2 histogram, all checked against the
# window records of the same run.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

MS=1000000
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
bind tlob_section_begin "$(off tlob_section_end)" $((50 * MS)) "tag=st"
id=$(binding_id tlob_section_begin)
line=$(grep "^id=$id " $TLOB/stats)
is "$line" "id=$id path=$WL start=$(printf 0x%x $(off tlob_section_begin)) stop=$(printf 0x%x $(off tlob_section_end)) tag=st threshold=$((50 * MS)) min=0 tolerance=1/1 holders=monitor windows=0 violations=0 errors=0 aborted=0 early=0 tolerated=0 dropped=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=" "a fresh binding's stats line (its budget, held by the monitor file)"

trace_start window
$WL -n 5 spin 1 >/dev/null
$WL -n 3 spin 100 >/dev/null
$WL exit 1 >/dev/null
trace_stop
events window | field elapsed_ns >/tmp/el
is "$(wc -l </tmp/el)" "9" "9 window records"
is "$(stat_of $id windows)" "9" "windows=9"
# counts agree with the records' verdicts (a short window may overrun
# when the emulator's host is busy; the three long ones always do)
v=$(events window | field verdict)
is "$(stat_of $id violations)" "$(echo "$v" | grep -c '^1$')" "violations = records over budget"
cmp_ok "$(stat_of $id violations)" -ge 3 "violations >= 3 (the long windows)"
is "$(stat_of $id errors)" "0" "errors=0"
is "$(stat_of $id aborted)" "$(echo "$v" | grep -c '^3$')" "aborted = aborted records"
is "$(events window | tail -n 1 | field event)" "0" "the exit window ended with the model's abort"
is "$(stat_of $id min_ns)" "$(sort -n /tmp/el | head -n 1)" "min_ns is the shortest record"
is "$(stat_of $id max_ns)" "$(sort -n /tmp/el | tail -n 1)" "max_ns is the longest record"
sum=$(awk '{ s += $1 } END { printf "%.0f", s }' /tmp/el)
is "$(stat_of $id sum_ns)" "$sum" "sum_ns is the sum of the records"
is "$(stat_of $id mean_ns)" "$((sum / 9))" "mean_ns = sum_ns / windows"
# bucket i holds [2^i, 2^(i+1)): i = floor(log2(elapsed))
want=$(awk '{ i = 0; v = $1; while (v >= 2) { v = int(v / 2); i++ } h[i]++ }
	END { for (i = 0; i < 64; i++) if (h[i]) printf "%s%d:%d", (n++ ? "," : ""), i, h[i] }' /tmp/el)
is "$(stat_of $id hist)" "$want" "hist matches the records' log2 buckets ($want)"

# The listing is read whole while its figures move: six copies of the
# workload, a binding each, run windows back to back, a spare binding
# comes and goes, and a reader reads stats from offset 0 in one read(2)
# as fast as it can (the listing fits one page). No read may be cut short
# or carry bytes past the listing's end.
monitor "-$WL:$(off tlob_section_begin)" || bail_out "cannot unbind"
RR=/tmp/reread
mkdir -p $RR
for i in 1 2 3 4 5 6; do
	cp $WL $RR/wl$i &&
		monitor "p $RR/wl$i:$(off tlob_section_begin) $(off tlob_section_end) threshold=1000000000" ||
		bail_out "cannot bind copy $i"
done
pids=
for i in 1 2 3 4 5 6; do
	$RR/wl$i -n 100000000 spin 0 >/dev/null &
	pids="$pids $!"
done
(
	end=$(($(date +%s) + 15))
	while [ "$(date +%s)" -lt "$end" ]; do
		bind tlob_section2_begin "$(off tlob_section2_end)" $((50 * MS))
		monitor "-$WL:$(off tlob_section2_begin)"
	done
) &
churn=$!
tlob-reread $TLOB/stats 15 id= >/tmp/reread.out
rc=$?
wait $churn
kill $pids
wait $pids 2>/dev/null
is "$rc" "0" "every read of a moving stats listing is whole ($(tail -n 1 /tmp/reread.out))" ||
	sed 's/^/# /' /tmp/reread.out | head -n 20
cmp_ok "$(stat_of "$(grep " path=$RR/wl1 " $TLOB/stats | sed 's/^id=\([0-9]*\) .*/\1/')" windows)" -gt 100 \
	"the figures moved while it was read (windows of one copy > 100)"
ok_cmd "rmmod" kmod_unload
done_testing
