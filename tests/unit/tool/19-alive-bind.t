#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An alive binding from -b to the backends (test_alive_bind.c): the
# friendly form and the module's line give one spec, and the errors name
# its period.
B=${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}
exec "$B/tests/unit/tool/test_alive_bind" "$B/tests/unit/tool/fixtures/app"
