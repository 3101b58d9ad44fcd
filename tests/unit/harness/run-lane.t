#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/harness/run-lane when the emulator live-locks in its canary
# (tests/guest/01-tcg-text-patch.t), where the guest would otherwise sit
# until the lane's timeout. A guest that has not
# ended the canary TLOB_CANARY_SECS after it began is killed and the lane
# is booted again, once, saying so; a second live-lock fails the lane,
# named; a guest that gets through boots once. qemu-system-x86_64 is a
# stub that writes the guest's markers to its second serial file and,
# while a count of live-locks lasts, stops in the canary for good.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<STUB
#!/bin/sh
# -serial file:CONSOLE -serial file:RESULTS, in that order
con= res=
while [ \$# -gt 0 ]; do
	if [ "\$1" = -serial ]; then
		case "\$2" in file:*) [ -z "\$con" ] && con=\${2#file:} || res=\${2#file:} ;; esac
		shift
	fi
	shift
done
echo boot >>"$tmp/boots"
printf '### INIT\n### BEGIN 00-lane.t\nok 1\n### END 00-lane.t rc=0 secs=0\n### BEGIN 01-tcg-text-patch.t\n' >"\$res"
echo "[   1.0] booting" >"\$con"
n=\$(cat "$tmp/hangs")
if [ "\$n" -gt 0 ]; then
	echo \$((n - 1)) >"$tmp/hangs"
	echo "[  42.4] rcu: INFO: rcu_preempt self-detected stall on CPU" >>"\$con"
	exec sleep 600
fi
printf 'ok 1\n### END 01-tcg-text-patch.t rc=0 secs=20\n### DONE\n' >>"\$res"
STUB
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/vmlinuz"
: >"$tmp/initrd"

# lane HANGS: run-lane with the stub live-locking HANGS times
lane() {
	echo "$1" >"$tmp/hangs"
	: >"$tmp/boots"
	rm -rf "$tmp/out"
	t0=$(date +%s)
	PATH="$tmp/bin:$PATH" TLOB_CANARY_SECS=3 TLOB_VM_LOCK="$tmp/lock" \
		"$top/tests/harness/run-lane" --lane stock --kernel "$tmp/vmlinuz" \
		--initrd "$tmp/initrd" --out "$tmp/out" --timeout 120 2>"$tmp/err"
	rc=$?
	secs=$(($(date +%s) - t0))
}

lane 0
is "$rc $(cat "$tmp/out/status") $(wc -l <"$tmp/boots")" "0 ok 1" "no live-lock: ok, one boot"

lane 1
is "$rc $(cat "$tmp/out/status") $(wc -l <"$tmp/boots")" "0 ok 2" \
	"a live-lock in the canary: killed, booted again once, ok" || diag <"$tmp/err"
[ "$secs" -lt 60 ]
ok $? "... within seconds of the canary's bound, not the lane's timeout (${secs}s)"
grep -q "^vm: lane stock: the emulator live-locked in 01-tcg-text-patch.t (no end after 3s); booting again, once" "$tmp/err" &&
	grep -q "^vm:   .*rcu: INFO: rcu_preempt self-detected stall" "$tmp/err"
ok $? "... said, with the first console's stall" || diag <"$tmp/err"
grep -q '^### DONE' "$tmp/out/results.log" && grep -q 'self-detected stall' "$tmp/out/console.boot1.log" &&
	! grep -q '^### DONE' "$tmp/out/results.boot1.log"
ok $? "... the second boot's results are the lane's, the first boot's kept apart"

lane 2
is "$rc $(wc -l <"$tmp/boots")" "1 2" "live-locked twice: the lane fails after two boots"
is "$(cat "$tmp/out/status")" "the emulator live-locked in 01-tcg-text-patch.t (no end after 3s), twice" \
	"... its status names the canary"
tap_done
