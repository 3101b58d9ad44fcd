#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The diagnosis steps both backends share (kernel/shared/tlob_diag.h).
top=$(cd "$(dirname "$0")/../../.." && pwd)
exec "${BUILD:-$top/build}/unit/engine/diag-test"
