#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The VM harness catches failure: a failing guest check, a guest oops, a
# kernel warning, a script that never ends and a guest that never powers off
# each make the lane fail, with a message naming the cause. Boots the stock
# kernel with the test-only modules (tests/modules/) and the scripts in
# tests/harness/selftest/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$top/build}
rel=$("$top/tests/harness/kernel-release" stock)
kdir=$("$top/tests/harness/fetch-kernel" stock)
work=$B/vm/selftest
runs=$work/runs
n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
report() { "$top/tests/harness/report" "$runs" "$1" 2>&1; }
# expect LANE:SCRIPT REGEX NAME: report fails and its output matches REGEX
expect_fail() {
	out=$(report "$1")
	rc=$?
	if [ $rc -ne 0 ] && grep -Eq -- "$2" <<<"$out"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "$out" | sed 's/^/#   /'
	fi
}

if ! ls "$B"/kmod/stock/tests/modules/tlob_test_bug.ko >/dev/null 2>&1; then
	echo "1..0 # SKIP test-only modules not built (make kmod-stock)"
	exit 0
fi
"$top/tests/harness/stage" "$work/stage" "$B/kmod/stock" "$top/tests/harness/selftest" || exit 1
"$top/tests/harness/mkinitramfs" "$work/stage" /dev/null "$work/initramfs.cpio" || exit 1
boot() { # lane-name tests timeout test-timeout
	"$top/tests/harness/run-lane" --lane "$1" --krel "$rel" --kernel "$kdir/boot/vmlinuz-$rel" \
		--initrd "$work/initramfs.cpio" --out "$runs/$1" --tests "$2" \
		--timeout "$3" --test-timeout "$4" 2>/dev/null
}

boot stock pass.t,fail.t,leave.t,reload.t,oops.t,warn.t 300 120
report stock:pass.t >/dev/null
ok $? "a passing script passes"
expect_fail stock:fail.t '^not ok 2 - a deliberately failing check' \
	"a failing guest check fails its script"
expect_fail stock:oops.t 'not ok .* kernel log clean.*|# .*(BUG: |Oops|invalid opcode)' \
	"a guest oops fails its script although every TAP line passed"
out=$(report stock:oops.t)
grep -q '^ok 1 - insmod' <<<"$out" && grep -Eq '^# .*(BUG|invalid opcode)' <<<"$out"
ok $? "the oops report names the kernel's own words"
expect_fail stock:warn.t '# .*WARNING: ' "a kernel WARNING fails its script and is quoted"
expect_fail stock:leave.t "^# harness: leave.t left processes running \\(killed\\)" \
	"a script that leaves a process running fails, naming it"
out=$(report stock:leave.t)
grep -Eq '^#   thread [0-9]+ sleep: S' <<<"$out" && grep -q '^# harness: leave.t left module tlob loaded (unloaded)' <<<"$out"
ok $? "with the process's state, and the module it left loaded" || echo "$out" | sed 's/^/#   /'
report stock:reload.t >/dev/null
ok $? "the script after it loads tlob.ko again"
report stock:lane >/dev/null
ok $? "the rest of that lane is clean (the failures stay with their scripts)"

# A guest that never powers off: the host's hard timeout stops it.
boot hung hang.t 40 600
expect_fail hung:hang.t 'hung or crashed' "a hung guest fails the script it was running"
expect_fail hung:lane 'not ok .*powered off.*|timeout after 40s' "and fails the lane, naming the timeout"

# A script that never ends inside a healthy guest: the per-script timeout.
boot slow hang.t,pass.t 300 5
expect_fail slow:hang.t 'per-script timeout' "a script past its timeout fails, naming the timeout"
expect_fail slow:hang.t '^#   thread [0-9]+ sleep: S' "and shows where what it left behind sat"
report slow:pass.t >/dev/null
ok $? "and the scripts after it still run"

# A run whose console says the watchdog took the TSC away (what a 6.12
# guest printed ~15 s in before its lane booted with tsc=unstable): the
# lane fails, quoting it. A recorded run, no boot.
fake=$runs/tsc-flip
mkdir -p "$fake"
printf '### INIT\n### LANE tsc-flip 6.12.0 | #1 SMP PREEMPT_DYNAMIC\n### DONE\n' >"$fake/results.log"
printf '%s\n' '[    1.0] tlob-vm: BEGIN 00-lane.t' '[    2.0] tlob-vm: END 00-lane.t' \
	"[   15.7] clocksource: timekeeping watchdog on CPU0: Marking clocksource 'tsc' as unstable because the skew is too large:" \
	"[   15.8] TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'." >"$fake/console.log"
echo ok >"$fake/status"
expect_fail tsc-flip:lane "not ok .*TSC was never marked unstable" \
	"a guest whose TSC was marked unstable fails its lane, naming it"
report stock:lane | grep -q "^ok .*TSC was never marked unstable"
ok $? "a real boot (run-lane's command line) keeps its TSC"

echo "1..$n"
[ $failed -eq 0 ]
