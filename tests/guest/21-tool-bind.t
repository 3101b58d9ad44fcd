#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# tlob bind / status / stats / unbind on each backend, --json checked field
# by field against the workload's symbol offsets (computed at build time
# with nm, independently of the tool's libelf lookup) and against the
# windows the workload ran.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
tool_module_up || bail_out "cannot load $TLOB_KO"

begin=$(off tlob_section_begin)
end=$(off tlob_section_end)
ret=$(off tlob_section_ret)

for B in $BACKENDS; do
	backend_begin "$B" || continue

	tlob bind --json --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,500ms" \
		-b "$W:tlob_section_ret,ret,250us,tag=retsec" >"$T/bind" 2>"$T/bind.err"
	ok $? "$B: bind two sections by symbol" || cat "$T/bind.err"
	b1=$(jlines "$T/bind" binding start "$(hex "$begin")")
	b2=$(jlines "$T/bind" binding start "$(hex "$ret")")
	is "$(jget "$b1" path)" "$W" "$B: bind: path"
	is "$(jget "$b1" stop)" "$(hex "$end")" "$B: bind: STOP offset is tlob_section_end's"
	is "$(jget "$b1" budget_ns)" 500000000 "$B: bind: budget 500ms"
	is "$(jget "$b2" stop)" ret "$B: bind: STOP ret"
	is "$(jget "$b2" tag)" retsec "$B: bind: tag"
	is "$(jget "$b2" budget_ns)" 250000 "$B: bind: budget 250us"
	id1=$(jget "$b1" id)
	id2=$(jget "$b2" id)
	cmp_ok "$id1" -gt 0 "$B: bind: first binding has an id"
	cmp_ok "$id2" -ne "$id1" "$B: bind: ids differ"

	tlob bind --backend "$B" -b "$W:tlob_section_begin,tlob_section_end,5ms" >/dev/null 2>"$T/dup"
	rc=$?
	is "$rc" 1 "$B: a duplicate binding fails"
	grep -q "binding already present: $W:0x" "$T/dup"
	ok $? "$B: ... saying the binding is already present" || cat "$T/dup"

	tlob status --json --backend "$B" >"$T/status"
	st=$(head -1 "$T/status")
	is "$(jget "$st" backend)" "$B" "$B: status: backend"
	is "$(jget "$st" enabled)" true "$B: status: bind enabled the monitor"
	is "$(jget "$st" bindings)" 2 "$B: status: two bindings"
	s1=$(jlines "$T/status" binding id "$id1")
	is "$(jget "$s1" start)" "$(hex "$begin")" "$B: status: start of binding $id1"
	is "$(jget "$s1" stop)" "$(hex "$end")" "$B: status: stop of binding $id1"
	is "$(jget "$s1" budget_ns)" 500000000 "$B: status: budget of binding $id1"
	s2=$(jlines "$T/status" binding id "$id2")
	is "$(jget "$s2" tag)" retsec "$B: status: tag of binding $id2"

	# 5 windows well within budget, 3 over (spin 1.5s > 500ms), 2 ret windows over 250us.
	# (Emulated CPUs on a busy host stall for 100+ ms now and then: in-budget
	# windows get a wide margin.)
	"$W" -n 5 spin 1 >/dev/null
	"$W" -n 3 spin 1500 >/dev/null
	"$W" -n 2 ret 5 >/dev/null

	tlob stats --json --backend "$B" >"$T/stats"
	t1=$(jlines "$T/stats" stats id "$id1")
	t2=$(jlines "$T/stats" stats id "$id2")
	is "$(jget "$t1" windows)" 8 "$B: stats: 8 windows on binding $id1"
	is "$(jget "$t1" violations)" 3 "$B: stats: 3 violations on binding $id1"
	is "$(jget "$t1" errors)" 0 "$B: stats: no model error"
	is "$(jget "$t2" windows)" 2 "$B: stats: 2 windows on the ret binding"
	is "$(jget "$t2" violations)" 2 "$B: stats: both over 250us"
	min=$(jget "$t1" min_ns)
	max=$(jget "$t1" max_ns)
	mean=$(jget "$t1" mean_ns)
	cmp_ok "$min" -ge 1000000 "$B: stats: min >= 1ms"
	cmp_ok "$min" -lt 500000000 "$B: stats: min < budget"
	cmp_ok "$max" -ge 1500000000 "$B: stats: max >= 1.5s"
	ok $([ "$min" -le "$mean" ] && [ "$mean" -le "$max" ]; echo $?) "$B: stats: min <= mean <= max"
	hist=$(printf '%s\n' "$t1" | sed 's/.*"hist":{\([^}]*\)}.*/\1/')
	total=0
	for kv in $(echo "$hist" | tr ',' ' '); do
		total=$((total + ${kv#*:}))
	done
	is "$total" 8 "$B: stats: the histogram counts every window"
	long=0
	for kv in $(echo "$hist" | tr -d '"' | tr ',' ' '); do
		[ "${kv%:*}" -ge 30 ] && long=$((long + ${kv#*:}))
	done
	is "$long" 3 "$B: stats: 3 windows in buckets >= 30 (>= 1.07s)" || diag "hist: $hist"

	tlob stats --backend "$B" >"$T/stats.txt"
	grep -q "binding $id1: $W:0x" "$T/stats.txt" && grep -q 'windows=8 violations=3' "$T/stats.txt"
	ok $? "$B: stats: readable form" || cat "$T/stats.txt"

	tlob unbind --json --backend "$B" -b "$W:tlob_section_ret" >"$T/unbind"
	ok $? "$B: unbind one binding"
	is "$(tlob status --json --backend "$B" | head -1 | sed 's/.*"bindings":\([0-9]*\).*/\1/')" 1 \
		"$B: status: one binding left"
	tlob unbind --backend "$B" -b "$W:tlob_section_ret,ret,250us" >/dev/null 2>"$T/unb.err"
	is "$?" 1 "$B: unbinding it again fails"
	grep -q "no binding for $W:0x" "$T/unb.err"
	ok $? "$B: ... saying there is no such binding" || cat "$T/unb.err"

	tlob unbind -a --backend "$B" >/dev/null
	ok $? "$B: unbind --all"
	tool_clean_state "$B"
	ok $? "$B: no binding left, monitor disabled, no trace instance"
done
tool_module_down
tool_cleanup
done_testing
