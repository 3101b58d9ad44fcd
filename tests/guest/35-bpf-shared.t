#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock debug
#   what it checks is the loader's and the tool's, the same on every kernel
# Several users, one monitor, on the BPF backend: one set of
# programs and maps for the system, pinned by the first tlob that needs
# it. Three concurrent `tlob mon --backend bpf` sessions, on the same
# section (m1 and m2), an overlapping set (m2 also has section 2) and a
# different budget on the same section (m3: a binding of its own), started
# together and stopped in every order, one round with a session SIGKILLed
# first and one with the last SIGKILLed: one program set whatever the
# number of sessions, each session reports exactly the windows of its
# bindings (the workload's known count), the per-binding statistics count
# each window once, the others keep monitoring, and after the last one
# nothing is bound, pinned, attached or loaded (bpftool's counts as before
# the first). Also the persistent holder (tlob bind) joining a session's
# binding and leaving it again, and sessions ending by -d and by
# --stop-on-violation beside one that stays.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/bpfobj.sh
BACKENDS=bpf
PIN=/sys/fs/bpf/tlob

if ! why=$(backend_usable bpf); then
	skip_all "bpf backend not usable: $why"
fi
tlob unbind -a --backend bpf >/dev/null 2>&1

before=$(quiet)
diag "before: $before"

b1=$(off tlob_section_begin)
b2=$(off tlob_section2_begin)
status() { tlob status --json --backend bpf 2>/dev/null >"$T/status"; }
# nbind: the bindings tlob status lists (persistent, then the sessions')
nbind() { status; jlines "$T/status" binding | wc -l; }
# binding START BUDGET: its status line
binding() { status; jlines "$T/status" binding start "$(hex "$1")" budget_ns "$2"; }
id_of() { jget "$(binding "$1" "$2")" id; }
holders_of() { jget "$(binding "$1" "$2")" holders; }
# windows_of ID: that binding's window count (tlob stats)
windows_of() {
	tlob stats --json --backend bpf 2>/dev/null >"$T/stats"
	jget "$(jlines "$T/stats" stats id "$1")" windows
}
nothing_left() {
	[ ! -e "$PIN" ]
	ok $? "$1: nothing pinned ($PIN gone)" || ls "$PIN" | sed 's/^/# /'
	is "$(settled "$before")" "$before" "$1: no program, map or link left (bpftool)"
}

SESSION_BACKEND=bpf
. /opt/tlob/tests/lib/sessions.sh
SEC1=$b1 SEC2=$b2
round_started() {
	is "$(bpftool prog show | grep -c 'name tlob_switch')" 1 "$1: one scheduler program for three sessions"
}

# --- the persistent holder and one session ---------------------------------
mon_start 1 || bail_out "tlob mon --backend bpf did not start"
[ -e "$PIN/tlob_meta" ]
ok $? "the first session pins the monitor"
is "$(nbind)" 1 "one binding, the session's"
me="$pid1:tlob"
is "$(holders_of "$b1" $B1)" "$me" "... held by the session (pid:comm)"
tlob bind --backend bpf $M1 >/dev/null 2>"$T/bind.err"
ok $? "tlob bind of the same binding joins it" || sed 's/^/# /' "$T/bind.err"
is "$(nbind) $(holders_of "$b1" $B1)" "1 monitor,$me" "... one binding, two holders"
tlob bind --backend bpf $M1 >/dev/null 2>"$T/bind.err"
is "$?" 1 "tlob bind twice: refused (the persistent holder holds it)"
grep -q 'binding already present' "$T/bind.err"
ok $? "... saying it is bound already" || sed 's/^/# /' "$T/bind.err"
tlob unbind --backend bpf -b "$W:tlob_section_begin" >/dev/null 2>&1
ok $? "tlob unbind drops the persistent reference"
is "$(nbind) $(holders_of "$b1" $B1)" "1 $me" "... the session keeps the binding"
tlob unbind --backend bpf -b "$W:tlob_section_begin" >/dev/null 2>"$T/unbind.err"
is "$?" 1 "tlob unbind of a binding only a session holds: refused"
grep -q 'no binding for' "$T/unbind.err"
ok $? "... saying there is no (persistent) binding" || sed 's/^/# /' "$T/unbind.err"
exp1=0
workload
mon_stop 1 INT "one session"
nothing_left "one session"

# --- the other exits: -d and --stop-on-violation, beside a session that stays
mon_start 1 || bail_out "tlob mon --backend bpf did not start"
tlob mon --json --backend bpf -d 8 -b "$W:tlob_section2_begin,tlob_section2_end,1s" \
	>"$T/d" 2>"$T/d.err" &
dpid=$!
mon_wait "$T/d.err"
tlob mon --json --backend bpf --stop-on-violation -b "$W:tlob_section_begin,tlob_section_end,1ms" \
	>"$T/v" 2>"$T/v.err" &
vpid=$!
mon_wait "$T/v.err"
is "$(nbind)" 3 "three sessions, three bindings (another budget, another section)"
"$W" -n 1 spin 30 >/dev/null
wait $vpid
is "$?" 3 "--stop-on-violation: the session ends on its violation (exit 3)" || sed 's/^/# /' "$T/v.err"
wait $dpid
is "$?" 0 "-d 8: the session ends after its duration" || sed 's/^/# /' "$T/d.err"
is "$(nbind) $(holders_of "$b1" $B1)" "1 $pid1:tlob" "... their bindings gone, the first session's kept"
exp1=1
workload
mon_stop 1 INT "beside -d and --stop-on-violation"
nothing_left "-d and --stop-on-violation"

# --- three sessions ----------------------------------------------------------
every_round

tool_cleanup
done_testing
