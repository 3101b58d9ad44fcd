#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt newest debug
#   the module's supervision: 6.1 under both preemption models, and 7.x
#   (hrtimer_setup(), the 7.x uprobe API under its timers)
# Alive supervision in tlob.ko (`a` lines, models/alive.dot): a checkpoint
# (the workload's tlob_heartbeat) must be hit expect-margin..expect+margin
# times per reference cycle, per process or per task. Each scenario must
# report or must not: a steady beat is judged ok cycle after cycle; a beat
# that stops is too few at every cycle's end, found by the cycle's hard
# hrtimer while the process sleeps; a beat too fast is too many; threads
# count together per process and apart per task; tolerance=K/W holds back
# the reaction, not the record; the signal reactor reaches the process;
# exit, unbind and rmmod end what is supervised; the module refuses bad
# lines and lists what it holds as a line that reads back.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

MS=1000000
HB=$(off tlob_heartbeat)
EVENTS="alive_cycle"

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable

# alive TERMS: an `a` line on the workload's heartbeat
alive() { monitor "a $WL:$HB $*"; }
unalive() { monitor "-$WL:$HB"; }

run() {
	trace_start $EVENTS
	$WL "$@" >/tmp/wl.out
	trace_stop
}

cycles() { events alive_cycle; }
# verdicts: the verdict of every record, in order, on one line
verdicts() { cycles | field verdict | tr '\n' ' ' | sed 's/ $//'; }
judged() { cycles | grep -v 'verdict=3 ' ; }

# --- a steady beat: 20 ms apart, 10 per 200 ms cycle, margin 3
alive period=$((200 * MS)) expect=10 margin=3 || bail_out "cannot bind the heartbeat"
id=$(grep " kind=alive " $TLOB/stats | sed -n 's/^id=\([0-9]*\) .*/\1/p')
run beats 40 20000
n=$(judged | wc -l)
cmp_ok "$n" -ge 3 "steady: $n cycles judged in 0.8 s of 200 ms cycles"
is "$(judged | field verdict | sort -u)" "0" "steady: every judged cycle is ok ($(verdicts))"
is "$(cycles | tail -n 1 | field verdict) $(cycles | tail -n 1 | field abort_reason)" "3 1" \
	"steady: the exit ends the cycle under way (aborted, exit)"
is "$(judged | field binding_id | sort -u)" "$id" "steady: records name the binding ($id)"
is "$(judged | field pid | sort -u)" "$(judged | field tgid | sort -u)" \
	"steady: per process, the instance is the tgid"
is "$(judged | field expect_min | sort -u) $(judged | field expect_max | sort -u)" "7 13" \
	"steady: expect 10 margin 3 is 7..13"
is "$(judged | field cycles | sort -u)" "1" "steady: one cycle per record"
is "$(stat_of $id too_few) $(stat_of $id too_many) $(stat_of $id errors)" "0 0 0" \
	"steady: stats count no violation and no model error"
is "$(stat_of $id instances) $(stat_of $id aborted)" "1 1" "steady: one instance, ended by the exit"
# consecutive records tile time: each cycle starts where the last ended
gaps=$(judged | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (NR > 1 && f["start_ns"] != last) bad++; last = f["end_ns"] } END { print bad + 0 }')
is "$gaps" "0" "steady: each judged cycle starts where the one before ended"

# --- the beat stops: 5 beats, then 600 ms of silence, then exit
# (600, not 700: the exit then falls mid-cycle, ~100 ms from a cycle's
# end; with 700 it falls on the fourth cycle's end, where on a slow kernel
# (KASAN, the debug lane) the exit can come first and judge that cycle
# itself, detector STOP: right, but not the timer this checks)
run beats 5 20000 600
v=$(verdicts)
is "$(judged | head -n 1 | field verdict) $(judged | head -n 1 | field checkpoints)" "5 5" \
	"stops: the first cycle is too few, with its 5 checkpoints"
n=$(judged | field verdict | grep -c '^5$')
cmp_ok "$n" -ge 3 "stops: every cycle of the silence is too few ($v)"
is "$(judged | sed -n 2p | field checkpoints)" "0" "stops: ... with 0 checkpoints"
is "$(judged | field detector | sort -u)" "1" "stops: found by the cycle's hrtimer while the process slept"
lat=$(judged | field detect_latency_ns | sort -n | tail -n 1)
cmp_ok "$lat" -lt $((100 * MS)) "stops: judged within 100 ms of each cycle's end (worst $lat ns)"
cmp_ok "$(stat_of $id too_few)" -ge 3 "stops: stats count the cycles too few"

# --- too fast: every 4 ms, 50 per cycle against 7..13
run beats 100 4000
is "$(judged | head -n 1 | field verdict)" "6" "too fast: the first cycle is too many ($(verdicts))"
cmp_ok "$(judged | head -n 1 | field checkpoints)" -gt 13 "too fast: ... with its count"
cmp_ok "$(stat_of $id too_many)" -ge 1 "too fast: stats count it"
unalive || bail_out "cannot remove the binding"

# --- three threads: per process they count together, per task apart
alive period=$((200 * MS)) expect=10 margin=3 || bail_out "cannot bind"
run tbeats 3 30 20000
is "$(judged | head -n 1 | field verdict)" "6" "3 threads per process: too many together ($(verdicts))"
is "$(judged | field pid | sort -u | wc -l)" "1" "3 threads per process: one instance"
unalive
alive period=$((200 * MS)) expect=10 margin=3 per=task || bail_out "cannot bind per task"
id=$(grep " kind=alive " $TLOB/stats | sed -n 's/^id=\([0-9]*\) .*/\1/p')
run tbeats 3 30 20000
is "$(judged | field verdict | sort -u)" "0" "3 threads per task: each is ok ($(verdicts))"
is "$(judged | field pid | sort -u | wc -l)" "3" "3 threads per task: three instances"
is "$(stat_of $id instances)" "3" "3 threads per task: stats count three instances"
grep -q " per=task" $TLOB/monitor
ok $? "per=task is listed"
unalive

# --- tolerance=2/3: the record always, the reaction from the second
alive period=$((200 * MS)) expect=10 margin=3 tolerance=2/3 || bail_out "cannot bind"
id=$(grep " kind=alive " $TLOB/stats | sed -n 's/^id=\([0-9]*\) .*/\1/p')
run beats 5 20000 500
is "$(judged | head -n 2 | field react | tr '\n' ' ')" "0 1 " \
	"tolerance 2/3: the first violation is held back, the second reacted to"
cmp_ok "$(stat_of $id tolerated)" -ge 1 "tolerance 2/3: stats count the tolerated one"
unalive

# --- the signal reactor reaches the process whose beat stopped
alive period=$((200 * MS)) expect=10 margin=3 || bail_out "cannot bind"
echo signal >$TLOB/reactors
run beats 5 20000 500
echo nop >$TLOB/reactors
sig=$(sed -n 's/.*sigxcpu=\([0-9]*\).*/\1/p' /tmp/wl.out)
cmp_ok "${sig:-0}" -ge 1 "signal reactor: the process got SIGXCPU ($sig)"

# --- unbind while supervised: the instance ends (aborted, unbind)
trace_start $EVENTS
$WL beats 100 20000 >/dev/null &
wl=$!
sleep 0.5
unalive
ok $? "unbind while a process is supervised"
wait $wl
trace_stop
is "$(cycles | tail -n 1 | field verdict) $(cycles | tail -n 1 | field abort_reason)" "3 3" \
	"unbind: the cycle under way ends aborted (unbind)"

# --- exec: the process's instance ends (aborted, exec); its cycles before are judged
alive period=$((200 * MS)) expect=10 margin=3 || bail_out "cannot bind"
run beatexec 25 20000
is "$(cycles | tail -n 1 | field verdict) $(cycles | tail -n 1 | field abort_reason)" "3 2" \
	"exec: the cycle under way ends aborted (exec)"
is "$(judged | field verdict | sort -u)" "0" "exec: the cycles before it were judged ok ($(verdicts))"
unalive

# --- no free instance: the first checkpoint of a third task is dropped, counted
kmod_load alive_instances=2 || bail_out "insmod alive_instances=2 failed"
echo 1 >$TLOB/enable
alive period=$((200 * MS)) expect=10 margin=3 per=task || bail_out "cannot bind"
id=$(grep " kind=alive " $TLOB/stats | sed -n 's/^id=\([0-9]*\) .*/\1/p')
run tbeats 3 20 20000
cmp_ok "$(stat_of $id dropped)" -ge 1 "2 instances for 3 tasks: the third task's checkpoints are counted dropped"
# the first cycles end before any thread exits (a thread's exit frees its
# instance, which the third may take then): two tasks judged there
first=$(judged | field end_ns | sort -n | head -n 1)
is "$(judged | field end_ns | awk -v f="$first" '$1 < f + 50000000' | wc -l)" "2" \
	"... at the first cycles' end, two tasks are judged"
cmp_ok "$(stat_of $id instances)" -ge 2 "... two instances at least began"
unalive

# --- the module refuses what the parser refuses, and lists what it holds
is "$(errno_of "a $WL:$HB period=99999 expect=1")" "Numerical result out of range" \
	"a period below 100 us is ERANGE"
is "$(errno_of "a $WL:$HB period=1000000")" "Invalid argument" "no expect= is EINVAL"
is "$(errno_of "a $WL:$HB period=1000000 expect=2 margin=3")" "Invalid argument" \
	"a margin above expect= is EINVAL"
is "$(errno_of "a $WL:$HB period=1000000 expect=2 threshold=5000")" "Invalid argument" \
	"threshold= on an a line is EINVAL"
alive period=1000000 expect=2 margin=1 per=task tolerance=3/5 tag=hb
line=$(grep "^a " $TLOB/monitor)
is "$line" "a $WL:$(printf '0x%x' "$HB") period=1000000 expect=2 margin=1 per=task tolerance=3/5 tag=hb" \
	"the listing is the canonical line"
unalive
is "$(errno_of "$line")" "ok" "the listed line binds again"
is "$(errno_of "$line")" "File exists" "... once per holder"
unalive

# --- 100 us cycles and a beat that stops: ~3 000 cycles too few in 0.3 s.
# Where the emulated timer is held off for more than a cycle, the empty
# cycles it missed come as one record (cycles > 1): either way the
# records tile the time, and the statistics count every cycle they cover.
alive period=100000 expect=1 || bail_out "cannot bind 100 us cycles"
id=$(grep " kind=alive " $TLOB/stats | sed -n 's/^id=\([0-9]*\) .*/\1/p')
run beats 2 1000 300
sum=$(judged | field cycles | awk '{ s += $1 } END { print s + 0 }')
few=$(judged | grep 'verdict=5 ' | field cycles | awk '{ s += $1 } END { print s + 0 }')
bulk=$(judged | field cycles | awk '$1 > 1' | wc -l)
diag "100 us cycles: $(judged | wc -l) records for $sum cycles, $bulk of them for several"
cmp_ok "$sum" -ge 1000 "100 us cycles: at least 1 000 cycles judged in 0.3 s ($sum)"
is "$(stat_of $id cycles)" "$sum" "100 us cycles: stats count every cycle the records cover"
is "$(stat_of $id too_few)" "$few" "100 us cycles: ... and every cycle too few ($few)"
gaps=$(judged | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (NR > 1 && f["start_ns"] != last) bad++
	if (f["end_ns"] - f["start_ns"] != f["cycles"] * f["period_ns"]) bad++
	last = f["end_ns"] } END { print bad + 0 }')
is "$gaps" "0" "100 us cycles: each record is its cycles' length and starts where the last ended"
unalive

# --- churn: 16 tasks beating every 200 us against 1 ms cycles (16 hard
# timers a millisecond), while the binding goes and comes back and the
# monitor is switched off and on; then nothing is left in use
MSK=1000000
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
alive period=$MSK expect=5 margin=5 per=task || bail_out "cannot bind"
for i in 1 2 3 4; do $WL tbeats 4 5000 200 >/dev/null & done
i=0 used_during=0
while [ $i -lt 20 ]; do
	sleep 0.05
	u=$(pool alive_used)
	[ "$u" -gt "$used_during" ] && used_during=$u
	unalive
	alive period=$MSK expect=5 margin=5 per=task
	[ $((i % 4)) = 0 ] && { echo 0 >$TLOB/enable; echo 1 >$TLOB/enable; }
	i=$((i + 1))
done
wait
cmp_ok "$used_during" -ge 1 "churn: instances were in use while it churned (at most $used_during seen)"
is "$(pool alive_used)" "0" "churn: every instance ended with its task (alive_used 0; $used_during during)"
cmp_ok "$(pool alive_peak)" -le "$(pool alive_size)" "churn: the peak stays within the pool ($(pool alive_peak) of $(pool alive_size))"
id=$(grep " kind=alive " $TLOB/stats | sed -n 's/^id=\([0-9]*\) .*/\1/p')
is "$(stat_of $id errors)" "0" "churn: no model error"
unalive

# --- rmmod while a process is supervised: no splat, nothing left
alive period=$((200 * MS)) expect=10 || bail_out "cannot bind"
$WL beats 100 10000 >/dev/null &
wl=$!
sleep 0.5
echo 0 >$TLOB/enable
kmod_unload
ok $? "rmmod while a process is supervised"
wait $wl
dmesg | grep -E "BUG|WARNING|Oops|lockdep|KASAN|kmemleak" >/tmp/alive-dmesg
is "$(wc -l </tmp/alive-dmesg)" "0" "no splat in dmesg"

done_testing
