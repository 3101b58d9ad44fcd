#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt 6.12 debug
#   bpf_timer (stock), the sampler (rt), EEVDF's delayed dequeue (6.12)
# The kernel backend's scenario list, run on the BPF backend and on tlob.ko
# in the same boot: each scenario must give the expected verdicts and
# breakdown on BPF, and the same ones as the module.
#   spin   (running dominant)  sleep (sleeping dominant)
#   starve (a SCHED_FIFO hog on the task's CPU: waiting dominant)
#   restart (windows in budget, no carry-over)  two bindings  nested bindings
#   exit and exec inside a window (aborted)
#   min= (a STOP before the section's minimum: early; after it: ok)
#   tolerance=2/3 (four overruns in a row: the first held back, react
#   false, the rest reacted to; every one recorded)
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/hold.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end"
S2="$W:tlob_section2_begin,tlob_section2_end"
OUT=/tmp/30-bpf
mkdir -p $OUT

# value of a JSON field of one record line (numbers and short strings)
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }

# The same in awk, for the loops over every record below: one awk per
# file, not several sed per record (under emulation those forks took
# about 10 s of each lane's run of this script).
AWK_FIELD='function f(k,  r) {
	if (!match($0, "\"" k "\":\"?[^,\"}]*"))
		return ""
	r = substr($0, RSTART, RLENGTH)
	sub(/^"[^"]*":"?/, "", r)
	return r
}'

# One line per record, sorted, ids and times left out:
#   kind tag verdict abort_reason dominant
# dominant: which of running/waiting/sleeping holds the most time; "-"
# for violation records, a snapshot at the deadline, and for 1 ms
# windows: there a kernel thread's preemption can outweigh the running
# time, on either backend
summarize() {
	grep '"type":"record"' "$1" | awk -v name="$2" "$AWK_FIELD"'
	{
		r = f("running_ns") + 0; w = f("waiting_ns") + 0; s = f("sleeping_ns") + 0
		d = r >= w && r >= s ? "running" : w >= s ? "waiting" : "sleeping"
		if (name == "restart" || f("kind_name") == "violation")
			d = "-"
		print f("kind_name"), f("tag"), f("verdict_name"), f("abort_reason_name"), d
	}' | sort
}

# mon_ready ERRFILE PID: until that tlob mon says "monitoring" (every hook
# attached; a workload started earlier, e.g. once the sched_switch link
# shows, can run its START or exec before the rest is in place), it died,
# or 60 s passed
mon_ready() {
	_i=0
	while ! grep -q '^tlob: monitoring' "$1" && kill -0 "$2" 2>/dev/null && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

# scenario BACKEND NAME "SECTIONS (-b ...)" WORKLOAD ARGS...: $THEN, if
# set, runs after the workload, while tlob mon still runs
scenario() {
	be=$1 name=$2 secs=$3
	shift 3
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086
	: >"$OUT/$be-$name.err"	# before the child: the wait below may read first
	tlob mon --backend "$be" --json $secs >"$OUT/$be-$name.json" 2>"$OUT/$be-$name.err" &
	mp=$!
	mon_ready "$OUT/$be-$name.err" $mp
	"$W" "$@" >/dev/null 2>&1
	${THEN:+$THEN}
	sleep 0.5
	kill -INT $mp
	wait $mp
	echo $? >"$OUT/$be-$name.rc"
	summarize "$OUT/$be-$name.json" "$name" >"$OUT/$be-$name.sum"
	diag "$be $name ($(awk -v t0="$t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s):" \
		"$(tr '\n' ';' <"$OUT/$be-$name.sum")"
	grep '"verdict_name":"model_error"' "$OUT/$be-$name.json" | while read -r l; do
		diag "$be $name model error: $(echo "$l" | field state_name) x" \
			"$(echo "$l" | field event_name) preemptions=$(echo "$l" | field preemptions)" \
			"sleeps=$(echo "$l" | field sleeps) wakeups=$(echo "$l" | field wakeups)"
	done
}

# expect NAME "expected summary lines"
check() {
	be=bpf
	is "$(cat $OUT/bpf-$1.rc)" 0 "$1: tlob mon --backend bpf exits 0" ||
		sed 's/^/# /' "$OUT/bpf-$1.err"
	is "$(cat $OUT/bpf-$1.sum)" "$2" "$1: BPF verdicts and breakdown" ||
		sed 's/^/# /' "$OUT/bpf-$1.json" "$OUT/bpf-$1.err"
	if [ -n "$KMOD" ]; then
		is "$(cat $OUT/bpf-$1.sum)" "$(cat $OUT/kmod-$1.sum)" "$1: same as the module" ||
			sed 's/^/# kmod: /' "$OUT/kmod-$1.json"
	else
		skip "$1: tlob.ko not loadable here ($KMOD_WHY)"
	fi
}

# The running-dominant scenarios run at SCHED_FIFO 10 (as 12-kmod-verdicts
# does): above the kernel threads PREEMPT_RT runs at FIFO 1 (rcuc,
# rcu_preempt, ktimers). On the emulated rt lanes those can take up to
# half of a 60 ms window on CPU 0 right after the previous scenario's
# teardown, so "running" would lose to "waiting" on either backend. Both
# backends book time the same way whatever the policy, and both detect
# the deadline in hard IRQ there (the module's hard hrtimer, BPF's
# sampler), so the FIFO task delays neither. starve keeps SCHED_OTHER:
# its FIFO hog must preempt it.
# A process's first window also holds its first uprobe hit's setup (the
# page of out-of-line copies) and first-touch faults: on PREEMPT_RT those
# take sleeping locks (the zone lock among them): a FIFO task can sleep
# more than 10 ms inside a 5 ms spin until a kworker (such a lock's
# holder) wakes it, and then "sleeping" wins on either backend.
# So a process's first window spins 20 ms or more where "running" must
# win: early's 25 ms is still short of its 50 ms minimum.
# On BPF the first scenario loads the monitor and a hold joins it ($THEN,
# once it is monitoring); the others find it up (a session's own load
# verifies the programs, seconds under emulation); midrun below loads it
# cold again.
run_all() {
	THEN="bpf_hold_if $1" scenario "$1" spin "-b $S1,10ms,tag=a" -c 0 -f 10 spin 60
	scenario "$1" sleep "-b $S1,10ms,tag=a" -c 0 sleep 60
	scenario "$1" starve "-b $S1,10ms,tag=a" -c 0 starve 80
	scenario "$1" restart "-b $S1,200ms,tag=a" -n 20 spin 1
	scenario "$1" two "-b $S1,10ms,tag=a -b $S2,1s,tag=b" -c 0 -f 10 two 60 5
	scenario "$1" nest "-b $S1,1s,tag=a -b $S2,10ms,tag=b" -c 0 -f 10 nest 80 60
	scenario "$1" exit "-b $S1,1s,tag=a" -c 0 -f 10 exit 50
	scenario "$1" exec "-b $S1,1s,tag=a" -c 0 -f 10 exec 50
	scenario "$1" early "-b $S1,1s,min=50ms,tag=a" -c 0 -f 10 -n 2 spin 25
	scenario "$1" minok "-b $S1,1s,min=5ms,tag=a" -c 0 -f 10 -n 2 spin 20
	scenario "$1" tol "-b $S1,10ms,tolerance=2/3,tag=a" -c 0 -f 10 -n 4 spin 30
}

run_all bpf
bpf_release
KMOD= KMOD_WHY="no tlob.ko in /opt/tlob/modules"
if [ -f "$TLOB_KO" ] && insmod "$TLOB_KO" 2>/dev/null; then
	KMOD=1
	run_all kmod
	rmmod tlob
else
	[ -f "$TLOB_KO" ] && KMOD_WHY="insmod failed"
fi

V="violation a over_budget none -"
check spin "$V
window a over_budget none running"
check sleep "violation a over_budget none -
window a over_budget none sleeping"
check starve "violation a over_budget none -
window a over_budget none waiting"
expect=
i=0
while [ $i -lt 20 ]; do
	expect="$expect${expect:+
}window a ok none -"
	i=$((i + 1))
done
check restart "$expect"
check two "$V
window a over_budget none running
window b ok none running"
check nest "violation b over_budget none -
window a ok none running
window b over_budget none running"
check exit "window a aborted exit running"
check exec "window a aborted exec running"
check early "violation a early none -
violation a early none -
window a early none running
window a early none running"
check minok "window a ok none running
window a ok none running"
check tol "$V
$V
$V
$V
window a over_budget none running
window a over_budget none running
window a over_budget none running
window a over_budget none running"
for be in bpf ${KMOD:+kmod}; do
	is "$(grep '"kind_name":"violation"' $OUT/$be-tol.json | field react | tr '\n' ' ')" \
		"false true true true " "tol: $be: the first of four overruns held back, the rest reacted to"
	is "$(grep '"kind_name":"window"' $OUT/$be-tol.json | field react | tr '\n' ' ')" \
		"false true true true " "tol: $be: ... and each window says so too"
done

# Every window's breakdown adds up to its elapsed time, to the ns: time is
# booked at each state change from the window's START on, and nothing
# after its end (on PREEMPT_RT the task can be switched out in the middle
# of its own STOP program: the STOP claims the window before it takes the
# time).
cat $OUT/bpf-*.json | grep '"kind_name":"window"' >$OUT/bpf-windows
bad=$(awk "$AWK_FIELD"'
	f("running_ns") + f("waiting_ns") + f("sleeping_ns") != f("elapsed_ns") + 0' $OUT/bpf-windows)
is "$(printf '%s' "$bad" | grep -c .)" 0 \
	"running + waiting + sleeping = elapsed in all $(wc -l <$OUT/bpf-windows) BPF windows" ||
	echo "$bad" | sed 's/^/# /'

# Monitoring that starts while the task is in and out of its windows
# (each sleeps 1 ms): tlob mon attaches the binding's probes before it
# enables the scheduler hooks, and a window opened in between would see
# no sleep (booked running) or, opened before its STOP probe was in
# place, run on into the next START (a model error). Only windows opened
# once everything is attached may count (tlob_on), and every one of them
# saw its sleep, or at least its wakeup: on a slow kernel the 1 ms timer
# can fire before schedule() takes the task off the CPU, and the task is
# woken without having slept (sleeps 0, wakeups 1: a KASAN kernel is that
# slow). A window with neither is a window that missed the hooks, unless
# the kernel itself never switched the task out nor woke it: a vCPU that
# the host stalls for longer than the sleep finds its timer expired
# before the task could sleep, and nanosleep returns with no scheduler
# event at all (on either backend, under host load: a few windows in
# tens of thousands). The workload (sleepsw) names
# each sleep with no context switch of its own, as the kernel counts
# them (getrusage), with its times: every window with neither must
# hold one of those. (A guard, not a proof: on a quiet host the attach
# gap is short, and a run with the gate disabled can pass.)
"$W" -c 0 -n 1000000 sleepsw 1 >$OUT/midrun.sw 2>&1 &
wp=$!
sleep 0.3
tlob mon --backend bpf --json -b "$S1,1s,tag=m" >$OUT/midrun.json 2>$OUT/midrun.err &
mp=$!
mon_ready $OUT/midrun.err $mp
sleep 2
kill $wp
wait $wp
sleep 0.5
kill -INT $mp
wait $mp
grep '"kind_name":"window"' $OUT/midrun.json >$OUT/midrun.win
# the window the kill ended is aborted (exit); every other one is ok
grep -v '"abort_reason_name":"exit"' $OUT/midrun.win >$OUT/midrun.ok
n=$(wc -l <$OUT/midrun.ok)
cmp_ok "$n" -gt 0 "midrun: windows recorded once monitoring started ($n)" ||
	sed 's/^/# /' $OUT/midrun.err
cmp_ok "$(($(wc -l <$OUT/midrun.win) - n))" -le 1 "midrun: at most the last window aborted by the kill"
is "$(grep -c -v '"verdict_name":"ok"' $OUT/midrun.ok)" 0 "midrun: every other window ok" ||
	grep -v '"verdict_name":"ok"' $OUT/midrun.ok | sed 's/^/# /'
grep '"sleeps":0,' $OUT/midrun.ok | grep '"wakeups":0,' >$OUT/midrun.none
# those of them whose window holds no sleep the kernel ended unswitched
unexplained=$(awk "$AWK_FIELD"'
	FILENAME == ARGV[1] { if ($1 == "noswitch") { t0[++n] = $2; t1[n] = $3 }; next }
	{
		s = f("start_ns"); e = f("end_ns")
		for (i = 1; i <= n; i++)
			if (t0[i] + 0 >= s + 0 && t1[i] + 0 <= e + 0)
				next
		print
	}' $OUT/midrun.sw $OUT/midrun.none)
is "$(printf '%s' "$unexplained" | grep -c .)" 0 \
	"midrun: every one of them saw its task sleep or be woken ($(wc -l <$OUT/midrun.none) did not: the kernel never switched them out)" ||
	echo "$unexplained" | sed 's/^/# /'

grep -h "tlob: bpf:" $OUT/bpf-spin.err | sed 's/^/# /'
done_testing
