#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob apply is all or nothing when the kernel refuses a step half-way, and
# --remove takes exactly what apply added: apply.c on a fake kernel
# (apply_drv.c) that refuses what tlob.ko refuses (EEXIST, ENOSPC, ...)
# at the step a test names, and logs every change it makes.
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/apply_drv
APP=$BUILD/tests/unit/tool/fixtures/app
fb=$(sym_off "$APP" frame_begin)
fe=$(sym_off "$APP" frame_end)
pf=$(sym_off "$APP" process_frame)
mn=$(sym_off "$APP" main)
state=$tmp/run/apply.state
conf=$tmp/tlob.conf
cat >"$conf" <<EOT
# three sections, a reactor
section $APP:frame_begin,frame_end,10ms,tag=frame
section $APP:process_frame,ret,5ms
reactor printk
section $APP:main,ret,1s
EOT
L1="p $APP:$fb $fe threshold=10000000 tag=frame"
L2="p $APP:$pf ret threshold=5000000"
L3="p $APP:$mn ret threshold=1000000000"
OTHER="p /usr/bin/other:0x1000 0x1010 threshold=1000000"

# drv ARGS...: out (stdout), err (stderr), rc (the session's status)
drv() {
	"$DRV" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$(sed -n 's/^exit //p' "$tmp/out")
}
# ops: the changes the fake kernel made, one line, "|" between them
ops() { grep '^op: ' "$tmp/out" | sed 's/^op: //' | tr '\n' '|'; }
table() { sed -n 's/^bound: //p' "$tmp/out" | tr '\n' '|'; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

drv -b "$OTHER" apply "$state" "$conf"
is "$rc" 0 "apply: exit 0" || show
is "$(ops)" "bind $L1|bind $L2|bind $L3|reactor printk|enable 1|" "... bound every section in order, set the reactor, enabled"
is "$(table)" "$OTHER|$L1|$L2|$L3|" "... next to the binding it found"
grep -q "^section $L3  # $conf:5\$" "$state" && grep -q '^restore-reactor nop$' "$state" &&
	grep -q '^restore-enable 0$' "$state" && grep -q '^backend kmod$' "$state"
ok $? "... and recorded what it changed, in tlob.conf's syntax" || sed 's/^/#   /' "$state"

# The kernel's table as apply left it, for the removal tests.
applied() { drv -b "$OTHER" -b "$L1" -b "$L2" -b "$L3" -E 1 -R printk "$@"; }
cp "$state" "$tmp/applied.state"
applied remove "$state"
is "$rc" 0 "remove: exit 0" || show
is "$(ops)" "unbind $L3|unbind $L2|unbind $L1|reactor nop|" "... unbound what apply bound, in reverse, and put the reactor back"
is "$(table)" "$OTHER|" "... leaving the other binding"
grep -q '^tlob: monitor left enabled: 1 binding(s) remain$' "$tmp/err"
ok $? "... and the monitor enabled for it, saying so" || show
[ ! -e "$state" ]
ok $? "... and removed the state"

cp "$tmp/applied.state" "$state"
drv -b "$L1" -b "$L2" -b "$L3" -E 1 -R printk remove "$state"
is "$(ops)" "unbind $L3|unbind $L2|unbind $L1|reactor nop|enable 0|" "remove with no other binding: disables the monitor apply enabled"

cp "$tmp/applied.state" "$state"
drv -b "$L1" -b "p $APP:$pf ret threshold=9000000" -E 1 -R panic remove "$state"
is "$rc" 0 "remove after others changed things: exit 0" || show
is "$(ops)" "unbind $L1|" "... removes only what is still as apply left it"
grep -q "^tlob: $APP:$pf left alone: bound again since" "$tmp/err" &&
	grep -q "^tlob: $APP:$mn is not bound any more" "$tmp/err" &&
	grep -q '^tlob: reactor left at panic: changed since apply set printk$' "$tmp/err"
ok $? "... and says what it left: a rebound section, a gone one, a changed reactor" || show

cp "$tmp/applied.state" "$state"
applied -u 2:5 remove "$state"
is "$rc" 1 "remove when the kernel refuses one unbind: exit 1" || show
is "$(ops)" "unbind $L3|unbind $L1|reactor nop|" "... removes the others"
is "$(grep -c '^section ' "$state")" 1 "... and keeps the state of the one left"
grep -q "^section $L2\$" "$state"
ok $? "... which is that one" || sed 's/^/#   /' "$state"
drv -b "$OTHER" -b "$L2" -E 1 remove "$state"
is "$(ops)" "unbind $L2|" "a second remove takes it"
[ ! -e "$state" ]
ok $? "... and the state is gone"

# Refusals half-way: the state is as before, the kernel's table too.
before="$OTHER|"
refused() {
	name=$1 want=$2
	is "$rc" 1 "$name: exit 1" || show
	is "$(ops)" "$want" "$name: rolled back in reverse"
	is "$(table)" "$before" "$name: the kernel's table as before"
	[ ! -e "$state" ] && grep -q '^tlob: nothing applied (rolled back' "$tmp/err"
	ok $? "$name: no state, and it says nothing was applied" || show
}
drv -b "$OTHER" -f 3:28 apply "$state" "$conf"
refused "the 3rd bind refused (ENOSPC)" "bind $L1|bind $L2|unbind $L2|unbind $L1|"
grep -q "^$conf:5: no room for another binding (the backend's table is full): $APP:$mn\$" "$tmp/err"
ok $? "... naming the line the kernel refused, in the tool's words" || show

drv -b "$OTHER" -a "$L2" apply "$state" "$conf"
before="$OTHER|$L2|"
refused "a section bound by another tool meanwhile (EEXIST)" "bind $L1|unbind $L1|"
grep -q "^$conf:3: binding already present: $APP:$pf (tlob unbind it first)\$" "$tmp/err"
ok $? "... which stays bound: it is not apply's" || show

before="$OTHER|"
drv -b "$OTHER" -r 5 apply "$state" "$conf"
refused "the reactor refused" "bind $L1|bind $L2|bind $L3|unbind $L3|unbind $L2|unbind $L1|"
drv -b "$OTHER" -e 5 apply "$state" "$conf"
refused "enable refused" "bind $L1|bind $L2|bind $L3|reactor printk|reactor nop|unbind $L3|unbind $L2|unbind $L1|"
grep -q "reactor: nop" "$tmp/out"
ok $? "... the reactor put back"

# Refused before any change.
drv -b "$L2" apply "$state" "$conf"
is "$rc" 1 "a section bound already: exit 1" || show
is "$(ops)" "" "... before any change"
grep -q "^$conf:3: $APP:$pf is bound already (id=1, not by this configuration): tlob unbind it first\$" "$tmp/err"
ok $? "... naming its line" || show
drv -b "$OTHER" -E 1 -R printk apply "$state" "$conf"
is "$(ops)" "bind $L1|bind $L2|bind $L3|" "monitor on and reactor set already: only the bindings"
if grep -q '^restore-' "$state"; then ok 1 "... and nothing else to restore"; else ok 0 "... and nothing else to restore"; fi
drv apply "$state" "$conf"
is "$rc" 1 "apply while a state exists: exit 1"
is "$(ops)" "" "... changing nothing"
grep -q "^tlob: a configuration is applied already ($state): tlob apply --remove first\$" "$tmp/err"
ok $? "... and says so" || show
rm -f "$state"
mkdir -p "$tmp/ro" && : >"$tmp/ro/notdir"
drv apply "$tmp/ro/notdir/apply.state" "$conf"
is "$rc" 1 "a state that cannot be written: exit 1"
is "$(ops)" "" "... before any change"

tap_done
