# SPDX-License-Identifier: GPL-2.0
# Helpers of the in-guest benchmark scripts (busybox ash), sourced as
#   . /opt/tlob/bin/bench.sh
# Samples go to $DATA/samples as "TABLE VARIANT ROUND VALUE" lines;
# bench-stats.awk turns them into markdown tables of ratios. Tables are
# printed as TAP comments ("# | ..."), which tests/bench/results collects.

BIN=/opt/tlob/bin
MODS=/opt/tlob/modules
TRACE=/sys/kernel/tracing
TLOB_SYS=/sys/kernel/tlob

barg() { sed -n "s/.*\\<$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
ROUNDS=$(barg tlob.bench_rounds)
: "${ROUNDS:=10}"
# Loading the BPF backend costs tens of seconds of emulated CPU (verifier):
# benchmarks that reload it every round do so in the first BPF_ROUNDS only.
BPF_ROUNDS=$(barg tlob.bench_bpf_rounds)
: "${BPF_ROUNDS:=3}"
# Rounds of the costliest variants (thousands of parked tasks, reader
# streams): the first HEAVY_ROUNDS only.
HEAVY_ROUNDS=$(barg tlob.bench_heavy_rounds)
: "${HEAVY_ROUNDS:=3}"
MS=$(barg tlob.bench_ms)
: "${MS:=1000}"
# icount: the guest's clock counts instructions, one vCPU (cost
# benchmarks); wall: the usual lane, two vCPUs (tests/bench/bench.mk)
CLOCK=$(barg tlob.bench_clock)
: "${CLOCK:=wall}"
# The CPU the measured tasks are pinned to: the last one.
CPU=$(($(nproc) - 1))
DATA=/tmp/bench/$(basename "$0" .t)
rm -rf "$DATA"
mkdir -p "$DATA"

# sample TABLE VARIANT ROUND VALUE
sample() { echo "$1 $2 $3 $4" >>"$DATA/samples"; }

# ... | samples TABLE VARIANT ROUND: one sample per input line
samples() { awk -v p="$1 $2 $3" '{ print p, $1 }' >>"$DATA/samples"; }

# A line that shows how far a script got while it runs (not TAP, not a
# comment: neither prove nor the results file takes it).
progress() { echo "progress: $(cut -d' ' -f1 /proc/uptime)s $*"; }

# Print a file as TAP comments (the results file takes these lines).
show() { sed 's/^/# /' "$@"; }

# kv KEY < "a=1 KEY=2": the value of KEY= in a key=value line
kv() { sed -n "s/.*\\<$1=\\([^ ]*\\).*/\\1/p" | head -n 1; }

# ---- the module --------------------------------------------------------
mod_in() { insmod "$TLOB_KO" "$@"; }
mod_out() {
	[ -d "$TLOB_SYS" ] || return 0
	echo 0 >"$TLOB_SYS/enable" 2>/dev/null
	rmmod tlob
}
mod_enable() { echo 1 >"$TLOB_SYS/enable"; }
# mod_bind PROGRAM BUDGET_NS: bind bench_start..bench_stop of a bench program
mod_bind() {
	set -- "$1" "$2" $("$BIN/$1" -O)
	echo "p $BIN/$1:$3 $4 threshold=$2" >"$TLOB_SYS/monitor"
}
mod_open() { kv open <"$TLOB_SYS/pool"; }
# sess_bind FD PROGRAM BUDGET_NS: a /dev/tlob session on FD (opened by the
# caller: exec FD<>/dev/tlob) binds bench_start..bench_stop of PROGRAM
sess_bind() {
	set -- "$1" "$2" "$3" $("$BIN/$2" -O)
	eval "echo \"p $BIN/$2:$4 $5 threshold=$3\" >&$1"
}
# The module's floor: empty probes on the five scheduler tracepoints
# tlob.ko attaches (tests/modules/tlob_test_floor.c)
floor_in() { insmod "$MODS/tlob_test_floor.ko"; }
floor_out() { rmmod tlob_test_floor; }

# The BPF backend's floors (bench-bpffloor): bpf_floor_in sched (empty
# tp_btf programs on the tracepoints tlob.bpf.c and tlob_timer.bpf.c attach,
# and an empty program on the sampler's perf event where the backend samples)
# or bpf_floor_in uprobe BINARY (one empty uprobe program at BINARY's
# bench_start and bench_stop)
BFL_PID=
bpf_floor_in() {
	"$BIN/bench-bpffloor" "$@" >"$DATA/bpffloor.out" 2>&1 &
	BFL_PID=$!
	wait_for 300 "grep -q '^attached' $DATA/bpffloor.out || gone $BFL_PID" &&
		grep -q '^attached' "$DATA/bpffloor.out"
}
bpf_floor_out() {
	[ -n "$BFL_PID" ] || return 0
	stop_proc "$BFL_PID" TERM bench-bpffloor
	BFL_PID=
}

# The kernel's own uprobe consumer with no work, the module's start/stop
# floor: a tracefs uprobe pair at BINARY's bench_start and bench_stop,
# enabled in an instance whose buffer is off (the event is reserved in
# no buffer: the handler returns at once).
#   trace_floor_in BINARY; ...; trace_floor_out
TFL=$TRACE/instances/bench-floor
trace_floor_in() {
	set -- "$1" $("$1" -O)
	echo "p:bench_floor/start $1:$2" >>"$TRACE/uprobe_events" &&
		echo "p:bench_floor/stop $1:$3" >>"$TRACE/uprobe_events" &&
		mkdir -p "$TFL" && echo 0 >"$TFL/tracing_on" &&
		echo 1 >"$TFL/events/bench_floor/enable"
}
trace_floor_out() {
	[ -d "$TFL" ] || return 0
	echo 0 >"$TFL/events/bench_floor/enable"
	rmdir "$TFL"
	echo "-:bench_floor/start" >>"$TRACE/uprobe_events"
	echo "-:bench_floor/stop" >>"$TRACE/uprobe_events"
}

# targets FILE: one TAP check per target a table judged (bench-ratio.awk
# and bench-pct.awk with verdicts=FILE): PASS is ok, FAIL not ok (the
# script then exits non-zero), SKIP (not measured) a skip
targets() {
	[ -s "$1" ] || return 0
	while IFS='|' read -r _tv _tt; do
		case $_tv in
		PASS) ok 0 "target: $_tt" ;;
		FAIL) ok 1 "target: $_tt" ;;
		*) skip "target: $_tt" ;;
		esac
	done <"$1"
}

# ---- the BPF backend (through the tool, which holds the programs) ------
BPF_PID=
# bpf_mon ARGS...: tlob mon --backend bpf in the background, until
# bpf_stop; records (-j: JSON lines) in $DATA/bpf.out
# A reader's stderr is removed before the reader starts, everywhere here:
# the shell truncates it only in the child, after the fork, and a wait for
# "monitoring" that reads the previous reader's file first goes on at once
# (the windows made before the new reader's trace instance exists are then
# missed).
bpf_mon() {
	rm -f "$DATA/bpf.out" "$DATA/bpf.err"
	"$BIN/bench-sigdfl" tlob mon --backend bpf "$@" >"$DATA/bpf.out" 2>"$DATA/bpf.err" &
	BPF_PID=$!
	# The tool loads and attaches before it reads; give it time to be ready.
	# (the verifier takes minutes of emulated CPU on a loaded host)
	wait_for 600 "grep -q 'monitoring' $DATA/bpf.err"
}
bpf_stop() {
	[ -n "$BPF_PID" ] || return 0
	stop_proc "$BPF_PID" INT "tlob mon --backend bpf"
	BPF_PID=
}
# bpf_more N ARGS...: N more tlob mon --backend bpf sessions (ARGS each)
# on the one shared monitor, until bpf_more_stop
BPF_MORE=
bpf_more() {
	_n=$1
	shift
	_i=1
	while [ $_i -le "$_n" ]; do
		rm -f "$DATA/bpf-more$_i.out" "$DATA/bpf-more$_i.err"
		"$BIN/bench-sigdfl" tlob mon --backend bpf "$@" >"$DATA/bpf-more$_i.out" \
			2>"$DATA/bpf-more$_i.err" &
		BPF_MORE="$BPF_MORE $!"
		wait_for 600 "grep -q 'monitoring' $DATA/bpf-more$_i.err" || return 1
		_i=$((_i + 1))
	done
}
bpf_more_stop() {
	for _p in $BPF_MORE; do
		stop_proc "$_p" INT "tlob mon --backend bpf (another session)"
	done
	BPF_MORE=
}
have_bpf() { tlob list 2>/dev/null | awk '$1 == "bpf" && $2 == "yes" { f = 1 } END { exit !f }'; }

# wait_for SECONDS 'shell condition': poll every 0.1 s, at most SECONDS
# of the guest's clock
uptime_s() { cut -d. -f1 /proc/uptime; }
wait_for() {
	_end=$(($(uptime_s) + $1))
	while [ "$(uptime_s)" -lt $_end ]; do
		eval "$2" && return 0
		sleep 0.1
	done
	eval "$2"
}

# gone PID: the process has exited (a zombie not yet waited for counts)
gone() { ! [ -r "/proc/$1/stat" ] || grep -q ') Z ' "/proc/$1/stat" 2>/dev/null; }

# stop_proc PID SIGNAL WHAT: signal, give it 30 s to end, then SIGKILL.
# Background commands of a script start with SIGINT ignored: start what is
# to be stopped with SIGINT through bench-sigdfl.
stop_proc() {
	kill "-$2" "$1" 2>/dev/null
	if ! wait_for 30 "gone $1"; then
		echo "# $3 ignored SIG$2 for 30 s: killed"
		kill -KILL "$1" 2>/dev/null
	fi
	wait "$1" 2>/dev/null
}

# ---- parked windows ----------------------------------------------------
PARK_PID=
# park_start N [bench-park options]: N threads of bench-park sleep inside
# their windows (CPU 0; options come after, e.g. -c -1 -b US: busy windows
# on any CPU)
park_start() {
	_pn=$1
	shift
	"$BIN/bench-park" -n "$_pn" -c 0 "$@" >"$DATA/park.out" 2>&1 &
	PARK_PID=$!
	wait_for 120 "grep -q ready $DATA/park.out"
}
park_stop() {
	[ -n "$PARK_PID" ] || return 0
	stop_proc "$PARK_PID" TERM bench-park
	PARK_PID=
}

# pingpong PAIRS [-w]: the context-switch rate of PAIRS thread pairs (-T:
# process pairs swing between two rates under emulation), pinned to $CPU
pingpong() {
	_p=$1
	shift
	"$BIN/bench-pingpong" -T -p "$_p" -t "$MS" -c "$CPU" "$@" | kv switches_per_s
}

# cputicks PID: utime+stime of a process, in clock ticks
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# ---- bpftrace ----------------------------------------------------------
BT_PID=
# bt_start 'PROGRAM': bpftrace in the background, output in $DATA/bt.out
bt_start() {
	# -B line: a bpftrace that has to be killed leaves its lines behind
	"$BIN/bench-sigdfl" bpftrace -B line -e "$1" >"$DATA/bt.out" 2>&1 &
	BT_PID=$!
	wait_for 300 "grep -q Attaching $DATA/bt.out"
}
bt_stop() {
	[ -n "$BT_PID" ] || return 0
	stop_proc "$BT_PID" INT bpftrace
	BT_PID=
}
# bt_stopcheck PROGRAM BUDGET_NS: what a user writes instead of a monitor,
# a uprobe pair that checks the elapsed time at STOP; prints "late NS"
# (STOP time minus deadline) for every window over budget
bt_stopcheck() {
	echo "uprobe:$1:bench_start { @s[tid] = nsecs; }
uprobe:$1:bench_stop /@s[tid]/ {
	\$late = (int64)(nsecs - @s[tid]) - $2;
	if (\$late > 0) { printf(\"late %lld\\n\", \$late); }
	delete(@s[tid]);
}"
}

# ---- a SCHED_FIFO hog --------------------------------------------------
HOG_PID=
# hog_start CPU [bench-hog options]
hog_start() {
	_c=$1
	shift
	"$BIN/bench-hog" -c "$_c" "$@" &
	HOG_PID=$!
	sleep 0.2
}
# Always before probes go away: unregistering may wait in synchronize_srcu
# while the hog monopolises the CPU.
hog_stop() {
	[ -n "$HOG_PID" ] || return 0
	kill -KILL "$HOG_PID"
	wait "$HOG_PID" 2>/dev/null
	HOG_PID=
}
