#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug dkms
#   the kernel contract: what it checks depends on the kernel
# A violation's diagnosis through tracefs only, as a trace-cmd user sees
# it (no tlob tool): tlob:violation_detail names where the code was, who
# took the CPU and who woke the task, once per violation.
# tlob-diag's windows overrun for a known reason: spinning in
# diag_spin_leaf() called by diag_spin_caller(), waiting behind a
# SCHED_FIFO thread "diag-hog" on the task's CPU, sleeping in a pipe
# read() until "diag-writer" writes; and a snapshot trigger on
# tlob:violation freezes an instance's buffer at the deadline.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

DIAG=/opt/tlob/bin/tlob-diag
DOFFS=/opt/tlob/bin/tlob-diag.offsets
MS=1000000
EVENTS="violation violation_detail window"

doff() { awk -v s="$1" '$1 == s { print $2 }' "$DOFFS"; }

# le FILE OFF LEN: the little-endian number of LEN bytes at OFF in FILE
le() {
	od -A n -t x1 -j "$2" -N "$3" "$1" |
		awk '{ for (i = 1; i <= NF; i++) b[n++] = $i } END { s = ""; for (i = n - 1; i >= 0; i--) s = s b[i]; print s }'
}

# text_delta FILE: virtual address minus file offset of the executable
# PT_LOAD segment of a non-PIE ELF64 (its IPs are virtual addresses, the
# offsets file has file offsets)
text_delta() {
	_phoff=$((0x$(le "$1" 32 8)))
	_phsz=$((0x$(le "$1" 54 2)))
	_phnum=$((0x$(le "$1" 56 2)))
	_i=0
	while [ $_i -lt $_phnum ]; do
		_p=$((_phoff + _i * _phsz))
		if [ $((0x$(le "$1" $_p 4))) -eq 1 ] && [ $((0x$(le "$1" $((_p + 4)) 4) & 1)) -eq 1 ]; then
			echo $((0x$(le "$1" $((_p + 16)) 8) - 0x$(le "$1" $((_p + 8)) 8)))
			return
		fi
		_i=$((_i + 1))
	done
}

DELTA=$(text_delta "$DIAG")

# usym IP: which of tlob-diag's known functions holds user address IP
# (the one starting last at or below it, within 4 KiB; "?" if none)
usym() {
	_ip=$(($1))
	_best="?"
	_bstart=0
	while read -r _s _o; do
		_a=$((_o + DELTA))
		if [ $_a -le $_ip ] && [ $((_ip - _a)) -lt 4096 ] && [ $_a -gt $_bstart ]; then
			_best=$_s
			_bstart=$_a
		fi
	done <"$DOFFS"
	echo "$_best"
}

# list FIELD: the {0x..,0x..} array FIELD of the detail lines on stdin,
# one element per line
list() { sed -n "s/.* $1={\([^}]*\)}.*/\1/p" | tr ',' '\n' | grep .; }

run() {
	trace_start $EVENTS
	"$DIAG" "$@" >/tmp/diag.out
	trace_stop
}

# key: "pid binding_id start_ns" of each event line on stdin
key() {
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		print f["pid"], f["binding_id"], f["start_ns"] }'
}

# once NAME N: N violations, each with exactly one detail naming its
# window, after it in the trace
once() {
	v=$(events violation | key | sort)
	is "$(echo "$v" | grep -c .)" "$2" "$1: $2 violation(s)"
	is "$(events violation_detail | key | sort)" "$v" "$1: one violation_detail per violation, naming its window"
	bad=$(grep -E ' violation(_detail)?: ' $INST/trace |
		sed 's/.* \(violation[_a-z]*\): .* start_ns=\([0-9]*\) .*/\1 \2/' |
		awk '$1 == "violation" { seen[$2] = 1 } $1 == "violation_detail" && !seen[$2] { n++ } END { print n + 0 }')
	is "$bad" "0" "$1: every detail follows its violation"
}

[ -x "$DIAG" ] && [ -r "$DOFFS" ] || skip_all "no $DIAG"
[ -n "$DELTA" ] || bail_out "no executable PT_LOAD in $DIAG"
diag "tlob-diag: text vaddr - offset = $(printf 0x%x "$DELTA")"

kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
[ -d $TRACE/events/tlob/violation_detail ]
ok $? "tracefs has tlob:violation_detail"
grep -q 'field:__data_loc u64\[\] ustack' $TRACE/events/tlob/violation_detail/format
ok $? "its ustack is a dynamic array of u64"
monitor "p $DIAG:$(doff diag_begin) $(doff diag_end) threshold=$((20 * MS))"

# --- in budget: no detail
run -n 3 spin 1
is "$(events window | wc -l)" "3" "in budget: 3 windows"
# (an emulated guest may stall a 1 ms window past 20 ms: a real violation)
ok_w=$(events window | awk '/ verdict=0 /' | key | awk '{ print $3 }' | sort)
det=$(events violation_detail | key | awk '{ print $3 }' | sort)
is "$(echo "$det" | grep -c .)" "$(events violation | wc -l)" "in budget: a violation_detail only for a violation"
is "$(printf '%s\n%s\n' "$ok_w" "$det" | grep . | sort | uniq -d | wc -l)" "0" "in budget: none for a window within budget"

# --- spin: the user stack names the spinning function and its caller
run -n 2 spin 150
once spin 2
d=$(events violation_detail | head -n 1)
diag "spin: $d"
u=$(echo "$d" | list ustack)
is "$(usym "$(echo "$u" | sed -n 1p)") $(usym "$(echo "$u" | sed -n 2p)")" \
	"diag_spin_leaf diag_spin_caller" "spin: user stack diag_spin_leaf <- diag_spin_caller"
is "$(echo "$u" | sed -n 3p | while read -r ip; do usym "$ip"; done)" "main" "spin: ... <- main"
is "$(events violation_detail | field ustack_when | grep -vc '^[12]$')" "0" "spin: user stack taken (at the deadline or deferred)"
st=$(echo "$d" | field state)
if [ "$st" = 1 ]; then
	is "$(echo "$d" | list kstack | wc -l)" "0" "spin: running: no kernel stack"
else
	skip "spin: not running at the deadline (state $st)"
fi

# --- wait: behind a SCHED_FIFO hog on its CPU
rt_throttle_off
run -c 0 wait 300
rt_throttle_restore
once wait 1
d=$(events violation_detail)
diag "wait: $d"
is "$(echo "$d" | field state)" "3" "wait: waiting at the deadline"
r=$(echo "$d" | sed -n 's/.* ran=\([^,]*\),.*/\1/p')
is "$(echo "$r" | cut -d: -f2)" "diag-hog" "wait: diag-hog ran instead, first"
is "$(echo "$r" | cut -d: -f3)" "1" "wait: ... with policy SCHED_FIFO"
is "$(echo "$r" | cut -d: -f4)" "49" "wait: ... at prio 49 (FIFO 50)"
cmp_ok "$(echo "$r" | cut -d: -f5)" -gt $((10 * MS)) "wait: ... for most of the budget"
cmp_ok "$(echo "$d" | list kstack | wc -l)" -gt 0 "wait: a kernel stack (where it was preempted)"

# --- pipe: asleep in pipe_read, woken by the writer
run pipe 200
once pipe 1
d=$(events violation_detail)
diag "pipe: $d"
is "$(echo "$d" | field state)" "2" "pipe: sleeping at the deadline"
echo "$d" | grep -q " waker=[0-9]*:diag-writer "
ok $? "pipe: woken by diag-writer"
# the kernel frames' functions: for each, the text symbol of
# /proc/kallsyms at or below it (the addresses are 16 hex digits)
ksyms=$(echo "$d" | list kstack | awk 'NR == FNR { f[NR] = tolower(substr($1, 3)); n = NR; next }
	$2 ~ /^[tT]$/ { for (i = 1; i <= n; i++) if ($1 <= f[i] && $1 > b[i]) { b[i] = $1; s[i] = $3 } }
	END { for (i = 1; i <= n; i++) print (s[i] == "" ? "?" : s[i]) }' - /proc/kallsyms)
diag "pipe: kernel stack $(echo $ksyms)"
# pipe_read, or a variant of it (newer kernels split it: anon_pipe_read)
echo "$ksyms" | grep -qE '^([a-z_]*_)?pipe_read$'
ok $? "pipe: the kernel stack is in pipe_read"
u=$(echo "$d" | list ustack)
cmp_ok "$(echo "$u" | wc -l)" -gt 0 "pipe: a user stack"

# --- snapshot: as a trace-cmd user sets it up, a snapshot trigger on
# tlob:violation in an instance of their own: the kernel takes it at the
# deadline, so it holds the sched_switch events up to the deadline and
# none from after the detection (37-tool-diag: tlob mon's snapshot=)
S=$TRACE/instances/diag18snap
mkdir -p "$S"
echo mono >"$S/trace_clock"
# a small buffer: sed reads all of it below (the emulated guest is slow)
echo 64 >"$S/buffer_size_kb"
echo 1 >"$S/events/sched/sched_switch/enable"
echo 'snapshot:1' >"$S/events/tlob/violation/trigger"
ok $? "snapshot: a snapshot trigger on tlob:violation"
(while :; do usleep 2000; done) &
ticker=$!
run -n 1 spin 150
echo '!snapshot:1' >"$S/events/tlob/violation/trigger"
v=$(events violation | head -n 1)
deadline=$(( $(echo "$v" | field start_ns) + $(echo "$v" | field budget_ns) ))
seen=$(echo "$v" | field end_ns)
# "SECONDS MICROSECONDS" lines as ns, one a line
us_ns() { awk '{ printf "%d%06d000\n", $1, $2 }'; }
# sched_switch timestamps (seconds.microseconds) as ns, one a line
ts() { sed -n 's/.* \([0-9]*\)\.\([0-9]\{6\}\): sched_switch:.*/\1 \2/p' | us_ns; }
last=$(ts <"$S/snapshot" | sort -n | tail -1)
# The live buffer goes on while the ticker runs: let it run for a second
# of the trace clock past the snapshot's last switch, read from the
# buffer's statistics ("now ts", cheap), for 20 s at most. A fixed sleep is
# not enough: an emulated guest's vCPUs can be stalled by the host for
# most of it. Then stop the instance's recording and read its buffer
# once: a read of a small buffer that is still written chases the writer
# (the ticker's switches and, on PREEMPT_RT, the kernel's own threads) and
# takes minutes under emulation.
now_ns() { sed -n 's/^now ts: *\([0-9]*\)\.\([0-9]\{6\}\)$/\1 \2/p' "$S/per_cpu/cpu0/stats" | us_ns; }
i=0
while [ -n "$last" ] && [ $i -lt 200 ]; do
	now=$(now_ns)
	[ -n "$now" ] && [ "$now" -gt $((last + 1000000000)) ] && break
	usleep 100000
	i=$((i + 1))
done
diag "snapshot: waited $i tenths of a second on the trace clock"
kill $ticker
wait $ticker 2>/dev/null
echo 0 >"$S/tracing_on"
live=$(ts <"$S/trace" | sort -n | tail -1)
diag "snapshot: deadline $deadline, detected $seen, last in snapshot ${last:-none}, last live ${live:-none}"
# The detection's time is read before its lock is taken and its event
# written; an emulated vCPU the host stalls in between lets the other one
# write sched_switch events after that time into the buffer the snapshot
# then takes, more than 5 ms past the detection under emulation. 50 ms
# still tells the snapshot from the live buffer, which the ticker fills
# for 300 ms after the spinning process exits, 130 ms after the detection
# at least.
[ -n "$last" ] && [ -n "$seen" ] && [ "$last" -le $((seen + 50000000)) ] && [ "$last" -ge $((deadline - 50000000)) ]
ok $? "snapshot: it holds sched_switch events up to the deadline (last within 50ms before it), none after the detection (50ms)"
[ -n "$live" ] && [ -n "$last" ] && [ "$live" -gt $((last + 200000000)) ]
ok $? "snapshot: ... while the live buffer went on after it (200ms and more)"
echo 0 >"$S/events/sched/sched_switch/enable"
rmdir "$S"

monitor "-$DIAG:$(doff diag_begin)"
is "$(pool used)" "0" "no window left open"
ok_cmd "rmmod" kmod_unload
done_testing
