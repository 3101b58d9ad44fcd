#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Logical supervision as the tool prints it (logic_drv.c): a violation
# (ORDER, INCOMPLETE, TIMING at an event or past a state's invariant) a
# line of its own, an instance's quiet end (ok, aborted) none in text;
# one JSON object per record with the contract's
# fields, in its order; an object that does not fit fails at every
# length short of it. The module's kind=logic stats lines read (in any
# order of their keys), printed as tlob stats prints them, text and JSON;
# a kind this tool does not know refused; their OpenMetrics/Prometheus
# families (tlob_logic_*), exact and read by prometheus_client.
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/logic_drv

"$DRV" records >"$tmp/rec"
ok $? "every record formatted; every JSON object fails at every length short of it"
grep -av '^{' "$tmp/rec" >"$tmp/text"
grep -a '^{' "$tmp/rec" >"$tmp/json"
cat >"$tmp/want" <<'T'
LOGIC ORDER      pid=812 comm=camd model=frame_flow state=ready event=frame_end (not allowed)
LOGIC ORDER      pid=813 comm=camd model=frame_flow tag=cam0 state=in_frame event=frame_begin (not allowed) (tolerated)
LOGIC INCOMPLETE pid=814 comm=camd model=frame_flow state=in_frame (exit)
LOGIC INCOMPLETE pid=815 comm=0123456789abcdef model=frame_flow state=ready (exec)
LOGIC TIMING     pid=818 comm=camd model=frame_flow tag=cam0 state=in_frame event=frame_end clock=41.000ms (outside its guard)
LOGIC TIMING     pid=819 comm=camd model=frame_flow state=in_frame clock=50.012ms (past the state's invariant)
LOGIC TIMING     pid=820 comm=camd model=frame_flow tag=cam0 state=in_frame clock=50.012ms (past the state's invariant) (tolerated)
T
diff -u "$tmp/want" "$tmp/text" | sed 's/^/# /'
cmp -s "$tmp/want" "$tmp/text"
ok $? "text: ORDER, INCOMPLETE and TIMING lines (tag, tolerated, exit/exec, the clock; TIMING with no event: past the state's invariant, no event key); ok and aborted ends are quiet"

python3 - "$tmp/json" <<'PY'
import json, sys
keys = ["type", "binding_id", "pid", "tgid", "comm", "model", "verdict", "state", "event",
        "events", "clock_ns", "start_ns", "end_ns", "react", "abort", "tag"]
verdicts = []
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    assert list(o) == keys, list(o)
    assert o["type"] == "logic" and o["model"] == "frame_flow", o
    assert isinstance(o["react"], bool), o
    assert (o["clock_ns"] != 0) == (o["verdict"] == "timing"), o
    verdicts.append((o["verdict"], o["abort"], o["event"], o["clock_ns"]))
# A TIMING with no event (the invariant's) has "event":"" as INCOMPLETE
# and the ends have, and the clock's reading at detection.
assert verdicts == [("order", "none", "frame_end", 0), ("order", "none", "frame_begin", 0),
                    ("incomplete", "exit", "", 0), ("incomplete", "exec", "", 0),
                    ("ok", "exit", "", 0), ("aborted", "unbind", "", 0),
                    ("timing", "none", "frame_end", 41000000),
                    ("timing", "none", "", 50012345),
                    ("timing", "none", "", 50012345)], verdicts
PY
ok $? "JSON: 9 objects, valid, the contract's fields in order, verdict/abort/event names, the clock; TIMING with no event: event \"\""
grep -aqF '"comm":"a\"b\\c"' "$tmp/json"
ok $? "JSON: a comm with a quote and a backslash escaped"

printf '%s\n' \
	'id=4 kind=logic path=/opt/app dir/bin/camd start=0x1139 tag=cam0 model=frame_flow per=task tolerance=2/5 holders=monitor,812:tlob instances=5 events=120 completed=3 order=1 incomplete=1 timing=4 tolerated=1 aborted=0 dropped=2' \
	'id=5 kind=logic path=/usr/bin/app start=0x1148 dropped=7 aborted=1 tolerated=0 incomplete=0 order=0 completed=9 events=40 instances=10 holders=monitor tolerance=1/1 per=process model=loop tag=-' \
	'id=6 kind=logic path=/usr/bin/app start=0x1148 tag=- model=loop per=process tolerance=1/1 holders=monitor instances=1 events=2 completed=0 order=0 incomplete=0 tolerated=0 aborted=0 dropped=0 newer_field=3' \
	'id=7 kind=logical path=/usr/bin/app start=0x1148 tag=- model=loop' \
	| "$DRV" stats >"$tmp/stats"
cat >"$tmp/want" <<'T'
binding 4: logic /opt/app dir/bin/camd:0x1139 model=frame_flow per task tag=cam0
  instances=5 events=120 completed=3 order=1 incomplete=1 timing=4 aborted=0 dropped=2 tolerated=1 (tolerance 2/5)
{"type":"stats","id":4,"path":"/opt/app dir/bin/camd","start":"0x1139","tag":"cam0","kind":"logic","model":"frame_flow","per":"task","tolerance_k":2,"tolerance_w":5,"instances":5,"events":120,"completed":3,"order":1,"incomplete":1,"timing":4,"tolerated":1,"aborted":0,"dropped":2}
binding 5: logic /usr/bin/app:0x1148 model=loop per process
  instances=10 events=40 completed=9 order=0 incomplete=0 timing=0 aborted=1 dropped=7
{"type":"stats","id":5,"path":"/usr/bin/app","start":"0x1148","tag":"","kind":"logic","model":"loop","per":"process","tolerance_k":1,"tolerance_w":1,"instances":10,"events":40,"completed":9,"order":0,"incomplete":0,"timing":0,"tolerated":0,"aborted":1,"dropped":7}
binding 6: logic /usr/bin/app:0x1148 model=loop per process
  instances=1 events=2 completed=0 order=0 incomplete=0 timing=0 aborted=0 dropped=0
{"type":"stats","id":6,"path":"/usr/bin/app","start":"0x1148","tag":"","kind":"logic","model":"loop","per":"process","tolerance_k":1,"tolerance_w":1,"instances":1,"events":2,"completed":0,"order":0,"incomplete":0,"timing":0,"tolerated":0,"aborted":0,"dropped":0}
refused: id=7 kind=logical path=/usr/bin/app start=0x1148 tag=- model=loop
T
diff -u "$tmp/want" "$tmp/stats" | sed 's/^/# /'
cmp -s "$tmp/want" "$tmp/stats"
ok $? "kind=logic lines: a path with a blank, every count, the counts in any order, tolerance, tag, a newer field skipped; an unknown kind refused"

# tlob stats --format prometheus|openmetrics of a logical binding, from a
# control tree of files (as 51-kmod-alive.t): the tlob_logic_* families,
# labelled path, model and tag, each count exact; a section's families
# lack it and its families lack the section; prometheus_client reads it.
if [ "$(id -u)" = 0 ]; then
	app=$BUILD/tests/unit/tool/fixtures/app
	root=$tmp/ctl
	mkdir "$root"
	echo 1 >"$root/enable"
	echo '[nop] printk panic signal' >"$root/reactors"
	cat >"$root/monitor" <<EOT
p $app:0x1139 0x1148 threshold=5000 tag=ui
EOT
	cat >"$root/stats" <<EOT
id=3 path=$app start=0x1139 stop=0x1148 tag=ui threshold=5000 min=0 tolerance=1/1 holders=monitor windows=4 violations=1 errors=0 aborted=0 dropped=0 min_ns=10 max_ns=20 mean_ns=15 sum_ns=60 hist=4:4
id=4 kind=logic path=$app start=0x1139 tag=cam0 model=frame_flow per=task tolerance=2/5 holders=monitor instances=5 events=120 completed=3 order=1 incomplete=2 timing=7 tolerated=1 aborted=4 dropped=6
EOT
	"$TLOB" stats --backend kmod --root "$root" --format prometheus >"$tmp/prom" 2>"$tmp/err"
	ok $? "metrics: exit 0 with a logical binding" || sed 's/^/#   /' "$tmp/err"
	L="{binding=\"4\",path=\"$app\",model=\"frame_flow\",tag=\"cam0\"}"
	got=""
	for f in instances events completed order_violations incomplete timing_violations tolerated aborted dropped; do
		got="$got $f=$(sed -n "s/^tlob_logic_${f}_total$(printf '%s' "$L" | sed 's/[][\\.*^$/]/\\&/g') //p" "$tmp/prom")"
	done
	is "$got" " instances=5 events=120 completed=3 order_violations=1 incomplete=2 timing_violations=7 tolerated=1 aborted=4 dropped=6" \
		"metrics: every tlob_logic_* counter, labelled path, model and tag" || sed 's/^/#   /' "$tmp/prom"
	! grep -q "^tlob_logic_[a-z_]*{[^}]*start=" "$tmp/prom" && ! grep -q "^tlob_windows_total{[^}]*model=" "$tmp/prom" &&
		grep -q "^tlob_windows_total{[^}]*tag=\"ui\"} 4$" "$tmp/prom" && grep -qxF "tlob_bindings 2" "$tmp/prom"
	ok $? "metrics: the logical binding in no section's family, the section in no logic one" ||
		sed 's/^/#   /' "$tmp/prom"
	if /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
		for fmt in openmetrics prometheus; do
			"$TLOB" stats --backend kmod --root "$root" --format $fmt |
				/usr/bin/python3 "$(dirname "$0")/metrics_check.py" $fmt >"$tmp/parsed"
			ok $? "metrics: $fmt with logic families is read by prometheus_client" ||
				sed 's/^/#   /' "$tmp/parsed"
		done
	else
		echo "Bail out! python3-prometheus-client is not installed (.ci/packages)"
		exit 255
	fi
else
	for _i in 1 2 3 4 5; do skip "metrics: needs root (the tool checks it first)"; done
fi
tap_done
