#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
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
ok_cmd "rmmod" kmod_unload
done_testing
