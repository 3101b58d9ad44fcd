#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: newest newest-rt
#   the newest kernels only: they run exits preemptible
# Exits the kernel runs preemptible. Since 7.x the programs on
# sched_process_exit may be preempted, and the kernel skips a program's
# run on a CPU where it already runs (a preempted task's) as a recursion
# (recursion_misses in bpftool prog show). tlob_switch sees each exit
# again at the task's last switch, which nothing preempts
# (kernel/bpf/tlob.bpf.c, tlob_exit_run()).
# $ROUNDS rounds of $THREADS threads of tlob-flow, each running the legal
# flow and exiting together with the others, under one tlob mon --backend
# bpf --per task: every thread's instance must end OK at its exit, none at
# the session's end (aborted/unbind). With tlob_exit alone, 4 runs of 6
# with 3 threads on 7.3.4 (stock) lost one thread's exit, and this script
# failed there (2 of 32); with a second program on the tracepoint instead
# of the last switch it failed on 7.3.4-rt (1 of 32: three tasks nested).
# make check runs it on the newest lanes (tests/harness/vm.mk).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh

FLOW=/opt/tlob/bin/tlob-flow
B=bpf
ROUNDS=8
THREADS=4
backend_usable $B >/dev/null || skip_all "bpf backend not usable: $(backend_usable $B)"
backend_begin $B
[ -f /opt/tlob/bin/flow.dot ] || bail_out "no flow.dot in the guest"

# The rounds one after the other, then the programs' counts (while loaded).
{
	echo '#!/bin/sh'
	echo "i=0"
	echo "while [ \$i -lt $ROUNDS ]; do $FLOW -n 1 threads $THREADS >/dev/null; i=\$((i + 1)); done"
	echo "bpftool prog show >$T/progs 2>&1"
} >"$T/rounds.sh"
chmod +x "$T/rounds.sh"
MON_PROG=$T/rounds.sh
# shellcheck disable=SC2034 # read by tool.sh's mon_run
mon_run exits --json --backend $B --model /opt/tlob/bin/flow.dot -e init=$FLOW:flow_init \
	-e begin=$FLOW:frame_begin -e end=$FLOW:frame_end -e shutdown=$FLOW:flow_shutdown --per task --
is "$mon_rc" 0 "tlob mon exits 0 on SIGINT" || diag "$(cat "$T/exits.err")"
is "$(jlines "$T/exits" logic verdict ok abort exit | wc -l | tr -d ' ')" $((ROUNDS * THREADS)) \
	"$ROUNDS rounds of $THREADS threads exiting together: every instance OK at its exit" ||
	diag "$(jlines "$T/exits" logic | sed -n 's/.*"pid":\([0-9]*\).*"verdict":"\([a-z]*\)".*"abort":"\([a-z]*\)".*/\1 \2\/\3/p' | tr '\n' ' ')"
is "$(jlines "$T/exits" logic verdict aborted | wc -l | tr -d ' ')" 0 \
	"... none ended at the session's end"
diag "the exit programs' recursion misses (runs the kernel skipped):" \
	"$(grep -E -A3 'name tlob_(timer_)?exit' "$T/progs" | grep -oE 'name [a-z_]*|recursion_misses [0-9]*' | tr '\n' ' ')" \
	"(each one tlob_switch then saw at the task's last switch)"
tool_clean_state $B
ok $? "after mon, nothing left"
tool_cleanup
done_testing
