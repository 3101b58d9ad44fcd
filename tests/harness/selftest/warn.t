#!/bin/sh
# Every TAP line passes; only the kernel log tells about the WARN_ON(1).
. /opt/tlob/tests/lib/tap.sh
insmod /opt/tlob/modules/tlob_test_warn.ko
ok $? "module that warns at load is loaded"
rmmod tlob_test_warn
done_testing
