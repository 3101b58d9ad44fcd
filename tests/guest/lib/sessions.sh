# SPDX-License-Identifier: GPL-2.0
# Three concurrent `tlob mon` sessions on one workload, for the sharing
# tests (29-tool-shared.t on the module, 35-bpf-shared.t on BPF): m1 and
# m2 on the same binding, m2 also on section 2, m3 on section 1 with
# another budget (a binding of its own). Each session's expected window
# count grows with every workload run while it lives; mon_stop checks
# that it reported exactly those. Needs tool.sh; SESSION_BACKEND is the
# backend (kmod, bpf). The test defines, for its backend: nbind (how many
# bindings), id_of SECTION BUDGET, holders_of SECTION BUDGET, windows_of
# ID (the kernel's per-binding count), nothing_left WHAT (its checks that
# nothing is left), round_started ROUND (its checks with three sessions
# running); SEC1 and SEC2 are the two sections as id_of takes them.
N=3	# windows per section per workload run (-n 3 two 1 1: section 1, then 2)
M1="-b $W:tlob_section_begin,tlob_section_end,1s"
M2="-b $W:tlob_section_begin,tlob_section_end,1s -b $W:tlob_section2_begin,tlob_section2_end,1s"
M3="-b $W:tlob_section_begin,tlob_section_end,2s"
# windows of one workload run for each session, and its budget
P1=$N P2=$((2 * N)) P3=$N
B1=1000000000 B2=1000000000 B3=2000000000

# mon_start I: session I in the background, until it is monitoring
mon_start() {
	: >"$T/m$1.err"
	eval "_a=\$M$1"
	# shellcheck disable=SC2086
	tlob mon --json --backend "$SESSION_BACKEND" $_a >"$T/m$1" 2>"$T/m$1.err" &
	eval "pid$1=$!"
	mon_wait "$T/m$1.err" || { sed 's/^/# /' "$T/m$1.err"; return 1; }
}
# workload: one run; every live session's expected count grows
workload() {
	"$W" -n $N two 1 1 >/dev/null
	for _i in 1 2 3; do
		eval "[ -n \"\$pid$_i\" ] && exp$_i=\$((exp$_i + P$_i))"
	done
	sleep 0.5
}
# mon_stop I SIG ROUND: stop session I; check what it reported
mon_stop() {
	eval "_p=\$pid$1 _e=\$exp$1"
	kill -"$2" "$_p"
	wait "$_p"
	_rc=$?
	eval "pid$1="
	if [ "$2" = KILL ]; then
		is "$_rc" 137 "$3: m$1 SIGKILLed"
		return
	fi
	is "$_rc" 0 "$3: m$1 exits 0" || sed 's/^/# /' "$T/m$1.err"
	is "$(jlines "$T/m$1" record kind_name window | wc -l)" "$_e" \
		"$3: m$1 reports exactly its $_e windows"
	grep -q "^{\"type\":\"summary\",\"records\":$_e,\"windows\":$_e," "$T/m$1"
	ok $? "$3: m$1's summary counts $_e" || sed -n '/summary/s/^/# /p' "$T/m$1"
	eval "_b=\$B$1"
	_bad=$(jlines "$T/m$1" record | grep -v "\"budget_ns\":$_b," | wc -l)
	_bad=$((_bad + $(jlines "$T/m$1" record | grep -vc '"verdict_name":"ok"')))
	is "$_bad" 0 "$3: m$1: every record is of its own bindings' budget, in budget"
}

# round ORDER [KILL-WHICH]: start all three, one run, then stop in ORDER
# with a run between stops; KILL-WHICH (1..3) is SIGKILLed instead.
round() {
	_r="order $1${2:+, m$2 killed}"
	exp1=0 exp2=0 exp3=0
	mon_start 1 && mon_start 2 && mon_start 3 || { ok 1 "$_r: a session did not start"; return; }
	round_started "$_r"
	workload
	is "$(nbind)" 3 "$_r: three bindings for four sections asked (one shared)"
	is "$(windows_of "$(id_of "$SEC1" $B1)") $(windows_of "$(id_of "$SEC2" $B2)") $(windows_of "$(id_of "$SEC1" $B3)")" \
		"$N $N $N" "$_r: each binding counts each window once"
	is "$(holders_of "$SEC1" $B1 | tr ',' '\n' | grep -c ':tlob$')" 2 "$_r: the shared binding has two holders"
	for _s in $(echo "$1" | sed 's/./& /g'); do
		mon_stop "$_s" "$([ "$_s" = "${2:-}" ] && echo KILL || echo INT)" "$_r"
		[ -z "$pid1$pid2$pid3" ] && break
		# what the others hold is still monitored
		_bud=$([ -n "$pid1$pid2" ] && echo $B1 || echo $B3)
		_before=$(windows_of "$(id_of "$SEC1" $_bud)")
		workload
		_after=$(windows_of "$(id_of "$SEC1" $_bud)")
		is "$((_after - _before))" "$N" "$_r: after m$_s, the others still monitor section 1"
	done
	# The last one killed: the next tlob frees what it held.
	[ -z "${2:-}" ] || tlob status --backend "$SESSION_BACKEND" >/dev/null 2>&1
	nothing_left "$_r"
}

# every_round: all six orders (the short soak of make check: 123, 231 and
# 312, in which each session ends first, second and last once), then one
# with the second session killed in the middle and one with the last
# killed
every_round() {
	for _o in $(soak "123 132 213 231 312 321" "123 231 312"); do
		round $_o
	done
	round 213 2
	round 123 3
}
