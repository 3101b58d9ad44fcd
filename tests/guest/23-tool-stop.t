#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# tlob mon --stop-on-violation exits as soon as the first violation
# arrives: while the over-budget window (20 s) is still open; by the
# tool's own CLOCK_MONOTONIC measurements from the record's detection
# time, it has read the record within READ_BOUND_MS and finished its
# whole cleanup (drain, statistics, unbind, disable, trace instance
# removed) within STOP_BOUND_MS. The exit is dominated by the kernel's
# teardown (probe unregistration, trace instance removal wait for grace
# periods; on PREEMPT_RT, removing the trace instance alone took ~4 s
# while the monitored task spun); the bounds are for TCG emulation on a
# shared 2-core host, and the measured figures are printed for the record.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/hold.sh
: "${READ_BOUND_MS:=1000}"
case "$TLOB_FLAVOUR" in
rt) : "${STOP_BOUND_MS:=15000}" ;;
*) : "${STOP_BOUND_MS:=8000}" ;;
esac
tool_module_up || bail_out "cannot load $TLOB_KO"

for B in $BACKENDS; do
	backend_begin "$B" || continue

	for run in 1 2 3; do
		# -d: a safety net, so a missed violation fails instead of hanging.
		# Emptied before, not by the background child's redirection,
		# which can come after mon_wait read the last run's "monitoring".
		: >"$T/err"
		tlob mon --json --stop-on-violation -d 300 --backend "$B" \
			-b "$W:tlob_section_begin,tlob_section_end,200ms" >"$T/out" 2>"$T/err" &
		mp=$!
		mon_wait "$T/err" || diag "mon did not start: $(cat "$T/err")"
		# BPF: run 1 loads the monitor, a hold joins it, runs 2 and 3
		# find it up
		[ $run != 1 ] || bpf_hold_if "$B"
		# Two windows in budget, then one spinning 20 s against a 200 ms budget.
		"$W" -n 2 spin 1 >/dev/null
		"$W" -n 1 spin 20000 >/dev/null &
		wp=$!
		wait $mp
		rc=$?
		kill -0 $wp 2>/dev/null
		alive=$?
		# Done with it: a task spinning on keeps kernel teardown (RCU-tasks
		# grace periods of BPF trampolines) waiting, and the next run with it.
		kill $wp 2>/dev/null
		wait $wp
		is "$rc" 3 "$B run $run: mon exits 3 (stopped on a violation)"
		is "$alive" 0 "$B run $run: ... while the over-budget window is still open"
		is "$(jlines "$T/out" record kind_name violation | wc -l)" 1 "$B run $run: one violation printed"
		is "$(jlines "$T/out" record kind_name window verdict_name ok | wc -l)" 2 "$B run $run: the two windows before it printed"
		line=$(grep '^tlob: exited ' "$T/err")
		us=$(echo "$line" | sed -n 's/^tlob: exited \([0-9]*\)us after .*/\1/p')
		rd=$(echo "$line" | sed -n 's/.*(read after \([0-9]*\)us)$/\1/p')
		ok $([ -n "$us" ] && [ -n "$rd" ]; echo $?) "$B run $run: the tool reports its delays" || cat "$T/err"
		diag "$B ($TLOB_LANE) run $run: violation read after ${rd}us, tool exited after ${us}us"
		cmp_ok "${rd:-999999999}" -lt $((READ_BOUND_MS * 1000)) "$B run $run: violation read within ${READ_BOUND_MS}ms"
		cmp_ok "${us:-999999999}" -lt $((STOP_BOUND_MS * 1000)) "$B run $run: exit within ${STOP_BOUND_MS}ms of the violation"
		tool_clean_state "$B"
		ok $? "$B run $run: binding removed, monitor disabled, instance gone"
	done
	release_clean "$B" "$B: nothing left"
done
tool_module_down
tool_cleanup
done_testing
