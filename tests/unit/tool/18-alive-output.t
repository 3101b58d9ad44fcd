#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Alive supervision as the tool prints it (output_drv.c -a), byte for byte
# as alive.golden: cycles of every verdict (ok, too few, too many,
# aborted) and detector, several cycles without a checkpoint in one
# record, violations held back by tolerance=, one count or a range
# expected, comms and tags holding quotes, control bytes and ill-formed
# UTF-8; then alive bindings' statistics and binding objects. Every JSON
# line is valid JSON with every struct tlob_alive_record field, the lines
# say what they must (checked here by hand, not only against the golden
# file), an object that does not fit fails, and a cycle's line costs no
# printf-family call (as a window's).
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/output_drv
GOLDEN=$(dirname "$0")/alive.golden

out=$("$DRV" -a | od -An -tx1 | tr -d ' \n')
want=$(od -An -tx1 <"$GOLDEN" | tr -d ' \n')
if [ "$out" = "$want" ]; then
	ok 0 "alive output byte for byte as alive.golden ($(wc -l <"$GOLDEN") lines)"
else
	ok 1 "alive output byte for byte as alive.golden"
	"$DRV" -a | diff -a "$GOLDEN" - | head -20 | sed 's/^/# /'
fi

"$DRV" -a | grep -a '^{' >"$tmp/json"
python3 - "$tmp/json" <<'PY'
import json, sys
cycle = ["type", "start_ns", "end_ns", "period_ns", "detect_latency_ns", "pid", "tgid",
         "binding_id", "checkpoints", "expect_min", "expect_max", "cycles", "verdict",
         "verdict_name", "detector", "detector_name", "react", "abort_reason",
         "abort_reason_name", "comm", "tag"]
names = {0: "ok", 3: "aborted", 5: "too_few", 6: "too_many"}
n = {"alive_cycle": 0, "stats": 0, "binding": 0}
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    n[o["type"]] += 1
    if o["type"] == "alive_cycle":
        assert list(o) == cycle, list(o)
        assert o["verdict_name"] == names[o["verdict"]], o
        assert o["detector_name"] in ("hrtimer", "checkpoint"), o
        assert isinstance(o["react"], bool)
    else:
        assert o["kind"] == "alive" and o["per"] in ("process", "task"), o
        assert "stop" not in o and "budget_ns" not in o, o
        if o["type"] == "stats":
            assert o["mean_checkpoints"] == round(o["sum_checkpoints"] / o["cycles"], 2) \
                if o["cycles"] else o["mean_checkpoints"] == 0, o
assert n == {"alive_cycle": 24, "stats": 3, "binding": 3}, n
PY
ok $? "24 cycles and 3 bindings' statistics and objects: valid JSON, every field, names and means right"

# has LINE NAME: the golden file has LINE, whole
has() { grep -aqxF -- "$1" "$GOLDEN"; ok $? "$2" || echo "#   missing: $1"; }
has "alive ok       worker-812 tgid=812 binding=1 period=100ms checkpoints=10 expect=8..12" \
	"an ok cycle: who, the binding, the period, the count and the range expected"
has "ALIVE TOO MANY 0123456789abcdef-818 tgid=812 binding=3 period=100ms checkpoints=19 expect=8..12 detector=hrtimer latency=250.000ms" \
	"too many: upper case, the detector and its latency"
has "ALIVE TOO FEW  a\"b\\\\c/d-821 tgid=812 binding=2 tag=abcdefghijklmn\\xc3 period=100ms cycles=10 checkpoints=0 expect=8..12 detector=checkpoint latency=0ns" \
	"too few over 10 cycles without a checkpoint: cycles=10, found by a checkpoint"
has "ALIVE TOO FEW  a\"b\\\\c/d-829 tgid=812 binding=2 tag=worker period=3600s checkpoints=2 expect=10 detector=checkpoint latency=<0 (tolerated)" \
	"too few, one count expected, held back by tolerance="
has "alive aborted  ?-827 tgid=812 binding=4 period=100ms checkpoints=10 expect=8..12 reason=disable" \
	"an instance's end: aborted, with the reason; no comm shows as ?"
has "binding 4: alive /usr/bin/app:0x113a period=250us expect=10$(printf '\302\261')2 per task tag=hb" \
	"statistics: the terms, expect±margin, per task"
has "  cycles=120 too_few=3 too_many=1 errors=0 aborted=4 dropped=5 instances=6 tolerated=2 (tolerance 2/5)" \
	"statistics: the counts, the tolerance"
has "  checkpoints per cycle min=7 mean=9.99 max=13" "statistics: checkpoints per cycle, the mean to 2 decimals"
has "  cycles=0 too_few=0 too_many=0 errors=0 aborted=0 dropped=0 instances=0" \
	"statistics of a binding with no cycle yet: no checkpoints line"
[ "$(grep -ac '^  checkpoints per cycle' "$GOLDEN")" = 2 ]
ok $? "... (2 of 3 bindings have cycles)"
"$DRV" -a | grep -aq '^short buffers: json \([0-9]*\) of \1 fail, text \([0-9]*\) of \2 fail$'
ok $? "a cycle's object or line that does not fit fails, at every length short of it"

counts=$("$DRV" -ac)
for what in "alive json" "alive text"; do
	c=$(printf '%s\n' "$counts" | sed -n "s/^$what //p")
	is "${c:-missing}" 0 "$what: no printf-family call (24 cycles)"
done
tap_done
