#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt newest debug
#   the module's supervision: 6.1 under both preemption models, and 7.x
#   (hrtimer_setup(), the 7.x uprobe API under its timers)
# Logical supervision in tlob.ko (`l` lines, a user's automaton; the line's
# contract: kernel/shared/README.md, "the monitor line", its parser
# kernel/shared/tlob_parse.c, and docs/guide.md, "Logical supervision"):
# tlob-flow's events (flow_init, frame_begin,
# frame_end, flow_shutdown) against the model
#   idle -init-> ready -begin-> busy -end-> ready -shutdown-> done (final).
# Each scenario must report or must not: a legal flow reports no ORDER and
# its exit in the final state is one OK record; an illegal order is one
# ORDER record naming the state and the event, and ends the instance; an
# exit or exec mid-flow is INCOMPLETE (exit, exec), an exec in the final
# state OK (exec); per task, three threads are three instances, per
# process one; tolerance=2/3 holds back the first reaction; the signal
# reactor reaches the process; unbind and disable end a live instance
# (ABORTED); a pool of 2 drops the third task's events and counts them;
# the stats line counts what the records say; the listing is canonical
# and writes back; the table checks refuse malformed tables with their
# errno; a clock's guard makes an end too early or too late TIMING, and
# an invariant's timer makes a state held too long TIMING with no event
# (cancelled with the instance at unbind); a model's events in two files
# (an application and its library, file1=) are one automaton; rmmod with a
# live instance, its timer armed, leaves no splat.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

# --- What the kernel side names things: adjust here, in one place -------
# The trace event (tlob:<LOGIC_EVENT>): the record's fields by their names
# in struct tlob_logic_record, plus the names as strings.
LOGIC_EVENT=logic
# lkey KEY: the trace event's field for KEY (verdict state event react
# abort_reason pid tgid binding_id events start_ns end_ns comm tag, and the
# names: model state_name event_name)
lkey() { echo "$1"; }
# How the trace event prints the name of "no event" (INCOMPLETE, OK,
# ABORTED records): "" (an empty string) or "-" as tag= does.
NO_EVENT_NAME_RE='^-\{0,1\}$'
# The stats line of a logical binding: "id=N kind=logic path=P ..." with
# instances= events= completed= order= incomplete= tolerated= aborted=
# dropped=; skey KEY: its key for KEY.
skey() { echo "$1"; }
# lid: the id of the (one) logical binding's stats line
lid() { grep " kind=logic " "$TLOB/stats" | head -n 1 | sed -n 's/^id=\([0-9]*\) .*/\1/p'; }
lstat() { stat_of "$1" "$(skey "$2")"; }
# lpool KEY (size used peak): the pool file's logic_KEY=
lpool() { pool "logic_$1"; }
# The module parameter sizing the instance pool.
POOL_PARAM=logic_instances
# canon EXTRA: the canonical listing of the flow model's `l` line with
# EXTRA (the optional keys as the kernel lists them): keys in the
# contract's order, offsets 0x%llx, initial= and per= always written.
canon() {
	echo "l $FLOW model=flow states=idle,ready,busy,done events=init@$I,begin@$B,end@$E,shutdown@$S edges=0.0.1,1.1.2,1.3.3,2.2.1 final=3 initial=0 per=${1:-process}${2:+ $2}"
}
# ------------------------------------------------------------------------

FLOW=/opt/tlob/bin/tlob-flow
FOFFS=/opt/tlob/bin/tlob-flow.offsets
# foff SYMBOL: a tlob-flow function's ELF file offset, 0x%x (from the build)
foff() { awk -v s="$1" '$1 == s { print $2 }' "$FOFFS"; }
I=$(foff flow_init)
B=$(foff frame_begin)
E=$(foff frame_end)
S=$(foff flow_shutdown)
X=$(foff flow_idle)
[ -n "$I" ] && [ -n "$B" ] && [ -n "$E" ] && [ -n "$S" ] && [ -n "$X" ] ||
	bail_out "no offsets in $FOFFS"

# verdicts and abort reasons (tlob_abi.h)
OK=0 ABORTED=3 ORDER=7 INCOMPLETE=8 TIMING=9
A_NONE=0 A_EXIT=1 A_EXEC=2 A_UNBIND=3 A_DISABLE=4
NONE=255

STATES="states=idle,ready,busy,done"
EVENTS="events=init@$I,begin@$B,end@$E,shutdown@$S"
EDGES="edges=0.0.1,1.1.2,1.3.3,2.2.1"
TABLE="model=flow $STATES $EVENTS $EDGES final=3"

# logic [KEY=VALUE...]: bind the flow model; unlogic: remove it
logic() { monitor "l $FLOW $TABLE $*"; }
unlogic() { monitor "-$FLOW:$I"; }

d0=$(dmesg | wc -l)
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
ALL=/tmp/logic-all
: >$ALL

# run ARGS: tlob-flow ARGS (PROG=... another program) with the trace on;
# fpid = its pid; its records are appended to $ALL (the stats check at the
# end of the first binding)
run() {
	trace_start $LOGIC_EVENT
	${PROG:-$FLOW} "$@" >/tmp/flow.out &
	fpid=$!
	wait $fpid
	trace_stop
	recs >>$ALL
}
recs() { events $LOGIC_EVENT; }
# rf KEY: KEY of every record on stdin
rf() { field "$(lkey "$1")"; }
# one KEY...: KEY of the first record, space separated
one() {
	_r=$(recs | head -n 1)
	_o=
	for _k in "$@"; do _o="$_o${_o:+ }$(echo "$_r" | rf "$_k")"; done
	echo "$_o"
}
nrec() { recs | wc -l | tr -d ' '; }
nverdict() { recs | rf verdict | grep -c "^$1\$"; }
# until the pool has N instances in use (10 s of uptime at most)
wait_used() {
	_t0=$(cut -d. -f1 /proc/uptime)
	while [ "$(lpool used)" -lt "$1" ]; do
		[ $(($(cut -d. -f1 /proc/uptime) - _t0)) -lt 10 ] || return 1
		sleep 0.1
	done
}

# --- a legal flow: no ORDER; the exit in `done` (final) is one OK record
logic || bail_out "cannot bind the flow model ($(errno_of "l $FLOW $TABLE"))"
id=$(lid)
cmp_ok "${id:-0}" -gt 0 "the binding has a kind=logic stats line (id $id)"
run -n 3 legal
is "$(nverdict $ORDER)" "0" "legal: no ORDER"
is "$(nrec)" "1" "legal: one record, the instance's end"
is "$(one verdict abort_reason)" "$OK $A_EXIT" "legal: the exit in the final state is OK (exit)"
is "$(one state state_name)" "3 done" "legal: ... in state 3, done"
is "$(one event)" "$NONE" "legal: ... with no event"
one event_name | grep -q "$NO_EVENT_NAME_RE"
ok $? "legal: ... and no event name ($(one event_name))"
is "$(one events)" "8" "legal: init, 3 frames and shutdown: 8 events allowed"
is "$(one pid) $(one tgid)" "$fpid $fpid" "legal: per process, the instance is the process"
is "$(one binding_id)" "$id" "legal: the record names the binding"
is "$(one comm)" "tlob-flow" "legal: comm"
is "$(one model)" "flow" "legal: the model's name"
is "$(one react)" "0" "legal: nothing to react to"
s=$(one start_ns) e=$(one end_ns)
cmp_ok "${e:-0}" -gt "${s:-0}" "legal: the instance's first event comes before its end"
is "$(lstat $id instances) $(lstat $id events) $(lstat $id completed)" "1 8 1" \
	"legal: stats: one instance, 8 events, completed"
is "$(lstat $id order) $(lstat $id incomplete)" "0 0" "legal: stats: no violation"
grep -q "^flow=legal events=8 " /tmp/flow.out
ok $? "legal: the program made its 8 calls ($(cat /tmp/flow.out))"

# --- illegal orders: one ORDER each, naming the state and the event
run end-first
is "$(nrec)" "1" "end first: one record (the violation ends the instance)"
is "$(one verdict state event)" "$ORDER 1 2" "end first: ORDER in state 1 on event 2"
is "$(one state_name event_name)" "ready end" "end first: ... named ready and end"
is "$(one events abort_reason react)" "1 $A_NONE 1" \
	"end first: after 1 allowed event, no abort reason, reacted to (tolerance 1/1)"
is "$(one pid)" "$fpid" "end first: the process's record"
run begin-twice
is "$(nrec)" "1" "begin twice: one record"
is "$(one verdict state_name event_name events)" "$ORDER busy begin 2" \
	"begin twice: ORDER in busy on begin, after 2 events"
run no-init
is "$(nrec) $(one verdict state_name event_name events)" "1 $ORDER idle begin 0" \
	"skipping init: ORDER in idle on begin, no event allowed"
# after a violation, the next event begins a new instance in `initial`
run -r 2 end-first
is "$(recs | rf verdict | tr '\n' ' ')" "$ORDER $ORDER " \
	"end first twice: two ORDERs (a new instance after the first)"
is "$(recs | rf state_name | sort -u) $(recs | rf event_name | sort -u)" "ready end" \
	"... both in ready on end: the second instance began in idle (its init allowed)"
is "$(lstat $id order)" "5" "stats: 5 ORDER violations"

# --- exit and exec mid-flow: INCOMPLETE; exec in the final state: OK
run exit-mid
is "$(nrec)" "1" "exit mid-flow: one record"
is "$(one verdict state_name abort_reason)" "$INCOMPLETE busy $A_EXIT" \
	"exit mid-flow: INCOMPLETE in busy (exit)"
is "$(one event events react)" "$NONE 2 1" "exit mid-flow: no event, 2 allowed, reacted to"
run -n 2 noshut
is "$(nrec) $(one verdict state_name abort_reason events)" "1 $INCOMPLETE ready $A_EXIT 5" \
	"no shutdown: the exit in ready (not final) is INCOMPLETE (exit), 5 events"
run exec-mid
is "$(nrec)" "1" "exec mid-flow: one record (the new image makes no event)"
is "$(one verdict state_name abort_reason)" "$INCOMPLETE busy $A_EXEC" \
	"exec mid-flow: INCOMPLETE in busy (exec)"
is "$(one pid)" "$fpid" "exec mid-flow: the process's record"
run -n 1 exec-done
is "$(nrec) $(one verdict state_name abort_reason events)" "1 $OK done $A_EXEC 4" \
	"exec in the final state: OK (exec), 4 events"

# --- the stats line counts what the records say (this binding, all of the above)
cnt() { rf verdict <$ALL | grep -c "^$1\$"; }
n=$(grep -c . $ALL)
is "$(lstat $id instances)" "$n" "stats: instances = records, one per instance ($n)"
is "$(lstat $id events)" "$(rf events <$ALL | awk '{ s += $1 } END { print s + 0 }')" \
	"stats: events = the records' allowed events"
is "$(lstat $id completed)" "$(cnt $OK)" "stats: completed = OK records"
is "$(lstat $id order)" "$(cnt $ORDER)" "stats: order = ORDER records"
is "$(lstat $id incomplete)" "$(cnt $INCOMPLETE)" "stats: incomplete = INCOMPLETE records"
is "$(lstat $id tolerated) $(lstat $id aborted) $(lstat $id dropped)" "0 0 0" \
	"stats: nothing tolerated, aborted or dropped"
is "$(lpool used)" "0" "pool: no instance left in use"
cmp_ok "$(lpool peak)" -ge 1 "pool: the peak saw the instances ($(lpool peak) of $(lpool size))"
unlogic || bail_out "cannot remove the binding"

# --- per task: three threads, three instances; per process: one
logic per=task || bail_out "cannot bind per task"
id=$(lid)
run -n 2 threads 3
is "$(recs | rf verdict | sort -u) $(nrec)" "$OK 3" "3 threads per task: three OK records"
is "$(recs | rf pid | sort -u | wc -l | tr -d ' ')" "3" "3 threads per task: three instances"
is "$(recs | rf tgid | sort -u)" "$fpid" "3 threads per task: of one process"
is "$(recs | rf pid | grep -c "^$fpid\$")" "0" "3 threads per task: the instances are the threads"
is "$(recs | rf events | sort -u)" "6" "3 threads per task: 6 events each"
is "$(lstat $id instances) $(lstat $id completed)" "3 3" "3 threads per task: stats count 3 instances"
grep "^l " $TLOB/monitor | grep -q " per=task"
ok $? "per=task is listed"
unlogic
logic per=process || bail_out "cannot bind per process"
id=$(lid)
run -n 2 shared 3
is "$(nrec) $(one verdict pid events)" "1 $OK $fpid 14" \
	"3 threads per process: one instance (the tgid), OK after 14 events"
is "$(lstat $id instances)" "1" "3 threads per process: stats count one instance"
run -n 2 threads 3
cmp_ok "$(nverdict $ORDER)" -ge 1 "3 flows in one process: a second init is out of order ($(nverdict $ORDER) ORDER)"
is "$(recs | rf pid | sort -u)" "$fpid" "3 flows in one process: every record is the process's"
unlogic

# --- tolerance=2/3: the record always, the reaction from the second
logic tolerance=2/3 || bail_out "cannot bind with tolerance"
id=$(lid)
run -r 2 end-first
is "$(recs | rf react | tr '\n' ' ')" "0 1 " \
	"tolerance 2/3: the first ORDER held back, the second reacted to"
is "$(lstat $id tolerated) $(lstat $id order)" "1 2" "tolerance 2/3: stats: 1 tolerated of 2"
unlogic

# --- the signal reactor reaches the process that broke the order
logic || bail_out "cannot bind"
echo signal >$TLOB/reactors
run -t 100 end-first
echo nop >$TLOB/reactors
sig=$(sed -n 's/.*sigxcpu=\([0-9]*\).*/\1/p' /tmp/flow.out)
cmp_ok "${sig:-0}" -ge 1 "signal reactor: the process got SIGXCPU ($sig)"
run -t 100 legal
is "$(sed -n 's/.*sigxcpu=\([0-9]*\).*/\1/p' /tmp/flow.out)" "0" "... and none for a legal flow"

# --- unbind, then disable, while an instance is live: ABORTED
trace_start $LOGIC_EVENT
$FLOW hold 2 >/dev/null &
fpid=$!
wait_used 1
ok $? "unbind: an instance is live ($(lpool used) in use)"
unlogic
ok $? "unbind while a process is supervised"
wait $fpid
trace_stop
is "$(nrec) $(one verdict abort_reason state_name)" "1 $ABORTED $A_UNBIND busy" \
	"unbind: the instance ends ABORTED (unbind) in busy; the events after make nothing"
is "$(lpool used)" "0" "unbind: the instance is freed"
logic || bail_out "cannot bind"
trace_start $LOGIC_EVENT
$FLOW hold 2 >/dev/null &
fpid=$!
wait_used 1
echo 0 >$TLOB/enable
trace_stop
wait $fpid
is "$(nrec) $(one verdict abort_reason)" "1 $ABORTED $A_DISABLE" "disable: the instance ends ABORTED (disable)"
echo 1 >$TLOB/enable
unlogic

# --- the listing is the canonical line, and it binds again
logic tag=fl tolerance=3/5 per=task || bail_out "cannot bind with options"
line=$(grep "^l " $TLOB/monitor)
is "$line" "$(canon task "tolerance=3/5 tag=fl")" "the listing is the canonical line"
unlogic
is "$(errno_of "$line")" "ok" "the listed line binds again"
is "$(grep "^l " $TLOB/monitor)" "$line" "... and lists the same"
is "$(errno_of "$line")" "File exists" "the same PATH and first event again is EEXIST"
is "$(errno_of "l $FLOW model=other states=a,b events=x@$I,y@$S edges=0.0.1,1.1.0 final=0")" \
	"File exists" "... whatever the model"
is "$(errno_of "p $FLOW:$I $E threshold=1000000")" "File exists" "... a p line on it too"
is "$(errno_of "-$FLOW:$B")" "No such file or directory" "removal by another event's offset is ENOENT"
is "$(errno_of "-$FLOW:$I")" "ok" "removal by event 0's offset"
is "$(errno_of "l $FLOW model=flow $STATES events=init@$((I)),begin@$((B)),end@$((E)),shutdown@$((S)) $EDGES final=3")" \
	"ok" "decimal offsets are taken"
is "$(grep "^l " $TLOB/monitor)" "$(canon)" "... and listed 0x, with initial= and per= written"
unlogic
is "$(cat $TLOB/monitor)" "" "nothing listed"

# --- events in two files: tlob-flow-split calls frame_begin and frame_end
# in its library (libtlob-flow.so, the line's file1=), flow_init and
# flow_shutdown in itself
SPLIT=/opt/tlob/bin/tlob-flow-split
LIB=/opt/tlob/bin/libtlob-flow.so
soff() { awk -v s="$1" '$1 == s { print $2 }' "$2"; }
SI=$(soff flow_init $SPLIT.offsets) SS=$(soff flow_shutdown $SPLIT.offsets)
LB=$(soff frame_begin /opt/tlob/bin/libtlob-flow.offsets)
LE=$(soff frame_end /opt/tlob/bin/libtlob-flow.offsets)
SEVENTS="events=init@$SI,begin@1:$LB,end@1:$LE,shutdown@$SS"
is "$(errno_of "l $SPLIT model=flow $STATES $SEVENTS $EDGES final=3 file1=$LIB")" "ok" \
	"two files: the application's and its library's events bind"
is "$(grep "^l " $TLOB/monitor)" \
	"l $SPLIT model=flow $STATES $SEVENTS $EDGES final=3 initial=0 file1=$LIB per=process" \
	"two files: the listing names the library (file1=) and its events (1:)"
line=$(grep "^l " $TLOB/monitor)
PROG=$SPLIT run -n 3 legal
is "$(nrec) $(one verdict state_name abort_reason events)" "1 $OK done $A_EXIT 8" \
	"two files: a legal flow is one OK in done at the exit, 8 events (6 in the library)"
is "$(one comm) $(one pid)" "tlob-flow-split $fpid" "two files: ... the process's record"
PROG=$SPLIT run end-first
is "$(nrec) $(one verdict state_name event_name)" "1 $ORDER ready end" \
	"two files: the library's end first is ORDER in ready on end"
run -n 3 legal
is "$(nrec)" "0" "two files: tlob-flow (its own frame functions, another file) reports nothing"
monitor "-$SPLIT:$SI"
is "$(errno_of "$line")" "ok" "two files: the listed line binds again"
monitor "-$SPLIT:$SI"
is "$(errno_of "l $SPLIT model=flow $STATES $SEVENTS $EDGES final=3 file1=/opt/tlob/bin/nosuch.so")" \
	"No such file or directory" "two files: a file1= that does not exist is ENOENT"
is "$(errno_of "l $SPLIT model=flow $STATES $SEVENTS $EDGES final=3 file1=/opt/tlob/bin")" \
	"Invalid argument" "two files: a file1= that is a directory is EINVAL"
is "$(errno_of "l $SPLIT model=flow $STATES events=init@$SI,begin@1:$LB,end@1:0x7fffffff,shutdown@$SS $EDGES final=3 file1=$LIB")" \
	"Invalid argument" "two files: an offset past the library's end is EINVAL (checked in its own file)"
ln -sf $SPLIT /tmp/split-link
is "$(errno_of "l $SPLIT model=flow $STATES $SEVENTS $EDGES final=3 file1=/tmp/split-link")" \
	"Invalid argument" "two files: a file1= that is PATH's file under another name (a link) is EINVAL"
is "$(errno_of "l $SPLIT model=flow $STATES $SEVENTS $EDGES final=3")" \
	"Invalid argument" "two files: events in file 1 with no file1= is EINVAL"
is "$(errno_of "l $SPLIT model=flow $STATES $EVENTS $EDGES final=3 file1=$LIB")" \
	"Invalid argument" "two files: a file1= no event lies in is EINVAL"
is "$(cat $TLOB/monitor)" "" "two files: the refused lines bound nothing"

# --- the table checks: malformed tables refused with their errno. The
# monitor is off: the accepted tables of 32 states and 16 events put
# probes on offsets inside functions, which only enabling would register.
echo 0 >$TLOB/enable
einval() { is "$(errno_of "l $FLOW $1")" "Invalid argument" "EINVAL: $2"; }
einval "model=flow $STATES $EVENTS edges=0.0.1,0.0.2,1.1.2,1.3.3,2.2.1 final=3" \
	"nondeterministic: init twice from idle, to two states"
einval "model=flow $STATES $EVENTS edges=0.0.1,0.0.1,1.1.2,1.3.3,2.2.1 final=3" \
	"nondeterministic: the same edge twice"
einval "model=flow states=idle,ready,busy,done,orphan $EVENTS $EDGES,4.0.0 final=3" \
	"a state unreachable from initial"
einval "model=flow $STATES $EVENTS,idle@$X $EDGES final=3" "an event on no edge"
einval "model=flow $STATES $EVENTS edges=0.0.1,1.1.2,1.3.3,2.2.4 final=3" "a state index out of range"
einval "model=flow $STATES $EVENTS edges=0.0.1,1.1.2,1.3.3,2.2.1,3.4.0 final=3" "an event index out of range"
einval "model=flow $STATES $EVENTS $EDGES final=4" "a final index out of range"
einval "model=flow states=idle,re-ady,busy,done $EVENTS $EDGES final=3" "a bad state name (re-ady)"
einval "model=flow states=idle,1ready,busy,done $EVENTS $EDGES final=3" "a state name beginning with a digit"
einval "model=flow states=idle,idle,busy,done $EVENTS $EDGES final=3" "two states of one name"
einval "model=flow $STATES events=init@$I,begin@$B,init@$E,shutdown@$S $EDGES final=3" "two events of one name"
einval "model=fl.ow $STATES $EVENTS $EDGES final=3" "a bad model name"
einval "model=abcdefghijklmnopqrstuvwx $STATES $EVENTS $EDGES final=3" "a 24-character model name"
einval "model=flow $STATES $EVENTS $EDGES final=3 initial=4" "initial out of range"
einval "model=flow $STATES $EVENTS $EDGES final=" "final= empty"
einval "model=flow $STATES $EVENTS $EDGES" "no final="
einval "model=flow $STATES $EVENTS $EDGES final=3,3" "a final state twice"
einval "$STATES $EVENTS $EDGES final=3" "no model="
einval "model=flow $STATES events=init@$I,begin@$I,end@$E,shutdown@$S $EDGES final=3" \
	"two events at one offset"
einval "model=flow $STATES $EVENTS $EDGES final=3 foo=bar" "an unknown key"
einval "model=flow $STATES $EVENTS $EDGES final=3 threshold=1000000" "a key of the p line"
einval "model=flow $STATES $EVENTS $EDGES final=3 per=task per=task" "a repeated key (per=)"
einval "model=flow $STATES $EVENTS $EDGES $EDGES final=3" "a repeated key (edges=)"
einval "model=flow $STATES $EVENTS edges=0.0.1,1.1.2,1.3.3,2.2.1, final=3" "an edge list with a trailing comma"
einval "model=flow $STATES $EVENTS edges=0.0.1;1.1.2;1.3.3;2.2.1 final=3" "edges separated by ;"
einval "model=flow $STATES $EVENTS edges=0.0,1.1.2,1.3.3,2.2.1 final=3" "an edge of two indices"
einval "model=flow $STATES $EVENTS $EDGES final=3 clock=c inv=4.1000" "an invariant on a state out of range"
einval "model=flow $STATES $EVENTS $EDGES final=3 inv=2.1000" "an invariant and no clock="
einval "model=flow $STATES $EVENTS $EDGES final=3 clock=c inv=2.0" "an invariant of 0 ns"
einval "model=flow $STATES events=init,begin@$B,end@$E,shutdown@$S $EDGES final=3" "an event without its offset"
is "$(errno_of "l $FLOW:$I $TABLE")" "No such file or directory" "PATH:OFFSET: no such file (an l line takes no :OFFSET)"
# 33 states (a chain on one event) and 17 events (each from state 0 to 1)
st='' ed=''
for i in $(seq 0 32); do
	st="$st${st:+,}s$i"
	[ "$i" -lt 32 ] && ed="$ed${ed:+,}$i.0.$((i + 1))"
done
is "$(errno_of "l $FLOW model=big states=$st events=go@$I edges=$ed final=32")" \
	"Numerical result out of range" "ERANGE: 33 states"
st32=${st%,s32}
ed31=${ed%,31.0.32}
is "$(errno_of "l $FLOW model=big states=$st32 events=go@$I edges=$ed31 final=31")" "ok" \
	"... 32 states are taken"
monitor "-$FLOW:$I"
ev='' ed=''
for i in $(seq 0 16); do
	ev="$ev${ev:+,}e$i@$((I + i))"
	ed="$ed${ed:+,}0.$i.1"
done
is "$(errno_of "l $FLOW model=wide states=a,b events=$ev edges=$ed final=1")" \
	"Numerical result out of range" "ERANGE: 17 events"
is "$(errno_of "l $FLOW model=wide states=a,b events=${ev%,e16@*} edges=${ed%,0.16.1} final=1")" "ok" \
	"... 16 events are taken"
monitor "-$FLOW:$I"
is "$(cat $TLOB/monitor)" "" "the refused lines bound nothing"
echo 1 >$TLOB/enable

# --- a clock: begin starts it, and end is taken only at 40 ms .. 400 ms
#     of it (busy -end-> ready, clk >= 40ms && clk < 400ms); an end too
#     early or too late is TIMING, naming busy and end and the clock's
#     reading, and ends the instance (the shutdown after it begins a new
#     one in idle: ORDER)
TTABLE="model=flow $STATES $EVENTS edges=0.0.1,1.1.2.r,1.3.3,2.2.1.g40000000-400000000 final=3 clock=clk"
monitor "l $FLOW $TTABLE" || bail_out "cannot bind the timed flow model ($(errno_of "l $FLOW $TTABLE"))"
id=$(lid)
is "$(grep "^l $FLOW " $TLOB/monitor)" \
	"l $FLOW model=flow $STATES $EVENTS edges=0.0.1,1.1.2.r,1.3.3,2.2.1.g40000000-400000000 final=3 initial=0 clock=clk per=process" \
	"clock: the listing carries the reset, the guard and clock="
run -n 2 -s 100 legal
is "$(nverdict $TIMING) $(one verdict)" "0 $OK" "clock: frames of 100 ms: no TIMING, the exit OK"
run -n 1 -s 5 legal
is "$(one verdict state_name event_name)" "$TIMING busy end" "clock: an end 5 ms after its begin is TIMING in busy, at end"
c=$(one clock_ns)
cmp_ok "${c:-0}" -ge 5000000 "clock: ... the record's clock is at least the 5 ms slept ($c ns)"
cmp_ok "${c:-0}" -lt 40000000 "clock: ... and below the guard's 40 ms"
is "$(nverdict $ORDER)" "1" "clock: ... the instance ended: shutdown begins a new one in idle, ORDER"
run -n 1 -s 600 legal
is "$(one verdict state_name event_name)" "$TIMING busy end" "clock: an end 600 ms after its begin is TIMING too"
c=$(one clock_ns)
cmp_ok "${c:-0}" -ge 400000000 "clock: ... its clock at or past the guard's 400 ms ($c ns)"
is "$(lstat $id timing) $(lstat $id order) $(lstat $id completed)" "2 2 1" \
	"clock: stats: 2 TIMING, the 2 ORDERs after them, the one legal run completed"
unlogic

# --- an invariant: busy may be held while clk < 200 ms (begin resets
#     it). The instance's timer reports a frame that does not end in
#     time at 200 ms, TIMING in busy with no event, and ends the
#     instance: the end that comes at 1 s begins a new one in idle
#     (ORDER), and so does the shutdown after it
ITABLE="model=flow $STATES $EVENTS edges=0.0.1,1.1.2.r,1.3.3,2.2.1 final=3 clock=clk inv=2.200000000"
monitor "l $FLOW $ITABLE" || bail_out "cannot bind the flow model with an invariant ($(errno_of "l $FLOW $ITABLE"))"
id=$(lid)
is "$(grep "^l $FLOW " $TLOB/monitor)" \
	"l $FLOW model=flow $STATES $EVENTS edges=0.0.1,1.1.2.r,1.3.3,2.2.1 final=3 initial=0 clock=clk inv=2.200000000 per=process" \
	"invariant: the listing carries inv="
run -n 2 -s 50 legal
is "$(nverdict $TIMING) $(one verdict)" "0 $OK" "invariant: frames of 50 ms: no TIMING, the exit OK"
run hold 1
is "$(one verdict state_name event)" "$TIMING busy $NONE" \
	"invariant: a frame held 1 s is TIMING in busy, no event"
c=$(one clock_ns)
cmp_ok "${c:-0}" -ge 200000000 "invariant: ... its clock at or past the 200 ms bound ($c ns)"
cmp_ok "${c:-0}" -lt 1000000000 "invariant: ... and below the 1 s the frame lasted: the timer saw it, not the end"
is "$(recs | rf verdict | tr '\n' ' ')" "$TIMING $ORDER $ORDER " \
	"invariant: ... the instance ended: the end and the shutdown each begin one in idle (ORDER)"
is "$(lstat $id timing) $(lstat $id order) $(lstat $id completed)" "1 2 1" \
	"invariant: stats: 1 TIMING, 2 ORDERs, the legal run completed"
unlogic
# an unbind while the timer is armed (busy may be held 1.5 s, the frame
# holds it 2 s) ends the instance ABORTED, and no TIMING comes after
LTABLE="${ITABLE%.200000000}.1500000000"
monitor "l $FLOW $LTABLE" || bail_out "cannot bind the flow model with a 1.5 s invariant"
$FLOW hold 2 >/dev/null &
fpid=$!
wait_used 1
ok $? "invariant: an instance is in busy, its timer armed"
trace_start $LOGIC_EVENT
unlogic
wait $fpid
trace_stop
is "$(recs | rf verdict | tr '\n' ' ')" "$ABORTED " "invariant: unbind: one ABORTED record, no TIMING after it"

# --- no free instance: the third task's events are dropped, counted
kmod_load $POOL_PARAM=2 || bail_out "insmod $POOL_PARAM=2 failed"
echo 1 >$TLOB/enable
logic per=task || bail_out "cannot bind"
id=$(lid)
is "$(lpool size)" "2" "pool: $POOL_PARAM=2 is logic_size=2"
run -n 2 -s 20 threads 3
cmp_ok "$(lstat $id dropped)" -ge 1 "2 instances for 3 overlapping tasks: the third's events counted dropped ($(lstat $id dropped))"
is "$(lstat $id instances) $(nverdict $OK) $(nrec)" "2 2 2" "... two instances, each ended OK, no other record"
is "$(lpool peak) $(lpool used)" "2 0" "... the peak is the pool, none left in use"
unlogic

# --- rmmod while an instance is live, its invariant's timer armed: no splat
monitor "l $FLOW $LTABLE" || bail_out "cannot bind"
$FLOW hold 2 >/dev/null &
fpid=$!
wait_used 1
ok $? "rmmod: an instance is live"
kmod_unload
ok $? "rmmod while a process is supervised"
wait $fpid
ok $? "the supervised process was not hurt"
dmesg | tail -n +$((d0 + 1)) | grep -E "BUG|WARNING|Oops|lockdep|KASAN|kmemleak" >/tmp/logic-dmesg
is "$(wc -l </tmp/logic-dmesg | tr -d ' ')" "0" "no splat in dmesg" || diag "$(head -n 5 /tmp/logic-dmesg)"

done_testing
