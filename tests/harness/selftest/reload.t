#!/bin/sh
# Runs after leave.t: the module it left was unloaded, so it loads again.
. /opt/tlob/tests/lib/tap.sh
insmod "$TLOB_KO"
ok $? "tlob.ko loads after a script left it loaded"
rmmod tlob
ok $? "and unloads"
done_testing
