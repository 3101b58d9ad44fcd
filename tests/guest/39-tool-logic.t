#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: debug
#   not in make check: 19 runs the module's engine, 39-bpf the tool's side
# Logical supervision through the tool (module backend; the `l` line's
# contract: kernel/shared/README.md, "the monitor line", its parser
# kernel/shared/tlob_parse.c, and docs/guide.md, "Logical supervision"):
# tlob mon --model M.dot -e EV=PATH:SYM binds
# tlob-flow's events to the model of tests/guest/models/flow.dot
#   idle -init-> ready -begin-> busy -end-> ready -shutdown-> done (final)
# and reads tlob:logic into its stream: a legal flow is one OK record and
# no ORDER, an illegal order is ORDER (JSON and the LOGIC line) naming the
# state and the event, an exit mid-flow is INCOMPLETE; per task, threads
# are instances of their own; the summary counts the records and the
# violations; tlob bind/stats/status show a logical binding and unbind
# removes it (the BPF backend's: 39-bpf-logic.t); a model whose events
# lie in a program and its library is one automaton; a model with a
# clock (flow_timed.dot: end 40 ms .. 400 ms after begin) reports an end
# outside it as TIMING with the clock's reading, and one with an invariant
# (flow_held.dot: busy while clk < 200 ms) a frame held too long, with no
# event; malformed models (nondeterministic, an unreachable state, an
# invariant bounded by no number) and -e lists
# that do not match the model are refused with FILE:LINE or the name, and
# bind nothing.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh

# --- What the tool names things: adjust here, in one place ---------------
# model_args MODEL [-e ...]: tlob's options binding tlob-flow's four events
# to MODEL (a file of $MODELS); more options may follow.
model_args() {
	_m=$1
	shift
	echo "--model $MODELS/$_m -e init=$FLOW:flow_init -e begin=$FLOW:frame_begin" \
		"-e end=$FLOW:frame_end -e shutdown=$FLOW:flow_shutdown $*"
}
# per and tolerance options of tlob mon/bind
PER_TASK="--per task"
TOLERANCE="--tolerance"
TAG="--tag"
# JSON: records are {"type":"logic",...} with "verdict" (ok order
# incomplete aborted), "state" and "event" (names), "abort" (exit exec
# unbind disable), "events", "react", "model", "pid", "tgid", "tag".
J_TYPE=logic
J_VERDICT=verdict
J_ABORT=abort
# The summary's count of logic records, and its violations: ORDER,
# INCOMPLETE and TIMING, counted apart (lviol adds them).
J_SUM_RECORDS=logic_records
lviol() {
	echo $(( $(jget "$1" logic_order) + $(jget "$1" logic_incomplete) + $(jget "$1" logic_timing) ))
}
# text lines (grep -E): an ORDER in STATE on EVENT; an INCOMPLETE in STATE
text_order_re() { echo "^LOGIC ORDER .*tlob-flow.*model=flow .*state=$1 .*event=$2"; }
text_incomplete_re() { echo "^LOGIC INCOMPLETE .*tlob-flow.*model=flow .*state=$1"; }
# what tlob stats' text says of a logical binding (grep -E)
STATS_TEXT_RE="logic.*model=flow"
# the refusal of an invariant whose bound is no number
CLOCK_REFUSAL="state 'busy' has the invariant 'clk < LIMIT_NS\(\)', which bounds its clock with something other than a number"
# whether this tool takes models at all (its usage names --model)
tool_has_model() { tlob mon -h 2>&1 | grep -q -- "--model"; }
# -------------------------------------------------------------------------

FLOW=/opt/tlob/bin/tlob-flow
MODELS=/opt/tlob/bin
tool_module_up || bail_out "cannot load $TLOB_KO"
B=kmod
backend_begin $B || bail_out "the module backend is not usable"
[ -f "$MODELS/flow.dot" ] || bail_out "no $MODELS/flow.dot in the guest"
# (else every tlob mon below would wait mon_wait's 120 s for nothing)
tool_has_model || bail_out "tlob mon takes no --model"
# shellcheck disable=SC2034 # tool.sh's mon_run runs it
MON_PROG=$FLOW

# lrecs FILE [KEY VALUE]...: the logic records of tlob mon's JSON output
lrecs() {
	_f=$1
	shift
	jlines "$_f" $J_TYPE "$@"
}
nl_() { wc -l | tr -d ' '; }

# --- a legal flow, JSON: no ORDER, the exit in `done` is OK
# shellcheck disable=SC2046
mon_run legal --json --backend $B $(model_args flow.dot) -- -n 3 legal
is "$mon_rc" 0 "legal: mon exits 0 on SIGINT"
is "$(lrecs "$T/legal" $J_VERDICT order | nl_)" 0 "legal: no ORDER" ||
	diag "$(head -n 5 "$T/legal")"
is "$(lrecs "$T/legal" | nl_)" 1 "legal: one logic record"
r=$(lrecs "$T/legal" | head -n 1)
is "$(jget "$r" $J_VERDICT) $(jget "$r" state) $(jget "$r" $J_ABORT)" "ok done exit" \
	"legal: OK in done at the exit"
is "$(jget "$r" pid) $(jget "$r" tgid)" "$wpid $wpid" "legal: the instance is the workload's process"
is "$(jget "$r" model) $(jget "$r" events) $(jget "$r" comm)" "flow 8 tlob-flow" \
	"legal: model flow, 8 events, comm"
s=$(jlines "$T/legal" summary | head -n 1)
is "$(jget "$s" $J_SUM_RECORDS) $(lviol "$s")" "1 0" \
	"legal: the summary counts one logic record, no violation" || diag "$s"
is "$(jget "$s" lost)" 0 "legal: nothing lost"
tool_clean_state $B
ok $? "legal: after mon, nothing left (binding, enable, trace instance)"

# --- events in two files: tlob-flow-split calls frame_begin and frame_end
# in its library (libtlob-flow.so, the module's file1=), flow_init and
# flow_shutdown in itself
MON_PROG=$SPLIT
# shellcheck disable=SC2046
mon_run split --json --backend $B $(split_args) -- -n 3 legal
r=$(lrecs "$T/split" | head -n 1)
is "$(lrecs "$T/split" | nl_) $(jget "$r" $J_VERDICT) $(jget "$r" state) $(jget "$r" $J_ABORT)" "1 ok done exit" \
	"two files: one OK in done at the exit" || diag "$(head -n 5 "$T/split")"
is "$(jget "$r" events) $(jget "$r" comm)" "8 tlob-flow-split" "two files: 8 events (6 in the library)"
MON_PROG=$FLOW
# shellcheck disable=SC2046
out=$(tlob bind --backend $B $(split_args) 2>&1)
ok $? "two files: tlob bind takes the model ($out)"
l=$(grep "^l " /sys/kernel/tlob/monitor)
case "$l" in
"l $SPLIT_LIB model=flow "*" events=begin@0x"*",end@0x"*",init@1:0x"*",shutdown@1:0x"*" file1=$SPLIT per=process"*) r=0 ;;
*) r=1 ;;
esac
ok $r "two files: event 0's (begin, the events sorted) is PATH, the program file1= and its events 1: ($l)"
tlob unbind --backend $B -a >/dev/null 2>&1
is "$(cat /sys/kernel/tlob/monitor)" "" "two files: tlob unbind -a removes it"
echo 0 >/sys/kernel/tlob/enable
tool_clean_state $B
ok $? "two files: after mon and unbind, nothing left"

# --- an illegal order, JSON: ORDER naming the state and the event
# shellcheck disable=SC2046
mon_run order --json --backend $B $(model_args flow.dot) -- end-first
r=$(lrecs "$T/order" $J_VERDICT order | head -n 1)
is "$(lrecs "$T/order" $J_VERDICT order | nl_)" 1 "order: one ORDER" || diag "$(head -n 5 "$T/order")"
is "$(jget "$r" state) $(jget "$r" event)" "ready end" "order: end in ready is not allowed"
is "$(jget "$r" pid) $(jget "$r" events) $(jget "$r" react)" "$wpid 1 true" \
	"order: the process, after 1 allowed event, reacted to"
is "$(lrecs "$T/order" | nl_)" 1 "order: nothing after it (the violation ended the instance)"
s=$(jlines "$T/order" summary | head -n 1)
is "$(jget "$s" $J_SUM_RECORDS) $(lviol "$s")" "1 1" \
	"order: the summary counts the record and the violation" || diag "$s"

# --- a clock: an end 5 ms after its begin, against 40 ms .. 400 ms
# shellcheck disable=SC2046
mon_run timed --json --backend $B $(model_args flow_timed.dot) -- -n 1 -s 5 legal
r=$(lrecs "$T/timed" $J_VERDICT timing | head -n 1)
is "$(lrecs "$T/timed" $J_VERDICT timing | nl_)" 1 "timed: one TIMING" || diag "$(head -n 5 "$T/timed")"
is "$(jget "$r" state) $(jget "$r" event)" "busy end" "timed: end in busy, too early"
c=$(jget "$r" clock_ns)
cmp_ok "${c:-0}" -ge 5000000 "timed: the clock's reading, at least the 5 ms slept ($c ns)"
cmp_ok "${c:-0}" -lt 40000000 "timed: ... below the guard's 40 ms"
s=$(jlines "$T/timed" summary | head -n 1)
is "$(jget "$s" logic_timing)" 1 "timed: the summary counts it" || diag "$s"
# shellcheck disable=SC2046
mon_run timed_text --backend $B $(model_args flow_timed.dot) -- -n 1 -s 5 legal
grep -qE "^LOGIC TIMING .*tlob-flow.*model=flow_timed .*state=busy .*event=end clock=[0-9.]+(ns|us|ms|s) \(outside its guard\)" "$T/timed_text"
ok $? "timed: text: a LOGIC TIMING line with the clock" || diag "$(head -n 5 "$T/timed_text")"
# shellcheck disable=SC2046
mon_run timed_ok --json --backend $B $(model_args flow_timed.dot) -- -n 2 -s 100 legal
is "$(lrecs "$T/timed_ok" $J_VERDICT timing | nl_) $(lrecs "$T/timed_ok" | nl_)" "0 1" \
	"timed: frames of 100 ms: no TIMING, one record (OK)" || diag "$(head -n 5 "$T/timed_ok")"

# --- an invariant (flow_held.dot: busy while clk < 200 ms): a frame held
#     1 s is TIMING in busy with no event, reported by the module's timer
# shellcheck disable=SC2046
mon_run held --json --backend $B $(model_args flow_held.dot) -- hold 1
r=$(lrecs "$T/held" $J_VERDICT timing | head -n 1)
is "$(lrecs "$T/held" $J_VERDICT timing | nl_)" 1 "held: one TIMING" || diag "$(head -n 5 "$T/held")"
is "$(jget "$r" state)/$(jget "$r" event)" "busy/" "held: in busy, no event"
c=$(jget "$r" clock_ns)
cmp_ok "${c:-0}" -ge 200000000 "held: the clock at or past the invariant's 200 ms ($c ns)"
cmp_ok "${c:-0}" -lt 1000000000 "held: ... below the 1 s the frame lasted (the timer, not the end)"
# shellcheck disable=SC2046
mon_run held_text --backend $B $(model_args flow_held.dot) -- hold 1
grep -qE "^LOGIC TIMING .*tlob-flow.*model=flow_held .*state=busy clock=[0-9.]+(ns|us|ms|s) \(past the state's invariant\)" "$T/held_text"
ok $? "held: text: a LOGIC TIMING line with the clock, no event" || diag "$(head -n 5 "$T/held_text")"

# --- the same as text: the LOGIC ORDER line
# shellcheck disable=SC2046
mon_run order_text --backend $B $(model_args flow.dot) -- begin-twice
grep -qE "$(text_order_re busy begin)" "$T/order_text"
ok $? "order: text: a LOGIC ORDER line naming busy and begin" || diag "$(head -n 5 "$T/order_text")"
grep -q "^LOGIC " "$T/order_text" && ! grep -v "^LOGIC ORDER" "$T/order_text" | grep -q "^LOGIC "
ok $? "order: text: no other LOGIC line"

# --- --on-violation: exec= gets the ORDER in TLOB_*, and the module's
# traceoff trigger on tlob:logic stops a trace instance's tracing when
# the model refuses the event (a script: mon_run passes its arguments
# through one word list)
printf '#!/bin/sh\nenv | grep "^TLOB_" >%s\n' "$T/order.exec" >"$T/onviol.sh"
chmod +x "$T/onviol.sh"
I=/sys/kernel/tracing/instances/tlob_logic_t
mkdir -p "$I"
echo 1 >"$I/tracing_on"
# shellcheck disable=SC2046
mon_run act --backend $B $(model_args flow.dot) --on-violation "exec=$T/onviol.sh" \
	--on-violation traceoff=tlob_logic_t -- end-first
is "$mon_rc" 0 "on-violation: mon exits 0"
e=$(grep -E '^TLOB_(KIND|VERDICT|MODEL|MODEL_STATE|MODEL_EVENT)=' "$T/order.exec" 2>/dev/null | sort | tr '\n' ' ')
is "$e" "TLOB_KIND=logic TLOB_MODEL=flow TLOB_MODEL_EVENT=end TLOB_MODEL_STATE=ready TLOB_VERDICT=order " \
	"on-violation: exec= ran with the ORDER in TLOB_*" || diag "$(cat "$T/act.err" 2>/dev/null)"
is "$(cat "$I/tracing_on")" 0 "on-violation: traceoff= stopped the instance's tracing (tlob:logic's trigger)"
grep -q '^traceoff' "$I/events/tlob/logic/trigger"
ok $((! $?)) "on-violation: the trigger is removed after mon" || diag "$(cat "$I/events/tlob/logic/trigger")"
rmdir "$I"

# --- an exit mid-flow: INCOMPLETE, JSON and text
# shellcheck disable=SC2046
mon_run exit --json --backend $B $(model_args flow.dot) -- exit-mid
r=$(lrecs "$T/exit" | head -n 1)
is "$(jget "$r" $J_VERDICT) $(jget "$r" state) $(jget "$r" $J_ABORT)" "incomplete busy exit" \
	"exit mid-flow: INCOMPLETE in busy (exit)" || diag "$(head -n 5 "$T/exit")"
s=$(jlines "$T/exit" summary | head -n 1)
is "$(lviol "$s")" 1 "exit mid-flow: the summary counts it a violation"
# shellcheck disable=SC2046
mon_run exit_text --backend $B $(model_args flow.dot) -- exit-mid
grep -qE "$(text_incomplete_re busy)" "$T/exit_text"
ok $? "exit mid-flow: text: a LOGIC INCOMPLETE line in busy" || diag "$(head -n 5 "$T/exit_text")"
tool_clean_state $B
ok $? "after mon, nothing left"

# --- per task, a tag and tolerance 2/3: three threads are three instances
# shellcheck disable=SC2046
mon_run task --json --backend $B $(model_args flow.dot $PER_TASK $TAG fl) -- -n 2 threads 3
is "$(lrecs "$T/task" $J_VERDICT ok | nl_)" 3 "per task: three OK records" || diag "$(head -n 5 "$T/task")"
is "$(lrecs "$T/task" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p' | sort -u | nl_)" 3 "per task: three instances"
is "$(jget "$(lrecs "$T/task" | head -n 1)" tag)" fl "per task: the tag"
# shellcheck disable=SC2046
mon_run tol --json --backend $B $(model_args flow.dot $TOLERANCE 2/3) -- -r 2 end-first
is "$(lrecs "$T/tol" $J_VERDICT order | sed -n 's/.*"react":\([0-9a-z]*\).*/\1/p' | tr '\n' ' ')" "false true " \
	"tolerance 2/3: the first ORDER held back, the second reacted to"

# --- bind, stats, status, unbind
# shellcheck disable=SC2046
out=$(tlob bind --backend $B $(model_args flow.dot) 2>&1)
ok $? "tlob bind takes a model ($out)"
l=$(grep "^l " /sys/kernel/tlob/monitor)
case "$l" in
"l $FLOW model=flow states="*" events="*" edges="*" final="*" initial="*" per=process"*) r=0 ;;
*) r=1 ;;
esac
ok $r "the module lists it as an l line ($l)"
for n in idle ready busy "done" init@ begin@ end@ shutdown@; do
	case "$l" in *[=,]$n*) ;; *) r=1 ;; esac
done
ok $r "... with the model's four states and four events"
$FLOW -n 2 legal >/dev/null
st=$(tlob stats --backend $B 2>&1)
echo "$st" | grep -qE "$STATS_TEXT_RE"
ok $? "tlob stats shows the logical binding" || diag "$st"
sj=$(tlob stats --json --backend $B 2>/dev/null | grep '"kind":"logic"' | head -n 1)
is "$(jget "$sj" instances) $(jget "$sj" completed)" "1 1" "tlob stats --json: its instance, completed" ||
	diag "$sj"
stat=$(tlob status --backend $B 2>&1)
echo "$stat" | grep -q "^  id=[0-9]* l $FLOW model=flow "
ok $? "tlob status lists it as its l line" || diag "$stat"
# shellcheck disable=SC2046
out=$(tlob bind --backend $B $(model_args flow.dot) 2>&1)
r=$?
cmp_ok "$r" -ne 0 "tlob bind of the same model again is refused ($out)"
tlob unbind --backend $B -a >/dev/null 2>&1
is "$(cat /sys/kernel/tlob/monitor)" "" "tlob unbind -a removes it"
echo 0 >/sys/kernel/tlob/enable

# --- models and mappings the tool refuses, before anything is bound
# refused NAME MODEL [OPTIONS]: tlob bind fails; its stderr in $T/NAME.err
refused() {
	_n=$1 _f=$2
	shift 2
	# shellcheck disable=SC2046
	timeout 60 tlob bind --backend $B $(model_args "$_f" "$@") >"$T/$_n" 2>"$T/$_n.err"
	_r=$?
	cmp_ok "$_r" -ne 0 "$_n: refused (exit $_r)"
	is "$(cat /sys/kernel/tlob/monitor)" "" "$_n: nothing bound"
}
refused nondet flow_nondet.dot
grep -q "flow_nondet.dot:12: non-deterministic" "$T/nondet.err"
ok $? "nondet: FILE:LINE: non-deterministic ($(head -n 1 "$T/nondet.err"))"
refused unreach flow_unreach.dot
grep -q "flow_unreach.dot:7: state 'orphan' is unreachable" "$T/unreach.err"
ok $? "unreachable: FILE:LINE: the state named ($(head -n 1 "$T/unreach.err"))"
refused clock flow_clock.dot
grep -qE "flow_clock.dot:[0-9]+: $CLOCK_REFUSAL" "$T/clock.err"
ok $? "invariant: FILE:LINE: a bound that is no number, with the reason ($(head -n 1 "$T/clock.err"))"
# an event of the model without -e; an -e the model does not have
timeout 60 tlob bind --backend $B --model "$MODELS/flow.dot" -e init=$FLOW:flow_init \
	-e begin=$FLOW:frame_begin -e end=$FLOW:frame_end >"$T/unmapped" 2>"$T/unmapped.err"
r=$?
cmp_ok "$r" -ne 0 "an event without -e: refused (exit $r)"
grep -q "shutdown" "$T/unmapped.err"
ok $? "... naming it ($(head -n 1 "$T/unmapped.err"))"
refused extra flow.dot -e bogus=$FLOW:flow_idle
grep -q "bogus" "$T/extra.err"
ok $? "an -e the model does not have: named ($(head -n 1 "$T/extra.err"))"
# tlob mon refuses the same, before monitoring
# shellcheck disable=SC2046
timeout 60 tlob mon --backend $B $(model_args flow_nondet.dot) >"$T/mon_nondet" 2>"$T/mon_nondet.err" </dev/null
r=$?
cmp_ok "$r" -ne 0 "tlob mon refuses the nondeterministic model (exit $r)"
grep -q "flow_nondet.dot:12: non-deterministic" "$T/mon_nondet.err"
ok $? "... with FILE:LINE"
tool_clean_state $B
ok $? "after the refusals, nothing left"

tool_module_down
tool_cleanup
done_testing
