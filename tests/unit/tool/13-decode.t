#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Trace event decoding by field name through libtraceevent (test_decode.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_decode"
