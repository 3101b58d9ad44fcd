#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# tlob mon on each backend: the --json stream checked field by field for
# windows in budget, over budget (running dominant) and sleeping ones;
# -t transitions; -r reactor; and that mon puts everything back on exit
# (its bindings, enable, reactor, its trace instance).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/hold.sh
tool_module_up || bail_out "cannot load $TLOB_KO"

begin=$(off tlob_section_begin)

for B in $BACKENDS; do
	backend_begin "$B" || continue

	# Three windows in budget, then the same binding over budget.
	# BPF: a hold joins the monitor this session loads, and the sessions
	# below find it up (4 s less each)
	MON_THEN="bpf_hold_if $B" mon_run ok --json --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s,tag=frame" -- -n 3 -g 5 spin 2
	is "$mon_rc" 0 "$B: mon exits 0 on SIGINT"
	n=$(jlines "$T/ok" record kind_name window | wc -l)
	is "$n" 3 "$B: three window records"
	is "$(jlines "$T/ok" record kind_name violation | wc -l)" 0 "$B: no violation in budget"
	r=$(jlines "$T/ok" record kind_name window | head -1)
	is "$(jget "$r" kind)" 2 "$B: window: kind 2"
	is "$(jget "$r" verdict_name)" ok "$B: window: verdict ok"
	is "$(jget "$r" verdict)" 0 "$B: window: verdict 0"
	is "$(jget "$r" pid)" "$wpid" "$B: window: pid is the workload's"
	is "$(jget "$r" tgid)" "$wpid" "$B: window: tgid is the workload's"
	is "$(jget "$r" comm)" tlob-workload "$B: window: comm"
	is "$(jget "$r" tag)" frame "$B: window: tag"
	is "$(jget "$r" budget_ns)" 1000000000 "$B: window: budget_ns"
	cmp_ok "$(jget "$r" binding_id)" -gt 0 "$B: window: binding_id"
	el=$(jget "$r" elapsed_ns)
	is "$(( $(jget "$r" end_ns) - $(jget "$r" start_ns) ))" "$el" "$B: window: end_ns - start_ns = elapsed_ns"
	cmp_ok "$el" -ge 2000000 "$B: window: elapsed >= the 2ms spun"
	cmp_ok "$el" -lt 1000000000 "$B: window: elapsed < budget"
	parts=$(( $(jget "$r" running_ns) + $(jget "$r" waiting_ns) + $(jget "$r" sleeping_ns) ))
	cmp_ok "$parts" -le "$el" "$B: window: running+waiting+sleeping <= elapsed"
	cmp_ok "$parts" -ge $((el - el / 100)) "$B: window: running+waiting+sleeping within 1% of elapsed"
	is "$(jget "$r" detect_latency_ns)" 0 "$B: window: no detection latency in budget"
	is "$(jget "$r" abort_reason_name)" none "$B: window: not aborted"
	is "$(jget "$r" event_name)" stop "$B: window: ended by stop"
	case "$(jget "$r" state_name)" in stopped|running|waiting|sleeping) ok 0 "$B: window: state is a model state" ;;
	*) ok 1 "$B: window: state is a model state ($(jget "$r" state_name))" ;; esac
	sum=$(jlines "$T/ok" summary | head -1)
	is "$(jget "$sum" windows)" 3 "$B: summary: 3 windows"
	is "$(jget "$sum" lost)" 0 "$B: summary: nothing lost"
	st=$(jlines "$T/ok" stats | head -1)
	is "$(jget "$st" windows)" 3 "$B: summary statistics of the binding: 3 windows"
	is "$(jget "$st" start)" "$(hex "$begin")" "$B: summary statistics: its START offset"
	tool_clean_state "$B"
	ok $? "$B: after mon: its binding removed, monitor disabled, trace instance gone"

	# A command under the monitor (-- CMD): only its process's windows,
	# while another process runs the same section; the session ends with
	# the command, whose status is tlob's.
	"$W" -n 1000000 -g 5 spin 1 >/dev/null &
	other=$!
	rm -f "$T/cmd"
	timeout 120 tlob mon --json -o "$T/cmd" --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" \
		-- "$W" -n 3 -g 5 spin 2 >"$T/cmd.out" 2>"$T/cmd.err"
	is "$?" 0 "$B: mon -- CMD ends with the command, exit 0 as its"
	is "$(jlines "$T/cmd" record kind_name window | wc -l)" 3 "$B: mon -- CMD: its 3 windows"
	ok $(! grep -q '^{' "$T/cmd.out" && grep -q '^windows=3 ' "$T/cmd.out" &&
		[ "$(stat -c %a "$T/cmd")" = 644 ] &&
		head -n 1 "$T/cmd" | grep -q "^{\"type\":\"header\",\"version\":1,.*\"backend\":\"$B\"}$" &&
		tail -n 1 "$T/cmd" | grep -q '^{"type":"summary",'; echo $?) \
		"$B: -o FILE: the stream in FILE (0644), header first, summary last; on stdout only the command's own" ||
		sed 's/^/#   /' "$T/cmd.out" "$T/cmd"
	tgids=$(jlines "$T/cmd" record | sed -n 's/.*"tgid":\([0-9]*\).*/\1/p' | sort -u)
	ok $([ "$(echo "$tgids" | wc -l)" = 1 ] && [ "$tgids" != "$other" ]; echo $?) \
		"$B: mon -- CMD: one process's windows, not the other's ($tgids, other $other)"
	kill -0 "$other" 2>/dev/null
	ok $? "$B: ... while the other process still ran the section"
	grep -q "^tlob: $W exited with status 0$" "$T/cmd.err"
	ok $? "$B: ... and tlob said how the command ended" || sed 's/^/#   /' "$T/cmd.err"
	timeout 120 tlob mon --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" \
		-- "$W" >/dev/null 2>&1
	is "$?" 2 "$B: mon -- CMD: the command's own exit status (2, its usage error)"
	kill "$other" 2>/dev/null
	wait "$other" 2>/dev/null
	tool_clean_state "$B"
	ok $? "$B: after mon -- CMD: everything put back"

	# Over budget, spinning: a violation while inside the window, then the window.
	mon_run over --json --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,10ms" -- -n 1 spin 300
	v=$(jlines "$T/over" record kind_name violation | head -1)
	w=$(jlines "$T/over" record kind_name window | head -1)
	ok $([ -n "$v" ]; echo $?) "$B: over budget: a violation record"
	is "$(jget "$v" verdict_name)" over_budget "$B: violation: verdict over_budget"
	is "$(jget "$v" pid)" "$wpid" "$B: violation: pid"
	is "$(jget "$v" budget_ns)" 10000000 "$B: violation: budget_ns"
	cmp_ok "$(jget "$v" elapsed_ns)" -ge 10000000 "$B: violation: elapsed >= budget"
	cmp_ok "$(jget "$v" elapsed_ns)" -lt 300000000 "$B: violation: reported inside the window (before the 300ms spin ends)"
	cmp_ok "$(jget "$v" detect_latency_ns)" -ge 0 "$B: violation: detect_latency_ns >= 0"
	case "$(jget "$v" detector_name)" in
	hrtimer|bpf_timer|sample|sched) ok 0 "$B: violation: detected by a timer path ($(jget "$v" detector_name))" ;;
	*) ok 1 "$B: violation: detected by a timer path ($(jget "$v" detector_name))" ;;
	esac
	is "$(jget "$w" verdict_name)" over_budget "$B: window: verdict over_budget"
	cmp_ok "$(jget "$w" elapsed_ns)" -ge 300000000 "$B: window: elapsed >= 300ms"
	run=$(jget "$w" running_ns)
	cmp_ok "$run" -gt $(( $(jget "$w" waiting_ns) + $(jget "$w" sleeping_ns) )) "$B: window: running dominant"
	is "$(jget "$w" start_ns)" "$(jget "$v" start_ns)" "$B: violation and window share start_ns"

	# Over budget, sleeping.
	mon_run sleep --json --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,5ms" -- -n 1 sleep 40
	w=$(jlines "$T/sleep" record kind_name window | head -1)
	is "$(jget "$w" verdict_name)" over_budget "$B: sleeping window over budget"
	sl=$(jget "$w" sleeping_ns)
	cmp_ok "$sl" -gt $(( $(jget "$w" running_ns) + $(jget "$w" waiting_ns) )) "$B: sleeping dominant"
	cmp_ok "$(jget "$w" sleeps)" -ge 1 "$B: sleeps counted"
	cmp_ok "$(jget "$w" wakeups)" -ge 1 "$B: wakeups counted"

	# -t: transitions of one sleeping window, in model terms (where the backend has them).
	if tool_list | grep "\"name\":\"$B\"" | grep -q '"transitions":true'; then
		mon_run trace --json --backend "$B" -t -b "$W:tlob_section_begin,tlob_section_end,1s" -- -n 1 sleep 20
		tr=$(jlines "$T/trace" transition | sed -n 's/.*"state":"\([a-z_]*\)","event":"\([a-z_]*\)","next_state":"\([a-z_]*\)".*/\1x\2>\3/p' | tr '\n' ' ')
		case "$tr" in
		*"stoppedxstart>running "*"runningxsleep>sleeping "*"sleepingxwakeup>waiting "*"waitingxswitch_in>running "*"runningxstop>stopped "*)
			ok 0 "$B: -t: start, sleep, wakeup, switch_in, stop in order" ;;
		*) ok 1 "$B: -t: start, sleep, wakeup, switch_in, stop in order"; diag "transitions: $tr" ;;
		esac
		t1=$(jlines "$T/trace" transition | head -1)
		is "$(jget "$t1" id)" "$wpid" "$B: -t: transition id is the task's pid"
		is "$(jget "$t1" error)" false "$B: -t: no error"
		mon_run trace.txt --backend "$B" -t -b "$W:tlob_section_begin,tlob_section_end,1s" -- -n 1 spin 1
		grep -q "event \[[0-9]*\] stopped x start -> running" "$T/trace.txt"
		ok $? "$B: -t readable: rv's 'STATE x EVENT -> NEXT' columns" || head -5 "$T/trace.txt"
		grep -q "^window ok  *tlob-workload-[0-9]* " "$T/trace.txt"
		ok $? "$B: readable window line" || head -5 "$T/trace.txt"
	else
		tlob mon -t -d 1 --backend "$B" >/dev/null 2>"$T/t.err"
		is "$?" 1 "$B: -t refused where the backend has no transitions"
		grep -q "the $B backend does not report state transitions (-t)" "$T/t.err"
		ok $? "$B: ... saying so" || cat "$T/t.err"
		mon_run trace.txt --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" -- -n 1 spin 1
		grep -q "^window ok  *tlob-workload-[0-9]* " "$T/trace.txt"
		ok $? "$B: readable window line" || head -5 "$T/trace.txt"
	fi

	# -r: the reactor is set while mon runs and restored afterwards.
	old=$(tlob status --json --backend "$B" 2>/dev/null | head -1)
	was=$(jget "$old" reactor)
	case " $(jget "$old" reactors) " in
	*" printk "*|*"[printk]"*)
		: >"$T/r.err"
		tlob mon -r printk --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,1s" >/dev/null 2>"$T/r.err" &
		mp=$!
		mon_wait "$T/r.err"
		is "$(jget "$(tlob status --json --backend "$B" | head -1)" reactor)" printk "$B: -r printk while mon runs"
		kill -INT $mp
		wait $mp
		is "$(jget "$(tlob status --json --backend "$B" | head -1)" reactor)" "$was" "$B: reactor restored to $was"
		tlob mon -r nosuch -d 1 --backend "$B" >/dev/null 2>"$T/react.err"
		is "$?" 2 "$B: -r with an unknown reactor is a usage error"
		grep -q "unknown reactor 'nosuch' (available: " "$T/react.err"
		ok $? "$B: ... naming the available ones" || cat "$T/react.err"
		;;
	*)
		tlob mon -r printk -d 1 --backend "$B" >/dev/null 2>"$T/react.err"
		is "$?" 2 "$B: -r printk is a usage error where the backend has no printk reactor"
		why=$(grep -v '^tlob: \[+' "$T/react.err" | tail -1)
		ok $([ -n "$why" ]; echo $?) "$B: ... saying why: $why"
		;;
	esac
	release_clean "$B" "$B: everything put back"
done
tool_module_down
tool_cleanup
done_testing
