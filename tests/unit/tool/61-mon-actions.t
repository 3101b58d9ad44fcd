#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob mon --on-violation on the fake backend (mon_drv.c): exec=CMD runs
# /bin/sh -c CMD with the violation and its diagnosis in TLOB_* (the
# stack symbolized live: the driver's own functions), after the
# diagnosis, or at the window's end or at exit without one; the reader is
# not held up by a slow command; at most 8 run at once; the per-binding
# limit N[/PERIOD] applies while every violation is still printed, and a
# violation the binding's tolerance= held back (react 0) runs nothing.
# snapshot=/traceoff= write the trigger text to the instance's
# events/tlob/violation/trigger (a directory libtracefs takes as tracefs)
# and remove exactly it at exit, also when mon fails after installing
# it; on the BPF backend the tool writes the instance's snapshot or
# tracing_on itself when it reads a violation; an instance that is not
# there, a limit without an action are refused before anything changes.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/mon.sh"

# exec=: the environment, the diagnosis' included
mkdir "$tmp/e1"
run -V vgw -- -d 50ms -b "$S" --on-violation "exec=env >$tmp/e1/\$\$"
expect 0 "exec= with a violation and its diagnosis: exit 0"
f=$(ls "$tmp/e1"/* 2>/dev/null | head -1)
[ "$(ls "$tmp/e1" | wc -l)" = 1 ]
ok $? "... the command ran once" || ls -l "$tmp/e1" | sed 's/^/#   /'
got=""
for k in TLOB_COMM TLOB_TAG TLOB_BINDING TLOB_BUDGET_NS TLOB_ELAPSED_NS TLOB_RUNNING_NS \
	TLOB_SLEEPING_NS TLOB_WAITING_NS TLOB_CPU TLOB_MIGRATIONS TLOB_WAKER TLOB_STATE TLOB_RAN; do
	got="$got $k=$(envof "$f" $k)"
done
is "$got" " TLOB_COMM=fakeapp TLOB_TAG=t1 TLOB_BINDING=1 TLOB_BUDGET_NS=5000 TLOB_ELAPSED_NS=5100 TLOB_RUNNING_NS=100 TLOB_SLEEPING_NS=5000 TLOB_WAITING_NS=0 TLOB_CPU=1 TLOB_MIGRATIONS=2 TLOB_WAKER=77:waker TLOB_STATE=sleeping TLOB_RAN=hog-78 fifo/49 5.000ms" \
	"... the record and the diagnosis in TLOB_*"
is "$(envof "$f" TLOB_KIND) $(envof "$f" TLOB_VERDICT)" "window over_budget" \
	"... TLOB_KIND and TLOB_VERDICT: a window over its budget"
pid=$(envof "$f" TLOB_PID)
[ -n "$pid" ] && [ "$pid" = "$(envof "$f" TLOB_TGID)" ] && [ "$pid" != "$$" ]
ok $? "... TLOB_PID and TLOB_TGID: the task's (the driver's)"
printf '%s\n' "fake_poll+0x10 ($DRV)" "main+0x20 ($DRV)" >"$tmp/want"
awk '/^TLOB_STACK=/ { sub(/^TLOB_STACK=/, ""); p = 1 } p && /^TLOB_[A-Z_]*=/ && !/^TLOB_STACK=/ { p = 0 } p' "$f" | head -2 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
ok $? "... TLOB_STACK: the user stack symbolized, one frame a line" ||
	{ sed 's/^/#   got: /' "$tmp/got"; sed 's/^/#   want: /' "$tmp/want"; }

mkdir "$tmp/e2"
run -V vw -- -d 50ms -b "$S" --on-violation "exec=env >$tmp/e2/\$\$"
f=$(ls "$tmp/e2"/* 2>/dev/null | head -1)
[ -n "$f" ] && [ "$(envof "$f" TLOB_COMM)" = fakeapp ] && ! grep -q '^TLOB_CPU=' "$f"
ok $? "no diagnosis: the command runs at the window's end, without TLOB_CPU..." || sed 's/^/#   /' "$tmp/err"
# A violation its binding's tolerance= held back (react 0): printed, no action.
mkdir "$tmp/et"
run -V twtwvw -- -d 50ms -b "$S" --on-violation "exec=env >$tmp/et/\$\$"
expect 0 "tolerated violations: exit 0"
[ "$(ls "$tmp/et" | wc -l)" = 1 ] && [ "$(grep -c '^VIOLATION.*(tolerated)' "$tmp/out")" = 2 ] &&
	[ "$(grep -c '^VIOLATION' "$tmp/out")" = 3 ]
ok $? "... of three violations printed, two tolerated, the command ran for the third only" ||
	{ ls "$tmp/et" | sed 's/^/#   /'; sed 's/^/#   /' "$tmp/out"; }
mkdir "$tmp/e3"
run -V v -- -d 50ms -b "$S" --on-violation "exec=env >$tmp/e3/\$\$"
[ "$(ls "$tmp/e3" | wc -l)" = 1 ]
ok $? "neither: the command runs at exit" || sed 's/^/#   /' "$tmp/err"

# An alive cycle's violation and a logical binding's: no diagnosis to wait
# for, the commands run at once, with what the record says; an ok cycle,
# an instance's ok end and a violation tolerance= held back run nothing.
ALIVE="$APP:frame_begin,alive=100ms,expect=10,margin=2"
mkdir "$tmp/a1"
run -V afahmS -- -d 50ms -b "$ALIVE" --on-violation "exec=env >$tmp/a1/\$\$"
expect 0 "alive: exec= with cycles ok, too few, held back, too many: exit 0"
few=$(grep -l '^TLOB_VERDICT=too_few$' "$tmp/a1"/* 2>/dev/null)
many=$(grep -l '^TLOB_VERDICT=too_many$' "$tmp/a1"/* 2>/dev/null)
[ "$(ls "$tmp/a1" | wc -l)" = 2 ] && [ -n "$few" ] && [ -n "$many" ] &&
	[ "$(grep -c '^ALIVE TOO FEW' "$tmp/out")" = 2 ]
ok $? "... ran once for too few and once for too many, not for ok or the tolerated one" ||
	{ ls "$tmp/a1" | sed 's/^/#   /'; sed 's/^/#   /' "$tmp/out"; }
got=""
for k in TLOB_KIND TLOB_VERDICT TLOB_COMM TLOB_TAG TLOB_BINDING TLOB_PERIOD_NS TLOB_CYCLES \
	TLOB_CHECKPOINTS TLOB_EXPECT_MIN TLOB_EXPECT_MAX TLOB_DETECTOR; do
	got="$got $k=$(envof "$few" $k)"
done
is "$got" " TLOB_KIND=alive TLOB_VERDICT=too_few TLOB_COMM=fakeapp TLOB_TAG=hb TLOB_BINDING=1 TLOB_PERIOD_NS=100000000 TLOB_CYCLES=1 TLOB_CHECKPOINTS=2 TLOB_EXPECT_MIN=8 TLOB_EXPECT_MAX=12 TLOB_DETECTOR=hrtimer" \
	"... the cycle in TLOB_*"
[ "$(envof "$many" TLOB_CHECKPOINTS)" = 20 ] && [ "$(envof "$few" TLOB_PID)" = "$(envof "$few" TLOB_TGID)" ] &&
	! grep -q '^TLOB_BUDGET_NS=' "$few"
ok $? "... too many: its count; TLOB_PID and TLOB_TGID; no window's variables" || sed 's/^/#   /' "$few"
mkdir "$tmp/a2"
run -V fmfm -- -d 50ms -b "$ALIVE" --on-violation "exec=touch $tmp/a2/\$\$" --on-violation-limit 1
[ "$(ls "$tmp/a2" | wc -l)" = 1 ] && [ "$(grep -c '^ALIVE TOO' "$tmp/out")" = 4 ]
ok $? "alive: --on-violation-limit 1: one command for 4 violations, all 4 printed" ||
	{ ls "$tmp/a2" | sed 's/^/#   /'; sed 's/^/#   /' "$tmp/out"; }

FLOW=$top/models/examples/frame-flow.dot
LOGIC="--model $FLOW -e init=$APP:main -e frame_begin=$APP:frame_begin -e frame_end=$APP:frame_end -e shutdown=$APP:process_frame"
mkdir "$tmp/m1"
# shellcheck disable=SC2086 # LOGIC is words
run -V krikS -- -d 50ms $LOGIC --on-violation "exec=env >$tmp/m1/\$\$"
expect 0 "logic: exec= with an ok end, ORDER, INCOMPLETE: exit 0"
order=$(grep -l '^TLOB_VERDICT=order$' "$tmp/m1"/* 2>/dev/null)
inc=$(grep -l '^TLOB_VERDICT=incomplete$' "$tmp/m1"/* 2>/dev/null)
[ "$(ls "$tmp/m1" | wc -l)" = 2 ] && [ -n "$order" ] && [ -n "$inc" ]
ok $? "... ran once for ORDER and once for INCOMPLETE, not for the ok ends" ||
	{ ls "$tmp/m1" | sed 's/^/#   /'; sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
got=""
for k in TLOB_KIND TLOB_VERDICT TLOB_COMM TLOB_TAG TLOB_BINDING TLOB_MODEL TLOB_MODEL_STATE \
	TLOB_MODEL_EVENT TLOB_EVENTS; do
	got="$got $k=$(envof "$order" $k)"
done
is "$got" " TLOB_KIND=logic TLOB_VERDICT=order TLOB_COMM=fakeapp TLOB_TAG=fl TLOB_BINDING=1 TLOB_MODEL=frame_flow TLOB_MODEL_STATE=idle TLOB_MODEL_EVENT=frame_end TLOB_EVENTS=5" \
	"... ORDER: the model, state and refused event in TLOB_*"
[ "$(envof "$inc" TLOB_MODEL_STATE)" = in_frame ] && ! grep -q '^TLOB_MODEL_EVENT=' "$inc"
ok $? "... INCOMPLETE: the state it ended in, no event" || sed 's/^/#   /' "$inc"

# The reader does not wait for a command.
t0=$(date +%s)
run -V vgvgvg -- -d 100ms -b "$S" --on-violation "exec=sleep 6"
t1=$(date +%s)
expect 0 "three slow commands: exit 0"
[ $((t1 - t0)) -lt 5 ] && grep -q "^tlob: 3 on-violation command(s) still running, left to finish on their own$" "$tmp/err"
ok $? "... mon ends without waiting for them (at most 2s), and says so ($((t1 - t0))s)" || sed 's/^/#   /' "$tmp/err"
run -V vgvgvgvgvgvgvgvgvgvg -- -d 100ms -b "$S" --on-violation "exec=sleep 3"
[ "$(grep -c '^tlob: on-violation exec skipped: 8 commands still running$' "$tmp/err")" = 2 ] &&
	grep -q '^tlob: 2 on-violation command(s) skipped (8 were running)$' "$tmp/err"
ok $? "at most 8 commands at once: the 9th and 10th are skipped, and said" || sed 's/^/#   /' "$tmp/err"

# The limit.
mkdir "$tmp/l1"
run -V vgvgvgvg -- -d 50ms -b "$S" --on-violation "exec=touch $tmp/l1/\$\$" --on-violation-limit 2
[ "$(ls "$tmp/l1" | wc -l)" = 2 ] && [ "$(grep -c '^VIOLATION' "$tmp/out")" = 4 ]
ok $? "--on-violation-limit 2: 2 commands for 4 violations, all 4 printed" ||
	{ ls "$tmp/l1" | sed 's/^/#   /'; sed 's/^/#   /' "$tmp/out"; }
mkdir "$tmp/l2"
run -V vgvgSvgvg -- -d 50ms -b "$S" --on-violation "exec=touch $tmp/l2/\$\$" --on-violation-limit 1/1s
[ "$(ls "$tmp/l2" | wc -l)" = 2 ]
ok $? "--on-violation-limit 1/1s: one command per second (2 for 2+2 violations 1.1s apart)" ||
	ls "$tmp/l2" | sed 's/^/#   /'
run -- -d 50ms -b "$S" --on-violation-limit 1
expect 2 "--on-violation-limit without an action: usage error"
run -- -d 50ms -b "$S" --on-violation "run=ls"
expect none "--on-violation run=ls: refused while parsing"
grep -q "^tlob: --on-violation 'run=ls': expected exec=CMD, snapshot=INSTANCE or traceoff=INSTANCE$" "$tmp/err"
ok $? "... saying what is expected" || sed 's/^/#   /' "$tmp/err"
run -- -d 50ms -b "$S" --on-violation-limit 0
expect none "--on-violation-limit 0: refused"

# Triggers, into a directory libtracefs takes as tracefs: the trigger
# file a FIFO, so each write is seen.
mkdir -p "$tmp/tr/instances/snap/events/tlob/violation"
trig=$tmp/tr/instances/snap/events/tlob/violation/trigger
listen() {
	rm -f "$trig"
	mkfifo "$trig"
	timeout 20 sh -c "cat '$trig'; cat '$trig'" >"$tmp/trig.log" &
	lpid=$!
}
listen
run -N kmod -T "$tmp/tr" -V vg -- -d 50ms -b "$S" --on-violation snapshot=snap --on-violation-limit 3
wait $lpid
expect 0 "snapshot=snap on the kmod backend: exit 0"
printf 'snapshot:3 if react == 1 && (binding_id == 1)\n!snapshot:3 if react == 1 && (binding_id == 1)\n' | cmp -s - "$tmp/trig.log"
ok $? "... 'snapshot:3 if react == 1 && (binding_id == 1)' installed, and exactly it removed at exit" ||
	sed 's/^/#   /' "$tmp/trig.log"
listen
run -N kmod -T "$tmp/tr" -F 1 -V vg -- -d 50ms -b "$S" --on-violation traceoff=snap
wait $lpid
expect 1 "traceoff=snap, then enabling fails: exit 1"
printf 'traceoff if react == 1 && (binding_id == 1)\n!traceoff if react == 1 && (binding_id == 1)\n' | cmp -s - "$tmp/trig.log"
ok $? "... the trigger (no limit: no count) removed on that path too" || sed 's/^/#   /' "$tmp/trig.log"
# Appended, never truncated: a trigger file opened with O_TRUNC loses every trigger.
rm -f "$trig"
printf '%s\n' "someone else's trigger, a line longer than ours" >"$trig"
run -N kmod -T "$tmp/tr" -V v -- -d 50ms -b "$S" --on-violation snapshot=snap
[ "$(wc -c <"$trig")" = 48 ]
ok $? "... written without truncating the file" || sed 's/^/#   /' "$trig"
run -N kmod -T "$tmp/tr" -V v -- -d 50ms -b "$S" --on-violation snapshot=nosuch
expect 1 "snapshot=nosuch: an instance that does not exist, exit 1"
grep -q "^tlob: --on-violation snapshot=nosuch: no trace instance 'nosuch' (create it first: mkdir /sys/kernel/tracing/instances/nosuch)$" "$tmp/err" &&
	! grep -q '^op:' "$tmp/out"
ok $? "... said, before anything changed" || sed 's/^/#   /' "$tmp/err" "$tmp/out"

# An alive and a logical binding: the trigger goes on the module's event
# of their kind (tlob:alive_cycle, tlob:logic), not on tlob:violation;
# without -b (every binding's violations) on all three.
for e in alive_cycle logic; do mkdir -p "$tmp/tr/instances/snap/events/tlob/$e"; done
rm -f "$trig"
: >"$trig"
atrig=$tmp/tr/instances/snap/events/tlob/alive_cycle/trigger
ltrig=$tmp/tr/instances/snap/events/tlob/logic/trigger
: >"$atrig"
: >"$ltrig"
# shellcheck disable=SC2086 # LOGIC is words
export TLOB_VERBOSE=1
run -N kmod -T "$tmp/tr" -V fr -- -d 50ms -b "$ALIVE" $LOGIC --on-violation snapshot=snap --on-violation-limit 2
sed -n 's/^tlob: \[+[0-9.]*\] instance snap: //p' "$tmp/err" >"$tmp/said"
expect 0 "snapshot=snap with an alive and a logical binding on the kmod backend: exit 0"
grep -qxF "installed tlob:alive_cycle trigger 'snapshot:2 if react == 1 && (binding_id == 1)'" "$tmp/said" &&
	grep -qxF "installed tlob:logic trigger 'snapshot:2 if react == 1 && (binding_id == 1)'" "$tmp/said" &&
	! grep -q "tlob:violation trigger" "$tmp/said"
ok $? "... installed on tlob:alive_cycle and tlob:logic, none on tlob:violation" || sed 's/^/#   /' "$tmp/err"
grep -qxF "removed tlob:alive_cycle trigger 'snapshot:2 if react == 1 && (binding_id == 1)'" "$tmp/said" &&
	grep -qxF "removed tlob:logic trigger 'snapshot:2 if react == 1 && (binding_id == 1)'" "$tmp/said" &&
	[ ! -s "$trig" ]
ok $? "... both removed at exit" || sed 's/^/#   /' "$tmp/err"
run -N kmod -T "$tmp/tr" -B 1 -V v -- -d 50ms --on-violation traceoff=snap
sed -n 's/^tlob: \[+[0-9.]*\] instance snap: //p' "$tmp/err" >"$tmp/said"
unset TLOB_VERBOSE
expect 0 "traceoff=snap without -b on the kmod backend: exit 0"
printf '%s\n' violation alive_cycle logic | sed "s/.*/installed tlob:& trigger 'traceoff if react == 1'/" >"$tmp/want"
printf '%s\n' violation alive_cycle logic | sed "s/.*/removed tlob:& trigger 'traceoff if react == 1'/" >>"$tmp/want"
sort "$tmp/said" | cmp -s - "$(sort "$tmp/want" >"$tmp/want.s"; echo "$tmp/want.s")"
ok $? "... unfiltered, on tlob:violation, tlob:alive_cycle and tlob:logic, all removed" || sed 's/^/#   /' "$tmp/said"
rm -rf "$tmp/tr/instances/snap/events/tlob/logic"
# shellcheck disable=SC2086 # LOGIC is words
run -N kmod -T "$tmp/tr" -V r -- -d 50ms $LOGIC --on-violation snapshot=snap
expect 1 "a module without tlob:logic (an older tlob.ko): exit 1"
grep -qxF "tlob: --on-violation snapshot=snap: the instance has no tlob:logic event (is tlob.ko loaded?)" "$tmp/err"
ok $? "... naming the event" || sed 's/^/#   /' "$tmp/err"

# The BPF backend: no trigger (its violations are no trace event); the
# tool writes the instance's snapshot (tracing_on) when it reads the
# violation, within the limit. The snapshot file a FIFO: each write seen.
snapf=$tmp/tr/instances/snap/snapshot
rm -f "$trig" "$snapf"
: >"$trig"
mkfifo "$snapf"
(while :; do timeout 10 cat "$snapf" || break; echo .; done) >"$tmp/snap.log" &
spid=$!
run -N bpf -T "$tmp/tr" -V vgvgvg -- -d 50ms -b "$S" --on-violation snapshot=snap \
	--on-violation-limit 2
kill $spid 2>/dev/null
wait $spid 2>/dev/null
expect 0 "snapshot=snap on the BPF backend: exit 0"
# (two writes may come within one open of the FIFO: count the 1s)
[ "$(tr -cd 1 <"$tmp/snap.log" | wc -c)" = 2 ] && [ "$(grep -c '^VIOLATION' "$tmp/out")" = 3 ]
ok $? "... '1' written to the instance's snapshot at 2 of 3 violations (--on-violation-limit 2)" ||
	sed 's/^/#   /' "$tmp/snap.log" "$tmp/err"
[ ! -s "$trig" ]
ok $? "... and no trigger installed" || sed 's/^/#   /' "$trig"
rm -f "$snapf"
echo 1 >"$tmp/tr/instances/snap/tracing_on"
run -N bpf -T "$tmp/tr" -V v -- -d 50ms -b "$S" --on-violation traceoff=snap
expect 0 "traceoff=snap on the BPF backend: exit 0"
is "$(cat "$tmp/tr/instances/snap/tracing_on")" 0 "... the instance's tracing_on is 0 after the violation"
run -N bpf -T "$tmp/tr" -V v -- -d 50ms -b "$S" --on-violation snapshot=snap
expect 1 "snapshot=snap on the BPF backend, the instance without a snapshot file: exit 1"
grep -q "^tlob: --on-violation snapshot=snap: the instance has no snapshot file (a kernel without CONFIG_TRACER_SNAPSHOT)$" "$tmp/err" &&
	! grep -q '^op: bind' "$tmp/out"
ok $? "... said, before anything was bound" || sed 's/^/#   /' "$tmp/err" "$tmp/out"
run -N bpf -T "$tmp/tr" -V v -- -d 50ms -b "$S" --on-violation snapshot=nosuch
expect 1 "snapshot=nosuch on the BPF backend: exit 1, as on the module's"
tap_done
