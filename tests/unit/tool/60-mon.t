#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob mon's session on a fake backend (mon_drv.c): the exit status of
# --stop-on-violation, and the usage errors refused before anything is
# changed (no section and no persistent binding; an unknown -r reactor).
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/mon_drv

# run NAME DRIVER-ARGS... -- MON-ARGS...: out, err, rc (the session's status)
run() {
	name=$1
	shift
	timeout 20 "$DRV" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$(sed -n 's/^exit //p' "$tmp/out")
}
# expect RC NAME: rc, or the output as diagnostics
expect() {
	[ "${rc:-none}" = "$1" ]
	ok $? "$2" || { echo "#   exit ${rc:-none} (want $1)"; sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
}
# changes: the ops that changed something (op: lines)
changes() { grep -c '^op:' "$tmp/out"; }
# A section on real code: every offset is checked before mon runs (it must
# start an instruction of executable code, tests/unit/tool/33-offsets.t).
APP=$BUILD/tests/unit/tool/fixtures/app
S="$APP:frame_begin,frame_end,5us"

run stop -V oovo -- --stop-on-violation -d 10s -b "$S"
expect 3 "--stop-on-violation stopped on a violation: exit 3"
[ "$(grep '^window ok\|^VIOLATION' "$tmp/out" | cut -c1-9 | tr '\n' ' ')" = "window ok window ok VIOLATION window ok " ]
ok $? "... printing the records before it, the violation, and what was still buffered" ||
	sed 's/^/#   /' "$tmp/out"
grep '^op: ' "$tmp/out" | tail -n 2 | tr '\n' ' ' | grep -q "^op: enable 0 op: unbind $APP \$"
ok $? "... having put back what it changed" || sed 's/^/#   /' "$tmp/out"

run nostop -V oo -- --stop-on-violation -d 50ms -b "$S"
expect 0 "--stop-on-violation without a violation: exit 0 at the end of -d"
run noflag -V ovo -- -d 50ms -b "$S"
expect 0 "a violation without --stop-on-violation: exit 0"

run nothing -- -d 50ms
expect 2 "no -b and no persistent binding: usage error"
grep -q "^tlob: mon: nothing to monitor: give -b SECTION, or bind sections first (tlob bind)$" "$tmp/err" &&
	[ "$(wc -l <"$tmp/err")" = 1 ]
ok $? "... one line saying so" || sed 's/^/#   /' "$tmp/err"
is_none() { [ "$(changes)" = 0 ]; ok $? "$1" || sed 's/^/#   /' "$tmp/out"; }
is_none "... nothing changed"
run persistent -B 2 -- -d 50ms
expect 0 "no -b but persistent bindings: mon reads them"
grep -q "monitoring 0 section(s) (the persistent bindings)" "$tmp/err"
ok $? "... saying so"

run badreactor -- -r nosuch -d 50ms -b "$S"
expect 2 "-r with an unknown reactor: usage error"
grep -q "^tlob: mon: unknown reactor 'nosuch' (available: nop printk panic signal; the fake backend)$" "$tmp/err"
ok $? "... naming the backend's reactors" || sed 's/^/#   /' "$tmp/err"
is_none "... before anything is changed"
run prefix -- -r print -d 50ms -b "$S"
expect 2 "-r print (a prefix of printk) is unknown"
run notthere -R "[nop]" -- -r printk -d 50ms -b "$S"
expect 2 "-r printk where the backend has only nop"
is_none "... nothing changed"
run badsig -- -r signal:99 -d 50ms -b "$S"
expect 2 "-r signal:99 is no signal"
run nosig -R "[nop] printk" -- -r signal:9 -d 50ms -b "$S"
expect 2 "-r signal:9 where the backend has no signal reactor"
run sig -- -r signal:9 -d 50ms -b "$S"
expect 0 "-r signal:9 where it has one"
grep -q '^op: reactor signal:9$' "$tmp/out" && [ "$(grep '^op:' "$tmp/out" | tail -1)" = "op: reactor nop" ]
ok $? "... set while mon runs, restored after"
run cur -- -r "[nop]" -d 50ms -b "$S"
expect 2 "-r with the list's brackets is no reactor name"
run none -R - -- -r nop -d 50ms -b "$S"
expect 1 "-r where the backend has no reactors: an error (exit 1)"

# Nothing dropped silently: windows open when the session ends
# end with records the session itself prints and counts; a START that
# found no free window is printed and counted.
run opendisable -O 2 -- -j -d 50ms -b "$S"
expect 0 "windows open at the end, mon enabled the monitor: exit 0"
[ "$(grep -c '"verdict_name":"aborted","abort_reason":4,"abort_reason_name":"disable"' "$tmp/out")" = 2 ]
ok $? "... both end aborted (disable), printed by this session" || sed 's/^/#   /' "$tmp/out"
grep -q '^{"type":"summary","records":2,"windows":2,' "$tmp/out"
ok $? "... and counted in its summary" || sed 's/^/#   /' "$tmp/out"
run openunbind -O 1 -E 1 -- -j -d 50ms -b "$S"
expect 0 "a window open at the end, monitor enabled before mon: exit 0"
! grep -q '^op: enable' "$tmp/out" &&
	[ "$(grep -c '"abort_reason_name":"unbind"' "$tmp/out")" = 1 ]
ok $? "... the monitor stays on; the window ends aborted (unbind), printed" ||
	sed 's/^/#   /' "$tmp/out"
grep -q '^{"type":"summary","records":1,"windows":1,' "$tmp/out"
ok $? "... and counted" || sed 's/^/#   /' "$tmp/out"
run dropped -V odd -- -d 50ms -b "$S"
expect 0 "STARTs that found no free window: exit 0"
[ "$(grep -c '^DROPPED .*START opened no window, every window was in use$' "$tmp/out")" = 2 ]
ok $? "... each printed as DROPPED" || sed 's/^/#   /' "$tmp/out"
grep -q '^records: 3 (windows 1, violations 0, dropped 2, transitions 0), lost: 0$' "$tmp/out"
ok $? "... counted apart in the summary" || sed 's/^/#   /' "$tmp/out"
grep -q "^tlob: 2 START(s) opened no window: every window was in use" "$tmp/err"
ok $? "... and said on stderr" || sed 's/^/#   /' "$tmp/err"
run droppedjson -V d -- -j -d 50ms -b "$S"
grep -q '"kind":3,"kind_name":"dropped"' "$tmp/out" && grep -q '"dropped":1,' "$tmp/out"
ok $? "... in JSON: kind dropped, and the summary's dropped" || sed 's/^/#   /' "$tmp/out"
run bpftasks -- --bpf-tasks 8 -d 50ms -b "$S"
expect 2 "--bpf-tasks on another backend than bpf: usage error"
grep -q "^tlob: mon: --bpf-tasks sizes the BPF backend; the fake backend's capacity is set at load (pool_size=)$" "$tmp/err"
ok $? "... saying where that capacity is set" || sed 's/^/#   /' "$tmp/err"
run bpftasks0 -- --bpf-tasks 0 -d 50ms -b "$S"
expect none "--bpf-tasks 0: refused while parsing"

# Several users, one monitor: only this session's records.
run others -V oxvxo -- -d 50ms -b "$S"
expect 0 "records of another user's binding in the stream: exit 0"
[ "$(grep -c '^window ok\|^VIOLATION' "$tmp/out")" = 3 ] &&
	grep -q '^records: 3 (windows 2, violations 1, dropped 0, transitions 0), lost: 0$' "$tmp/out"
ok $? "... neither printed nor counted: only this session's binding's" || sed 's/^/#   /' "$tmp/out"
# A session (the module's /dev/tlob): enable left alone, its end drops only its references.
run session -S 1 -O 1 -V o -- -j -d 50ms -b "$S"
expect 0 "a session with a window open at the end: exit 0"
[ "$(grep '^op:\|^read:' "$tmp/out" | tr '\n' ' ')" = "op: bind $APP op: unbind $APP read: stats " ]
ok $? "... binds, never touches enable, reads its statistics after its unbind" ||
	sed 's/^/#   /' "$tmp/out"
[ "$(grep -c '"abort_reason_name":"unbind"' "$tmp/out")" = 1 ] &&
	grep -q '^{"type":"summary","records":2,"windows":2,' "$tmp/out"
ok $? "... the window its unbind aborted is printed and counted" || sed 's/^/#   /' "$tmp/out"

# Alive supervision: every cycle printed as it comes, a violation (too few
# or too many checkpoints) stops --stop-on-violation, the summary counts
# them on a line of its own; a session of sections prints as before.
A="$APP:frame_begin,alive=100ms,expect=10,margin=2,tag=hb"
run alive -V afmzy -- -d 50ms -b "$A"
expect 0 "alive cycles of every verdict: exit 0"
[ "$(grep -E '^(alive (ok|aborted)|ALIVE) ' "$tmp/out" | cut -c1-14 | tr '\n' '|')" = "alive ok      |ALIVE TOO FEW |ALIVE TOO MANY|alive aborted |" ]
ok $? "... each printed, in order; another user's binding's cycle not" || sed 's/^/#   /' "$tmp/out"
grep -qx "ALIVE TOO FEW  fakeapp-[0-9]* tgid=[0-9]* binding=1 tag=hb period=100ms checkpoints=2 expect=8..12 detector=hrtimer latency=400.000us" "$tmp/out"
ok $? "... a violation's line: the count, the range, the detector and its latency" || sed 's/^/#   /' "$tmp/out"
grep -qx "alive aborted  fakeapp-[0-9]* tgid=[0-9]* binding=1 tag=hb period=100ms checkpoints=3 expect=8..12 reason=exit" "$tmp/out"
ok $? "... an instance's end: aborted, with its reason" || sed 's/^/#   /' "$tmp/out"
grep -qxF 'records: 0 (windows 0, violations 0, dropped 0, transitions 0), lost: 0' "$tmp/out" &&
	grep -qxF 'alive cycles: 4 (too few 1, too many 1, aborted 1)' "$tmp/out"
ok $? "... the summary: the records' line as it was, the alive cycles on their own" || sed 's/^/#   /' "$tmp/out"
run alivejson -V afy -- -j -d 50ms -b "$A"
[ "$(grep -c '^{"type":"alive_cycle",' "$tmp/out")" = 2 ] &&
	grep -q '"checkpoints":2,"expect_min":8,"expect_max":12,"cycles":1,"verdict":5,"verdict_name":"too_few","detector":1,"detector_name":"hrtimer","react":true' "$tmp/out" &&
	grep -q '^{"type":"summary","records":0,.*"diags":0,"alive_cycles":2,"alive_too_few":1,"alive_too_many":0,"alive_aborted":0}$' "$tmp/out"
ok $? "-j: one alive_cycle object each, and the alive counts in the summary" || sed 's/^/#   /' "$tmp/out"
run alivestop -V afaa -- --stop-on-violation -d 10s -b "$A"
expect 3 "--stop-on-violation stops at too few checkpoints: exit 3"
[ "$(grep -E '^(alive (ok|aborted)|ALIVE) ' "$tmp/out" | cut -c1-13 | tr '\n' '|')" = "alive ok     |ALIVE TOO FEW|alive ok     |alive ok     |" ]
ok $? "... printing what came before, the violation, and what was still buffered" || sed 's/^/#   /' "$tmp/out"
run alivequiet -V afmz -- -q -d 50ms -b "$A"
! grep -Eq '^(alive (ok|aborted)|ALIVE) ' "$tmp/out" && grep -qxF 'alive cycles: 4 (too few 1, too many 1, aborted 1)' "$tmp/out"
ok $? "-q: no cycle's line, the summary counts them" || sed 's/^/#   /' "$tmp/out"
run sections -V ovo -- -d 50ms -b "$S"
! grep -q 'alive' "$tmp/out"
ok $? "a session of sections: no alive line in its summary" || sed 's/^/#   /' "$tmp/out"
run sectionsjson -V o -- -j -d 50ms -b "$S"
grep -q '^{"type":"summary","records":1,"windows":1,"violations":0,"dropped":0,"transitions":0,"lost":0,"diags":0}$' "$tmp/out"
ok $? "... nor in its JSON summary" || sed 's/^/#   /' "$tmp/out"

tap_done
