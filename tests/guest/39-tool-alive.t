#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: debug
#   not in make check: 19 runs the module's engine, 39-bpf the tool's side
# Alive supervision through the tool (module backend): tlob mon binds a
# checkpoint with the friendly form (PATH:SYMBOL,alive=PERIOD,expect=N,...)
# and reads tlob:alive_cycle into its stream: a steady beat is ok cycle
# after cycle, a beat that stops is too few (JSON and the ALIVE line), the
# summary counts both; tlob bind/stats/status show an alive binding and
# unbind removes it. (The BPF backend's: 39-bpf-alive.t.)
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
tool_module_up || bail_out "cannot load $TLOB_KO"
B=kmod
backend_begin $B || bail_out "the module backend is not usable"
HB="$W:tlob_heartbeat,alive=200ms,expect=10,margin=3,tag=hb"

# --- a steady beat, JSON: ok cycles, then the exit ends the instance
mon_run steady --json --backend $B -b "$HB" -- beats 30 20000
is "$mon_rc" 0 "steady: mon exits 0 on SIGINT"
ok=$(jlines "$T/steady" alive_cycle verdict_name ok | wc -l)
cmp_ok "$ok" -ge 2 "steady: $ok ok cycles"
is "$(jlines "$T/steady" alive_cycle verdict_name too_few | wc -l)" 0 "steady: no cycle too few"
is "$(jlines "$T/steady" alive_cycle verdict_name too_many | wc -l)" 0 "steady: no cycle too many"
r=$(jlines "$T/steady" alive_cycle verdict_name ok | head -1)
is "$(jget "$r" pid)" "$wpid" "steady: the instance is the workload's process"
is "$(jget "$r" tag)" hb "steady: tag"
is "$(jget "$r" period_ns)" 200000000 "steady: period_ns"
is "$(jget "$r" expect_min) $(jget "$r" expect_max)" "7 13" "steady: expect 10 margin 3 is 7..13"
# Who judged each ok cycle: its hrtimer, at the cycle's end; or, when the
# timer ran late, the first checkpoint after the end, which judges the
# cycle before it counts (tlob_alive.c: a late timer never moves a
# checkpoint into the wrong cycle); a vCPU the host stalls makes the
# timer that late, on any lane. Every ok cycle by one
# of the two, and the timer at least once.
jlines "$T/steady" alive_cycle verdict_name ok |
	sed -n 's/.*"detector_name":"\([^"]*\)".*/\1/p' >"$T/steady.det"
is "$(grep -c -v -e '^hrtimer$' -e '^checkpoint$' "$T/steady.det")" 0 \
	"steady: each ok cycle judged by its hrtimer or, the timer late, by the checkpoint after its end" ||
	diag "$(sort "$T/steady.det" | uniq -c | tr -s " \n" " ")"
cmp_ok "$(grep -c '^hrtimer$' "$T/steady.det")" -ge 1 \
	"steady: judged by the cycle's hrtimer ($(grep -c '^hrtimer$' "$T/steady.det") of $ok)"
a=$(jlines "$T/steady" alive_cycle verdict_name aborted | tail -1)
is "$(jget "$a" abort_reason_name)" exit "steady: the exit ends the instance"
s=$(jlines "$T/steady" summary | head -1)
cmp_ok "$(jget "$s" alive_cycles)" -ge "$ok" "steady: the summary counts the cycles"
is "$(jget "$s" lost)" 0 "steady: nothing lost"
tool_clean_state $B
ok $? "steady: after mon, nothing left (binding, enable, trace instance)"

# --- the beat stops: too few at every cycle's end, JSON and text
mon_run stops --json --backend $B -b "$HB" -- beats 5 20000 700
n=$(jlines "$T/stops" alive_cycle verdict_name too_few | wc -l)
cmp_ok "$n" -ge 3 "stops: $n cycles too few"
r=$(jlines "$T/stops" alive_cycle verdict_name too_few | head -1)
is "$(jget "$r" checkpoints)" 5 "stops: the first with its 5 checkpoints"
cmp_ok "$(jget "$r" detect_latency_ns)" -lt 100000000 "stops: judged within 100 ms of the cycle's end"
mon_run stops_text --backend $B -b "$HB" -- beats 5 20000 500
grep -q "^ALIVE TOO FEW .*tlob-workload.*checkpoints=5 .*expect=7..13" "$T/stops_text"
ok $? "stops: text: an ALIVE TOO FEW line with the count and the bounds" ||
	diag "$(head -n 5 "$T/stops_text")"
tool_clean_state $B
ok $? "stops: after mon, nothing left"

# --- --on-violation: exec= gets the cycle too few in TLOB_*, at most once
# (--on-violation-limit 1), and the module's snapshot trigger on
# tlob:alive_cycle takes a trace instance's snapshot when it is judged
# (a script: mon_run passes its arguments through one word list)
printf '#!/bin/sh\nenv | grep "^TLOB_" >%s.$$\n' "$T/few.exec" >"$T/onviol.sh"
chmod +x "$T/onviol.sh"
I=/sys/kernel/tracing/instances/tlob_alive_t
mkdir -p "$I"
if [ -e "$I/snapshot" ]; then
	echo 1 >"$I/events/sched/sched_switch/enable"
	mon_run act --backend $B -b "$HB" --on-violation "exec=$T/onviol.sh" \
		--on-violation snapshot=tlob_alive_t --on-violation-limit 1 -- beats 5 20000 700
	is "$mon_rc" 0 "on-violation: mon exits 0"
	f=$(ls "$T"/few.exec.* 2>/dev/null | head -1)
	is "$(ls "$T"/few.exec.* 2>/dev/null | wc -l)" 1 "on-violation: exec= ran once (limit 1) for $(grep -c '^ALIVE TOO FEW' "$T/act") cycles too few"
	e=$(grep -E '^TLOB_(KIND|VERDICT|CHECKPOINTS|EXPECT_MIN|EXPECT_MAX|PERIOD_NS|TAG)=' "$f" 2>/dev/null | sort | tr '\n' ' ')
	is "$e" "TLOB_CHECKPOINTS=5 TLOB_EXPECT_MAX=13 TLOB_EXPECT_MIN=7 TLOB_KIND=alive TLOB_PERIOD_NS=200000000 TLOB_TAG=hb TLOB_VERDICT=too_few " \
		"on-violation: ... with the cycle in TLOB_*" || diag "$(cat "$T/act.err")"
	# a fresh instance's snapshot holds nothing until the trigger takes it
	cmp_ok "$(grep -vc '^#' "$I/snapshot")" -gt 0 "on-violation: the trigger took the instance's snapshot (its sched_switch events)"
	echo 0 >"$I/events/sched/sched_switch/enable"
	grep -q '^snapshot' "$I/events/tlob/alive_cycle/trigger"
	ok $((! $?)) "on-violation: the trigger is removed after mon" ||
		diag "$(cat "$I/events/tlob/alive_cycle/trigger")"
else
	for _i in 1 2 3 4 5; do skip "on-violation: this kernel has no tracing snapshot"; done
fi
rmdir "$I"

# --- bind, stats, status, unbind
out=$(tlob bind --backend $B -b "$HB" 2>&1)
ok $? "tlob bind takes an alive checkpoint ($out)"
grep -q "^a $W:0x[0-9a-f]* period=200000000 expect=10 margin=3 tolerance=1/1 tag=hb\$\|^a $W:0x[0-9a-f]* period=200000000 expect=10 margin=3 tag=hb\$" \
	/sys/kernel/tlob/monitor
ok $? "the module lists it as its canonical a line ($(cat /sys/kernel/tlob/monitor))"
$W beats 15 20000 >/dev/null
st=$(tlob stats --backend $B 2>&1)
echo "$st" | grep -q "alive .*period=200ms expect=10"
ok $? "tlob stats shows the alive binding" || diag "$st"
sj=$(tlob stats --json --backend $B 2>/dev/null | grep '"kind":"alive"' | head -1)
cmp_ok "$(jget "$sj" cycles)" -ge 1 "tlob stats --json: its cycles"
stat=$(tlob status --backend $B 2>&1)
echo "$stat" | grep -q "^  id=[0-9]* a $W:0x[0-9a-f]* period=200000000 expect=10 margin=3 tag=hb"
ok $? "tlob status lists it as its a line" || diag "$stat"
tlob unbind --backend $B -a >/dev/null 2>&1
is "$(cat /sys/kernel/tlob/monitor)" "" "tlob unbind -a removes it"
echo 0 >/sys/kernel/tlob/enable

tool_module_down
tool_cleanup
done_testing
