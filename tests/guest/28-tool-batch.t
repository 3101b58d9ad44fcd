#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# The reader batches windows and never violations (tlob mon --flush):
# - windows wait for their batch: none is printed 1 s after it ended with
#   a 3 s flush interval, every one is printed within that interval
#   (plus a margin for the emulator);
# - a flood of windows wakes the reader a few times, not once a window
#   (its voluntary context switches while 3000 windows stream), and
#   Ctrl-C in the middle of a 10 s batch loses none: every window the
#   kernel counted is printed, the summary last;
# - a violation is read at once while windows wait for a 10 s batch (the
#   tool's own figure, as 23-tool-stop.t reads it), and the windows
#   before it are printed before it at exit.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/hold.sh
: "${FLOOD:=3000}"
: "${READ_BOUND_MS:=1000}"
# The emulated guest is slow and shared: how late a batch may be.
: "${MARGIN_MS:=3000}"
tool_module_up || bail_out "cannot load $TLOB_KO"

now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
vcsw() { awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$1/status"; }
windows_in() { jlines "$1" record kind_name window | wc -l; }

# mon_start ARGS...: tlob mon --json in the background, $mp its pid
mon_start() {
	: >"$T/err"	# not in the background child: mon_wait may read first
	tlob mon --json --backend "$B" "$@" >"$T/out" 2>"$T/err" &
	mp=$!
	mon_wait "$T/err" || diag "mon did not start: $(cat "$T/err")"
}

for B in $BACKENDS; do
	backend_begin "$B" || continue
	S="$W:tlob_section_begin,tlob_section_end"

	# --- windows wait for their batch, at most the flush interval
	mon_start --flush 3s -b "$S,10s"
	# BPF: this session loads the monitor, a hold joins it, the sessions
	# below find it up (4 s less each)
	bpf_hold_if "$B"
	"$W" -n 5 spin 1 >/dev/null
	t1=$(now_ms)
	sleep 1
	early=$(windows_in "$T/out")
	t2=$(now_ms)
	if [ $((t2 - t1)) -lt 2500 ]; then
		is "$early" 0 "$B: 1 s after 5 windows ended, none printed (3 s batch)"
	else
		skip "$B: the guest took $((t2 - t1)) ms to look: too late to see the batch wait"
	fi
	while [ "$(windows_in "$T/out")" -lt 5 ] && [ $(($(now_ms) - t1)) -lt 20000 ]; do
		sleep 0.1
	done
	t3=$(now_ms)
	is "$(windows_in "$T/out")" 5 "$B: the 5 windows printed"
	diag "$B ($TLOB_LANE): a 3 s batch printed $((t3 - t1)) ms after its windows ended"
	cmp_ok $((t3 - t1)) -le $((3000 + MARGIN_MS)) "$B: printed within the 3 s flush interval (+${MARGIN_MS} ms)"
	kill -INT $mp
	wait $mp
	is "$?" 0 "$B: mon exits 0"
	tool_clean_state "$B"
	ok $? "$B: binding removed, monitor disabled, instance gone"

	# --- a flood: a few wakeups, and Ctrl-C inside a batch loses nothing
	mon_start --flush 10s -b "$S,1s"
	v0=$(vcsw $mp)
	"$W" -n "$FLOOD" spin 0 >/dev/null
	v1=$(vcsw $mp)
	kill -INT $mp
	wait $mp
	is "$?" 0 "$B flood: mon exits 0"
	diag "$B ($TLOB_LANE): the reader woke $((v1 - v0)) times while $FLOOD windows streamed"
	cmp_ok $((v1 - v0)) -le $((FLOOD / 20)) "$B flood: the reader woke at most $((FLOOD / 20)) times for $FLOOD windows"
	got=$(windows_in "$T/out")
	st=$(jlines "$T/out" stats | head -1)
	sum=$(jlines "$T/out" summary | head -1)
	is "$(jget "$st" windows)" "$FLOOD" "$B flood: the kernel counted $FLOOD windows"
	is "$got" "$FLOOD" "$B flood: every one printed, though Ctrl-C came inside a 10 s batch"
	is "$(jget "$sum" lost)" 0 "$B flood: no event lost"
	is "$(tail -1 "$T/out" | sed -n 's/^{"type":"\([a-z]*\)".*}$/\1/p')" summary "$B flood: output ends with the summary object"
	tool_clean_state "$B"
	ok $? "$B flood: binding removed, monitor disabled, instance gone"

	# --- a violation at once, while windows wait for a 10 s batch
	mon_start --flush 10s --stop-on-violation -d 300 -b "$S,500ms"
	"$W" -n 3 spin 1 >/dev/null
	"$W" -n 1 spin 20000 >/dev/null &
	wp=$!
	wait $mp
	rc=$?
	kill -0 $wp 2>/dev/null
	alive=$?
	kill $wp 2>/dev/null
	wait $wp
	is "$rc" 3 "$B: mon stopped on the violation (exit 3)"
	is "$alive" 0 "$B: ... while the over-budget window is still open"
	line=$(grep '^tlob: exited ' "$T/err")
	rd=$(echo "$line" | sed -n 's/.*(read after \([0-9]*\)us)$/\1/p')
	diag "$B ($TLOB_LANE): violation read after ${rd:-?}us with a 10 s flush interval"
	cmp_ok "${rd:-999999999}" -lt $((READ_BOUND_MS * 1000)) "$B: violation read within ${READ_BOUND_MS} ms, not at the 10 s batch"
	is "$(jlines "$T/out" record kind_name window verdict_name ok | wc -l)" 3 "$B: the 3 windows before it printed"
	last_ok=$(grep -n '"kind_name":"window"' "$T/out" | grep '"verdict_name":"ok"' | tail -1 | cut -d: -f1)
	viol=$(grep -n '"kind_name":"violation"' "$T/out" | head -1 | cut -d: -f1)
	cmp_ok "${last_ok:-999999}" -lt "${viol:-0}" "$B: ... before the violation (oldest first)"
	release_clean "$B" "$B: binding removed, monitor disabled, instance gone"
done
tool_module_down
tool_cleanup
done_testing
