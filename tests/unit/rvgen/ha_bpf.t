#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs ha_bpf (see ha_bpf.c): the generated invariant glue applies the table.
exec "${BUILD:-$(dirname "$0")/../../../build}/rvgen/tests/ha_bpf"
