#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: rt 6.12-rt newest newest-rt debug
#   the kernel contract: what it checks depends on the kernel (what the BPF
#   programs meet there): PREEMPT_RT on each version, and the newest
#   stock kernel, the one stock kernel with the private stack (6.13 on)
# The BPF backend's START/STOP program is a uprobe program, and uprobe
# programs run preemptible (migrate_disable() only, since 6.0). Since 6.13
# the verifier gives such a program a per-CPU private stack when a frame
# needs 64 bytes or more (kernel commit a76ab5731e32): on a kernel that
# preempts kernel code (PREEMPT_RT, preempt=full or lazy), a task
# preempted inside the program and another task running it on the same
# CPU share that stack: on a 7.x PREEMPT_RT kernel, 64 tasks at their
# STOP at once make that a NULL pointer read in tlob_feed() from
# tlob_uprobe. The loader takes tlob_uprobe_np (preemption off)
# where the kernel has bpf_preempt_disable(), else tlob_uprobe, which opts
# out of the private stack (kernel/bpf/tlob.bpf.c: a program with a tail
# call gets none). Here: 8 processes of 4 threads each open and close
# windows as fast as they can on 2 CPUs, so that the scheduler's tick
# preempts them inside the program and the next one runs it on the same
# CPU; the kernel must report nothing, the timer's fexit programs must
# miss (almost) no run, and every window must be recorded, ok.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/procs.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end"
OUT=/tmp/38p
PROCS=8
THREADS=4
N=1000
mkdir -p $OUT

oopses() { dmesg | grep -c -E 'BUG:|Oops|general protection|WARNING:'; }
before=$(oopses)

: >$OUT/mon.err
tlob mon --backend bpf --json -q -b "$S1,10s,tag=p" >$OUT/mon.json 2>$OUT/mon.err &
mon=$!
wait_line $OUT/mon.err '^tlob: monitoring' 120 $mon
ok $? "tlob mon --backend bpf is monitoring" || sed 's/^/# /' $OUT/mon.err

i=0
pids=
while [ $i -lt $PROCS ]; do
	"$W" -n $N threads $THREADS 0 >$OUT/w$i.out 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
bad=0
for p in $pids; do
	proc_wait_gone $p 600 || { proc_dump $p; bad=$((bad + 1)); kill -KILL $p; }
done
wait $pids 2>/dev/null
is "$bad" 0 "$PROCS processes x $THREADS threads x $N windows ended within 600 s"
made=$(cat $OUT/w*.out | sed -n 's/^windows=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
is "$made" $((PROCS * THREADS * N)) "each thread made its $N windows" ||
	cat $OUT/w*.out | sed 's/^/# /'

# Where the deadline detector is bpf_timer (stock kernels), its fexit
# programs on tlob_arm()/tlob_cancel() run inside the uprobe program; the
# kernel skips a run that finds the program already running on its CPU
# (a preempted task's), counted as a recursion miss, which leaves a
# window without its timer or a timer without its cancel. A preemptible
# uprobe program loses about half of them on a 7.x kernel. With
# tlob_uprobe_np a few misses remain, of a cause not known (not a
# preemption inside the program, which is off there); bounded at 0.1 % of
# the windows so that the preemptible program's loss fails.
bpftool prog show >$OUT/progs 2>&1
diag "START/STOP program: $(grep -o 'name tlob_uprobe[_a-z]*' $OUT/progs | head -n 1)"
misses=$(grep -E -A4 'name tlob_(arm|cancel)_exit' $OUT/progs |
	sed -n 's/.*recursion_misses \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
cmp_ok "$misses" -le $((PROCS * THREADS * N / 1000)) \
	"the timer's fexit programs missed at most 0.1 % of the windows' runs ($misses; $(grep -c -E 'name tlob_(arm|cancel)_exit' $OUT/progs) loaded)" ||
	grep -E -A4 'name tlob_' $OUT/progs | sed 's/^/# /'

kill -INT $mon
proc_wait_gone $mon 120
ok $? "tlob mon ends on SIGINT" || { proc_dump $mon; kill -KILL $mon; }
wait $mon
is "$?" 0 "tlob mon exits 0" || sed 's/^/# /' $OUT/mon.err

is "$(($(oopses) - before))" 0 "the kernel reported nothing (no BUG, Oops, WARNING)" ||
	dmesg | grep -A 20 -E 'BUG:|Oops|general protection|WARNING:' | head -n 60 | sed 's/^/# /'

sum=$(grep '"type":"summary"' $OUT/mon.json)
field() { echo "$sum" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
is "$(field windows)" "$made" "every window recorded ($made)" || echo "# $sum"
is "$(field violations)/$(field lost)/$(field dropped)" "0/0/0" \
	"no violation, nothing lost or dropped" || echo "# $sum"
stats=$(grep '"type":"stats"' $OUT/mon.json)
is "$(echo "$stats" | sed -n 's/.*"errors":\([0-9]*\).*/\1/p')" 0 "no model error" ||
	echo "# $stats"
# The binding's per-CPU statistics (kernel/bpf/tlob_stats.bpf.h): a
# program preempted inside a plain += on its CPU's copy wrote back a stale
# count over the windows counted meanwhile on that CPU.
is "$(echo "$stats" | sed -n 's/.*"windows":\([0-9]*\).*/\1/p')" "$made" \
	"the statistics count every window ($made): no update lost to a preempted program" ||
	echo "# $stats"
done_testing
