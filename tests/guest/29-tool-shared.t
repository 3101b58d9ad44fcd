#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Several users, one monitor (issue #20), on the module: /dev/tlob sessions
# share bindings. First the device itself (from the shell, one open file
# per session), then three concurrent `tlob mon` sessions, on the same
# section (m1 and m2), an overlapping set (m2 also has section 2) and a
# different budget on the same section (m3: a binding of its own), started
# together and stopped in every order, one round with a session SIGKILLed
# first and one with the last SIGKILLed: each session reports exactly the
# windows of its bindings (the workload's known count), the kernel's
# per-binding statistics count each window once, the others keep
# monitoring, and after the last one nothing is bound, no probe is left
# and the module is not referenced.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
. /opt/tlob/bin/tool.sh
BACKENDS=kmod
kmod_load || bail_out "insmod failed"
_we_loaded=1

b1=$(off tlob_section_begin)
e1=$(off tlob_section_end)
b2=$(off tlob_section2_begin)
x1=$(printf 0x%x "$b1")
x2=$(printf 0x%x "$b2")
S1="p $W:$b1 $e1 threshold=1000000000"

# fdwrite FD LINE: one write(2) of LINE to the open file FD; "ok" or the error text
fdwrite() {
	_e=$(printf '%s\n' "$2" | eval "dd bs=1M 2>&1 >&$1") && { echo ok; return; }
	echo "$_e" | sed -n 's/.*error writing.*: //p'
}
ME="$$:$(tr -c 'A-Za-z0-9_.\n-' '?' </proc/$$/comm)"
refcnt() { awk '$1 == "tlob" { print $3 }' /proc/modules; }
nstats() { grep -c . "$TLOB/stats"; }
# holders_of START THRESHOLD: the holders= of that binding's stats line
holders_of() {
	grep " start=$1 .* threshold=$2 " "$TLOB/stats" | tr ' ' '\n' | sed -n 's/^holders=//p'
}
# id_of START THRESHOLD
id_of() { grep " start=$1 .* threshold=$2 " "$TLOB/stats" | sed -n 's/^id=\([0-9]*\) .*/\1/p'; }
# nothing_left WHAT: no binding, no probe, no reference, no trace instance
nothing_left() {
	is "$(cat $TLOB/monitor)$(cat $TLOB/stats)" "" "$1: monitor and stats empty"
	is "$(pool bindings) $(pool sched_probes) $(pool open)" "0 0 0" \
		"$1: pool bindings=0 sched_probes=0 open=0"
	is "$(refcnt)" 0 "$1: the module is not referenced (lsmod)"
	ls /sys/kernel/tracing/instances/ | grep -q '^tlob_'
	ok $((!$?)) "$1: no tlob_ trace instance left"
}

# --- the device -----------------------------------------------------------
is "$(stat -c '%F %a %U' /dev/tlob)" "character special file 600 root" "/dev/tlob: a root-only character device"
is "$(cat $TLOB/enable)" 0 "the monitor is disabled throughout the device's checks"
exec 3<>/dev/tlob 4<>/dev/tlob
is "$(fdwrite 3 "$S1")" ok "session A binds section 1"
is "$(fdwrite 4 "$S1")" ok "session B binds the same binding"
is "$(nstats)" 1 "... one binding, shared"
is "$(holders_of $x1 1000000000)" "$ME,$ME" "... held by both sessions (pid:comm)"
is "$(cat $TLOB/monitor)" "" "the monitor file lists only its own bindings (none)"
is "$(fdwrite 3 "p $W:$b1 $e1 threshold=2000000000")" "File exists" \
	"session A: a second binding on a section it holds is refused (EEXIST)"
is "$(fdwrite 4 "$S1")" "File exists" "session B: the same line twice likewise"
is "$(fdwrite 4 "-$W:$b2")" "No such file or directory" "session B: removing what it does not hold: ENOENT"
exec 5<>/dev/tlob
is "$(fdwrite 5 "p $W:$b1 $e1 threshold=2000000000")" ok "session C: the same section with another budget"
is "$(nstats)" 2 "... a binding of its own"
is "$(refcnt)" 3 "three open sessions hold the module"
trace_start window
"$W" -n 3 spin 1 >/dev/null
trace_stop
id1=$(id_of $x1 1000000000)
id2=$(id_of $x1 2000000000)
is "$(stat_of "$id1" windows) $(stat_of "$id2" windows)" "3 3" \
	"monitor disabled: the sessions' bindings are armed, 3 windows each, counted once"
is "$(events window | grep -c "binding_id=$id1 ")" 3 "... 3 window records of the shared binding"
printf '%s\n' "$S1" >"$TLOB/monitor"
ok $? "the monitor file joins the shared binding (tlob bind)"
is "$(holders_of $x1 1000000000)" "$ME,$ME,monitor" "... one more holder"
is "$(fdwrite 3 "-$W:$b1")" ok "session A drops its reference (-PATH:START)"
is "$(holders_of $x1 1000000000)" "$ME,monitor" "... the others keep it"
exec 4>&-
is "$(holders_of $x1 1000000000)" "monitor" "closing session B drops its reference"
is "$(pool sched_probes)" 1 "... C's binding keeps the scheduler probes"
exec 5>&-
is "$(nstats) $(pool sched_probes)" "1 0" "closing C: its binding gone; the persistent one is not armed (disabled)"
printf '%s\n' "-$W:$b1" >"$TLOB/monitor"
exec 3>&-
nothing_left "the device"

# --- three tlob mon sessions ------------------------------------------------
N=3	# windows per section per workload run (-n 3 two 1 1: section 1, then 2)
M1="-b $W:tlob_section_begin,tlob_section_end,1s"
M2="-b $W:tlob_section_begin,tlob_section_end,1s -b $W:tlob_section2_begin,tlob_section2_end,1s"
M3="-b $W:tlob_section_begin,tlob_section_end,2s"
# windows of one workload run for each session
P1=$N P2=$((2 * N)) P3=$N

# mon_start I: session I in the background
mon_start() {
	: >"$T/m$1.err"
	eval "_a=\$M$1"
	# shellcheck disable=SC2086
	tlob mon --json --backend kmod $_a >"$T/m$1" 2>"$T/m$1.err" &
	eval "pid$1=$!"
	mon_wait "$T/m$1.err"
}
# workload: one run; every live session's expected count grows
workload() {
	"$W" -n $N two 1 1 >/dev/null
	for _i in 1 2 3; do
		eval "[ -n \"\$pid$_i\" ] && exp$_i=\$((exp$_i + P$_i))"
	done
	sleep 0.5
}
# mon_stop I SIG ROUND: stop session I; check what it reported
mon_stop() {
	eval "_p=\$pid$1 _e=\$exp$1"
	kill -"$2" "$_p"
	wait "$_p"
	_rc=$?
	eval "pid$1="
	if [ "$2" = KILL ]; then
		is "$_rc" 137 "$3: m$1 SIGKILLed"
		return
	fi
	is "$_rc" 0 "$3: m$1 exits 0"
	is "$(jlines "$T/m$1" record kind_name window | wc -l)" "$_e" \
		"$3: m$1 reports exactly its $_e windows"
	grep -q "^{\"type\":\"summary\",\"records\":$_e,\"windows\":$_e," "$T/m$1"
	ok $? "$3: m$1's summary counts $_e" || sed -n '/summary/s/^/# /p' "$T/m$1"
	eval "_b=\$B$1"
	_bad=$(jlines "$T/m$1" record | grep -v "\"budget_ns\":$_b," | wc -l)
	_bad=$((_bad + $(jlines "$T/m$1" record | grep -vc '"verdict_name":"ok"')))
	is "$_bad" 0 "$3: m$1: every record is of its own bindings' budget, in budget"
}
B1=1000000000 B2=1000000000 B3=2000000000

# round ORDER [KILL-WHICH]: start all three, one run, then stop in ORDER
# with a run between stops; KILL-WHICH (1..3) is SIGKILLed instead.
round() {
	_r="order $1${2:+, m$2 killed}"
	exp1=0 exp2=0 exp3=0
	mon_start 1 && mon_start 2 && mon_start 3 || { fail "$_r: a session did not start"; return; }
	workload
	is "$(nstats)" 3 "$_r: three bindings for four sections asked (one shared)"
	is "$(stat_of "$(id_of $x1 1000000000)" windows) $(stat_of "$(id_of $x2 1000000000)" windows) $(stat_of "$(id_of $x1 2000000000)" windows)" \
		"$N $N $N" "$_r: each binding counts each window once"
	is "$(holders_of $x1 1000000000 | tr ',' '\n' | grep -c ':tlob$')" 2 "$_r: the shared binding has two holders"
	for _s in $(echo "$1" | sed 's/./& /g'); do
		mon_stop "$_s" "$([ "$_s" = "${2:-}" ] && echo KILL || echo INT)" "$_r"
		[ -z "$pid1$pid2$pid3" ] && break
		# what the others hold is still monitored
		_before=$(stat_of "$(id_of $x1 $([ -n "$pid1$pid2" ] && echo 1000000000 || echo 2000000000))" windows)
		workload
		_after=$(stat_of "$(id_of $x1 $([ -n "$pid1$pid2" ] && echo 1000000000 || echo 2000000000))" windows)
		is "$((_after - _before))" "$N" "$_r: after m$_s, the others still monitor section 1"
	done
	[ -z "${2:-}" ] || tlob status --backend kmod >/dev/null
	nothing_left "$_r"
}

for o in 123 132 213 231 312 321; do
	round $o
done
round 213 2
round 123 3

tool_module_down
tool_cleanup
done_testing
