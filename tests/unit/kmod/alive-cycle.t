#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An alive instance's cycles and verdict, the header both backends share,
# built for the host (kernel.mk: CHECK_DEPS).
exec "${BUILD:-build}/unit/kmod/alive-cycle-test"
