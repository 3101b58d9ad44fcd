#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Parse tlob's metrics with prometheus_client's own parsers (Debian's
python3-prometheus-client) and print what they read, one line each:

    family NAME TYPE UNIT
    sample NAME {"label": "value", ...} VALUE

so a test can compare exact values, label values unescaped. Exits 1 with
"error: ..." when the text is not valid: what the parser refuses, and for
text 0.0.4, whose parser is lax, what it lets through: a sample outside
its TYPE'd family (it becomes an untyped metric), a histogram whose
buckets are not cumulative or whose _count is not its +Inf bucket.

    metrics_check.py openmetrics|prometheus <TEXT
"""
import json
import sys

from prometheus_client import parser as prom
from prometheus_client.openmetrics import parser as om

BINDING_LABELS = {"binding", "path", "start", "stop", "tag"}
# An alive binding's families (tlob_alive_*): its checkpoint, no STOP.
ALIVE_LABELS = {"binding", "path", "checkpoint", "tag"}
# A logical binding's families (tlob_logic_*): its model, no START/STOP.
LOGIC_LABELS = {"binding", "path", "model", "tag"}
# A binding's filter, where it has one: one of these, or none.
FILTER_LABELS = [set(), {"pid"}, {"tgid"}]


def check_histogram(fam):
    groups = {}
    for s in fam.samples:
        key = tuple(sorted((k, v) for k, v in s.labels.items() if k != "le"))
        groups.setdefault(key, []).append(s)
    for key, samples in groups.items():
        buckets = [s for s in samples if s.name.endswith("_bucket")]
        les = [float(s.labels["le"]) for s in buckets]
        if not buckets or les[-1] != float("inf"):
            raise ValueError(f"{fam.name}{dict(key)}: no +Inf bucket")
        if les != sorted(les) or len(set(les)) != len(les):
            raise ValueError(f"{fam.name}{dict(key)}: buckets out of order")
        values = [s.value for s in buckets]
        if values != sorted(values):
            raise ValueError(f"{fam.name}{dict(key)}: buckets not cumulative")
        count = [s.value for s in samples if s.name.endswith("_count")]
        if count != [values[-1]]:
            raise ValueError(f"{fam.name}{dict(key)}: _count {count} is not +Inf {values[-1]}")
        if len([s for s in samples if s.name.endswith("_sum")]) != 1:
            raise ValueError(f"{fam.name}{dict(key)}: no _sum")


def main():
    fmt = sys.argv[1]
    text = sys.stdin.read()
    parse = om.text_string_to_metric_families if fmt == "openmetrics" \
        else prom.text_string_to_metric_families
    try:
        families = list(parse(text))
        for fam in families:
            if fam.type in ("untyped", "unknown"):
                raise ValueError(f"{fam.name}: a sample outside its TYPE'd family")
            if fam.type == "histogram":
                check_histogram(fam)
            for s in fam.samples:
                keys = set(s.labels) - {"le"}
                want = ALIVE_LABELS if fam.name.startswith("tlob_alive_") else \
                    LOGIC_LABELS if fam.name.startswith("tlob_logic_") else BINDING_LABELS
                if fam.name != "tlob_bindings" and keys - want not in FILTER_LABELS:
                    raise ValueError(f"{s.name}: labels {sorted(s.labels)}")
                if fam.name != "tlob_bindings" and not want <= keys:
                    raise ValueError(f"{s.name}: labels {sorted(s.labels)}")
            # One series per label set: text 0.0.4's parser keeps both.
            seen = set()
            for s in fam.samples:
                key = (s.name, tuple(sorted(s.labels.items())))
                if key in seen:
                    raise ValueError(f"{s.name}: two samples with labels {dict(key[1])}")
                seen.add(key)
    except ValueError as e:
        print(f"error: {e}")
        return 1
    for fam in families:
        print(f"family {fam.name} {fam.type} {getattr(fam, 'unit', '') or '-'}")
        for s in fam.samples:
            # Sorted, le last (it follows a binding's labels).
            labels = json.dumps(dict(sorted(s.labels.items(), key=lambda kv: (kv[0] == "le", kv[0]))),
                                ensure_ascii=False)
            # One spelling for both parsers (one reads 2, the other 2.0).
            value = int(s.value) if float(s.value).is_integer() else repr(float(s.value))
            print(f"sample {s.name} {labels} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
