#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock
#   the tool: the same program on every kernel
# tlob.service on each backend: its ExecStartPre/ExecStart/ExecStop
# command lines, read from the unit file itself (user/systemd/tlob.service,
# staged as /opt/tlob/bin/tlob.service), run as systemd runs them ('-':
# a failure is ignored) on /etc/tlob/tlob.conf and a drop-in. The
# configuration takes effect (bindings in the kernel's listing, windows
# and violations counted, in the metrics too), another tool's binding is
# left alone, and stop removes exactly what start added.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/tool.sh
UNIT=/opt/tlob/bin/tlob.service
[ -f "$UNIT" ] || bail_out "$UNIT is not staged"
tool_module_up || bail_out "cannot load $TLOB_KO"

begin=$(off tlob_section_begin)
end=$(off tlob_section_end)
ret=$(off tlob_section_ret)

# unit_cmd KEY: KEY='s command line, without systemd's prefixes (-@:+!)
unit_cmd() { sed -n "s/^$1=[-@:+!]*//p" "$UNIT" | tail -n 1; }
# unit_run KEY: run it as systemd does: split on blanks, found in PATH; a
# '-' prefix makes a failure not count. Output in $T/KEY.
unit_run() {
	_cmd=$(unit_cmd "$1")
	# shellcheck disable=SC2086
	$_cmd >"$T/$1" 2>&1
	_rc=$?
	if sed -n "s/^$1=//p" "$UNIT" | tail -n 1 | grep -q '^[@:+!]*-'; then
		_rc=0
	fi
	return $_rc
}

start=$(unit_cmd ExecStart)
stop=$(unit_cmd ExecStop)
case "$start $stop" in
"tlob apply"*" tlob apply"*) ;;
*) bail_out "unexpected commands in $UNIT: '$start' / '$stop'" ;;
esac
mkdir -p /run /etc/tlob/tlob.conf.d

for B in $BACKENDS; do
	backend_begin "$B" || continue
	reactor=
	[ "$B" = kmod ] && reactor="reactor printk"
	cat >/etc/tlob/tlob.conf <<EOT
# 27-tool-unit.t, $B
section $W:tlob_section_begin,tlob_section_end,500ms,tag=unit
$reactor
backend $B
EOT
	echo "section $W:tlob_section_ret,ret,250us,tag=unitret" >/etc/tlob/tlob.conf.d/10-ret.conf
	# Another tool's binding, which the unit must leave alone.
	tlob bind --backend "$B" -b "$W:tlob_section2_begin,tlob_section2_end,1s,tag=other" \
		>/dev/null 2>"$T/other"
	ok $? "$B: another tool's binding first" || cat "$T/other"
	before=$(tlob status --json --backend "$B" | head -1)

	unit_run ExecStartPre
	ok $? "$B: ExecStartPre ($(unit_cmd ExecStartPre)) passes, as systemd counts it" ||
		cat "$T/ExecStartPre"
	unit_run ExecStart
	ok $? "$B: ExecStart ($start) exits 0" || cat "$T/ExecStart"
	[ -f /run/tlob/apply.state ]
	ok $? "$B: ... and records what it applied"

	tlob status --json --backend "$B" >"$T/status"
	st=$(head -1 "$T/status")
	is "$(jget "$st" bindings)" 3 "$B: status: the two sections and the other binding"
	is "$(jget "$st" enabled)" true "$B: status: enabled"
	s1=$(jlines "$T/status" binding start "$(hex "$begin")")
	s2=$(jlines "$T/status" binding start "$(hex "$ret")")
	is "$(jget "$s1" stop)" "$(hex "$end")" "$B: tlob.conf's section: STOP at tlob_section_end"
	is "$(jget "$s1" budget_ns)" 500000000 "$B: ... 500ms"
	is "$(jget "$s1" tag)" unit "$B: ... tag unit"
	is "$(jget "$s2" stop)" ret "$B: the drop-in's section: STOP ret"
	is "$(jget "$s2" budget_ns)" 250000 "$B: ... 250us"
	if [ "$B" = kmod ]; then
		grep -q "^p $W:0x$(printf '%x' "$begin") 0x$(printf '%x' "$end") threshold=500000000 tag=unit\$" \
			/sys/kernel/tlob/monitor
		ok $? "$B: the section is in /sys/kernel/tlob/monitor" || cat /sys/kernel/tlob/monitor
		is "$(jget "$st" reactor)" printk "$B: the configuration's reactor"
	fi

	"$W" -n 3 spin 1 >/dev/null
	"$W" -n 2 spin 1200 >/dev/null
	"$W" -n 2 ret 5 >/dev/null
	tlob stats --json --backend "$B" >"$T/stats"
	t1=$(jlines "$T/stats" stats start "$(hex "$begin")")
	t2=$(jlines "$T/stats" stats start "$(hex "$ret")")
	is "$(jget "$t1" windows)" 5 "$B: 5 windows counted on tlob.conf's section"
	is "$(jget "$t1" violations)" 2 "$B: ... 2 over 500ms"
	is "$(jget "$t2" violations)" 2 "$B: the drop-in's: 2 over 250us"
	tlob stats --backend "$B" --format openmetrics -o /run/tlob.prom
	grep -q "^tlob_windows_total{binding=\"[0-9]*\",path=\"$W\",start=\"tlob_section_begin\",stop=\"tlob_section_end\",tag=\"unit\"} 5\$" \
		/run/tlob.prom && grep -q "^tlob_violations_total{.*tag=\"unit\"} 2\$" /run/tlob.prom &&
		grep -q "^tlob_window_elapsed_seconds_count{.*tag=\"unit\"} 5\$" /run/tlob.prom &&
		[ "$(tail -n 1 /run/tlob.prom)" = "# EOF" ]
	ok $? "$B: the metrics say so, labelled by symbol and tag" || grep 'tag="unit"' /run/tlob.prom | head -5

	unit_run ExecStop
	ok $? "$B: ExecStop ($stop) exits 0" || cat "$T/ExecStop"
	tlob status --json --backend "$B" >"$T/status"
	st=$(head -1 "$T/status")
	is "$(jget "$st" bindings)" 1 "$B: one binding left"
	is "$(jget "$(sed -n 2p "$T/status")" tag)" other "$B: ... the other tool's"
	is "$(jget "$st" enabled)" true "$B: still enabled, for it"
	is "$(jget "$st" reactor)" "$(jget "$before" reactor)" "$B: the reactor as before"
	[ ! -e /run/tlob/apply.state ]
	ok $? "$B: no state left"

	# Without another binding, stop disables the monitor start enabled.
	tlob unbind -a --backend "$B" >/dev/null
	unit_run ExecStart
	ok $? "$B: ExecStart again" || cat "$T/ExecStart"
	unit_run ExecStop
	ok $? "$B: ExecStop again" || cat "$T/ExecStop"
	tool_clean_state "$B"
	ok $? "$B: no binding left, monitor disabled"
	rm -f /run/tlob.prom
done
rm -rf /etc/tlob /run/tlob
tool_module_down
tool_cleanup
done_testing
