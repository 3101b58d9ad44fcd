#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# Several users, one monitor, on the module: /dev/tlob sessions
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
SESSION_BACKEND=kmod
. /opt/tlob/tests/lib/sessions.sh
SEC1=$x1 SEC2=$x2
windows_of() { stat_of "$1" windows; }
nbind() { nstats; }
round_started() { :; }

every_round

tool_module_down
tool_cleanup
done_testing
