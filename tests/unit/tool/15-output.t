#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The formatter byte for byte (output_drv.c): records of every kind and
# verdict, with comms and tags holding quotes, backslashes, control bytes,
# DEL, valid and ill-formed UTF-8, arrays full without a NUL, times at
# each unit's edges; transitions; escaping cut to short buffers; objects
# that do not fit fail. output.golden holds every line as the tool must
# write it: a time exactly half-way between two thousandths rounds up,
# always (1234500 ns is 1.235ms, 999999500 ns is 1000.000ms: rounded
# from the exact value, where a double division lands on either side);
# a minimum in the records that carry one (min=), every twelfth window
# early; react in JSON and (tolerated) in text (tolerance=). Then the
# formatter's printf-family calls, counted by wrapping them at link
# time: none, for any line.
. "$(dirname "$0")/tap.sh"
DRV=${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/output_drv
GOLDEN=$(dirname "$0")/output.golden

out=$("$DRV" | od -An -tx1 | tr -d ' \n')
want=$(od -An -tx1 <"$GOLDEN" | tr -d ' \n')
if [ "$out" = "$want" ]; then
	ok 0 "output byte for byte as output.golden ($(wc -l <"$GOLDEN") lines)"
else
	ok 1 "output byte for byte as output.golden"
	"$DRV" | diff "$GOLDEN" - | head -20 | sed 's/^/# /'
fi

counts=$("$DRV" -c)
for what in "record json" "record text" "transition json" "transition text"; do
	c=$(printf '%s\n' "$counts" | sed -n "s/^$what //p")
	is "${c:-missing}" 0 "$what: no printf-family call (48 lines)"
done
tap_done
