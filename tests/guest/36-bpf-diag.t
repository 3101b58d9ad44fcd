#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt 6.12 newest-rt
#   the kernel contract: what it checks depends on the kernel (the scheduler
#   hooks' accounting) and on the detector (bpf_timer on a stock kernel,
#   the sampler on PREEMPT_RT): each of the three kernel versions and both
#   detectors, both on 6.1; not the debug lane: under KASAN its spin
#   window's deadline passes while the task is still in the START probe
# The BPF backend's diagnosis of a violation
# (37-tool-diag runs on stock only, for the module): the same scenarios,
# checked the same way, with tlob mon --backend bpf. On a stock kernel the
# bpf_timer detector, on PREEMPT_RT the sampler, both on CPU 0 where
# spin's task is pinned; what each scenario must show is in 37-tool-diag.
BACKENDS=bpf exec /bin/sh /opt/tlob/tests/37-tool-diag.t
