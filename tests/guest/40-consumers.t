#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   trace-cmd, perf and bpftrace read the same events on every kernel
# Real consumers nobody here wrote read tlob's events with no extra
# software: trace-cmd and perf decode them field by field, bpftrace counts
# violations and its count matches the tool's own. The workload runs 3
# windows of 120 ms then 2 of 1 ms against a 50 ms budget (wide margins:
# the emulated guest shares a loaded host): exactly 3
# violations and 5 windows.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/procs.sh
WL=/opt/tlob/bin/tlob-workload
SPEC=$WL:tlob_section_begin,tlob_section_end,50ms
cd /tmp || exit 1

insmod "$TLOB_KO"
ok $? "tlob.ko loads"
tlob bind -b "$SPEC" >/dev/null
ok $? "a binding on the workload (tlob bind)"
workload() { "$WL" -n 3 spin 120 >/dev/null && "$WL" -n 2 spin 1 >/dev/null; }

# trace-cmd: record the whole tlob system, report decodes the fields.
trace-cmd record -q -e tlob -o /tmp/tc.dat sh -c "$WL -n 3 spin 120; $WL -n 2 spin 1" >/tmp/tc.out 2>&1
ok $? "trace-cmd record -e tlob"
trace-cmd report -i /tmp/tc.dat >/tmp/tc.txt 2>/tmp/tc.err
is "$(grep -c ' violation: ' /tmp/tc.txt)" 3 "trace-cmd report: 3 tlob:violation events" || grep ' window: ' /tmp/tc.txt | sed "s/^/# /"
is "$(grep -c ' window: ' /tmp/tc.txt)" 5 "trace-cmd report: 5 tlob:window events" ||
	{ grep -v ' error_env_tlob: \| detail_env_tlob: ' /tmp/tc.txt | cut -c1-160 | sed 's/^/# /'
	  sed 's/^/# record: /' /tmp/tc.out; sed 's/^/# report: /' /tmp/tc.err; }
is "$(grep -c ' error_env_tlob: ' /tmp/tc.txt)" 3 "trace-cmd report: 3 upstream error_env_tlob events"
grep ' window: ' /tmp/tc.txt | grep -q 'budget_ns=50000000' &&
	grep ' detail_env_tlob: ' /tmp/tc.txt | grep -q 'threshold_ns=50000000'
ok $? "trace-cmd report decodes the fields (budget_ns, threshold_ns)" ||
	head -n 5 /tmp/tc.txt | sed 's/^/# /'

# perf: the same events, system-wide, perf script prints their fields.
perf record -q -e 'tlob:*' -a -o /tmp/perf.data -- sh -c "$WL -n 3 spin 120; $WL -n 2 spin 1" >/dev/null 2>&1
ok $? "perf record -e 'tlob:*'"
perf script -i /tmp/perf.data >/tmp/perf.txt 2>/dev/null
is "$(grep -c 'tlob:violation:' /tmp/perf.txt)" 3 "perf script: 3 tlob:violation events"
is "$(grep -c 'tlob:window:' /tmp/perf.txt)" 5 "perf script: 5 tlob:window events"
grep 'tlob:violation:' /tmp/perf.txt | grep -q 'budget_ns=50000000'
ok $? "perf script decodes the fields" || head -n 5 /tmp/perf.txt | sed 's/^/# /'

# bpftrace counts violations; the tool, reading the same run, agrees.
tlob mon --json -d 60s >/tmp/mon.json 2>/tmp/mon.err &
mon=$!
# bpftrace ends by its own exit(), when this script opens /tmp/bt.stop,
# not on SIGINT: bpftrace 0.17 (Debian 12's) loses a SIGINT that lands
# outside its epoll_wait(). Its handler sets exitsig_recv, but the poll
# loop reads the flag only when epoll_wait() returns EINTR, and each
# 100 ms timeout takes it round again (0.19 rewrote that loop): a lost
# SIGINT leaves it in do_epoll_wait (state S, "Attaching 2 probes..." its
# only output) until the script's timeout.
# A second SIGINT is no cure: once the loop has ended, bpftrace restores
# the default action and a SIGINT kills it before it prints its maps.
# exit() sets a flag the loop reads at every timeout.
bpftrace -e 'tracepoint:tlob:violation { @violations = count(); }
	tracepoint:tlob:window { @windows = count(); }
	tracepoint:syscalls:sys_enter_openat /str(args->filename) == "/tmp/bt.stop"/ { exit(); }' \
	>/tmp/bt.txt 2>&1 &
bt=$!
# bpftrace compiles its program first (slow under emulation): wait until
# it says it is attached.
wait_line /tmp/bt.txt Attaching 120 $bt
ok $? "bpftrace attaches" || { proc_dump $bt; sed 's/^/# bt: /' /tmp/bt.txt; }
sleep 1
workload
sleep 1
# Each reader must end when told to; a bounded wait shows a stuck one's
# threads and kernel stacks.
cat /tmp/bt.stop 2>/dev/null
proc_wait_gone $bt 60
ok $? "bpftrace ends by exit() when the script opens /tmp/bt.stop" ||
	{ proc_dump $bt; kill -KILL $bt; }
wait $bt
kill -INT $mon
proc_wait_gone $mon 60
ok $? "tlob mon ends on SIGINT" || { proc_dump $mon; sed 's/^/# mon: /' /tmp/mon.err; kill -KILL $mon; }
wait $mon
bt_v=$(sed -n 's/^@violations: //p' /tmp/bt.txt)
bt_w=$(sed -n 's/^@windows: //p' /tmp/bt.txt)
tool_v=$(grep -c '"kind_name":"violation"' /tmp/mon.json)
tool_w=$(grep -c '"kind_name":"window"' /tmp/mon.json)
is "$bt_v" 3 "bpftrace counts 3 violations" || sed 's/^/# /' /tmp/bt.txt
is "$tool_v" "$bt_v" "the tool's own violation count matches bpftrace's" || sed 's/^/# /' /tmp/mon.err
is "$tool_w" "$bt_w" "and so does its window count ($bt_w)"

tlob unbind -b "$SPEC" >/dev/null
ok $? "tlob unbind"
rmmod tlob
ok $? "rmmod tlob"
done_testing
