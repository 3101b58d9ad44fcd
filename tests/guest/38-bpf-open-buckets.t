#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock 6.12-rt newest newest-rt debug
#   the kernel contract: what it checks depends on the kernel (what the BPF
#   programs meet there): each kernel version, stock and PREEMPT_RT
# The BPF scheduler hooks look a task up in the windows map only when its
# tid's bucket counts an open window (kernel/bpf/tlob.bpf.c,
# tlob_open_at). The count must follow every window exactly: 1 in the task's
# bucket while its window is open, overrun or not, and 0 in every bucket
# once the window ended by STOP, by the task's exit, or by an unbind (the
# abort program, another CPU). A count left above 0 costs lookups; one
# missing while a window is open would lose its events.
. /opt/tlob/tests/lib/tap.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end"

# The nonzero buckets of the loaded monitor's .bss: "N BUCKET=COUNT..."
buckets() {
	bpftool -j map dump name tlob_bpf.bss 2>/dev/null | tr -d ' \n' |
		sed -n 's/.*"tlob_open_at":\[\([0-9,-]*\)\].*/\1/p' | tr ',' '\n' |
		awk '$1 != 0 { n++; s = s " " (NR - 1) "=" $1 } END { print n + 0 s }'
}
# buckets() once N buckets count a window (their STARTs have run), at
# most 5 s of uptime (a deadline, as wait_line in lib/tap.sh).
buckets_when() {
	_t0=$(cut -d. -f1 /proc/uptime)
	while _b=$(buckets) && [ "${_b%% *}" != "$1" ] &&
		[ $(($(cut -d. -f1 /proc/uptime) - _t0)) -lt 5 ]; do
		sleep 0.1
	done
	echo "$_b"
}

# A second binding keeps the monitor loaded when the first goes.
S2="$W:tlob_section2_begin,tlob_section2_end"
timeout 120 tlob bind --backend bpf -b "$S1,1s" -b "$S2,1s" >/tmp/38o.out 2>&1
ok $? "bind (pinned BPF monitor)" || sed 's/^/# /' /tmp/38o.out
bpftool map show name tlob_bpf.bss >/dev/null 2>&1
ok $? "bpftool finds the monitor's .bss" || bpftool map show | sed 's/^/# /'
is "$(buckets)" "0" "no bucket counts a window before any opens"

# A window that ends by STOP, inside its budget.
$W -n 1 sleep 600 >/dev/null 2>&1 &
pid=$!
is "$(buckets_when 1)" "1 $((pid & 4095))=1" "a window open: its task's bucket counts 1, no other"
wait $pid
is "$(buckets)" "0" "STOP: every bucket back to 0"

# One that overruns (3 s against 1 s): still open, still counted, until
# STOP. Counted first (a slow guest may take a while to reach START),
# then checked again past the deadline.
$W -n 1 sleep 3000 >/dev/null 2>&1 &
pid=$!
buckets_when 1 >/dev/null
sleep 1.2
is "$(buckets)" "1 $((pid & 4095))=1" "past its deadline the window is still open and counted"
wait $pid
is "$(buckets)" "0" "its STOP: back to 0"

# The task exits inside its window (the exit hook ends it).
$W hold 30 >/dev/null 2>&1 &
pid=$!
is "$(buckets_when 1)" "1 $((pid & 4095))=1" "hold: counted"
kill -KILL $pid
wait $pid 2>/dev/null
sleep 0.5
is "$(buckets)" "0" "the task's exit inside its window: back to 0"

# Windows of three tasks, then an unbind of their binding ends them
# (the abort program, run from another CPU than theirs).
for n in 1 2 3; do $W hold 30 >/dev/null 2>&1 & eval p$n=$!; done
want=$(for p in $p1 $p2 $p3; do echo $((p & 4095)); done | sort -un | awk '{ printf " %s=1", $1 }')
is "$(buckets_when 3)" "3$want" "three tasks in windows: three buckets count 1"
timeout 120 tlob unbind --backend bpf -b "$S1,1s" >/tmp/38o.out 2>&1
ok $? "unbind while they are inside" || sed 's/^/# /' /tmp/38o.out
is "$(buckets)" "0" "the unbind ended their windows: back to 0"
kill -KILL $p1 $p2 $p3 2>/dev/null
wait 2>/dev/null
timeout 120 tlob unbind -a --backend bpf >/dev/null 2>&1
ok $? "unbind -a"
done_testing
