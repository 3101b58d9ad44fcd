# SPDX-License-Identifier: GPL-2.0
# Helpers for the tlob.ko guest tests (tests/guest/1*-kmod-*.t), busybox ash.
#   . /opt/tlob/tests/lib/tap.sh; . /opt/tlob/tests/lib/kmod.sh

TLOB=/sys/kernel/tlob
TRACE=/sys/kernel/tracing
INST=$TRACE/instances/kmodtest
WL=/opt/tlob/bin/tlob-workload
OFFS=/opt/tlob/bin/tlob-workload.offsets
: "${TLOB_KO:=/opt/tlob/modules/tlob.ko}"

# off SYMBOL: file offset of a workload function (computed on the host)
off() { awk -v s="$1" '$1 == s { print $2 }' "$OFFS"; }

# insmod, after unloading what an earlier script may have left loaded
kmod_load() {
	[ -d "$TLOB" ] && rmmod tlob
	insmod "$TLOB_KO" "$@"
}

# rmmod, then the module's directory must be gone
kmod_unload() { rmmod tlob && [ ! -d "$TLOB" ]; }

# errno_of LINE...: write the lines to the monitor file in ONE write(2)
# (dd from a file, one block) and print the strerror() text it failed
# with, or "ok"
errno_of() {
	printf '%s\n' "$@" >/tmp/kmod-lines
	_e=$(dd if=/tmp/kmod-lines of="$TLOB/monitor" bs=1M conv=notrunc 2>&1) && { echo ok; return; }
	echo "$_e" | sed -n 's/.*error writing.*: //p'
}

# monitor LINE...: like errno_of, but silent and returns the status
monitor() { [ "$(errno_of "$@")" = ok ]; }

# bind START STOP BUDGET [extra]: a binding on the workload
bind() {
	monitor "p $WL:$(off "$1") $2 threshold=$3${4:+ $4}"
}

# Our own tracefs instance: tlob events only, cleared on start.
trace_start() {
	mkdir -p "$INST"
	echo 0 >"$INST/tracing_on"
	echo 8192 >"$INST/buffer_size_kb"
	echo >"$INST/trace"
	for e in "$@"; do echo 1 >"$INST/events/tlob/$e/enable"; done
	echo 1 >"$INST/tracing_on"
}

trace_stop() {
	echo 0 >"$INST/tracing_on"
	for e in "$INST"/events/tlob/*/enable; do echo 0 >"$e"; done
}

# events NAME: the payload of every NAME event in the trace, one per line
events() { sed -n "s/.* $1: / /p" "$INST/trace"; }

# field NAME: read payload lines on stdin, print NAME's value of each
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

# stat_of ID FIELD: a field of binding ID's stats line
stat_of() {
	grep "^id=$1 " "$TLOB/stats" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# binding_id START: id of the binding whose start offset is START's
binding_id() {
	_o=$(printf '0x%x' "$(off "$1")")
	grep " start=$_o " "$TLOB/stats" | sed -n 's/^id=\([0-9]*\) .*/\1/p'
}

pool() { tr ' ' '\n' <"$TLOB/pool" | sed -n "s/^$1=//p"; }

# percentile P (0..100) of the integers on stdin
percentile() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; print v[i] }'; }

# The starve tests' SCHED_FIFO hog is bounded (it exits after its time),
# so RT throttling (which would let the starved task run 5% of each
# second) is switched off around them and restored after.
rt_throttle_off() {
	_rt_runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us
}

rt_throttle_restore() {
	echo "$_rt_runtime" >/proc/sys/kernel/sched_rt_runtime_us
}
