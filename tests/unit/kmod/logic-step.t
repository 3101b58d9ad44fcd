#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A logical instance's step, the module's own header, built for the host
# (kernel.mk: CHECK_DEPS).
exec "${BUILD:-build}/unit/kmod/logic-step-test"
