#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module's monitor-line parser, built for the host (kmod.mk: CHECK_DEPS).
exec "${BUILD:-build}/unit/kmod/parse-test"
