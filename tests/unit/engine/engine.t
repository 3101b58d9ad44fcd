#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The engine both backends run (kernel/shared/tlob_engine.h), driven on the host by
# every scenario of tests/e2e/scenarios.tsv and the edge cases (engine-test.c).
top=$(cd "$(dirname "$0")/../../.." && pwd)
exec "${BUILD:-$top/build}/unit/engine/engine-test" "$top/tests/e2e/scenarios.tsv"
