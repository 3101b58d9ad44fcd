#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug dkms
#   the kernel contract: what it checks depends on the kernel
# Reactors: nop (default), printk, signal (SIGXCPU or signal:N); panic is
# only selected and read back (it would end the lane). A binding's
# tolerance=K/W holds the reactor back until K of its last W windows
# overran.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

MS=1000000
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
bind tlob_section_begin "$(off tlob_section_end)" $((50 * MS))

# set_reactor NAME: write it, print the errno text or "ok"
set_reactor() {
	_e=$(echo "$1" 2>&1 >$TLOB/reactors) && { echo ok; return; }
	echo "$_e" | sed 's/.*: //'
}

is "$(cat $TLOB/reactors)" "[nop] printk panic signal" "nop by default"
is "$($WL spin 150)" "windows=1 sigxcpu=0" "nop: the task is left alone"

is "$(set_reactor printk)" ok "select printk"
is "$(cat $TLOB/reactors)" "nop [printk] panic signal" "printk is current"
dmesg -c >/dev/null
$WL spin 150 >/dev/null &
pid=$!
wait $pid
sleep 0.2
dmesg | grep -q "tlob: budget exceeded: tlob-workload-$pid binding"
ok $? "printk: the kernel log names the task and binding"
dmesg | grep "tlob: budget exceeded" | head -n 1 | sed 's/^/# /'

is "$(set_reactor signal)" ok "select signal"
is "$(cat $TLOB/reactors)" "nop printk panic [signal]" "signal is current"
is "$($WL spin 150)" "windows=1 sigxcpu=1" "signal: SIGXCPU delivered to the task that overran"
is "$($WL -n 3 spin 1)" "windows=3 sigxcpu=0" "signal: nothing for windows in budget"
# a worker thread overruns with SIGXCPU blocked while the main thread
# waits: a signal to the process would be taken by the main thread; the
# worker's own is delivered once it unblocks it
is "$($WL sigthread 150 | tr '\n' ' ')" "worker=1 windows=1 sigxcpu=1 " \
	"signal: SIGXCPU delivered to the thread that overran, not another of its process"

# --- tolerance=K/W: the reactor runs for a violation that makes K of the
# binding's last W judged windows; every violation is still counted
monitor "-$WL:$(off tlob_section_begin)"
bind tlob_section_begin "$(off tlob_section_end)" $((50 * MS)) "tolerance=3/3"
id=$(binding_id tlob_section_begin)
grep -q "^p $WL:.* threshold=$((50 * MS)) tolerance=3/3\$" $TLOB/monitor
ok $? "tolerance: the monitor file reads it back"
is "$($WL -n 4 spin 150)" "windows=4 sigxcpu=2" \
	"tolerance 3/3: four overruns in a row, the first two held back"
is "$($WL -n 2 spin 150)" "windows=2 sigxcpu=2" \
	"tolerance 3/3: the history is the binding's, kept across processes"
is "$($WL -n 2 spin 1)" "windows=2 sigxcpu=0" "tolerance 3/3: two windows in budget"
is "$($WL spin 150)" "windows=1 sigxcpu=0" "tolerance 3/3: ... then an overrun is held back"
is "$(stat_of $id violations) $(stat_of $id tolerated) $(stat_of $id tolerance)" "7 3 3/3" \
	"tolerance: the stats count 7 overruns, 3 of them tolerated, and name the tolerance"
monitor "-$WL:$(off tlob_section_begin)"
bind tlob_section_begin "$(off tlob_section_end)" $((50 * MS))

is "$(set_reactor signal:10)" ok "select signal:10 (SIGUSR1)"
$WL spin 150 >/dev/null 2>&1
is "$?" "138" "signal:10: the task died of SIGUSR1 (128 + 10)"

for bad in foo "signal:0" "signal:65" "signal:x" "printk:3" ""; do
	is "$(set_reactor "$bad")" "Invalid argument" "reactor '$bad' rejected"
done
is "$(cat $TLOB/reactors)" "nop printk panic [signal]" "a rejected write changes nothing"
is "$(set_reactor panic)" ok "select panic"
is "$(cat $TLOB/reactors)" "nop printk [panic] signal" "panic is current (not triggered)"
is "$(set_reactor nop)" ok "back to nop"
is "$($WL spin 150)" "windows=1 sigxcpu=0" "nop again"
ok_cmd "rmmod" kmod_unload
done_testing
