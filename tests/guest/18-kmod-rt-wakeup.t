#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug dkms
#   the kernel contract: what it checks depends on the kernel
# A violation reaches its reader at once, even while a real-time task
# holds the CPU it was found on. tlob-diag's window task waits behind
# diag-hog (SCHED_FIFO 50, spinning 4 s with RT throttling off) on CPU 0;
# its deadline (20 ms) fires there in hard IRQ and the record is written
# to CPU 0's buffer. `tlob mon` reads on CPU 1, its lines stamped there as
# they come. On PREEMPT_RT the ring buffer wakes readers through CPU 0's
# irq_work kthread (SCHED_FIFO 1), which diag-hog starves: before
# tlob:notify (kernel/module/tlob_notify.c) the violation was printed only
# once diag-hog was done, about 4 s after its deadline. On the other
# kernels the wakeup runs in the interrupt. A trace instance of the
# script's own shows whether tlob:notify fired: on PREEMPT_RT, from CPU 0.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/bin/tool.sh

DIAG=/opt/tlob/bin/tlob-diag
TRACE=/sys/kernel/tracing
INST=$TRACE/instances/rtwake
[ -x "$DIAG" ] || skip_all "no $DIAG"
[ "$(nproc)" -ge 2 ] || skip_all "one CPU: the reader would share the hog's"
tool_module_up || bail_out "cannot load $TLOB_KO"
# (uname -v, as 00-lane: 7.3's PREEMPT_RT has no /sys/kernel/realtime)
rt=0
uname -v | grep -q PREEMPT_RT && rt=1

ok "$([ -d "$TRACE/events/tlob/notify" ]; echo $?)" "the module has tlob:notify"
mkdir "$INST" && echo 1 >"$INST/events/tlob/notify/enable"
ok $? "a trace instance of its own records tlob:notify"

rt_throttle_off
mkfifo "$T/lines"
# shellcheck disable=SC2016
taskset -c 1 sh -c 'while IFS= read -r l; do echo "$(cut -d" " -f1 /proc/uptime) $l"; done' \
	<"$T/lines" >"$T/out" &
stamp=$!
# --flush 10s: no batch deadline wakes the reader in the meantime.
taskset -c 1 tlob mon --backend kmod --json --flush 10s -b "$DIAG:diag_begin,diag_end,20ms" \
	>"$T/lines" 2>"$T/mon.err" &
mon=$!
mon_wait "$T/mon.err"
ok $? "tlob mon monitors, on CPU 1"
"$DIAG" -n 1 -c 0 wait 4000 >/dev/null
is $? 0 "tlob-diag's window waited 4 s behind diag-hog on CPU 0"
sleep 0.5
kill -INT $mon
wait $mon
is $? 0 "tlob mon exits 0"
wait $stamp
rt_throttle_restore

v=$(grep '"kind_name":"violation"' "$T/out" | head -1)
[ -n "$v" ]
ok $? "the violation was read" || sed 's/^/#   /' "$T/out" "$T/mon.err"
# seconds from the deadline (start_ns + budget_ns, CLOCK_MONOTONIC, which
# is /proc/uptime's clock in a guest that never suspends) to its line
late=$(printf '%s\n' "$v" | awk '{
	s = $0; sub(/.*"start_ns":/, "", s); sub(/,.*/, "", s)
	b = $0; sub(/.*"budget_ns":/, "", b); sub(/,.*/, "", b)
	printf "%.2f", $1 - (s + b) / 1e9 }')
diag "the violation's line came ${late:-?} s after its deadline (diag-hog spun 4 s)"
awk -v l="${late:-99}" 'BEGIN { exit !(l < 1.5) }'
ok $? "... while diag-hog still held CPU 0 (within 1.5 s)"

n=$(grep -c 'notify: from_cpu=0' "$INST/trace")
if [ $rt = 1 ]; then
	cmp_ok "$n" -ge 1 "PREEMPT_RT: tlob:notify fired from CPU 0"
else
	is "$n" 0 "not PREEMPT_RT: tlob:notify never fires"
fi
echo 0 >"$INST/events/tlob/notify/enable"
rmdir "$INST"
tool_module_down
done_testing
