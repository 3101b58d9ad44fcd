#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Every JSON object the tool prints is one of docs/json/tlob.schema.json's,
# checked by a real validator (python3-jsonschema): the formatter's golden
# outputs (records, transitions, diagnoses, alive cycles and bindings; the
# goldens are the tool's output byte for byte, tests 15, 16 and 18), what
# the drivers print (json_emit, logic_drv, mon_drv's session with its
# summary) and, as root, tlob status, stats and list against a control
# tree of plain files. Every kind of object the schema names must have
# been seen; and the validator must refuse objects that break it.
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
build = os.path.abspath(os.environ.get("BUILD", os.path.join(top, "build")))
tool = os.path.join(build, "user", "tlob")
drv = os.path.join(build, "tests", "unit", "tool")
n = 0


def ok(cond, name):
    global n
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, name))
    return cond


def out(*argv, stdin=None):
    p = subprocess.run(argv, input=stdin, capture_output=True, timeout=60)
    return p.stdout.decode("utf-8", "replace")


def json_lines(text):
    return [line for line in text.splitlines() if line.startswith("{")]


schema = json.load(open(os.path.join(top, "docs", "json", "tlob.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
defs = schema["$defs"]


# One validator per $defs entry, to tell which kind an object is.
def_validators = {k: jsonschema.Draft202012Validator(dict(d, **{"$defs": defs})) for k, d in defs.items()}


def kind_of(obj):
    """The $defs entry obj is valid under (None: none, or more than one)."""
    hits = [k for k, v in def_validators.items() if v.is_valid(obj)]
    return hits[0] if len(hits) == 1 else None


sources = {}
for g in ("output", "diag", "alive"):
    sources[g + ".golden"] = json_lines(open(os.path.join(top, "tests", "unit", "tool", g + ".golden")).read())
sources["json_emit"] = json_lines(out(os.path.join(drv, "json_emit")))[:4]
sources["logic_drv records"] = json_lines(out(os.path.join(drv, "logic_drv"), "records"))
stats_lines = (
    "id=4 kind=logic path=/opt/app dir/bin/camd start=0x1139 tag=cam0 model=frame_flow per=task "
    "tolerance=2/5 holders=monitor,812:tlob instances=5 events=120 completed=3 order=1 incomplete=1 "
    "timing=4 tolerated=1 aborted=0 dropped=2\n")
sources["logic_drv stats"] = json_lines(out(os.path.join(drv, "logic_drv"), "stats", stdin=stats_lines.encode()))
app = os.path.join(drv, "fixtures", "app")
sources["mon_drv -j"] = json_lines(out(os.path.join(drv, "mon_drv"), "-V", "ovo", "--", "-j", "-d", "50ms",
                                       "-b", app + ":frame_begin,frame_end,5us"))

if os.geteuid() == 0:
    fb, fe = ("0x%x" % int(out(os.path.join(drv, "elfsym_drv"), app, s), 0) for s in ("frame_begin", "frame_end"))
    with tempfile.TemporaryDirectory() as root:
        files = {
            "monitor": "p %s:%s %s threshold=10000000 tag=ui tgid=42\n"
                       "l %s model=loop states=ready,in_frame events=frame_begin@%s,frame_end@%s "
                       "edges=0.0.1,1.1.0 final=0 initial=0 per=process\n" % (app, fb, fe, app, fb, fe),
            "stats": "id=7 path=%s start=%s stop=%s tag=ui windows=10 violations=2 errors=0 aborted=1 "
                     "dropped=4 min_ns=1000 max_ns=20000000 mean_ns=3000000 sum_ns=30000000 "
                     "hist=9:1,21:7,24:2\n" % (app, fb, fe),
            "enable": "1\n",
            "reactors": "[nop] printk panic signal\n",
        }
        for name, text in files.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        common = ["--json", "--backend", "kmod", "--root", root]
        for cmd in ("status", "stats", "list"):
            sources["tlob " + cmd] = json_lines(out(tool, cmd, *common))
else:
    print("# not root: tlob status, stats and list are not run")

seen = {}
for src, lines in sorted(sources.items()):
    ok(len(lines) > 0, "%s prints JSON objects (%d)" % (src, len(lines)))
    bad = []
    for line in lines:
        obj = json.loads(line)
        errs = sorted(validator.iter_errors(obj), key=lambda e: e.path)
        if errs:
            bad.append((line, errs[0].message))
        else:
            kind = kind_of(obj)
            seen[kind] = seen.get(kind, 0) + 1
    if not ok(not bad, "every object of %s is valid under the schema" % src):
        for line, msg in bad[:3]:
            print("#   %s\n#   -> %s" % (line[:200], msg[:300]))

unseen = sorted(k for k in defs if k not in seen and
                (os.geteuid() == 0 or k not in ("status", "backend", "binding_logic")))
ok(not unseen, "every object kind of the schema was printed and checked (%s)" %
   ", ".join("%s %d" % (k, v) for k, v in sorted(seen.items(), key=lambda kv: str(kv[0]))))
if unseen:
    print("#   never seen: " + ", ".join(unseen))

# The validator refuses what breaks the contract.
record = json.loads(sources["output.golden"][0])
broken = {
    "a record whose pid is a string": dict(record, pid="812"),
    "a record without its verdict": {k: v for k, v in record.items() if k != "verdict"},
    "an object of no known type": dict(record, type="window"),
    "a binding whose stop is neither an offset nor \"ret\"": dict(
        json.loads(sources["json_emit"][3]), stop="end"),
    "a diagnosis frame whose ip is not hex": json.loads(sources["diag.golden"][0]) | {
        "kstack": [{"ip": "ffff1234", "sym": None}]},
    "a diagnosis without its type": {k: v for k, v in json.loads(sources["diag.golden"][0]).items()
                                     if k != "type"},
    "a header of another version of the contract": {"type": "header", "version": 2, "tool": "tlob",
                                                    "tool_version": "0.1", "backend": "kmod"},
}
for name, obj in broken.items():
    ok(list(validator.iter_errors(obj)) != [], "refused: " + name)

print("1..%d" % n)
