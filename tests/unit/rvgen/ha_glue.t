#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs ha_glue (see ha_glue.c): the generated invariant glue applies the table.
exec "${BUILD:-$(dirname "$0")/../../../build}/rvgen/tests/ha_glue"
