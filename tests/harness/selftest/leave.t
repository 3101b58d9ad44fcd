#!/bin/sh
# Every TAP line passes, but the script leaves a process running and
# tlob.ko loaded: the runner must kill and unload them, and fail it.
. /opt/tlob/tests/lib/tap.sh
insmod "$TLOB_KO"
ok $? "tlob.ko loads"
sleep 100000 &
ok 0 "a process left running"
done_testing
