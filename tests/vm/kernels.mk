# SPDX-License-Identifier: GPL-2.0
# The kernels the project builds for and boots: Debian's 6.1 (stock) and its
# PREEMPT_RT flavour, at the ABI of the installed linux-headers-amd64.
# The release strings come from the installed header packages, never from a
# hard-coded version, so an ABI bump in Debian moves every lane together.

KREL_stock ?= $(shell $(TOP)/tests/vm/kernel-release stock 2>/dev/null)
KREL_rt ?= $(shell $(TOP)/tests/vm/kernel-release rt 2>/dev/null)
# KDIR selects the kernel build tree of the stock build (default: the
# installed linux-headers-amd64); KDIR_rt the PREEMPT_RT one.
KDIR ?= /usr/src/linux-headers-$(KREL_stock)
KDIR_rt ?= /usr/src/linux-headers-$(KREL_rt)
KDIR_stock := $(KDIR)
FLAVOURS ?= stock rt
