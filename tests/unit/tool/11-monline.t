#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The monitor line: upstream's parser vectors and round trips (test_monline.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_monline"
