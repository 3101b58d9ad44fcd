#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tool's monitor lines read back by the module's parser (kmod.mk).
exec "${BUILD:-build}/unit/kmod/roundtrip-test"
