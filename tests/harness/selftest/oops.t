#!/bin/sh
# Every TAP line passes; only the kernel log tells that the load oopsed.
. /opt/tlob/tests/lib/tap.sh
insmod /opt/tlob/modules/tlob_test_bug.ko 2>/dev/null
ok 0 "insmod of a module that calls BUG() returned"
done_testing
