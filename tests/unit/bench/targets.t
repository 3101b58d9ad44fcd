#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmarks' targets can fail (tests/bench/lib/bench-ratio.awk and
# bench-pct.awk, run with busybox awk as in the guest), a failed one is a
# failed TAP check of its script (bench.sh: targets), and RESULTS.md is
# built from one run's record only (tests/bench/results).
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$top/tests/bench/lib
AWK="busybox awk"
$AWK 'BEGIN { exit 0 }' 2>/dev/null || AWK=awk

# ---- bench-ratio.awk -------------------------------------------------
# 10 rounds: base 10000; module floor 1 % slower; kmod_a 2 % (1 pt above
# its floor); a BPF floor 3 %, bpf_a 4 %, measured against that floor
# (1 pt); loaded 0.2 %; the BPF pair only in 3 rounds.
r=1
while [ $r -le 10 ]; do
	j=$((r % 3))	# a little noise, the same in every variant
	echo "t base $r $((10000 + j))"
	echo "t floor $r $((9900 + j))"
	echo "t kmod_a $r $((9800 + j))"
	echo "t loaded $r $((9980 + j))"
	if [ $r -le 3 ]; then
		echo "t bfloor $r $((9700 + j))"
		echo "t bpf_a $r $((9600 + j))"
	fi
	r=$((r + 1))
done >"$tmp/samples"
cat >"$tmp/labels" <<'L'
base|absent||
floor|module floor||
bfloor|BPF floor||bfloor
loaded|loaded|over:0.5|
kmod_a|module A|floor:0.5;floor:1.5|
bpf_a|BPF A|floor:1.5;floor:0.5|bfloor
typo|misspelt|noise:base|
L
echo "t typo 1 10000" >>"$tmp/samples"
ratio() {
	$AWK -v table=t -v base=base -v floor=floor -v order="base floor bfloor loaded kmod_a bpf_a typo" \
		-v labels="$tmp/labels" -v verdicts="$tmp/v" "$@" -f "$lib/bench-ratio.awk" "$tmp/samples"
}
rm -f "$tmp/v"
ratio >"$tmp/table"
ok $? "bench-ratio.awk runs"
is "$(grep -c '^PASS|' "$tmp/v")" 3 "three targets pass" || diag <"$tmp/v"
is "$(grep -c '^FAIL|' "$tmp/v")" 3 "three fail (two thresholds under the measured value, one misspelt)" || diag <"$tmp/v"
grep -q '^FAIL|module A: <= 0.5 pt above module floor: +1.00$' "$tmp/v"
ok $? "module A: 1 pt above its floor misses 0.5 pt" || diag <"$tmp/v"
grep -q '^PASS|module A: <= 1.5 pt above module floor: +1.00$' "$tmp/v"
ok $? "module A: meets 1.5 pt" || diag <"$tmp/v"
grep -q '^FAIL|BPF A: <= 0.5 pt above BPF floor: +1.00$' "$tmp/v"
ok $? "BPF A is measured against its own floor (1 pt), not the module's (3 pt)" || diag <"$tmp/v"
grep -q '^PASS|loaded: overhead <= 0.5 %: +0.20$' "$tmp/v"
ok $? "a stated overhead threshold" || diag <"$tmp/v"
grep -q "^FAIL|misspelt: unknown target 'noise:base'" "$tmp/v"
ok $? "an unknown target (the old noise:) fails, never passes" || diag <"$tmp/v"
grep -q '| module A | 10 | .* | module floor | +1.00 | .*(98 % CI +1.00..+1.00, 10 rounds) | FAIL, PASS |$' "$tmp/table"
ok $? "the table: the floor, the points, a 98 % interval from 10 rounds, the verdicts" || diag <"$tmp/table"
grep -q '| BPF A | 3 | .*(75 % CI +1.00..+1.00, 3 rounds)' "$tmp/table"
ok $? "3 rounds: the interval's coverage says 75 %" || diag <"$tmp/table"

# A difference that moves: the interval is the order statistics
r=1
while [ $r -le 10 ]; do
	echo "u base $r 10000"
	echo "u x $r $((10000 - r * 10))"	# 0.1 .. 1.0 % overhead
	r=$((r + 1))
done >"$tmp/s2"
echo "x|X|over:0.5|-" >"$tmp/l2"
echo "base|base||-" >>"$tmp/l2"
$AWK -v table=u -v base=base -v floor=- -v order="base x" -v labels="$tmp/l2" \
	-v verdicts="$tmp/v2" -f "$lib/bench-ratio.awk" "$tmp/s2" >"$tmp/t2"
grep -q 'overhead <= 0.5 %: +0.55 (98 % CI +0.20..+0.90, 10 rounds) | FAIL |' "$tmp/t2"
ok $? "median 0.55 % misses 0.5 %; its interval x(2)..x(9)" || diag <"$tmp/t2"

# cost: us per window above the floor
printf 'c none 1 100000\nc fl 1 50000\nc k 1 40000\n' >"$tmp/s3"
printf 'none|none||-\nfl|floor||fl\nk|K|cost:4;cost:6|fl\n' >"$tmp/l3"
$AWK -v table=c -v base=none -v floor=- -v order="none fl k" -v labels="$tmp/l3" -v cost=window \
	-v verdicts="$tmp/v3" -f "$lib/bench-ratio.awk" "$tmp/s3" >"$tmp/t3"
is "$(cut -d'|' -f1 "$tmp/v3" | tr '\n' ' ')" "FAIL PASS " "cost: 5 us per window above the floor misses 4, meets 6" || diag <"$tmp/t3"
grep -q '| K | 1 | 40000 | .* | 15.00 | 5.00 |' "$tmp/t3"
ok $? "cost columns: 15 us above no probe, 5 above the floor" || diag <"$tmp/t3"

# costx:V:K: the extra time above its floor against another variant's
# above that one's floor (10 us vs 5 us: 2x), per round
printf 'c none 1 100000\nc fa 1 50000\nc a 1 40000\nc fb 1 50000\nc b 1 33333.33\n' >"$tmp/s8"
printf 'none|none||-\nfa|floor A||fa\na|A||fa\nfb|floor B||fb\nb|B|costx:a:1.5;costx:a:2.5;costx:nosuch:9|fb\n' >"$tmp/l8"
$AWK -v table=c -v base=none -v floor=- -v order="none fa a fb b" -v labels="$tmp/l8" -v cost=window \
	-v verdicts="$tmp/v8" -f "$lib/bench-ratio.awk" "$tmp/s8" >"$tmp/t8"
is "$(cut -d'|' -f1 "$tmp/v8" | tr '\n' ' ')" "FAIL PASS FAIL " \
	"costx: 2x A's extra time misses 1.5x, meets 2.5x; an unknown variant fails" || diag <"$tmp/v8"
grep -q "^FAIL|B: <= 1.5x the extra us per window of A (each above its floor): 2.00$" "$tmp/v8"
ok $? "costx: the quotient, named after the other variant" || diag <"$tmp/v8"

# same:V:P: one variant against another, per round, in points of the base
r=1
while [ $r -le 5 ]; do
	echo "s none $r 10000"
	echo "s one $r $((9000 + r * 10))"
	echo "s three $r $((8800 + r * 10))"	# 2 pt slower than "one" every round
	echo "s twin $r $((9000 + r * 10 + (r % 2) * 50))"	# 0 or 0.5 pt
	r=$((r + 1))
done >"$tmp/s7"
printf 'none|none||-\none|one session||-\nthree|three|same:one:1;same:one:3|-\ntwin|twin|same:one:1|-\nbad|bad|same:nosuch:3|-\n' >"$tmp/l7"
echo "s bad 1 9000" >>"$tmp/s7"
$AWK -v table=s -v base=none -v floor=- -v order="none one three twin bad" -v labels="$tmp/l7" \
	-v verdicts="$tmp/v7" -f "$lib/bench-ratio.awk" "$tmp/s7" >"$tmp/t7"
is "$(cut -d'|' -f1 "$tmp/v7" | tr '\n' ' ')" "FAIL PASS PASS FAIL " \
	"same: 2 pt apart misses 1 pt and meets 3; 0..0.5 pt meets 1; an unknown variant fails" || diag <"$tmp/v7"
grep -q '^FAIL|three: within 1 pt of one session: 2.00$' "$tmp/v7"
ok $? "same: the median distance in points, named after the other variant" || diag <"$tmp/v7"

# worse=higher (latencies): ratio: targets on the per-round ratios, their median
printf 'l a 1 100\nl a 2 100\nl a 3 100\nl m 1 200\nl m 2 120\nl m 3 130\n' >"$tmp/s6"
printf 'a|absent||-\nm|M|ratio:1.25;ratio:1.5;over:25|-\n' >"$tmp/l6"
echo "PASS|an earlier table" >"$tmp/v6"
$AWK -v table=l -v base=a -v floor=- -v order="a m" -v labels="$tmp/l6" -v worse=higher \
	-v verdicts="$tmp/v6" -f "$lib/bench-ratio.awk" "$tmp/s6" >"$tmp/t6"
is "$(cut -d'|' -f1 "$tmp/v6" | tr '\n' ' ')" "PASS FAIL PASS FAIL " \
	"ratio 1.30 (median of 2.0, 1.2, 1.3) misses 1.25, meets 1.5; +30 % worse misses 25 %; verdicts add up" || diag <"$tmp/v6"
grep -q '| absent | 3 | 100 | 1.0000 | 1.0000..1.0000 | +0.00 |' "$tmp/t6" &&
	grep -q '| M | 3 | 130 | 1.3000 | 1.2000..2.0000 | +30.00 |' "$tmp/t6"
ok $? "worse=higher: a slower latency is a positive overhead (and no -0.00)" || diag <"$tmp/t6"

# ---- bench-pct.awk -------------------------------------------------------
# absent: 1..100 us; m: twice as slow; b: the same; z: never measured
i=1
while [ $i -le 100 ]; do
	echo "lat absent 1 $((i * 1000))"
	echo "lat m 1 $((i * 2000))"
	echo "lat b 1 $((i * 1000))"
	i=$((i + 1))
done | sort -k4,4n >"$tmp/s4"
cat >"$tmp/l4" <<'L'
absent|absent|
m|M|p99<=1.5*absent;max<=2*absent
b|B|p99<=1.5*absent;max<=1*absent;a plain note
z|Z|p99<=1.5*absent
L
$AWK -v table=lat -v ref=absent -v order="absent m b z" -v labels="$tmp/l4" \
	-v verdicts="$tmp/v4" -f "$lib/bench-pct.awk" "$tmp/s4" >"$tmp/t4"
is "$(cut -d'|' -f1 "$tmp/v4" | tr '\n' ' ')" "FAIL PASS PASS PASS SKIP " \
	"p99 2x misses 1.5x, max 2x meets 2x, B meets both, Z not measured" || diag <"$tmp/v4"
grep -q '| M | 100 | 100.0 | 198.0 | 200.0 | 2.00 | 2.00 | p99 <= 1.5x absent: FAIL (2.00x); max <= 2x absent: PASS (2.00x) |' "$tmp/t4"
ok $? "the latency table: p99, max, both ratios, the verdicts" || diag <"$tmp/t4"
grep -q '| B | .*; a plain note |' "$tmp/t4"
ok $? "notes stay notes" || diag <"$tmp/t4"

# absolute targets in ms (a reader's print latency): m's p99
# is 198 us, b's 99 us; a bound of 0.15 ms fails m and passes b
cat >"$tmp/lms" <<'L'
m|M|p99<=0.15ms;max<=1ms
b|B|p99<=0.15ms
z|Z|p99<=100ms
L
$AWK -v table=lat -v order="m b z" -v labels="$tmp/lms" \
	-v verdicts="$tmp/vms" -f "$lib/bench-pct.awk" "$tmp/s4" >"$tmp/tms"
is "$(cut -d'|' -f1 "$tmp/vms" | tr '\n' ' ')" "FAIL PASS PASS SKIP " \
	"p99 <= 0.15 ms: M's 198 us misses, B's 99 us meets; max <= 1 ms met; Z not measured" || diag <"$tmp/vms"
grep -q '| M | 100 | 100.0 | 198.0 | 200.0 | - | - | p99 <= 0.15 ms: FAIL (0.2 ms); max <= 1 ms: PASS (0.2 ms) |' "$tmp/tms"
ok $? "an absolute target is printed with its verdict and the value in ms" || diag <"$tmp/tms"

# The same table from mawk, Debian's awk (priority required: always
# there), which refuses a name used as an array and as a scalar that
# busybox awk lets by
mawk -v table=lat -v ref=absent -v order="absent m b z" -v labels="$tmp/l4" \
	-v verdicts="$tmp/v4m" -f "$lib/bench-pct.awk" "$tmp/s4" >"$tmp/t4m" 2>&1
cmp -s "$tmp/t4" "$tmp/t4m" && cmp -s "$tmp/v4" "$tmp/v4m"
ok $? "mawk prints the same table and verdicts" || diag <"$tmp/t4m"

# ---- bench.sh targets: TAP from the verdicts ----------------------------
printf 'PASS|a: fine\nFAIL|b: missed\nSKIP|c: not measured\n' >"$tmp/v5"
(
	cd "$tmp" || exit 1
	# bench.sh keeps its data in /tmp/bench/SCRIPT: a name of this test's own
	sh -c '. "$1/tests/guest/lib/tap.sh"; . "$1/tests/bench/lib/bench.sh"; targets "$2"; rm -rf "$DATA"; done_testing' \
		"targets-unit-$$" "$top" "$tmp/v5"
) >"$tmp/tap5"
rc=$?
is "$(grep -v '^1\.\.' "$tmp/tap5" | tr '\n' '/')" "ok 1 - target: a: fine/not ok 2 - target: b: missed/ok 3 # skip target: c: not measured/# failed 1 of 3: 2 (target: b: missed)/" \
	"targets: PASS ok, FAIL not ok, SKIP a skip, the failure named again at the end"
is "$rc" 1 "a failed target fails the script"

# ---- results: one run ----------------------------------------------------
run=$tmp/run
mkdir -p "$run/10-x.t/stock"
cat >"$run/run.info" <<'I'
command: make bench BENCH_TESTS="10-x.t"
tree: abc123 (abc123def)
host: 6.1.0, 2 CPUs
started: 2026-12-01 10:00 UTC
run: 10-x.t stock icount
run: 10-x.t rt icount
finished: 2026-12-01 10:30 UTC
I
cat >"$run/10-x.t/stock/results.log" <<'R'
### LANE stock 6.1.0-57-amd64 | #1 SMP PREEMPT_DYNAMIC Debian
### BEGIN 10-x.t
ok 1 - loads
# | a | b |
# |---|---|
# | 1 | 2 |
ok 2 - target: a: fine
not ok 3 - target: b: missed
ok 4 # skip target: c: not measured
1..4
### DMESG 10-x.t
### END 10-x.t rc=1 secs=3
### DONE
R
echo ok >"$run/10-x.t/stock/status"
echo 42 >"$run/10-x.t/stock/seconds"
"$top/tests/bench/results" "$run" >"$tmp/md"
ok $? "results reads a run"
grep -q '^- command: `make bench BENCH_TESTS="10-x.t"`$' "$tmp/md" &&
	grep -q '^- tree: abc123 (abc123def)' "$tmp/md" &&
	grep -q '^- started: 2026-12-01 10:00 UTC; finished: 2026-12-01 10:30 UTC$' "$tmp/md"
ok $? "the command, the tree and the time come from the run's record" || diag <"$tmp/md"
grep -q '^- checks: 3 passed, 1 failed (targets: 1 PASS, 1 FAIL, 1 not measured); exit 1$' "$tmp/md" &&
	grep -q '^- failed: target: b: missed$' "$tmp/md"
ok $? "checks and targets counted, the failed ones named" || diag <"$tmp/md"
grep -q '^| 1 | 2 |$' "$tmp/md"
ok $? "the tables the guest printed" || diag <"$tmp/md"
awk '/^## Lane rt/ { f = 1 } f && /did not boot/ { d = 1 } END { exit !d }' "$tmp/md"
ok $? "a boot of the run that left nothing says so" || diag <"$tmp/md"
# --prove (make bench's verdict): the lanes' report script over the run's TAP
"$top/tests/bench/results" --prove "$run" >"$tmp/prove" 2>&1
rc=$?
! grep -q 'Could not execute' "$tmp/prove" && grep -q '^stock:10-x.t' "$tmp/prove" && [ $rc -ne 0 ]
ok $? "--prove runs the report (tests/harness/report) over the run; its failed check fails it" ||
	diag <"$tmp/prove"
rm "$run/run.info"
"$top/tests/bench/results" "$run" >"$tmp/md2" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ ! -s "$tmp/md2" ] && grep -q 'run.info missing: not a make bench run' "$tmp/err"
ok $? "a directory without a run record is refused (no stitching runs together)"
tap_done
