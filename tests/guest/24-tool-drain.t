#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# Ctrl-C during a busy stream loses no record that was already produced:
# a workload opens and closes windows as fast as it can while tlob mon
# streams JSON; SIGINT (then SIGTERM) reaches the tool the moment the
# workload is done, while records are still buffered; every window the
# kernel counted (its per-binding statistics, printed at exit) must be in
# the stream, and the tool must report 0 lost events. Before the stream,
# the idle tool must sleep: no CPU time over 3 s (a busy poll would burn
# all 300 ticks).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/hold.sh
: "${DRAIN_WINDOWS:=3000}"
# utime + stime of a process, in clock ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
tool_module_up || bail_out "cannot load $TLOB_KO"

for B in $BACKENDS; do
	backend_begin "$B" || continue

	for sig in INT TERM; do
		: >"$T/err"	# not in the background child: mon_wait may read first
		tlob mon --json --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" \
			>"$T/out" 2>"$T/err" &
		mp=$!
		mon_wait "$T/err" || diag "mon did not start: $(cat "$T/err")"
		# BPF: the SIGINT session loads the monitor, a hold joins it,
		# the SIGTERM one finds it up
		if [ $sig = INT ]; then
			bpf_hold_if "$B"
			t0=$(cpu_ticks $mp)
			sleep 3
			t1=$(cpu_ticks $mp)
			cmp_ok $((t1 - t0)) -le 2 "$B: idle mon used $((t1 - t0)) CPU ticks in 3 s (sleeps, no busy poll)"
		fi
		t2=$(cpu_ticks $mp)
		"$W" -n "$DRAIN_WINDOWS" spin 0 >/dev/null
		t3=$(cpu_ticks $mp)
		kill -$sig $mp
		diag "$B ($TLOB_LANE): mon used $((t3 - t2)) CPU ticks (1/$(getconf CLK_TCK 2>/dev/null || echo 100) s) while the workload ran $DRAIN_WINDOWS windows"
		wait $mp
		rc=$?
		is "$rc" 0 "$B SIG$sig: mon exits 0"
		got=$(jlines "$T/out" record kind_name window | wc -l)
		st=$(jlines "$T/out" stats | head -1)
		sum=$(jlines "$T/out" summary | head -1)
		is "$(jget "$st" windows)" "$DRAIN_WINDOWS" "$B SIG$sig: the kernel counted $DRAIN_WINDOWS windows"
		is "$got" "$(jget "$st" windows)" "$B SIG$sig: every window the kernel counted is in the stream"
		is "$(jget "$sum" windows)" "$got" "$B SIG$sig: the summary counts what was printed"
		is "$(jget "$sum" lost)" 0 "$B SIG$sig: no event lost"
		# Every record whole: the last line of the stream is the summary.
		is "$(tail -1 "$T/out" | sed -n 's/^{"type":"\([a-z]*\)".*}$/\1/p')" summary "$B SIG$sig: output ends with the summary object"
		tool_clean_state "$B"
		ok $? "$B SIG$sig: binding removed, monitor disabled, instance gone"
	done
	release_clean "$B" "$B: nothing left"

	# A reader that cannot keep up loses records, and says how many: with a
	# small buffer and the reader stopped (SIGSTOP) while the kernel
	# produces, printed + lost must still add up to what the kernel counted.
	if [ "$B" = kmod ]; then
		: >"$T/err"	# not in the background child: mon_wait may read first
		tlob mon --json --buffer-size 8 --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" \
			>"$T/out" 2>"$T/err" &
		mp=$!
		mon_wait "$T/err" || diag "mon did not start: $(cat "$T/err")"
		kill -STOP $mp
		"$W" -n "$DRAIN_WINDOWS" spin 0 >/dev/null
		kill -CONT $mp
		kill -INT $mp
		wait $mp
		got=$(jlines "$T/out" record kind_name window | wc -l)
		st=$(jlines "$T/out" stats | head -1)
		lost=$(jget "$(jlines "$T/out" summary | head -1)" lost)
		cmp_ok "$lost" -gt 0 "$B: reader stopped, 8 KiB buffer: lost events counted ($lost)"
		is "$((got + lost))" "$(jget "$st" windows)" "$B: printed ($got) + lost ($lost) = windows the kernel counted"
		grep -q "^tlob: $lost events were lost (ring buffer overrun)$" "$T/err"
		ok $? "$B: the loss is said on stderr" || cat "$T/err"
	fi
done
tool_module_down
tool_cleanup
done_testing
