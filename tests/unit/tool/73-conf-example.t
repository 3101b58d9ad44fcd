#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# user/tlob.conf.example, the file users copy to /etc/tlob/tlob.conf, is
# valid as shipped (every setting commented out) and with its settings
# uncommented (its /usr/bin/app replaced by the fixture with the same
# symbols): tlob apply --check reads what the comments promise.
. "$(dirname "$0")/tap.sh"

EX=$top/user/tlob.conf.example
APP=$BUILD/tests/unit/tool/fixtures/app
"$TLOB" apply --check "$EX" >"$tmp/out" 2>"$tmp/err"
ok $? "the example as shipped is valid" || sed 's/^/#   /' "$tmp/err"
grep -q "^tlob: $EX: 0 section(s), valid\$" "$tmp/err"
ok $? "... and binds nothing" || sed 's/^/#   /' "$tmp/err"

sed -e 's/^#\(section\|reactor\|backend\) /\1 /' -e "s|/usr/bin/app:|$APP:|" "$EX" >"$tmp/tlob.conf"
"$TLOB" apply --check "$tmp/tlob.conf" >"$tmp/out" 2>"$tmp/err"
ok $? "the example with its settings uncommented is valid" || sed 's/^/#   /' "$tmp/err"
is "$(grep -c '^section ' "$tmp/out")" 3 "... three sections"
grep -q ' threshold=16000000 tolerance=3/10 tag=frame  (' "$tmp/out" && grep -q ' ret threshold=5000000 tag=process  (' "$tmp/out"
ok $? "... with the budgets, tolerance and tags it says" || sed 's/^/#   /' "$tmp/out"
grep -q "^section a $APP:0x[0-9a-f]* period=1000000000 expect=60 margin=3 tag=fps  (" "$tmp/out"
ok $? "... and the alive binding, its period, expect, margin and tag" || sed 's/^/#   /' "$tmp/out"
grep -q '^reactor printk  (' "$tmp/out" && grep -q '^backend kmod  (' "$tmp/out"
ok $? "... the reactor and the backend"

tap_done
