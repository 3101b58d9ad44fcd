#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module's stats line parser (test_kmod_stats.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_kmod_stats"
