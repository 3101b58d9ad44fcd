#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock 6.12-rt debug
#   bpf_timer (stock) and the sampler (6.12-rt)
# The pinned BPF monitor: tlob bind pins it under /sys/fs/bpf/tlob and it
# runs on after tlob exits; a second reader (tlob mon without -b) attaches
# to it; tlob unbind removes a binding and tlob unbind -a the monitor,
# leaving no pinned object, program, map or link behind (34-bpf-cycles.t
# does that 100 times).
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/bpfobj.sh
. /opt/tlob/tests/lib/bpf.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end"
PIN=/sys/fs/bpf/tlob
OUT=/tmp/32-bpf
mkdir -p $OUT

field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }

before=$(quiet)
diag "before: $before"

ok_cmd "tlob bind --backend bpf" sh -c "tlob bind --backend bpf -b '$S1,10ms,tag=p' >$OUT/bind.out 2>$OUT/bind.err" ||
	sed 's/^/# /' $OUT/bind.err
for f in tlob_meta tlob_events tlob_bindings tlob_stats prog_uprobe link_tlob_switch bind_1_start bind_1_stop; do
	[ -e "$PIN/$f" ]
	ok $? "pinned: $f"
done
# The bpf_timer object's own maps too: the kernel frees a map's timers
# when no fd or pin holds it (38-bpf-timer-slots checks they still fire).
if [ "$BPF_DETECTOR" = bpf_timer ]; then
	for f in tlob_timers tlob_alive_timers tlob_logic_timers; do
		[ -e "$PIN/$f" ]
		ok $? "pinned: $f (bpf_timer)"
	done
else
	skip "no bpf_timer maps to pin: the detector is ${BPF_DETECTOR:-?}"
fi
st=$(tlob status --backend bpf 2>&1)
echo "$st" | grep -q "enabled: yes"
ok $? "status: enabled after tlob exited" || diag "$st"
echo "$st" | grep -q "bindings: 1"
ok $? "status: one binding" || diag "$st"

# A second reader of the running monitor. Its workload starts at
# "monitoring", which tlob prints once its reader slot takes records:
# "reading the monitor pinned" comes before the slot is set up.
tlob mon --backend bpf --json >$OUT/mon.json 2>$OUT/mon.err &
mp=$!
i=0
while ! grep -q "^tlob: monitoring" $OUT/mon.err && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$W" -c 0 spin 40 >/dev/null 2>&1
sleep 0.5
kill -INT $mp
wait $mp
grep '"kind_name":"violation"' $OUT/mon.json | grep -q '"tag":"p"'
ok $? "second reader gets the pinned monitor's violation" ||
	sed 's/^/# /' $OUT/mon.json $OUT/mon.err
[ -e $PIN/tlob_meta ]
ok $? "the monitor outlives its reader"
tlob stats --backend bpf --json >$OUT/stats.json 2>&1
is "$(grep '"type":"stats"' $OUT/stats.json | field windows)" 1 "stats: one window" ||
	sed 's/^/# /' $OUT/stats.json

tlob unbind --backend bpf -b "$W:tlob_section_begin" >$OUT/unbind.out 2>&1
ok $? "unbind one binding" || sed 's/^/# /' $OUT/unbind.out
[ ! -e $PIN/bind_1_start ] && [ ! -e $PIN/bind_1_stop ]
ok $? "its links are unpinned"
ok_cmd "unbind -a" sh -c "tlob unbind -a --backend bpf >/dev/null 2>&1"
[ ! -e $PIN ]
ok $? "$PIN is gone"
is "$(settled "$before")" "$before" "no program, map or link left"

done_testing
