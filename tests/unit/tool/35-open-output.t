#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Which files root's tlob mon -o writes into, and how (test_open_output.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_open_output"
