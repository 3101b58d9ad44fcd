#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A violation's diagnosis on the BPF backend (issue #18), as `tlob mon
# --backend bpf -j` prints it: tlob-diag's windows that overrun for a
# known reason (tests/programs/tlob-diag.c) must each name that reason:
#   spin  the user stack where it spins: diag_spin_leaf, then
#         diag_spin_caller (taken at the deadline, or at the next sample
#         on the sampling path when a context switch elsewhere found it)
#   wait  waiting, diag-hog (SCHED_FIFO, on the task's CPU) first among
#         the tasks that ran instead, a kernel stack (where it was
#         preempted), the user stack taken later (deferred)
#   pipe  sleeping, pipe_read (anon_pipe_read on 6.15+) in its kernel
#         stack, woken by diag-writer
# and every violation has exactly one diagnosis, after its violation
# record. Symbols come from the tool's symbolizer when it names them,
# else from the raw addresses: tlob-diag's functions (a static non-PIE
# executable: its link address plus the ELF offsets of the build) and
# the kernel's (/proc/kallsyms).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
. /opt/tlob/tests/lib/bpf.sh
BACKENDS=bpf
DIAG=/opt/tlob/bin/tlob-diag
DOFFS=/opt/tlob/bin/tlob-diag.offsets
MS=300		# how long each window spins, waits or sleeps
BUDGET=100ms

if ! why=$(backend_usable bpf); then
	skip_all "bpf backend not usable: $why"
fi
tlob unbind -a --backend bpf >/dev/null 2>&1
diag "detector: $BPF_DETECTOR"
# The programs' load time (tlob list loads both objects, the verifier
# included, and unloads them), 10 ms resolution: kernel/bpf/README.md
# quotes it.
cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
for i in 1 2 3; do
	a=$(cs)
	tlob list --backend bpf >/dev/null 2>&1
	diag "load: tlob list --backend bpf: $((($(cs) - a) * 10)) ms"
done

# doff SYMBOL: tlob-diag's symbol's ELF file offset, in decimal.
doff() { printf '%d' "$(awk -v s="$1" '$1 == s { print $2 }' "$DOFFS")"; }
# A non-PIE x86-64 executable (ELF type 2, ET_EXEC) is linked at ld's
# default base, its text at file offset + 0x400000.
is "$(od -An -tx1 -j16 -N1 "$DIAG" | tr -d ' ')" 02 "tlob-diag is a non-PIE executable"
BASE=$((0x400000))
LEAF=$((BASE + $(doff diag_spin_leaf)))
CALLER=$((BASE + $(doff diag_spin_caller)))
BEGIN=$((BASE + $(doff diag_begin)))
# diag_spin_caller is a call and its frame (11 bytes with gcc -O2)
CALLER_END=$((CALLER + 64))

# ufn IP SYM: the tlob-diag function a user frame is in: leaf, caller,
# section (diag_begin/diag_end, the uprobes), main, or other (libc, vDSO)
ufn() {
	case "$2" in
	diag_spin_leaf+*) echo leaf; return ;;
	diag_spin_caller+*) echo caller; return ;;
	diag_begin+* | diag_end+*) echo section; return ;;
	main+*) echo main; return ;;
	null) ;;
	*) echo other; return ;;
	esac
	_ip=$(($1))
	# diag_spin_leaf runs up to diag_spin_caller (hog() between them is
	# not on the window task's stack)
	if [ "$_ip" -ge "$LEAF" ] && [ "$_ip" -lt "$CALLER" ]; then echo leaf
	elif [ "$_ip" -ge "$CALLER" ] && [ "$_ip" -lt "$CALLER_END" ]; then echo caller
	elif [ "$_ip" -ge "$BEGIN" ] && [ "$_ip" -lt "$LEAF" ]; then echo section
	else echo other; fi
}

# frames LINE KEY: "IP SYM" per frame of that stack (SYM null: not named)
frames() {
	printf '%s\n' "$1" | sed -n "s/.*\"$2\":\[\([^]]*\)\].*/\1/p" |
		grep -o '"ip":"0x[0-9a-f]*","sym":\("[^"]*"\|null\)' |
		sed 's/"ip":"\(0x[0-9a-f]*\)","sym":"\{0,1\}\([^"]*\)"\{0,1\}/\1 \2/'
}

# ufns LINE: the user stack as tlob-diag function names, innermost first
ufns() {
	frames "$1" ustack | while read -r _ip _sym; do ufn "$_ip" "$_sym"; done | tr '\n' ' '
}

# The kernel's pipe read function (pipe_read; anon_pipe_read since 6.15's
# split of anonymous pipes), its [start, end) as 16 hex digits: kernel
# text addresses all have 16, so string order is numeric order (busybox
# awk computes in doubles, which cannot hold them).
PIPE_FNS="pipe_read anon_pipe_read"
PIPE_RANGES=$(for f in $PIPE_FNS; do
	s=$(awk -v f="$f" '$3 == f { print $1; exit }' /proc/kallsyms)
	[ -n "$s" ] && echo "$s $(awk -v s="$s" '$1 > s { print $1 }' /proc/kallsyms | sort | head -1)"
done)
# in_pipe_read IP SYM
in_pipe_read() {
	case "$2" in
	pipe_read+* | anon_pipe_read+*) return 0 ;;
	null) ;;
	*) return 1 ;;
	esac
	_h=${1#0x}
	[ ${#_h} -eq 16 ] || return 1
	echo "$PIPE_RANGES" | while read -r _s _e; do
		[ -n "$_s" ] &&
			[ "$(printf '%s\n%s\n' "$_s" "$_h" | sort | head -1)" = "$_s" ] &&
			[ "$(printf '%s\n%s\n' "$_e" "$_h" | sort | head -1)" = "$_h" ] &&
			[ "$_h" != "$_e" ] && echo in
	done | grep -q in
}

# dpid LINE: a diagnosis's pid (its first; jget would take ran[]'s last)
dpid() { printf '%s\n' "$1" | sed -n 's/^{"kind_name":"diag","pid":\([0-9]*\),.*/\1/p'; }

# scenario NAME WINDOWS tlob-diag ARGS...: tlob mon on tlob-diag's section
# while it runs; the violations and their diagnoses in $T/NAME.viol and
# $T/NAME.diag, one line each
scenario() {
	_n=$1 _w=$2
	shift 2
	: >"$T/$_n.err"
	tlob mon --backend bpf --json -b "$DIAG:diag_begin,diag_end,$BUDGET" \
		>"$T/$_n" 2>"$T/$_n.err" &
	_m=$!
	mon_wait "$T/$_n.err" || sed 's/^/# /' "$T/$_n.err"
	"$@" -n "$_w" "$_n" $MS >/dev/null
	sleep 0.5
	kill -INT $_m
	wait $_m
	is $? 0 "$_n: tlob mon --backend bpf exits 0" || sed 's/^/# /' "$T/$_n.err"
	jlines "$T/$_n" record kind_name violation >"$T/$_n.viol"
	grep '^{"kind_name":"diag"' "$T/$_n" >"$T/$_n.diag"
	is "$(wc -l <"$T/$_n.viol")" "$_w" "$_n: $_w windows, $_w violations" ||
		sed 's/^/# /' "$T/$_n"
	is "$(wc -l <"$T/$_n.diag")" "$_w" "$_n: one diagnosis per violation"
	# each names its violation (pid, binding, START) and comes after it
	_bad=0
	while read -r _d; do
		_s="\"start_ns\":$(jget "$_d" start_ns),"
		_vl=$(grep -n '"kind_name":"violation"' "$T/$_n" | grep "$_s" |
			grep "\"pid\":$(dpid "$_d")," | head -1)
		_dl=$(grep -n '^{"kind_name":"diag"' "$T/$_n" | grep "$_s" | cut -d: -f1)
		if [ -z "$_vl" ] || [ "${_vl%%:*}" -ge "$_dl" ]; then
			_bad=$((_bad + 1))
			diag "$_n: no violation before line $_dl: $_d"
			grep -n '"kind_name":"violation"' "$T/$_n" | sed 's/^/# /'
		fi
	done <"$T/$_n.diag"
	is "$_bad" 0 "$_n: each diagnosis follows its violation record (pid, start)"
	while read -r _d; do diag "$_n: $_d"; done <"$T/$_n.diag"
}

# Pinned to CPU 0, where the sampling path's sampler runs (the first CPU
# that takes it) and the bpf_timer fires (armed at START on the task's
# CPU): a detector interrupts the spinning task.
scenario spin 3 taskset -c 0 "$DIAG"
bad=0 leaf=0 when_bad=0
while read -r d; do
	f=$(ufns "$d")
	diag "spin: state $(jget "$d" state), ustack_when $(jget "$d" ustack_when): $f"
	[ "$(jget "$d" state)" = running ] || bad=$((bad + 1))
	case "$(jget "$d" ustack_when)" in deadline | deferred) ;; *) when_bad=$((when_bad + 1)) ;; esac
	# The innermost frame of tlob-diag's functions is diag_spin_leaf,
	# then diag_spin_caller; or diag_spin_caller right after frames
	# outside them: interrupted in the leaf's callee (libc's
	# clock_gettime, the vDSO), whose frame pointer walk skips the leaf.
	case "$f" in
	"leaf caller "* | "other leaf caller "* | "other other leaf caller "*) leaf=$((leaf + 1)) ;;
	"other caller "* | "other other caller "* | "other other other caller "*) ;;
	*) bad=$((bad + 1)) ;;
	esac
done <"$T/spin.diag"
is "$bad" 0 "spin: running, the user stack in diag_spin_leaf or its callee, then diag_spin_caller"
is "$when_bad" 0 "spin: the user stack taken while it spun (deadline, or the next sample)"
# diag_spin_leaf spends most of its time in its own loop: a stack taken
# there names it, then its caller
cmp_ok "$leaf" -ge 1 "spin: diag_spin_leaf, then diag_spin_caller ($leaf of 3)"

scenario wait 2 "$DIAG" -c 0
bad=0
while read -r d; do
	r=$(printf '%s\n' "$d" | sed -n 's/.*"ran":\[{\([^}]*\)}.*/\1/p')
	[ "$(jget "$d" state)" = waiting ] || { bad=$((bad + 1)); diag "wait: state"; }
	[ "$(jget "{$r}" comm)" = diag-hog ] || { bad=$((bad + 1)); diag "wait: ran[0] $r"; }
	[ "$(jget "{$r}" policy)" = fifo ] || { bad=$((bad + 1)); diag "wait: policy"; }
	[ "$(jget "{$r}" prio)" = 49 ] || { bad=$((bad + 1)); diag "wait: prio (FIFO 50: 49)"; }
	[ -n "$(frames "$d" kstack)" ] || { bad=$((bad + 1)); diag "wait: no kernel stack"; }
	[ "$(jget "$d" ustack_when)" = deferred ] || { bad=$((bad + 1)); diag "wait: ustack_when"; }
done <"$T/wait.diag"
is "$bad" 0 "wait: waiting; diag-hog (fifo, prio 49) ran first instead; kernel stack; user stack deferred"

scenario pipe 2 "$DIAG"
bad=0
while read -r d; do
	[ "$(jget "$d" state)" = sleeping ] || { bad=$((bad + 1)); diag "pipe: state"; }
	[ "$(jget "$d" waker_comm)" = diag-writer ] || { bad=$((bad + 1)); diag "pipe: waker"; }
	[ "$(jget "$d" waker_pid)" -gt 0 ] || { bad=$((bad + 1)); diag "pipe: waker pid"; }
	found=0
	for f in $(frames "$d" kstack | tr ' ' ,); do
		in_pipe_read "${f%,*}" "${f#*,}" && found=1
	done
	[ $found = 1 ] || { bad=$((bad + 1)); diag "pipe: no pipe read function ($PIPE_RANGES)"; }
done <"$T/pipe.diag"
is "$bad" 0 "pipe: sleeping; pipe_read in the kernel stack; woken by diag-writer"

ok_cmd "nothing left bound or enabled" tool_clean_state bpf
tool_cleanup
done_testing
