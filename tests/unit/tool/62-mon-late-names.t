#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob mon while a diagnosis' names take long (mon_drv.c: -K, /proc/kallsyms
# takes MS to read, as the emulated guests' 1.4 s; -U, a process takes MS
# longer to report to libdwfl, as their 50 to 240 ms): a violation's line
# is printed when it comes, not after the names (its print-latency target
# is 100 ms); the diagnosis comes once named, with its names, after a line
# naming its violation in text when something was printed in between (in
# JSON the object carries pid, binding_id, start_ns anyway); exec=
# commands wait for it past TLOB_EXEC_WAIT_NS (1 s) and past the window's
# record; --stop-on-violation and the end of -d print it.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/mon.sh"
# order: the violations' lines, the late line, the diagnosis' first line and
# its kernel frame, in the order printed
order() {
	awk '/^VIOLATION / { printf "VIOLATION|" } /^DIAGNOSIS / { printf "DIAGNOSIS|" }
	     /^  where: / { printf "where|" } /^    at fake_kernel_fn\+0x1000$/ { printf "kernel|" }' "$tmp/out"
}

run -K 600 -V vgv -- -d 50ms -b "$S"
expect 0 "text, names read in 600 ms: exit 0"
is "$(order)" "VIOLATION|VIOLATION|DIAGNOSIS|where|kernel|" \
	"... the second violation printed before the first one's diagnosis, which has its kernel names"
grep -qx "DIAGNOSIS      pid=[0-9]* tgid=[0-9]* binding=1 start_ns=[0-9]* (late: its stacks were being named)" "$tmp/out"
ok $? "... after a line naming its violation" || sed 's/^/#   /' "$tmp/out"
grep -qx "    at fake_poll+0x10 ($DRV)" "$tmp/out"
ok $? "... its user stack named too (when it came)" || sed 's/^/#   /' "$tmp/out"

run -K 600 -V vgv -- -j -d 50ms -b "$S"
expect 0 "JSON: exit 0"
sed -n 's/^{"type":"record",.*"kind_name":"\([a-z]*\)".*/\1/p; s/^{"type":"diagnosis","kind_name":"diag".*/diag/p' "$tmp/out" |
	tr '\n' ' ' >"$tmp/kinds"
is "$(cat "$tmp/kinds")" "violation violation diag " "... the violations, then the diagnosis" ||
	sed 's/^/#   /' "$tmp/out"
grep '^{"type":"diagnosis","kind_name":"diag"' "$tmp/out" | grep -q '"kstack":\[{"ip":"0xffffffff81000000","sym":"fake_kernel_fn+0x1000"}'
ok $? "... with its kernel names" || sed 's/^/#   /' "$tmp/out"

run -K 600 -V vgvo -- --stop-on-violation -d 10s -b "$S"
expect 3 "--stop-on-violation while the names are read: exit 3"
is "$(order)" "VIOLATION|VIOLATION|DIAGNOSIS|where|kernel|" \
	"... the diagnosis printed with its names before mon ends"

run -V vg -K 0 -- -d 50ms -b "$S"
is "$(order)" "VIOLATION|where|kernel|" \
	"names read at once, nothing printed meanwhile: the diagnosis right under its violation"

# Each line stamped as it comes out (mon_drv's stdout is line-buffered).
timeout 30 "$DRV" -U 2000 -K 0 -V vgv -- -d 50ms -b "$S" 2>"$tmp/err" |
	while IFS= read -r line; do printf '%s %s\n' "$(date +%s%N)" "$line"; done >"$tmp/stamped"
sed 's/^[0-9]* //' "$tmp/stamped" >"$tmp/out"
rc=$(sed -n 's/^exit //p' "$tmp/out")
expect 0 "a process that takes 2 s to report to libdwfl: exit 0"
is "$(order)" "VIOLATION|VIOLATION|DIAGNOSIS|where|kernel|" \
	"... the second violation printed before the first one's diagnosis"
gap=$(awk '/ VIOLATION / { t[++n] = $1 } END { printf "%d", n == 2 ? (t[2] - t[1]) / 1000000 : -1 }' "$tmp/stamped")
[ "$gap" -ge 0 ] && [ "$gap" -lt 1000 ]
ok $? "... at once, not after the report (${gap} ms after the first; the report takes 2000)"
grep -qx "    at fake_poll+0x10 ($DRV)" "$tmp/out"
ok $? "... and the diagnosis has its user stack's names" || sed 's/^/#   /' "$tmp/out"

# 4100 violations with a diagnosis in one poll, names read in 1 s: 4096 wait
# for them (NAMER_MAX, tlob_mon.c), the last 4 print at once, raw.
run -K 1000 -V "$(printf 'vg%.0s' $(seq 4100))" -- -j -d 50ms -b "$S"
expect 0 "a storm of 4100 diagnoses while the names are read: exit 0"
is "$(grep -c '^{"type":"diagnosis","kind_name":"diag".*"sym":"fake_kernel_fn+0x1000"' "$tmp/out") $(grep -c '^{"type":"diagnosis","kind_name":"diag".*"kstack":\[{"ip":"0xffffffff81000000","sym":null}' "$tmp/out")" \
	"4096 4" "... 4096 named, the 4 past the bound at once with their addresses"

mkdir "$tmp/e1" "$tmp/e2"
run -K 1500 -V vg -- -d 2s -b "$S" --on-violation "exec=env >$tmp/e1/\$\$"
expect 0 "exec=, names read in 1.5 s (longer than TLOB_EXEC_WAIT_NS): exit 0"
f=$(ls "$tmp/e1"/* 2>/dev/null | head -1)
[ "$(ls "$tmp/e1" | wc -l)" = 1 ] && [ "$(envof "$f" TLOB_CPU)" = 1 ] &&
	[ "$(envof "$f" TLOB_KSTACK)" = "fake_kernel_fn+0x1000" ]
ok $? "... the command ran once, with the diagnosis and its kernel names" ||
	{ ls -l "$tmp/e1" | sed 's/^/#   /'; [ -n "$f" ] && grep '^TLOB_' "$f" | sed 's/^/#   /'; }
run -K 600 -V vgw -- -d 1s -b "$S" --on-violation "exec=env >$tmp/e2/\$\$"
f=$(ls "$tmp/e2"/* 2>/dev/null | head -1)
[ "$(ls "$tmp/e2" | wc -l)" = 1 ] && [ "$(envof "$f" TLOB_CPU)" = 1 ] &&
	[ "$(envof "$f" TLOB_KSTACK)" = "fake_kernel_fn+0x1000" ]
ok $? "exec=, the window's record before the names: the command still waits for the diagnosis" ||
	{ ls -l "$tmp/e2" | sed 's/^/#   /'; [ -n "$f" ] && grep '^TLOB_' "$f" | sed 's/^/#   /'; }

tap_done
