#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# The tool's JSON is valid UTF-8 whatever bytes a comm, tag or path holds
# (a comm the kernel cut inside a character, Latin-1 file names, overlong
# forms, surrogates): each line decodes with a strict UTF-8 decoder and a
# JSON parser, and every ill-formed sequence became U+FFFD the way
# Unicode's recommended practice (Python's "replace") does it.
import json
import os
import subprocess
import sys

build = os.environ.get("BUILD") or os.path.join(os.path.dirname(__file__), "../../../build")
cases = [
    ("ascii", b"worker"),
    ("valid 2-, 3-, 4-byte", "\u00e9\u20ac\U0001F600x".encode()),
    ("comm cut inside a 2-byte char", b"abcdefghijklmn\xc3"),
    ("comm cut inside a 3-byte char", b"abcdefghijklm\xe2\x82"),
    ("comm cut inside a 4-byte char", b"abcdefghijkl\xf0\x9f\x98"),
    ("full 16 bytes, no NUL, cut char", b"abcdefghijklmno\xe2\x82\xac"),
    ("lone continuation bytes", b"a\x80\xbfb"),
    ("Latin-1", b"caf\xe9 na\xefve"),
    ("overlong forms", b"\xc0\x80\xc1\xbf\xe0\x80\x80"),
    ("surrogates", b"\xed\xa0\x80\xed\xbf\xbf"),
    ("above U+10FFFF", b"\xf4\x90\x80\x80\xf5\xff"),
    ("quote, backslash, control", b"a\"b\\c\td\x01\x7f"),
]
n = 0
failed = 0


def ok(cond, name):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, name))
    if not cond:
        failed += 1


out = subprocess.run([build + "/tests/unit/tool/json_utf8"] + [c[1].hex() for c in cases],
                     stdout=subprocess.PIPE, check=False)
ok(out.returncode == 0, "json_utf8 ran")
lines = out.stdout.split(b"\n")[:-1]
ok(len(lines) == 3 * len(cases), "three lines per case")
for i, (name, raw) in enumerate(cases):
    for k, what in enumerate(("record", "binding", "escape")):
        line = lines[3 * i + k] if 3 * i + k < len(lines) else b""
        try:
            obj = json.loads(line.decode("utf-8", errors="strict"))
        except (UnicodeDecodeError, ValueError) as e:
            ok(False, "%s: %s line is strict UTF-8 JSON (%s)" % (name, what, e))
            continue
        ok(True, "%s: %s line is strict UTF-8 JSON" % (name, what))
        if what == "record":
            want = raw[:16].split(b"\0")[0].decode("utf-8", errors="replace")
            ok(obj["comm"] == want and obj["tag"] == want,
               "%s: comm and tag are the bytes, ill-formed ones as U+FFFD: %r" % (name, obj["comm"]))
        elif what == "binding":
            want = raw.decode("utf-8", errors="replace")
            ok(obj["path"] == want, "%s: path %r" % (name, obj["path"]))
        else:
            want = raw.decode("utf-8", errors="replace")
            ok(want.startswith(obj["s"]), "%s: a cut string ends after a whole character" % name)
print("1..%d" % n)
sys.exit(1 if failed else 0)
