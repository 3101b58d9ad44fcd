#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt 6.12 6.12-rt debug
#   the module's permission checks on 6.1 and 6.12, each preemption model
# Security: nothing of the kernel's memory reaches userspace through tlob.
# Windows of every ending (in budget, over budget, model error, exit,
# unbind) with every tlob event on; then every number in every event
# payload and every control file read must be a plausible value, none
# shaped like a kernel address (0xffff..., or a 20-digit decimal in the
# kernel's half of the address space); the string fields (comm, tag) are
# exactly the task's name and the binding's tag, nothing trailing.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh

MS=1000000
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
fault_copies || bail_out "cannot copy the workload"
E2=$(off tlob_section2_end)
monitor "p $FW:$FB $FE threshold=$((20 * MS)) tag=sec.T-1" "p $FWX:$FB $E2 threshold=$HOUR" ||
	bail_out "cannot bind"
trace_bg /tmp/sec-trace window violation error_env_tlob detail_env_tlob error_tlob event_tlob
$FW -n 2 spin 1 >/dev/null	# in budget
$FW spin 60 >/dev/null		# over budget
$FW exit 5 >/dev/null		# aborted: exit
$FWX -n 2 spin 1 >/dev/null	# START twice before STOP: model error
$FW sleep 20000 >/dev/null &
p=$!
wait_used 1
monitor "-$FW:$FB"		# aborted: unbind
kill $p
wait $p 2>/dev/null
trace_bg_end
for e in window violation error_env_tlob detail_env_tlob error_tlob event_tlob; do
	cmp_ok "$(grep -c " $e: " /tmp/sec-trace)" -ge 1 "the run produced $e events"
done
grep -q ' window: .* verdict=2 ' /tmp/sec-trace
ok $? "... including a model-error window"

# every payload and every control file we can read, as text
sed -n 's/.* \(window\|violation\|error_env_tlob\|detail_env_tlob\|error_tlob\|event_tlob\): //p' \
	/tmp/sec-trace >/tmp/sec-all
n_ev=$(wc -l </tmp/sec-all)
monitor "p $FW:$FB $FE threshold=$((20 * MS)) tag=sec.T-1"
$FW spin 1 >/dev/null
for f in $TLOB/* /sys/module/tlob/parameters/*; do cat "$f"; done >>/tmp/sec-all
diag "$n_ev event payloads and $(ls $TLOB | wc -w) control files scanned"
ok_cmd "no 0xffff... value anywhere" sh -c '! grep -qi "ffff[0-9a-f]\{8\}" /tmp/sec-all'
big=$(tr -c '0-9\n' '\n' </tmp/sec-all | grep -c '^[0-9]\{20,\}$')
is "$big" "0" "no number of 20 digits or more (a kernel address in decimal)"
neg=$(grep -o 'detect_latency_ns=-[0-9]*' /tmp/sec-all | wc -l)
is "$neg" "0" "no negative detection latency (an uninitialised field would show)"
comms=$(grep -o ' comm=[^ ]*' /tmp/sec-trace | sort -u | tr '\n' ' ')
is "$comms" " comm=wl  comm=wlx " "comm is exactly the task's name"
tags=$(grep -o ' tag=[^ ]*' /tmp/sec-trace | sort -u | tr '\n' ' ')
is "$tags" " tag=-  tag=sec.T-1 " "tag is exactly the binding's tag, or -"
tgids=$(grep ' window: ' /tmp/sec-trace | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(pid|tgid)=/) printf "%s ", $i; print "" }' |
	awk '{ split($1, a, "="); split($2, b, "="); if (a[2] != b[2]) n++ } END { print n + 0 }')
is "$tgids" "0" "pid = tgid in every record (single-threaded runs)"
bad=$(grep ' window: ' /tmp/sec-trace | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["kind"] != 2 || f["verdict"] > 3 || f["abort_reason"] > 4 || f["detector"] > 5 ||
	    f["state"] > 3 || f["event"] > 7 || f["end_ns"] - f["start_ns"] != f["elapsed_ns"]) n++ }
	END { print n + 0 }')
is "$bad" "0" "every enum field of every window record is in range, elapsed = end - start"
ok_cmd "rmmod" kmod_unload
done_testing
