#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt
#   bpf_timer (stock) and the sampler (rt); not the debug lane: each tlob
#   mon loads the BPF programs, minutes each under KASAN
# Logical supervision on the BPF backend (kernel/bpf/tlob_logic.bpf.h):
# the scenario list of the module's (39-tool-logic.t, 19-kmod-logic.t)
# through tlob mon --backend bpf --model M.dot -e EV=PATH:SYM, on
# tlob-flow's events and tests/guest/models/flow*.dot
#   idle -init-> ready -begin-> busy -end-> ready -shutdown-> done (final)
# Each must report or must not: a legal flow is one OK record at the exit;
# an illegal order is ORDER naming the state and the event, and ends the
# instance; a model with a clock (flow_timed.dot: end 40 ms .. 400 ms
# after begin) reports an early end as TIMING with the clock's reading,
# frames of 100 ms not at all; one with an invariant (flow_held.dot: busy
# while clk < 200 ms) a frame held 1 s as TIMING with no event, found by
# the detector (bpf_timer, or the sampler on PREEMPT_RT), not by the
# frame's end; an exit mid-flow is INCOMPLETE; per task, threads are
# instances of their own, with the tag; tolerance=2/3 holds back the
# first reaction, not the record; the session's end (unbind) ends a live
# instance ABORTED; a model whose events lie in a program and its library
# is one automaton; tlob bind keeps one on the pinned monitor with its
# statistics (and its files in its listing), and the same model again is
# refused.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/hold.sh

FLOW=/opt/tlob/bin/tlob-flow
MODELS=/opt/tlob/bin
B=bpf
backend_usable $B >/dev/null || skip_all "bpf backend not usable: $(backend_usable $B)"
backend_begin $B
[ -f "$MODELS/flow.dot" ] || bail_out "no $MODELS/flow.dot in the guest"
# shellcheck disable=SC2034 # tool.sh's mon_run runs it
MON_PROG=$FLOW

# model_args MODEL [OPTIONS]: tlob-flow's four events bound to MODEL
model_args() {
	_m=$1
	shift
	echo "--model $MODELS/$_m -e init=$FLOW:flow_init -e begin=$FLOW:frame_begin" \
		"-e end=$FLOW:frame_end -e shutdown=$FLOW:flow_shutdown $*"
}
lrecs() {
	_f=$1
	shift
	jlines "$_f" logic "$@"
}
nl_() { wc -l | tr -d ' '; }
lviol() {
	echo $(( $(jget "$1" logic_order) + $(jget "$1" logic_incomplete) + $(jget "$1" logic_timing) ))
}

# --- a legal flow: no ORDER, the exit in `done` is OK
# legal loads the monitor, a hold joins it, and the sessions up to the live
# instance's find it up (each one's own load took 4 to 8 s here); the
# rest load it themselves.
# shellcheck disable=SC2046
MON_THEN="bpf_hold_if $B" mon_run legal --json --backend $B $(model_args flow.dot) -- -n 3 legal
is "$mon_rc" 0 "legal: mon exits 0 on SIGINT" || diag "$(cat "$T/legal.err")"
is "$(lrecs "$T/legal" | nl_)" 1 "legal: one logic record" || diag "$(head -n 5 "$T/legal")"
r=$(lrecs "$T/legal" | head -n 1)
is "$(jget "$r" verdict) $(jget "$r" state) $(jget "$r" abort)" "ok done exit" \
	"legal: OK in done at the exit"
is "$(jget "$r" pid) $(jget "$r" tgid)" "$wpid $wpid" "legal: the instance is the workload's process"
is "$(jget "$r" model) $(jget "$r" events) $(jget "$r" comm)" "flow 8 tlob-flow" \
	"legal: model flow, 8 events, comm"
s=$(jlines "$T/legal" summary | head -n 1)
is "$(jget "$s" logic_records) $(lviol "$s") $(jget "$s" lost)" "1 0 0" \
	"legal: the summary counts one logic record, no violation, nothing lost" || diag "$s"
tool_clean_state $B
ok $? "legal: after mon, nothing left"

# --- events in two files: tlob-flow-split calls frame_begin and frame_end
# in its library (libtlob-flow.so), flow_init and flow_shutdown in itself
MON_PROG=$SPLIT
# shellcheck disable=SC2046
mon_run split --json --backend $B $(split_args) -- -n 3 legal
r=$(lrecs "$T/split" | head -n 1)
is "$(lrecs "$T/split" | nl_) $(jget "$r" verdict) $(jget "$r" state) $(jget "$r" abort)" "1 ok done exit" \
	"two files: one OK in done at the exit" || diag "$(head -n 5 "$T/split")"
is "$(jget "$r" events) $(jget "$r" comm) $(jget "$r" pid)" "8 tlob-flow-split $wpid" \
	"two files: 8 events (6 in the library), the process"
# shellcheck disable=SC2046
mon_run split_order --json --backend $B $(split_args) -- end-first
r=$(lrecs "$T/split_order" | head -n 1)
is "$(jget "$r" verdict) $(jget "$r" state) $(jget "$r" event)" "order ready end" \
	"two files: the library's end first is ORDER in ready on end" || diag "$(head -n 5 "$T/split_order")"
MON_PROG=$FLOW

# --- an illegal order: ORDER naming the state and the event
# shellcheck disable=SC2046
mon_run order --json --backend $B $(model_args flow.dot) -- end-first
r=$(lrecs "$T/order" verdict order | head -n 1)
is "$(lrecs "$T/order" verdict order | nl_)" 1 "order: one ORDER" || diag "$(head -n 5 "$T/order")"
is "$(jget "$r" state) $(jget "$r" event)" "ready end" "order: end in ready is not allowed"
is "$(jget "$r" pid) $(jget "$r" events) $(jget "$r" react)" "$wpid 1 true" \
	"order: the process, after 1 allowed event, reacted to"
is "$(lrecs "$T/order" | nl_)" 1 "order: nothing after it (the violation ended the instance)"
# shellcheck disable=SC2046
mon_run twice --json --backend $B $(model_args flow.dot) -- begin-twice
r=$(lrecs "$T/twice" verdict order | head -n 1)
is "$(jget "$r" state) $(jget "$r" event)" "busy begin" "order: begin in busy is not allowed either"

# --- a clock: an end 5 ms after its begin, against 40 ms .. 400 ms
# shellcheck disable=SC2046
mon_run timed --json --backend $B $(model_args flow_timed.dot) -- -n 1 -s 5 legal
r=$(lrecs "$T/timed" verdict timing | head -n 1)
is "$(lrecs "$T/timed" verdict timing | nl_)" 1 "timed: one TIMING" || diag "$(head -n 5 "$T/timed")"
is "$(jget "$r" state) $(jget "$r" event)" "busy end" "timed: end in busy, too early"
c=$(jget "$r" clock_ns)
cmp_ok "${c:-0}" -ge 5000000 "timed: the clock's reading, at least the 5 ms slept ($c ns)"
cmp_ok "${c:-0}" -lt 40000000 "timed: ... below the guard's 40 ms"
# shellcheck disable=SC2046
mon_run timed_ok --json --backend $B $(model_args flow_timed.dot) -- -n 2 -s 100 legal
is "$(lrecs "$T/timed_ok" verdict timing | nl_) $(lrecs "$T/timed_ok" | nl_)" "0 1" \
	"timed: frames of 100 ms: no TIMING, one record (OK)" || diag "$(head -n 5 "$T/timed_ok")"

# --- an invariant (busy while clk < 200 ms): a frame held 1 s
# shellcheck disable=SC2046
mon_run held --json --backend $B $(model_args flow_held.dot) -- hold 1
r=$(lrecs "$T/held" verdict timing | head -n 1)
is "$(lrecs "$T/held" verdict timing | nl_)" 1 "held: one TIMING" || diag "$(head -n 5 "$T/held")"
is "$(jget "$r" state)/$(jget "$r" event)" "busy/" "held: in busy, no event"
c=$(jget "$r" clock_ns)
cmp_ok "${c:-0}" -ge 200000000 "held: the clock at or past the invariant's 200 ms ($c ns)"
cmp_ok "${c:-0}" -lt 1000000000 "held: ... below the 1 s the frame lasted (the detector, not the end)"

# --- an exit mid-flow: INCOMPLETE
# shellcheck disable=SC2046
mon_run exit --json --backend $B $(model_args flow.dot) -- exit-mid
r=$(lrecs "$T/exit" | head -n 1)
is "$(jget "$r" verdict) $(jget "$r" state) $(jget "$r" abort)" "incomplete busy exit" \
	"exit mid-flow: INCOMPLETE in busy (exit)" || diag "$(head -n 5 "$T/exit")"
s=$(jlines "$T/exit" summary | head -n 1)
is "$(lviol "$s")" 1 "exit mid-flow: the summary counts it a violation"
# shellcheck disable=SC2046
mon_run exit_text --backend $B $(model_args flow.dot) -- exit-mid
grep -qE "^LOGIC INCOMPLETE .*tlob-flow.*model=flow .*state=busy" "$T/exit_text"
ok $? "exit mid-flow: text: a LOGIC INCOMPLETE line in busy" || diag "$(head -n 5 "$T/exit_text")"
tool_clean_state $B
ok $? "after mon, nothing left"

# --- per task, a tag and tolerance 2/3
# shellcheck disable=SC2046
mon_run task --json --backend $B $(model_args flow.dot --per task --tag fl) -- -n 2 threads 3
is "$(lrecs "$T/task" verdict ok | nl_)" 3 "per task: three OK records" || diag "$(head -n 5 "$T/task")"
is "$(lrecs "$T/task" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p' | sort -u | nl_)" 3 "per task: three instances"
is "$(jget "$(lrecs "$T/task" | head -n 1)" tag)" fl "per task: the tag"
# shellcheck disable=SC2046
mon_run tol --json --backend $B $(model_args flow.dot --tolerance 2/3) -- -r 2 end-first
is "$(lrecs "$T/tol" verdict order | sed -n 's/.*"react":\([0-9a-z]*\).*/\1/p' | tr '\n' ' ')" "false true " \
	"tolerance 2/3: the first ORDER held back, the second reacted to"

release_clean $B "the hold released: nothing left"

# --- the session's end while an instance is live: ABORTED (unbind)
# shellcheck disable=SC2046
MON_PROG=$T/live.sh
printf '#!/bin/sh\n%s hold 3 >/dev/null &\necho $! >%s\nsleep 1\n' "$FLOW" "$T/live.pid" >"$T/live.sh"
chmod +x "$T/live.sh"
# shellcheck disable=SC2046
mon_run live --json --backend $B $(model_args flow.dot) --
p=$(cat "$T/live.pid")
r=$(lrecs "$T/live" pid "$p" | tail -n 1)
is "$(jget "$r" verdict) $(jget "$r" abort)" "aborted unbind" \
	"unbind: the live instance ends aborted (unbind)" || diag "$(cat "$T/live")"
kill "$p" 2>/dev/null
wait "$p" 2>/dev/null
MON_PROG=$FLOW
tool_clean_state $B
ok $? "unbind: after mon, nothing left"

# --- tlob bind: the pinned monitor keeps it, its statistics count
# shellcheck disable=SC2046
if [ -d /sys/fs/bpf ] && out=$(tlob bind --backend $B $(model_args flow.dot) 2>&1); then
	ok 0 "tlob bind takes a model"
	$FLOW -n 2 legal >/dev/null
	sj=$(tlob stats --json --backend $B 2>/dev/null | grep '"kind":"logic"' | head -n 1)
	is "$(jget "$sj" instances) $(jget "$sj" completed)" "1 1" "tlob stats --json: its instance, completed" ||
		diag "$sj"
	stat=$(tlob status --backend $B 2>&1)
	echo "$stat" | grep -q "id=[0-9]* l $FLOW model=flow "
	ok $? "tlob status lists it as its l line" || diag "$stat"
	# shellcheck disable=SC2046
	out=$(tlob bind --backend $B $(split_args) 2>&1)
	ok $? "tlob bind takes a model over two files" || diag "$out"
	stat=$(tlob status --backend $B 2>&1)
	echo "$stat" | grep -q "id=[0-9]* l $SPLIT_LIB model=flow .*events=begin@0x[0-9a-f]*,end@0x[0-9a-f]*,init@1:0x[0-9a-f]*,shutdown@1:0x[0-9a-f]* .* file1=$SPLIT "
	ok $? "tlob status lists its l line: event 0's file (begin's, the library) PATH, the program file1=" || diag "$stat"
	# shellcheck disable=SC2046
	out=$(tlob bind --backend $B $(model_args flow.dot) 2>&1)
	r=$?
	cmp_ok "$r" -ne 0 "tlob bind of the same model again is refused ($out)"
	tlob unbind --backend $B -a >/dev/null 2>&1
	ok $? "tlob unbind -a removes it"
else
	diag "$out"
	for _i in 1 2 3 4 5 6 7; do skip "tlob bind --backend bpf: no pinned monitor here"; done
fi
tool_clean_state $B
ok $? "at the end, nothing left"

tool_cleanup
done_testing
