#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/harness/lane-times on a run directory: CI keeps only the end of
# make check's output, where prove names a failed test by number only
# ("Failed test: 30", its diagnostics long scrolled away). A failed
# script's "not ok" lines and last diagnostics follow the lane table; a
# passing one prints nothing; a lane booted twice says so.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/runs/stock" "$tmp/runs/rt"
{
	printf '### INIT\n### LANE stock 6.1.0-57-amd64 | #1 SMP\n'
	printf '### BEGIN 10-good.t\nok 1 - fine\n# a harmless note\n### END 10-good.t rc=0 secs=3\n'
	printf '### BEGIN 18-bad.t\nok 1 - first\n# snapshot: deadline 1, detected 2\n'
	i=0
	while [ $i -lt 30 ]; do printf '# filler %d\n' $i; i=$((i + 1)); done
	printf 'not ok 2 - snapshot: it holds sched_switch\n# last diag\nok 3 - after\n'
	printf '### END 18-bad.t rc=1 secs=27\n'
	# A script that hangs after its 11th check until the timeout kills
	# it; the scripts after it bail out.
	printf '### BEGIN 40-hung.t\nok 11 - perf\n# harness: 40-hung.t left processes running (killed): 812\n'
	printf '#   thread 812 bpftrace: S (sleeping), wait channel ep_poll\n### END 40-hung.t rc=143 secs=900\n'
	printf '### BEGIN 64-next.t\nBail out! insmod failed\n### END 64-next.t rc=255 secs=1\n'
	printf '### BEGIN 34-left.t\nok 1 - fine\n# harness: 34-left.t left processes running (killed): 27247\n'
	printf '### END 34-left.t rc=0 secs=2\n### DONE\n'
} >"$tmp/runs/stock/results.log"
echo ok >"$tmp/runs/stock/status"
echo 120 >"$tmp/runs/stock/seconds"
printf '### INIT\n### LANE rt 6.1.0-57-rt-amd64 | #1 SMP PREEMPT_RT\n### BEGIN 10-good.t\nok 1\n### END 10-good.t rc=0 secs=2\n### DONE\n' \
	>"$tmp/runs/rt/results.log"
echo ok >"$tmp/runs/rt/status"
: >"$tmp/runs/rt/console.boot1.log"
echo "live-locked in 01-tcg-text-patch.t (no end after 150s)" >"$tmp/runs/rt/canary"

out=$("$top/tests/harness/lane-times" "$tmp/runs")
grep -q '^stock  *6.1.0-57-amd64  *ok  *120  40-hung 900, 18-bad 27, 10-good 3, 34-left 2$' <<<"$out"
ok $? "the lane table: kernel, status, seconds, slowest scripts"
grep -q '^stock:18-bad.t failed (rc=1); its failures and last diagnostics:$' <<<"$out"
ok $? "a failed script is named with its exit status"
grep -q '^  not ok 2 - snapshot: it holds sched_switch$' <<<"$out"
ok $? "... followed by its not-ok line"
grep -q '^  # last diag$' <<<"$out"
ok $? "... and the diagnostics after it"
is "$(sed -n '/^stock:18-bad.t failed/,/^stock:40-hung.t failed/p' <<<"$out" | grep -c '^  ')" "25" "... at most 25 lines of it"
grep -q '^stock:40-hung.t failed (rc=143, the per-script timeout); its failures and last diagnostics:$' <<<"$out" &&
	grep -q '^  # harness: 40-hung.t left processes running (killed): 812$' <<<"$out" &&
	grep -q '^  #   thread 812 bpftrace: S (sleeping), wait channel ep_poll$' <<<"$out"
ok $? "a script the timeout killed: named so, with what it left running and where that sat"
grep -q '^  Bail out! insmod failed$' <<<"$out"
ok $? "a script that bailed out shows why"
grep -q '^stock:34-left.t failed (rc=0, it left something running or loaded); its failures and last diagnostics:$' <<<"$out" &&
	grep -q '^  # harness: 34-left.t left processes running (killed): 27247$' <<<"$out"
ok $? "a script that exits 0 but left a process running is named, with the runner's line"
grep -qF "10-good.t" <<<"$out" && r=1 || r=0
ok $r "a passing script prints nothing but its place in the table"
grep -q '^lane rt was booted twice: live-locked in 01-tcg-text-patch.t (no end after 150s)$' <<<"$out"
ok $? "a lane booted twice says so, with the canary's reason"
tap_done
