#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Which directories root's tlob trusts for the BPF pins, lock and log (test_safe_dir.c).
exec "${BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}/tests/unit/tool/test_safe_dir"
