#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Logical supervision's command line (--model FILE -e EVENT=PATH:SYMBOL):
# a good model becomes exactly the `l` line of the contract (logic_drv.c
# prints what tlob would write); every model the module cannot run is
# refused by the tool itself before any backend is opened, with rvgen's
# own "FILE:LINE: message" (byte for byte what rvgen prints) or logical
# supervision's, and the exit status of a malformed input (2) or of
# something missing on the system (1). (Both backends run it: the
# guests' 19-kmod-logic.t, 39-tool-logic.t and 39-bpf-logic.t.)
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/logic_drv
RVGEN=$BUILD/rvgen/rvgen
M=$top/tests/unit/tool/models
EX=$top/models/examples/frame-flow.dot
app=$BUILD/tests/unit/tool/fixtures/app
lib=$BUILD/tests/unit/tool/fixtures/libfix.so
fb=$(sym_off "$app" frame_begin) fe=$(sym_off "$app" frame_end)
pf=$(sym_off "$app" process_frame) mn=$(sym_off "$app" main)
ev="-e init=$app:main -e frame_begin=$app:frame_begin -e frame_end=$app:frame_end -e shutdown=$app:process_frame"

# The example (models/examples/frame-flow.dot): states in rvgen's order
# (the initial one first, the rest sorted), events sorted, edges in
# [state][event] order, the final state, every default written.
got=$("$DRV" line "$EX" init="$app:main" frame_begin="$app:frame_begin" \
	frame_end="$app:frame_end" shutdown="$app:process_frame")
is "$got" "l $app model=frame_flow states=idle,done,in_frame,ready events=frame_begin@$fb,frame_end@$fe,init@$mn,shutdown@$pf edges=0.2.3,2.1.3,3.0.2,3.3.1 final=1 initial=0 per=process" \
	"frame-flow.dot: the exact 'l' line (model named after the file, '-' read as '_')"
got=$("$DRV" line "$EX" shutdown="$app:process_frame" init="$app:main" --per task \
	--tolerance 2/5 --tag cam0 -p 77 frame_end="$app:frame_end" frame_begin="$app:frame_begin+0")
is "$got" "l $app model=frame_flow states=idle,done,in_frame,ready events=frame_begin@$fb,frame_end@$fe,init@$mn,shutdown@$pf edges=0.2.3,2.1.3,3.0.2,3.3.1 final=1 initial=0 per=task tolerance=2/5 tag=cam0 tgid=77" \
	"-e in any order, NAME+OFF, --per task, --tolerance, --tag, -p: the same table and every term"
got=$("$DRV" line "$M/loop.dot" frame_begin="$app:frame_begin" frame_end="$app:frame_end")
is "$got" "l $app model=loop states=ready,in_frame events=frame_begin@$fb,frame_end@$fe edges=0.0.1,1.1.0 final=0 initial=0 per=process" \
	"loop.dot: the initial state is the final one"

# rvgen's own refusals, as rvgen itself prints them (rvgen --kind check).
# noreset.dot: an invariant on a clock no edge resets (rvgen's clock rule).
for m in nondet unreachable syntax noreset; do
	want=$("$RVGEN" --kind check "$M/$m.dot" 2>&1)
	refused 2 "$m.dot: rvgen's message, byte for byte ($want)" "$want" -- \
		mon --model "$M/$m.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_end"
done
refused 2 "bind refuses it too" "$("$RVGEN" --kind check "$M/nondet.dot" 2>&1)" -- \
	bind --model "$M/nondet.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_end"
# A node named as graphviz names its anonymous ones ("%1"): graphviz
# cannot find it by that name, and the reader refuses it in one line.
pct=$tmp/pct.dot
cp "$top/tests/fixtures/rvgen/malformed/node-graphviz-name.dot" "$pct"
refused 2 "a state named '%1': rvgen's message, no crash" "$("$RVGEN" --kind check "$pct" 2>&1)" -- \
	mon --model "$pct" -e go="$app:frame_begin" -e done="$app:frame_end"
# Only a regular file is a model: a FIFO without a writer would block the open.
mkfifo "$tmp/fifo.dot"
timeout 20 "$TLOB" mon --model "$tmp/fifo.dot" -e go="$app:frame_begin" >/dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp/err")" "1:$tmp/fifo.dot:0: cannot open: not a regular file" \
	"a FIFO as the model: refused at once (exit 1), not a blocked open"

# Time: one clock, reset on edges, guards of numbers joined by &&,
# invariants of numbers on states. What the module cannot run yet is
# refused with its line and the reason.
for m in inv-name guard guard-or guard-name two-clocks never; do
	case $m in
	inv-name) want="$M/inv-name.dot:7: state 'in_frame' has the invariant 'clk < BUDGET_NS()', which bounds its clock with something other than a number: a logical model's invariant bounds its clock with a number with a unit (40ms, 500us)" ;;
	guard) want="$M/guard.dot:8: 'frames' is never reset: a logical model's guards compare its clock, which an edge starts (EVENT;reset(frames))" ;;
	guard-or) want="$M/guard-or.dot:8: event 'frame_end' has the guard 'clk < 1ms || clk > 33ms', which joins comparisons with '||': a logical model's guard compares its clock with numbers with a unit (33ms, 500us), joined by &&" ;;
	guard-name) want="$M/guard-name.dot:8: event 'frame_end' has the guard 'clk < BUDGET_NS()', which compares with something other than a number: a logical model's guard compares its clock with numbers with a unit (33ms, 500us), joined by &&" ;;
	two-clocks) want="$M/two-clocks.dot:8: the model has 2 clocks or variables ('clk', 'frame'): logical supervision takes one clock" ;;
	never) want="$M/never.dot:8: event 'frame_end' has the guard 'clk > 5ms && clk < 2ms', which no time meets" ;;
	esac
	refused 2 "$m.dot: refused with its line" "$want" -- \
		mon --model "$M/$m.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_end"
done
# ... and a model it runs: the reset and the guard [1ms, 33ms) on their edges.
got=$("$DRV" line "$M/timed.dot" frame_begin="$app:frame_begin" frame_end="$app:frame_end")
is "$got" "l $app model=timed states=ready,in_frame events=frame_begin@$fb,frame_end@$fe edges=0.0.1.r,1.1.0.g1000000-33000000 final=0 initial=0 clock=clk per=process" \
	"timed.dot: the clock's reset and guard ('clk >= 1ms && clk < 33ms') in the 'l' line"
# Invariants: state S held only while the clock reads less than HI ns,
# inv=S.HI after clock= ('<=' N is HI = N + 1; a number without a unit is ns).
got=$("$DRV" line "$M/clock.dot" frame_begin="$app:frame_begin" frame_end="$app:frame_end")
is "$got" "l $app model=clock states=ready,in_frame events=frame_begin@$fb,frame_end@$fe edges=0.0.1.r,1.1.0 final=0 initial=0 clock=clk inv=1.16000000 per=process" \
	"clock.dot: the invariant 'clk < 16000000' as inv=1.16000000"
got=$("$DRV" line "$M/inv-le.dot" frame_begin="$app:frame_begin" frame_end="$app:frame_end")
is "$got" "l $app model=inv_le states=ready,in_frame events=frame_begin@$fb,frame_end@$fe edges=0.0.1.r,1.1.0.r.g1000000- final=0 initial=0 clock=clk inv=0.1000000001,1.40000001 per=process" \
	"inv-le.dot: '<=' is one ns more (1s: 1000000001, 40ms: 40000001), on the initial state too, beside a guard"
got=$("$DRV" line "$top/models/examples/frame-timing.dot" init="$app:main" frame_begin="$app:frame_begin" \
	frame_end="$app:frame_end" shutdown="$app:process_frame")
is "$got" "l $app model=frame_timing states=idle,done,in_frame,ready events=frame_begin@$fb,frame_end@$fe,init@$mn,shutdown@$pf edges=0.2.3,2.1.3.g1000000-33000000,3.0.2.r,3.3.1 final=1 initial=0 clock=clk inv=2.50000000 per=process" \
	"frame-timing.dot (the example): its reset, guard and in_frame's invariant"
refused 2 "a state name of 24 characters" \
	"$M/long-name.dot:5: state 'in_frame_abcdefghijklmno' is longer than 23 characters (logical supervision's names are 1..23 characters)" -- \
	mon --model "$M/long-name.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_end"

# 33 states in a ring, one event: the 33rd state's line.
{
	echo 'digraph many {'
	echo '	"__init_s0" -> "s0";'
	for i in $(seq 0 32); do echo "	\"s$i\" -> \"s$(( (i + 1) % 33 ))\" [ label = \"step\" ];"; done
	echo '}'
} >"$tmp/many.dot"
refused 2 "33 states" "$tmp/many.dot:34: too many states (33): logical supervision takes at most 32" -- \
	mon --model "$tmp/many.dot" -e step="$app:frame_begin"
# 17 events, each a loop on one state: the 17th event's line.
{
	echo 'digraph events {'
	echo '	"__init_s" -> "s";'
	for i in $(seq 10 26); do echo "	\"s\" -> \"s\" [ label = \"e$i\" ];"; done
	echo '}'
} >"$tmp/events.dot"
refused 2 "17 events" "$tmp/events.dot:19: too many events (more than 16, 'e26' the first beyond): logical supervision takes at most 16 (each is a probe)" -- \
	mon --model "$tmp/events.dot" -e e10="$app:frame_begin"

refused 2 "an event without -e: where the model names it" \
	"$EX:20: event 'shutdown' has no -e: map it to a symbol with -e shutdown=PATH:SYMBOL" -- \
	mon --model "$EX" -e init="$app:main" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_end"
refused 2 "-e naming no event of the model" \
	"tlob: -e bogus=...: the model $EX has no event 'bogus' (its events: frame_begin, frame_end, init, shutdown)" -- \
	mon --model "$EX" $ev -e bogus="$app:main"
refused 2 "an event mapped twice" "tlob: -e init=...: event 'init' is mapped twice" -- \
	mon --model "$EX" $ev -e init="$app:main"
# Events in several files (an application and its libraries): event 0's
# file is PATH, each other one a fileN= in the order the events name them;
# a path that is a link to a file already named is that file.
fs=$(sym_off "$lib" frame_step_v2)
got=$("$DRV" line "$M/loop.dot" frame_begin="$app:frame_begin" frame_end="$lib:frame_step_v2")
is "$got" "l $app model=loop states=ready,in_frame events=frame_begin@$fb,frame_end@1:$fs edges=0.0.1,1.1.0 final=0 initial=0 file1=$lib per=process" \
	"events in two files: frame_end@1: names file1=, the library"
ln -s "$app" "$tmp/app-link"
got=$("$DRV" line "$M/loop.dot" frame_begin="$app:frame_begin" frame_end="$tmp/app-link:frame_end")
is "$got" "l $app model=loop states=ready,in_frame events=frame_begin@$fb,frame_end@$fe edges=0.0.1,1.1.0 final=0 initial=0 per=process" \
	"a link to the file of event 0 is that file: no file1="
refused 2 "one place of one file through a link" \
	"tlob: events 'frame_begin' and 'frame_end' are one place ($fb) of $app: each event needs a probe of its own" -- \
	mon --model "$M/loop.dot" -e frame_begin="$app:frame_begin" -e frame_end="$tmp/app-link:frame_begin"
# Five events in five files: one more than an `l` line holds.
{
	echo 'digraph five {'
	echo '	"__init_s" -> "s";'
	for i in 1 2 3 4 5; do echo "	\"s\" -> \"s\" [ label = \"e$i\" ];"; done
	echo '}'
} >"$tmp/five.dot"
five=
for i in 1 2 3 4 5; do
	cp "$app" "$tmp/app$i"
	five="$five -e e$i=$tmp/app$i:frame_begin"
done
refused 2 "events in five files" \
	"tlob: the events of a model lie in at most 4 files: 'e5' is in a 5th, $tmp/app5" -- \
	mon --model "$tmp/five.dot" $five
refused 2 "two events at one offset" \
	"tlob: events 'frame_begin' and 'frame_end' are one place ($fb) of $app: each event needs a probe of its own" -- \
	mon --model "$M/loop.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_begin"
refused 1 "a symbol the file lacks: as a section's (exit 1)" \
	"tlob: symbol 'nosuch' not found in $app" -- \
	mon --model "$M/loop.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:nosuch"
refused 1 "no model file: rvgen's message, exit 1" \
	"$tmp/none.dot:0: cannot open: No such file or directory" -- \
	mon --model "$tmp/none.dot" -e frame_begin="$app:frame_begin"
cp "$M/loop.dot" "$tmp/1loop.dot"
refused 2 "a file name that makes no model name" \
	"$tmp/1loop.dot:1: the model's name is the file's base name ('-' read as '_'), and '1loop' is not 1..23 characters of A-Z a-z 0-9 _ starting with a letter or '_': rename the file" -- \
	mon --model "$tmp/1loop.dot" -e frame_begin="$app:frame_begin" -e frame_end="$app:frame_end"
refused 2 "-e without =" \
	"tlob: -e 'frame_end': expected -e EVENT=PATH:SYMBOL (e.g. -e begin=/usr/bin/app:frame_begin)" -- \
	mon --model "$M/loop.dot" -e frame_begin="$app:frame_begin" -e frame_end
refused 2 "-e without --model" "tlob: mon: -e, --per, --tolerance and --tag are terms of --model FILE" -- \
	mon -e frame_begin="$app:frame_begin"
refused 2 "--tag without --model" "tlob: bind: -e, --per, --tolerance and --tag are terms of --model FILE" -- \
	bind --tag x -b "$app:frame_begin,frame_end,1ms"
refused 2 "--model without -e" "tlob: mon: --model $EX needs its events mapped: -e EVENT=PATH:SYMBOL" -- \
	mon --model "$EX"
refused 2 "a second --model" "tlob: mon: one --model per command (a second binding: another tlob bind)" -- \
	mon --model "$EX" --model "$M/loop.dot" $ev
refused 2 "--per thread" "tlob: invalid --per 'thread' (process or task)" -- \
	mon --model "$EX" $ev --per thread
refused 2 "--tolerance 3/2" "tlob: --tolerance 3/2 is out of range (K/W: 1 <= K <= W <= 64)" -- \
	mon --model "$EX" $ev --tolerance 3/2
refused 2 "--tag with a blank" "tlob: invalid tag 'a b': a tag is 1..15 characters of A-Z a-z 0-9 _ . -" -- \
	mon --model "$EX" $ev --tag "a b"
refused 2 "--per twice" "tlob: mon: --per given twice" -- \
	mon --model "$EX" $ev --per task --per task
refused 2 "--model is mon's and bind's" "tlob: status: option --model does not apply here (see tlob status -h)" -- \
	status --model "$EX"

# The longest table, its longest names, in a binary with 16 functions:
# more than a page (4095 bytes and a newline): refused, naming the size.
# A copy of tlob's binary: tlob does not bind its own (41-identity.t).
cp "$TLOB" "$tmp/bin16"
syms=$(nm --defined-only "$tmp/bin16" | awk '$2 == "T" && $3 ~ /^tlob_/ { print $3 }' | head -16)
{
	echo 'digraph huge {'
	echo '	"__init_s00_abcdefghijklmnopqrs" -> "s00_abcdefghijklmnopqrs";'
	for s in $(seq -w 0 31); do
		for e in $(seq -w 0 15); do
			echo "	\"s${s}_abcdefghijklmnopqrs\" -> \"s$(printf %02d $(( (10#$s + 1) % 32 )))_abcdefghijklmnopqrs\" [ label = \"e${e}_abcdefghijklmnopqrs\" ];"
		done
	done
	echo '}'
} >"$tmp/huge.dot"
set -- $syms
args=()
for e in $(seq -w 0 15); do args+=(-e "e${e}_abcdefghijklmnopqrs=$tmp/bin16:$1"); shift; done
"$TLOB" mon --model "$tmp/huge.dot" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qx "tlob: the 'l' line of model huge is [0-9]* bytes: a monitor line is at most 4095 bytes and its newline (one page; TLOB_LINE_MAX is [0-9]*); shorten the path or the model's names" "$tmp/err"
ok $? "32 states and 16 events of 23 characters, 512 edges: more than a page, refused naming its size (exit $rc: $(cat "$tmp/err"))"

tap_done
