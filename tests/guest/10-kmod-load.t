#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug dkms
#   the kernel contract: what it checks depends on the kernel
# tlob.ko loads, shows its control tree, enables and disables with and
# without bindings, and unloads cleanly (the lane fails on any warning).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

ok_cmd "insmod tlob.ko" kmod_load
for f in enable desc monitor reactors stats pool; do
	[ -e "$TLOB/$f" ]
	ok $? "$TLOB/$f exists"
done
is "$(cat $TLOB/enable)" "0" "disabled after load"
is "$(cat $TLOB/reactors)" "[nop] printk panic signal" "reactors list, nop current"
is "$(cat $TLOB/monitor)" "" "no bindings after load"
is "$(cat $TLOB/stats)" "" "no stats without bindings"
is "$(pool size)" "1024" "default pool holds 1024 windows"
[ -d "$TRACE/events/tlob" ]
ok $? "events/tlob in tracefs"
for e in event_tlob error_tlob error_env_tlob detail_env_tlob violation window; do
	[ -d "$TRACE/events/tlob/$e" ]
	ok $? "event tlob:$e"
done
for f in start_ns end_ns budget_ns elapsed_ns running_ns waiting_ns sleeping_ns \
	detect_latency_ns pid tgid binding_id preemptions sleeps wakeups kind \
	verdict abort_reason detector state event comm tag; do
	grep -Eq " $f(\[[0-9]+\])?;" "$TRACE/events/tlob/window/format"
	ok $? "tlob:window has field $f"
done
is "$(pool sched_probes)" "0" "loaded: no scheduler probe attached"
ok_cmd "enable without bindings" sh -c "echo 1 >$TLOB/enable"
is "$(cat $TLOB/enable)" "1" "enabled"
is "$(pool sched_probes)" "0" "enabled without bindings: no scheduler probe attached"
trace_start window violation event_tlob error_tlob
$WL -n 3 spin 1 >/dev/null
trace_stop
is "$(grep -v '^#' $INST/trace | wc -l)" "0" "no event without bindings"
ok_cmd "bind while enabled" bind tlob_section_begin "$(off tlob_section_end)" 100000000
is "$(pool sched_probes)" "1" "a binding attaches the scheduler probes"
trace_start window
$WL spin 0 >/dev/null
trace_stop
is "$(events window | field verdict)" "0" "a window in budget"
ok_cmd "unbind" monitor "-$WL:$(off tlob_section_begin)"
is "$(pool sched_probes)" "0" "the last unbind detaches them"
ok_cmd "bind again" bind tlob_section_begin "$(off tlob_section_end)" 100000000
ok_cmd "disable with a binding" sh -c "echo 0 >$TLOB/enable"
is "$(pool sched_probes)" "0" "disabled with a binding: detached"
trace_start window
$WL spin 0 >/dev/null
trace_stop
is "$(events window | wc -l)" "0" "disabled: no window opens"
ok_cmd "enable again" sh -c "echo 1 >$TLOB/enable"
is "$(pool sched_probes)" "1" "enabled with a binding: attached"
ok_cmd "disable via 'off'" sh -c "echo off >$TLOB/enable"
echo 2 >"$TLOB/enable" 2>/dev/null
ok $((! $?)) "enable rejects 2"
ok_cmd "enable, then unload enabled with a binding" sh -c "echo 1 >$TLOB/enable"
ok_cmd "rmmod" kmod_unload
ok_cmd "load again (pool_size=16)" kmod_load pool_size=16
is "$(pool size)" "16" "pool_size parameter"
ok_cmd "rmmod" kmod_unload
insmod "$TLOB_KO" pool_size=0 2>/dev/null
ok $((! $?)) "pool_size=0 is refused"
# preallocation parameters past their bound are refused, never asked of
# the page allocator (which WARNs past its largest order: a panic with
# panic_on_warn)
warns() { dmesg | grep -c -E 'WARNING:|page allocation failure'; }
w0=$(warns)
for p in pool_size alive_instances logic_instances; do
	insmod "$TLOB_KO" $p=100000000 2>/dev/null
	ok $((! $?)) "$p=100000000 is refused"
	[ -d "$TLOB" ] && rmmod tlob
done
is "$(warns)" "$w0" "... and the kernel warned of nothing"
# a write's size drives what is allocated for its lines: 64 KiB of empty
# lines on /dev/tlob succeed (nothing to do) without a warning
ok_cmd "load again" kmod_load
head -c 65536 /dev/zero | tr '\0' '\n' >/tmp/nl
dd if=/tmp/nl of=/dev/tlob bs=65536 conv=notrunc 2>/tmp/nl.err
ok $? "64 KiB of newlines written to /dev/tlob in one write" || sed 's/^/# /' /tmp/nl.err
is "$(warns)" "$w0" "... and the kernel warned of nothing"
# a session's final lines (the stats lines of the bindings its removals
# freed) are bounded: 15 rounds of 100 bindings added, then removed,
# through one open /dev/tlob keep at most 256 KiB of them, the newest last
mkdir -p /tmp/fin
: >/tmp/fin.add
: >/tmp/fin.del
fb=$(off tlob_section_begin) fe=$(off tlob_section_end)
for i in $(seq 100); do
	head -c 16384 $WL >/tmp/fin/f$i
	echo "p /tmp/fin/f$i:$fb $fe threshold=1000000" >>/tmp/fin.add
	echo "-/tmp/fin/f$i:$fb" >>/tmp/fin.del
done
exec 3<>/dev/tlob
r=0
: >/tmp/fin.err
for round in $(seq 15); do
	# dd's one write(2) each: a write is all or nothing
	for w in add del; do
		dd if=/tmp/fin.$w bs=65536 2>>/tmp/fin.err >&3 ||
			{ r=1; echo "round $round $w failed" >>/tmp/fin.err; }
	done
done
ok $r "15 rounds of 100 bindings added and removed through one session" ||
	grep -v records /tmp/fin.err | head -n 5 | sed 's/^/# /' 
cat <&3 >/tmp/fin.out
exec 3<&-
cmp_ok "$(wc -c </tmp/fin.out)" -le 262144 \
	"the session keeps at most 256 KiB of final lines ($(wc -l </tmp/fin.out) lines)"
is "$(tail -n 1 /tmp/fin.out | sed -n 's/.* path=\([^ ]*\) .*/\1/p')" "/tmp/fin/f100" "... the newest last"
ok_cmd "rmmod" kmod_unload
done_testing
