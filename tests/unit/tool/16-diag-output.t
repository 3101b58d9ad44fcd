#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A violation's diagnosis as the tool prints it (output_drv.c -d), byte
# for byte as diag.golden: running with a symbolized user stack, sleeping
# with a kernel stack and a waker, waiting behind tasks that ran instead
# (every policy, and numbers that are none), a process gone (raw
# addresses and a note), a file that is not the one mapped (no name, the
# note), no stack at all, full stacks, and comms, paths and symbol names
# holding quotes, backslashes, control bytes and ill-formed UTF-8 (JSON
# escapes them; text by its one rule, \\n \\e \\xNN, so no name makes a line
# of its own). Every JSON line is valid JSON with the contract's keys in
# their order (user/README.md), an object that does not fit fails, and the
# formatter makes no printf-family call for either form.
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/output_drv
GOLDEN=$(dirname "$0")/diag.golden

out=$("$DRV" -d | od -An -tx1 | tr -d ' \n')
want=$(od -An -tx1 <"$GOLDEN" | tr -d ' \n')
if [ "$out" = "$want" ]; then
	ok 0 "diagnoses byte for byte as diag.golden ($(wc -l <"$GOLDEN") lines)"
else
	ok 1 "diagnoses byte for byte as diag.golden"
	"$DRV" -d | diff -a "$GOLDEN" - | head -20 | sed 's/^/# /'
fi

"$DRV" -d | grep -a '^{' >"$tmp/json"
python3 - "$tmp/json" <<'PY'
import json, sys
keys = ["type", "kind_name", "pid", "tgid", "binding_id", "start_ns", "cpu", "migrations",
        "state", "waker_pid", "waker_comm", "ustack_when", "ustack", "kstack", "ran"]
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    assert list(o)[:len(keys)] == keys, list(o)
    assert o["kind_name"] == "diag" and o["state"] in ("running", "waiting", "sleeping")
    assert o["ustack_when"] in ("deadline", "deferred", "none")
    for f in o["ustack"]:
        assert list(f)[:3] == ["ip", "sym", "file"] and f["ip"].startswith("0x"), f
    for f in o["kstack"]:
        assert list(f) == ["ip", "sym"], f
    for r in o["ran"]:
        assert list(r) == ["pid", "comm", "policy", "prio", "ns"], r
    n += 1
assert n == 14, n
PY
ok $? "14 JSON lines, valid, the contract's keys in its order"
grep -aq '^    at diag_spin_leaf+0x5c (/opt/tlob/bin/tlob-diag)$' "$GOLDEN" &&
	grep -aq '^  woken by: 901:a"b\\\\c/d$' "$GOLDEN" &&
	grep -aq '^  ran instead: a"b\\\\c/d-1000 fifo/49 1ns$' "$GOLDEN"
ok $? "golden: frames as NAME+0xOFF (FILE), the waker as PID:COMM, ran instead as COMM-PID policy/prio time"
"$DRV" -d | grep -aq '^short buffers: json \([0-9]*\) of \1 fail, text \([0-9]*\) of \2 fail$'
ok $? "an object or text that does not fit fails, at every length short of it"

counts=$("$DRV" -dc)
for what in "diag json" "diag text"; do
	c=$(printf '%s\n' "$counts" | sed -n "s/^$what //p")
	is "${c:-missing}" 0 "$what: no printf-family call (14 diagnoses)"
done
tap_done
