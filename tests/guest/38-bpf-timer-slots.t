#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock newest debug
#   the kernels whose verifier allows bpf_timer (the stock ones), the oldest
#   and the newest: where it refuses it the backend samples and the script
#   has no timer to check
# The bpf_timer detector's timers (kernel/bpf/tlob_timer.bpf.c): one per
# window slot of a task, set up at the slot's first START and re-armed by
# the next, not allocated and freed per window; gone when the
# task exits; a re-armed timer still detects each window's overrun, also
# once the tlob that loaded the monitor is gone; and a window whose timer
# the kernel refused or freed is counted in the session's summary.
# Where the kernel refuses bpf_timer (PREEMPT_RT) the backend samples and
# there is no timer to check.
. /opt/tlob/tests/lib/tap.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end"

# elements of the timer object's map (bpftool finds it by name)
timers() { bpftool -j map dump name tlob_timers 2>/dev/null | grep -o '"key"' | wc -l; }

timeout 120 tlob bind --backend bpf -b "$S1,1s" >/tmp/38.out 2>&1
ok $? "bind (pinned BPF monitor)" || sed 's/^/# /' /tmp/38.out
if ! bpftool map show name tlob_timers >/dev/null 2>&1; then
	skip "the monitor samples on this kernel (no bpf_timer)"
	timeout 120 tlob unbind -a --backend bpf >/dev/null 2>&1
	done_testing
	exit 0
fi
is "$(timers)" 0 "no timer before any window"

# Three 1 ms windows 1.5 s apart: between them no window is open; the
# slot's timer stays (before: deleted at every STOP, made again at START).
$W -n 3 -g 1500 sleep 1 >/tmp/38.w 2>&1 &
pid=$!
seen=0 held=0 dropped=0 i=0
while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
	n=$(timers)
	if kill -0 $pid 2>/dev/null; then	# alive before and after the dump
		if [ "$n" -gt 0 ]; then
			seen=1
			held=$((held + 1))
		elif [ $seen = 1 ]; then
			dropped=$((dropped + 1))
		fi
	fi
	sleep 0.1
	i=$((i + 1))
done
wait $pid
diag "timer samples while the task lived: $held with its timer, $dropped without after the first"
cmp_ok "$held" -gt 5 "the slot's timer is there between windows"
is "$dropped" 0 "... and never goes while the task lives"
is "$(timers)" 0 "the task exited: its timer is gone"

# overruns WHAT [MID]: a tlob mon session over four windows of one task,
# each spinning 30 ms past its 1 ms budget: 4 violations, and (a
# switch-out or the STOP could see one first; 30 ms of spinning leaves
# little room for that) at least 3 of them from the slot's re-armed timer,
# the second START on. With MID, a command: the task opens 6 windows
# 700 ms apart and MID runs 1.2 s after it started, after its second
# window; the windows after MID got no timer (found late, at a switch or
# at STOP), and the session's summary says how many.
overruns() {
	: >/tmp/38.err
	tlob mon --backend bpf --json -b "$S1,1ms" >/tmp/38.mon 2>/tmp/38.err &
	mp=$!
	i=0
	while ! grep -q '^tlob: monitoring' /tmp/38.err && kill -0 $mp 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "${2-}" ]; then
		n=4
		$W -n 4 -g 20 spin 30 >/dev/null 2>&1
	else
		n=6
		$W -n 6 -g 700 spin 30 >/dev/null 2>&1 &
		wp=$!
		sleep 1.2
		"$2"
		wait $wp
	fi
	sleep 0.5
	kill -INT $mp
	wait $mp
	is "$?" 0 "$1: tlob mon exits 0" || sed 's/^/# /' /tmp/38.err
	v=$(grep '"type":"record"' /tmp/38.mon | grep -c '"kind_name":"violation"')
	t=$(grep '"type":"record"' /tmp/38.mon | grep '"kind_name":"violation"' |
		grep -c '"detector_name":"bpf_timer"')
	u=$(sed -n 's/^{"type":"summary".*"untimed":\([0-9]*\).*/\1/p' /tmp/38.mon)
	u=${u:-0}
	diag "$1: violations $v, by the timer $t, windows without a timer $u"
	is "$v" $n "$1: $n overrunning windows of one task: $n violations"
	if [ -z "${2-}" ]; then
		cmp_ok "$t" -ge 3 "$1: ... detected by the slot's re-armed timer"
		is "$u" 0 "$1: ... the summary counts no window without a timer"
		return
	fi
	cmp_ok "$t" -ge 1 "$1: ... those before it by their timer"
	cmp_ok "$u" -ge 2 "$1: ... the JSON summary counts those after it, without a timer"
	cmp_ok $((t + u)) -ge 5 "$1: ... each window by its timer or counted without one (but one a switch saw first)"
	grep -q "^tlob: $u window(s) got no overrun timer" /tmp/38.err
	ok $? "$1: ... and the session says so on stderr" || sed 's/^/# /' /tmp/38.err
	# The monitor's count since tlob bind loaded it: this session's alone.
	su=$(tlob status --backend bpf --json | sed -n 's/^{"type":"status".*"untimed":\([0-9]*\).*/\1/p')
	is "${su:-0}" "$u" "$1: ... and tlob status, since the monitor was loaded"
}

# Re-armed timers detect, on a monitor this session loads.
timeout 120 tlob unbind -a --backend bpf >/dev/null 2>&1
overruns "session's own monitor"

# The same on a monitor whose loader is gone: tlob bind loads and pins it
# and exits, the session joins it. The kernel sets up a bpf_timer only in
# a map user space holds (an fd or a pin), and frees a map's timers when
# its last holder goes: the timer maps must be pinned with the rest, or
# every overrun after the loader's exit is found only at a switch or at
# STOP, none by the timer.
timeout 120 tlob bind --backend bpf -b "$W:tlob_section2_begin,tlob_section2_end,1s" >/tmp/38.out 2>&1
ok $? "bind, and the bind exits (the pinned monitor's loader gone)" || sed 's/^/# /' /tmp/38.out
overruns "loader gone"

# When the timers cannot be set up, the session must say so: the loss of
# detection is counted (TLOB_LOST_NOTIMER) and the summary must read it.
# Unpinning the timer map with no tlob holding it (as an unpinned timer
# map would be once its loader exits) makes the kernel free the timers already set up (the task's
# slot: its next START finds its timer gone) and refuse new ones.
unpin_timers() {
	rm /sys/fs/bpf/tlob/tlob_timers
	ok $? "timer map gone: unpinned while the task runs, its last holder gone"
}
overruns "timer map gone" unpin_timers
timeout 120 tlob unbind -a --backend bpf >/dev/null 2>&1
done_testing
