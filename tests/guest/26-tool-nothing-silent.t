#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# Nothing dropped silently, on both backends, through the tool:
# - windows still open when tlob mon ends end with a record that the
#   session itself prints and counts: aborted/disable when mon enabled the
#   monitor, aborted/unbind when the monitor was on before it (a second,
#   persistent binding keeps it on: the module's enable, the BPF pinned
#   monitor), and on sessions (the module's /dev/tlob, BPF's shared
#   monitor: they never touch enable) aborted/unbind by the session's own
#   removal;
# - a START that finds no free window (the module loaded with pool_size=2,
#   the BPF backend with --bpf-tasks 2) is a DROPPED line in the stream, in
#   the summary, in the binding's statistics, and a line on stderr.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/tests/lib/fault.sh
. /opt/tlob/bin/tool.sh
SEC="$W:tlob_section_begin,tlob_section_end,3600s"
OTHER="$W:tlob_section2_begin,tlob_section2_end,3600s"

# holders N: N workloads sleeping inside their window ($hp: their pids)
holders() {
	_i=0
	while [ $_i -lt "$1" ]; do
		"$W" hold 600 >/dev/null 2>&1 &
		hp="$hp $!"
		_i=$((_i + 1))
	done
}
# bpf_open_is N: the loaded BPF monitor counts N open windows (its
# tlob_open_at buckets summed, read as 38-bpf-open-buckets.t reads them)
bpf_open_is() {
	[ "$(bpftool -j map dump name tlob_bpf.bss 2>/dev/null | tr -d ' \n' |
		sed -n 's/.*"tlob_open_at":\[\([0-9,-]*\)\].*/\1/p' | tr ',' '\n' |
		awk '{ s += $1 } END { print s + 0 }')" = "$1" ]
}
# opened N: until N windows are open (the module's pool, the BPF
# monitor's open-window buckets)
opened() {
	if [ "$B" = kmod ]; then
		wait_for 60 grep -q " open=$1 " $TLOB/pool
	else
		wait_for 60 bpf_open_is "$1"
	fi
}

# mon_bg ARGS...: tlob mon in the background ($mp), out/err in $T, once
# it monitors ($T/err emptied first: the child's redirection may come late)
mon_bg() {
	: >"$T/err"
	tlob mon --backend "$B" "$@" >"$T/out" 2>"$T/err" &
	mp=$!
	mon_wait "$T/err" || diag "mon did not start: $(cat "$T/err")"
}

for B in $BACKENDS; do
	kmod_load || bail_out "cannot load $TLOB_KO"
	backend_begin "$B" || continue

	# --- open at the end, mon enabled the monitor: aborted/disable (a
	# session, the module's through /dev/tlob or BPF's on the shared
	# monitor in bpffs: aborted/unbind, its removal ends them)
	why=disable
	[ "$B" = kmod ] && [ -c /dev/tlob ] && why=unbind
	[ "$B" = bpf ] && grep -q ' /sys/fs/bpf bpf ' /proc/mounts && why=unbind
	mon_bg --json -b "$SEC"
	hp=
	holders 2
	opened 2
	kill -INT $mp
	wait $mp
	is "$?" 0 "$B: mon with 2 windows open at Ctrl-C exits 0"
	ab=$(jlines "$T/out" record kind_name window verdict_name aborted abort_reason_name $why)
	is "$(echo "$ab" | grep -c .)" 2 "$B: both windows end aborted ($why), in this session's stream"
	pids=$(echo "$ab" | while read -r l; do jget "$l" pid; done | sort -n | tr '\n' ' ')
	is "$pids" "$(echo $hp | tr ' ' '\n' | sort -n | tr '\n' ' ')" "$B: ... one per holder"
	sum=$(jlines "$T/out" summary | head -1)
	is "$(jget "$sum" windows) $(jget "$sum" dropped)" "2 0" "$B: the summary counts them, nothing dropped"
	st=$(jlines "$T/out" stats | head -1)
	is "$(jget "$st" windows) $(jget "$st" aborted)" "2 2" "$B: the binding's statistics count them aborted"
	kill_tree $hp
	tool_clean_state "$B"
	ok $? "$B: nothing left bound or enabled"

	# --- open at the end, monitor on before mon: aborted/unbind
	tlob bind --backend "$B" -b "$OTHER" >/dev/null 2>"$T/bind.err"
	ok $? "$B: a persistent binding on another section" || diag "$(cat "$T/bind.err")"
	[ "$B" = kmod ] && echo 1 >$TLOB/enable
	mon_bg --json -b "$SEC"
	hp=
	holders 1
	opened 1
	kill -INT $mp
	wait $mp
	is "$?" 0 "$B: mon with a window open at Ctrl-C, monitor on before it: exits 0"
	is "$(jlines "$T/out" record kind_name window verdict_name aborted abort_reason_name unbind | wc -l)" 1 \
		"$B: the window ends aborted (unbind), in this session's stream"
	sum=$(jlines "$T/out" summary | head -1)
	is "$(jget "$sum" windows)" 1 "$B: ... counted in the summary"
	is "$(tlob status --json --backend "$B" | head -1 | sed -n 's/.*"enabled":\([a-z]*\).*/\1/p')" true \
		"$B: the monitor stays on for the persistent binding"
	kill_tree $hp
	tlob unbind -a --backend "$B" >/dev/null 2>&1
	[ "$B" = kmod ] && echo 0 >$TLOB/enable
	tool_clean_state "$B"
	ok $? "$B: nothing left after unbind -a"

	# --- no free window: DROPPED
	if [ "$B" = kmod ]; then
		kmod_load pool_size=2 || bail_out "cannot load $TLOB_KO pool_size=2"
		cap=
	else
		cap="--bpf-tasks 2"
	fi
	# shellcheck disable=SC2086 # $cap: no option or two words
	mon_bg $cap -b "$SEC"
	hp=
	holders 3
	wait_line "$T/out" '^DROPPED ' 60 $mp
	ok $? "$B: 3 holders, room for 2: a DROPPED line in the stream" || diag "$(cat "$T/out" "$T/err")"
	kill -INT $mp
	wait $mp
	is "$?" 0 "$B: mon exits 0"
	is "$(grep -c '^DROPPED .* START opened no window, every window was in use$' "$T/out")" 1 \
		"$B: exactly one START dropped"
	is "$(grep -c '^window aborted ' "$T/out")" 2 "$B: the 2 windows that opened end aborted"
	grep -q '^records: 3 (windows 2, violations 0, dropped 1, transitions 0), lost: 0$' "$T/out"
	ok $? "$B: the summary counts it apart" || diag "$(grep '^records' "$T/out")"
	grep -q '^  windows=2 violations=0 errors=0 aborted=2 dropped=1$' "$T/out"
	ok $? "$B: the binding's statistics count it" || diag "$(grep 'windows=' "$T/out")"
	grep -q '^tlob: 1 START(s) opened no window: every window was in use' "$T/err"
	ok $? "$B: ... and stderr says so" || diag "$(cat "$T/err")"
	kill_tree $hp
	tool_clean_state "$B"
	ok $? "$B: nothing left bound or enabled"
done
kmod_unload
tool_cleanup
done_testing
