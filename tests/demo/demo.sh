#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the VM: what a user types and sees. Runs the sample
# frame loop under a 10 ms budget per frame, first through the module, then
# through the BPF backend.
say() { printf '\n$ %s\n' "$*"; }
run() { say "$*"; "$@" 2>&1; }
app=/opt/tlob/bin/frame-app

demo_backend() { # backend
	say "tlob mon --backend $1 -b $app:frame_begin,frame_end,10ms &"
	# Emptied here, not by the redirection below: that runs in the
	# background child, maybe after the wait below has read the previous
	# backend's "monitoring" (the BPF part would then run the app before
	# its programs are attached and see no window).
	: >/tmp/mon.out
	tlob mon --backend "$1" -b "$app:frame_begin,frame_end,10ms" >/tmp/mon.out 2>&1 &
	mon=$!
	# tlob says "monitoring" once every probe and hook is attached
	i=0
	while ! grep -q '^tlob: monitoring' /tmp/mon.out && kill -0 $mon 2>/dev/null &&
		[ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	run "$app" 40
	sleep 1
	say "kill -INT %1    # Ctrl-C: tlob drains, prints the summary, restores the system"
	kill -INT $mon
	wait $mon
	cat /tmp/mon.out
}

echo "tlob demo on $(uname -r) ($(uname -v | grep -o PREEMPT_RT || echo stock))"
run insmod "$TLOB_KO"
run tlob list
demo_backend kmod
run rmmod tlob
run tlob list
demo_backend bpf
