#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The BPF sampler's deadline heap (kernel/bpf/tlob_dq.h) on the host
# (dq-test.c): random filings and pops against a reference, and a heap of
# every slot the largest --bpf-tasks allows.
top=$(cd "$(dirname "$0")/../../.." && pwd)
exec "${BUILD:-$top/build}/unit/bpf/dq-test"
