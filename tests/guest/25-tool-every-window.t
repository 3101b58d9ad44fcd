#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# "monitoring" means every window that starts afterwards is counted: 20
# runs in one boot (10 per backend; 6 with the short soak of make check,
# which keeps the first-run and later-run patterns of both formats),
# alternating text and JSON output,
# each a workload making $EVERY_N windows at up to ~1000/s, started once
# tlob mon says "monitoring"; every run must report all of them (the
# records in the stream, the summary's count, the kernel's own statistics
# for the module) and lose none. On BPF the first two runs load the
# monitor themselves, the others join it held by a persistent binding
# (bpf_hold): both ways a user starts a session.
#
# As users run it: the test-only pin (tlob_test_floor.ko copies=2, loaded by
# guest/init: it keeps two probes on each scheduler tracepoint so that
# attaching the monitor never re-patches __schedule(), docs/limitations.md)
# is unloaded for this script, so attaching patches the
# kernel text as it does on a user's machine, and loaded again at the end.
#
# Before the fix of the tool tests' wait (a log emptied by the background
# child only after the wait for "monitoring" had read the previous run's
# line), runs after the first lost their first windows in exactly this
# pattern: the workload started before the monitor was up.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/pin.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/hold.sh
: "${EVERY_N:=500}"
: "${EVERY_RUNS:=$(soak 10 6)}"
pin 0
tool_module_up || { pin 1; bail_out "cannot load $TLOB_KO"; }

# summary_windows FILE JSON: the summary's window count
summary_windows() {
	if [ "$2" = 1 ]; then
		jget "$(jlines "$1" summary)" windows
	else
		sed -n 's/^records: [0-9]* (windows \([0-9]*\),.*/\1/p' "$1"
	fi
}
summary_lost() {
	if [ "$2" = 1 ]; then
		jget "$(jlines "$1" summary)" lost
	else
		sed -n 's/^records: .*, lost: \([0-9]*\)$/\1/p' "$1"
	fi
}
# window_lines FILE JSON: window records in the stream
window_lines() {
	if [ "$2" = 1 ]; then
		jlines "$1" record kind_name window | wc -l
	else
		grep -c '^window ' "$1"
	fi
}

for B in $BACKENDS; do
	backend_begin "$B" || continue
	run=0
	bad=0
	while [ $run -lt "$EVERY_RUNS" ]; do
		run=$((run + 1))
		json=$((run % 2))
		fmt=text
		[ $json = 1 ] && fmt=json
		: >"$T/err"
		if [ $json = 1 ]; then
			tlob mon --json --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" \
				>"$T/out" 2>"$T/err" &
		else
			tlob mon --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" \
				>"$T/out" 2>"$T/err" &
		fi
		mp=$!
		mon_wait "$T/err" || diag "$B run $run: mon did not start: $(cat "$T/err")"
		# BPF: the first two runs (one per format) load the monitor and
		# attach the scheduler hooks themselves; a hold joins the second,
		# and the later ones find the monitor up, as sessions beside a
		# persistent binding do (seconds less each under emulation)
		if [ "$B" = bpf ] && [ $run = 2 ] && ! bpf_hold; then
			bad=$((bad + 1))
			diag "$B: bpf_hold failed"
		fi
		"$W" -n "$EVERY_N" -g 1 spin 0 >/dev/null
		kill -INT $mp
		wait $mp
		rc=$?
		got=$(window_lines "$T/out" $json)
		sum=$(summary_windows "$T/out" $json)
		lost=$(summary_lost "$T/out" $json)
		kern=$(awk '/windows=/ { sub(/.*windows=/, ""); sub(/ .*/, ""); print; exit }' "$T/out")
		[ $json = 1 ] && kern=$(jget "$(jlines "$T/out" stats)" windows)
		if [ "$rc" != 0 ] || [ "$got" != "$EVERY_N" ] || [ "$sum" != "$EVERY_N" ] ||
			[ "$lost" != 0 ] || [ "$kern" != "$EVERY_N" ]; then
			bad=$((bad + 1))
			diag "$B run $run ($fmt): rc=$rc stream=$got summary=$sum kernel=$kern lost=$lost of $EVERY_N"
		fi
		tool_clean_state "$B" || { bad=$((bad + 1)); diag "$B run $run: state left behind"; }
	done
	if [ -n "${BPF_HELD-}" ]; then
		bpf_release
		tool_clean_state "$B" || { bad=$((bad + 1)); diag "$B: the hold released: state left behind"; }
	fi
	is "$bad" 0 "$B: $EVERY_RUNS runs (text and JSON alternating), every one of $EVERY_N windows after 'monitoring' reported, none lost"
done
tool_module_down
tool_cleanup
pin 1
done_testing
