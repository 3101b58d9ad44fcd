#!/bin/sh
. /opt/tlob/tests/lib/tap.sh
ok 0 "a passing check"
ok 1 "a deliberately failing check"
done_testing
