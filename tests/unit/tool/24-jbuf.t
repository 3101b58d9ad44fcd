#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The formatter's numbers (user/lib/jbuf.h; test_jbuf_numbers.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_jbuf_numbers"
