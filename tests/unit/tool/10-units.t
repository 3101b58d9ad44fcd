#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Budget/duration units (test_units.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_units"
