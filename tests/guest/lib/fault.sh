# SPDX-License-Identifier: GPL-2.0
# Helpers for the fault-matrix guest tests (tests/guest/6*-fault-*.t),
# busybox ash, on top of kmod.sh:
#   . /opt/tlob/tests/lib/tap.sh; . /opt/tlob/tests/lib/kmod.sh
#   . /opt/tlob/tests/lib/fault.sh
#
# A "scene" is four workload processes whose windows are open at once, one
# in each state the fault must meet:
#   R  running   spins on CPU 0
#   W  waiting   spins on CPU 1 with four busy loops ($HOG) beside it
#   S  sleeping  in nanosleep
#   X  expired   sleeping, its deadline passed (a violation already fired)
# R, W and S run a copy of the workload bound with a 1 h budget ($FW), X
# another copy bound with a 20 ms one ($FWX): one binary per budget, so
# each process has exactly one window and the binaries can be deleted or
# replaced without touching /opt/tlob.

FDIR=/tmp/fault
FW=$FDIR/wl
FWX=$FDIR/wlx
MS=1000000
HOUR=3600000000000
FB=$(off tlob_section_begin)
FE=$(off tlob_section_end)
# how long a scene's windows last unless a fault ends them (seconds)
: "${SCENE_SECS:=120}"

fault_copies() {
	mkdir -p $FDIR
	cp $WL $FW && cp $WL $FWX
}

# bind_scene: the two bindings of a scene
bind_scene() {
	monitor "p $FW:$FB $FE threshold=$HOUR" "p $FWX:$FB $FE threshold=$((20 * MS))"
}

# wait_for N CMD...: poll CMD every 0.1 s until it succeeds, N s at most
wait_for() {
	_n=$(($1 * 10))
	shift
	while ! "$@"; do
		_n=$((_n - 1))
		[ $_n -gt 0 ] || return 1
		sleep 0.1
	done
}

pool_is() { [ "$(pool used)" = "$1" ]; }

# wait_used N: the pool holds N open windows (60 s at most)
wait_used() { wait_for 60 pool_is "$1"; }

# kill_tree PID...: SIGKILL the processes and their direct children (one
# pass over /proc: a loop per process is minutes under emulation), reap them
kill_tree() {
	_kids=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v all=" $* " 'index(all, " " $4 " ") { print $1 }')
	kill -9 $_kids "$@" 2>/dev/null
	for _p in "$@"; do
		wait "$_p" 2>/dev/null
	done
}

# trace_bg FILE EVENT...: stream our tlob events into FILE from now on
# (trace_pipe: the records survive an rmmod, which resets the buffer)
trace_bg() {
	_f=$1
	shift
	trace_start "$@"
	cat $INST/trace_pipe >"$_f" &
	trace_bg_pid=$!
}

# trace_bg_end: let the reader drain, then stop it
trace_bg_end() {
	sleep 1
	trace_stop 2>/dev/null
	kill $trace_bg_pid 2>/dev/null
	wait $trace_bg_pid 2>/dev/null
}

# start_scene: R W S X as above; $R $W $S $X are their pids. Returns
# when all four windows are open and X's deadline has passed. W starts
# first: behind the hog it needs seconds to reach START, and the others'
# windows must not run out meanwhile.
start_scene() {
	_ms=$((SCENE_SECS * 1000))
	# W's load: four CFS busy loops on CPU 1, so W runs a fifth of the
	# time and waits the rest. Not a SCHED_FIFO hog: on PREEMPT_RT it
	# would starve the FIFO-1 ktimers thread of CPU 1, and every RCU
	# grace period (uprobe unregistration waits for several) with it.
	HOG=
	for _i in 1 2 3 4; do
		$WL -c 1 burn $((2 * _ms)) >/dev/null 2>&1 &
		HOG="$HOG $!"
	done
	$FW -c 1 spin $_ms >/dev/null 2>&1 &
	W=$!
	scene="$W"
	wait_for 60 pool_is 1 || return 1
	$FW -c 0 spin $_ms >/dev/null 2>&1 &
	R=$!
	$FW sleep $_ms >/dev/null 2>&1 &
	S=$!
	$FWX sleep $_ms >/dev/null 2>&1 &
	X=$!
	scene="$R $W $S $X"
	wait_for 30 pool_is 4 || return 1
	# let every window spend most of its time in its state so far
	sleep 2
}

stop_scene() { kill_tree $scene $HOG; }

# rec FILE PID: the window record of PID in FILE (trace_pipe lines)
rec() { sed -n "s/.* window: \(pid=$2 .*\)/ \1/p" "$1"; }

# dominant REC STATE: STATE's time exceeds the two others together
dominant() {
	_d=$(echo "$1" | field "${2}_ns")
	_a=$(($(echo "$1" | field running_ns) + $(echo "$1" | field waiting_ns) + \
		$(echo "$1" | field sleeping_ns)))
	[ -n "$_d" ] && [ $((_d * 2)) -gt "$_a" ]
}

# check_scene FILE REASON NAME [PIDS]: each scene process (or PIDS only)
# has exactly one window record in FILE: R W S aborted for REASON with
# their state's time dominant, X over budget (a violation sticks; no abort
# reason) with sleeping dominant and one violation record before it.
check_scene() {
	_f=$1 _why=$2 _name=$3
	_pids=${4:-$scene}
	for _p in $_pids; do
		case $_p in
		"$R") _who=running _st=running ;;
		"$W") _who=waiting _st=waiting ;;
		"$S") _who=sleeping _st=sleeping ;;
		"$X") _who=expired _st=sleeping ;;
		esac
		_r=$(rec "$_f" "$_p")
		is "$(echo "$_r" | grep -c .)" 1 "$_name, $_who: one window record"
		if [ "$_p" = "$X" ]; then
			is "$(echo "$_r" | field verdict)/$(echo "$_r" | field abort_reason)" "1/0" \
				"$_name, $_who: stays over budget, no abort reason"
			is "$(grep -c " violation: pid=$_p " "$_f")" 1 "$_name, $_who: one violation record"
		else
			is "$(echo "$_r" | field verdict)/$(echo "$_r" | field abort_reason)" "3/$_why" \
				"$_name, $_who: aborted, reason $_why"
		fi
		is "$(echo "$_r" | field event)" 0 "$_name, $_who: ended by the model's abort event"
		dominant "$_r" $_st
		ok $? "$_name, $_who: $_st time dominant" || diag "$_r"
	done
}

# listing: the monitor file's lines, sorted
listing() { sort "$TLOB/monitor"; }
