# SPDX-License-Identifier: GPL-2.0
# The kernels the project builds for and boots: Debian's 6.1 (stock), its
# PREEMPT_RT flavour (rt), at the ABI of the installed linux-headers-amd64,
# and the debug lane's KASAN/lockdep kernel built from linux-source-6.1.
# Release strings come from the installed packages, never from a hard-coded
# version, so an ABI bump in Debian moves every lane together.

LANES ?= stock rt
LANE ?= stock
FLAVOURS := $(sort stock rt $(LANES) $(LANE))

KREL_stock ?= $(shell $(TOP)/tests/vm/kernel-release stock 2>/dev/null)
KREL_rt ?= $(shell $(TOP)/tests/vm/kernel-release rt 2>/dev/null)
# KDIR selects the kernel build tree of the stock build (default: the
# installed linux-headers-amd64); KDIR_rt the PREEMPT_RT one.
KDIR ?= /usr/src/linux-headers-$(KREL_stock)
KDIR_rt ?= /usr/src/linux-headers-$(KREL_rt)
KDIR_stock := $(KDIR)

# The debug kernel is only looked for when a debug lane is asked for; it is
# built by tests/vm/debug/build-kernel (make debug-kernel), never while make
# reads this file.
ifneq ($(filter debug,$(FLAVOURS)),)
KDIR_debug ?= $(shell $(TOP)/tests/vm/debug/build-kernel --check 2>/dev/null)
ifeq ($(KDIR_debug),)
$(error the debug lane needs the debug kernel: run 'make debug-kernel' first (15-25 min cold))
endif
KREL_debug := $(shell cat $(KDIR_debug)/include/config/kernel.release)
endif

.PHONY: debug-kernel
debug-kernel:
	$(Q)tests/vm/debug/build-kernel >/dev/null
