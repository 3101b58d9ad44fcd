#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt
#   bpf_timer (stock) and the sampler (rt); not the debug lane: each tlob
#   mon loads the BPF programs, minutes each under KASAN
# Alive supervision on the BPF backend (kernel/bpf/tlob_alive.bpf.h): the
# scenario list of the module's 19-kmod-alive.t, through tlob mon --json.
# Each must report or must not: a steady beat is ok cycle after cycle,
# the exit ends its instance; a beat that stops is too few at every
# cycle's end, found by the detector while the process sleeps (the
# bpf_timer, or the sampler on PREEMPT_RT); a beat too fast is too many;
# threads count together per process and apart per task; an exec ends
# the process's instance; tolerance=K/W holds back the reaction, not the
# record; the end of the session (unbind) ends what is supervised;
# 100 us cycles with a beat that stops tile the time; tlob bind keeps one
# on the pinned monitor with its statistics.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/bpf.sh
. /opt/tlob/tests/lib/hold.sh
B=bpf
# The records' name of the detector tlob list names.
case $BPF_DETECTOR in
sampling) DET=sample ;;
*) DET=$BPF_DETECTOR ;;
esac
backend_usable $B >/dev/null || skip_all "bpf backend not usable: $(backend_usable $B)"
backend_begin $B
HB="$W:tlob_heartbeat,alive=200ms,expect=10,margin=3,tag=hb"
MS=1000000

# cycles FILE [PID]: the alive_cycle records (of one process's instance)
cycles() { jlines "$1" alive_cycle ${2:+pid "$2"}; }
judged() { cycles "$@" | grep -v '"verdict_name":"aborted"'; }
# verdicts FILE [PID]: each record's verdict, in order, on one line
verdicts() { cycles "$@" | sed -n 's/.*"verdict_name":"\([a-z_]*\)".*/\1/p' | tr '\n' ' '; }
vals() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }

# seq NAME CMD...: one workload of a sequence, its pid in $T/pid.NAME
{
	echo '#!/bin/sh'
	echo 'seq() { n=$1; shift; '"$W"' "$@" >/dev/null & echo $! >'"$T"'/pid.$n; wait $!; }'
} >"$T/seq.head"

# --- one session, per process: steady, stops, too fast, 3 threads, exec
{
	cat "$T/seq.head"
	echo 'seq steady beats 40 20000'
	echo 'seq stops beats 5 20000 600'
	echo 'seq fast beats 100 4000'
	echo 'seq threads tbeats 3 30 20000'
	echo 'seq exec beatexec 25 20000'
} >"$T/per-process.sh"
chmod +x "$T/per-process.sh"
# pp loads the monitor, a hold joins it, and the next three sessions find
# it up (each one's own load took 4 to 8 s here); tlob bind below loads
# it cold again.
MON_THEN="bpf_hold_if $B" MON_PROG=$T/per-process.sh mon_run pp --json --backend $B -b "$HB" --
is "$mon_rc" 0 "tlob mon exits 0 on SIGINT" || diag "$(cat "$T/pp.err")"
is "$(jlines "$T/pp" summary | vals lost)" 0 "nothing lost"

p=$(cat "$T/pid.steady")
n=$(judged "$T/pp" "$p" | wc -l)
cmp_ok "$n" -ge 3 "steady: $n cycles judged in 0.8 s of 200 ms cycles"
is "$(judged "$T/pp" "$p" | vals verdict_name | sort -u)" ok "steady: every judged cycle is ok ($(verdicts "$T/pp" "$p"))"
is "$(cycles "$T/pp" "$p" | tail -n 1 | vals verdict_name) $(cycles "$T/pp" "$p" | tail -n 1 | vals abort_reason_name)" \
	"aborted exit" "steady: the exit ends the cycle under way (aborted, exit)"
r=$(judged "$T/pp" "$p" | head -n 1)
is "$(echo "$r" | vals tgid)" "$p" "steady: per process, the instance is the tgid"
is "$(echo "$r" | vals tag) $(echo "$r" | vals period_ns)" "hb 200000000" "steady: tag and period"
is "$(echo "$r" | vals expect_min) $(echo "$r" | vals expect_max)" "7 13" "steady: expect 10 margin 3 is 7..13"
is "$(judged "$T/pp" "$p" | vals cycles | sort -u)" 1 "steady: one cycle per record"
gaps=$(judged "$T/pp" "$p" | awk -F'"(start|end)_ns":' '{ print $2 + 0, $3 + 0 }' | sort -n |
	awk 'NR > 1 && $1 != last { bad++ } { last = $2 } END { print bad + 0 }')
is "$gaps" 0 "steady: each judged cycle starts where the one before ended"
# Who judged: the detector at the cycle's end (bpf_timer, or the sampler
# where the verifier refuses bpf_timer), or, when it ran late, the first
# checkpoint after the end.
det=$(judged "$T/pp" "$p" | vals detector_name | sort | uniq -c | tr -s ' \n' ' ')
is "$(judged "$T/pp" "$p" | vals detector_name | grep -cv -e "^$DET\$" -e '^checkpoint$')" 0 \
	"steady: each ok cycle judged by the $DET detector or the checkpoint after its end ($det)"

p=$(cat "$T/pid.stops")
r=$(judged "$T/pp" "$p" | head -n 1)
is "$(echo "$r" | vals verdict_name) $(echo "$r" | vals checkpoints)" "too_few 5" \
	"stops: the first cycle is too few, with its 5 checkpoints"
n=$(judged "$T/pp" "$p" | vals verdict_name | grep -c '^too_few$')
cmp_ok "$n" -ge 3 "stops: every cycle of the silence is too few ($(verdicts "$T/pp" "$p"))"
is "$(judged "$T/pp" "$p" | sed -n 2p | vals checkpoints)" 0 "stops: ... with 0 checkpoints"
is "$(judged "$T/pp" "$p" | vals detector_name | sort -u)" "$DET" \
	"stops: found by the $DET detector while the process slept"
lat=$(judged "$T/pp" "$p" | vals detect_latency_ns | sort -n | tail -n 1)
cmp_ok "$lat" -lt $((100 * MS)) "stops: judged within 100 ms of each cycle's end (worst $lat ns)"
is "$(judged "$T/pp" "$p" | head -n 1 | vals react)" true "stops: with no tolerance= the violation is reacted to"

p=$(cat "$T/pid.fast")
r=$(judged "$T/pp" "$p" | head -n 1)
is "$(echo "$r" | vals verdict_name)" too_many "too fast: the first cycle is too many ($(verdicts "$T/pp" "$p"))"
cmp_ok "$(echo "$r" | vals checkpoints)" -gt 13 "too fast: ... with its count"

p=$(cat "$T/pid.threads")
is "$(judged "$T/pp" "$p" | head -n 1 | vals verdict_name)" too_many \
	"3 threads per process: too many together ($(verdicts "$T/pp" "$p"))"

p=$(cat "$T/pid.exec")
is "$(cycles "$T/pp" "$p" | tail -n 1 | vals verdict_name) $(cycles "$T/pp" "$p" | tail -n 1 | vals abort_reason_name)" \
	"aborted exec" "exec: the cycle under way ends aborted (exec)"
is "$(judged "$T/pp" "$p" | vals verdict_name | sort -u)" ok "exec: the cycles before it were judged ok ($(verdicts "$T/pp" "$p"))"

s=$(jlines "$T/pp" summary | head -n 1)
is "$(echo "$s" | vals alive_cycles) $(echo "$s" | vals alive_aborted)" \
	"$(cycles "$T/pp" | wc -l) $(cycles "$T/pp" | grep -c '"verdict_name":"aborted"')" \
	"the summary counts every record, and the aborted ones" || diag "$s"
tool_clean_state $B
ok $? "after mon, nothing left"

# --- per task: 3 threads apart, each ok; the session's end ends a beat
# still going (aborted, unbind)
{
	cat "$T/seq.head"
	echo 'seq threads tbeats 3 30 20000'
	echo "$W beats 200 20000 >/dev/null & echo \$! >$T/pid.left; sleep 1"
} >"$T/per-task.sh"
chmod +x "$T/per-task.sh"
MON_PROG=$T/per-task.sh mon_run pt --json --backend $B -b "$HB,per=task" --
p=$(cat "$T/pid.threads")
is "$(judged "$T/pt" | grep "\"tgid\":$p[,}]" | vals verdict_name | sort -u)" ok \
	"3 threads per task: each is ok ($(judged "$T/pt" | grep "\"tgid\":$p[,}]" | vals verdict_name | tr '\n' ' '))"
is "$(judged "$T/pt" | grep "\"tgid\":$p[,}]" | vals pid | sort -u | wc -l)" 3 \
	"3 threads per task: three instances"
p=$(cat "$T/pid.left")
is "$(cycles "$T/pt" "$p" | tail -n 1 | vals verdict_name) $(cycles "$T/pt" "$p" | tail -n 1 | vals abort_reason_name)" \
	"aborted unbind" "the session's end ends the instance of a beat still going (aborted, unbind)"
kill "$p" 2>/dev/null
wait "$p" 2>/dev/null
tool_clean_state $B
ok $? "per task: after mon, nothing left"

# --- tolerance=2/3: the record always, the reaction from the second
mon_run tol --json --backend $B -b "$HB,tolerance=2/3" -- beats 5 20000 500
is "$(judged "$T/tol" | head -n 2 | vals react | tr '\n' ' ')" "false true " \
	"tolerance 2/3: the first violation is held back, the second reacted to"

# --- 100 us cycles and a beat that stops: records of several empty
# cycles where the detector was held off; they tile the time and the
# summary counts every cycle they cover
mon_run fine --json --backend $B -b "$W:tlob_heartbeat,alive=100us,expect=1" -- beats 2 1000 300
sum=$(judged "$T/fine" | vals cycles | awk '{ s += $1 } END { print s + 0 }')
bulk=$(judged "$T/fine" | vals cycles | awk '$1 > 1' | wc -l)
diag "100 us cycles: $(judged "$T/fine" | wc -l) records for $sum cycles, $bulk of them for several"
cmp_ok "$sum" -ge 1000 "100 us cycles: at least 1 000 cycles judged in 0.3 s ($sum)"
# (sorted by start: ok cycles go out in batches, cycles too few at once)
gaps=$(judged "$T/fine" | awk '{ split($0, a, /"start_ns":/); split(a[2], s, /[,}]/)
	split($0, b, /"end_ns":/); split(b[2], e, /[,}]/)
	split($0, c, /"cycles":/); split(c[2], n, /[,}]/)
	print s[1], e[1], n[1] }' | sort -n | awk '
	NR > 1 && $1 != last { bad++ }
	$2 - $1 != $3 * 100000 { bad++ }
	{ last = $2 } END { print bad + 0 }')
is "$gaps" 0 "100 us cycles: each record is its cycles' length and starts where the last ended"
is "$(jlines "$T/fine" summary | vals alive_cycles)" "$(cycles "$T/fine" | wc -l)" \
	"100 us cycles: the summary counts every record"

release_clean $B "the hold released: nothing left"

# --- tlob bind: the pinned monitor keeps it, its statistics count
if [ -d /sys/fs/bpf ] && tlob bind --backend $B -b "$HB" >"$T/bind" 2>&1; then
	ok 0 "tlob bind takes an alive checkpoint"
	$W beats 15 20000 >/dev/null
	sj=$(tlob stats --json --backend $B 2>/dev/null | grep '"kind":"alive"' | head -n 1)
	cmp_ok "$(echo "$sj" | vals cycles)" -ge 1 "tlob stats --json: its cycles ($sj)"
	is "$(echo "$sj" | vals aborted)" 1 "tlob stats --json: the exit ended its instance"
	st=$(tlob status --backend $B 2>&1)
	echo "$st" | grep -q "a $W:0x[0-9a-f]* period=200000000 expect=10 margin=3"
	ok $? "tlob status lists it as its a line" || diag "$st"
	tlob unbind --backend $B -a >/dev/null 2>&1
	ok $? "tlob unbind -a removes it"
else
	diag "$(cat "$T/bind")"
	for _i in 1 2 3 4 5; do skip "tlob bind --backend bpf: no pinned monitor here"; done
fi
tool_clean_state $B
ok $? "at the end, nothing left"

tool_cleanup
done_testing
