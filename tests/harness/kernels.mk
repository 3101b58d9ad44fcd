# SPDX-License-Identifier: GPL-2.0
# The kernels the project builds for and boots, one lane each
# (tests/harness/lanes): Debian 12's 6.1 (stock, rt), bookworm-backports' 6.12
# (6.12, 6.12-rt), the newest kernel Debian ships (newest, newest-rt, built
# in the trixie build root with gcc-14), and the debug lane's KASAN/lockdep
# kernel built from linux-source-6.1. Release strings come from the package
# lists and installed packages (tests/harness/kernel-release), never from a
# hard-coded version, so an upload in Debian moves its lanes.
#
# A lane whose headers are not installed is left out of the build with a
# message saying so (make deps installs them); make check then fails that
# lane's run rather than passing without it.

ALL_LANES := stock rt 6.12 6.12-rt newest newest-rt
LANES ?= $(ALL_LANES)
LANE ?= stock
FLAVOURS := $(sort $(LANES) $(LANE))

define lane_release
KREL_$(1) ?= $$(shell $(TOP)/tests/harness/kernel-release $(1) 2>/dev/null)
ifeq ($$(KREL_$(1)),)
$$(info tlob: lane $(1) skipped: $$(shell $(TOP)/tests/harness/kernel-release $(1) 2>&1 >/dev/null | sed 's/^[^:]*: //'))
else
BUILT_LANES += $(1)
endif
endef
BUILT_LANES :=
$(foreach l,$(filter-out debug,$(FLAVOURS)),$(eval $(call lane_release,$(l))))

# KDIR=DIR builds the stock lane against another kernel build tree
# (default: the installed linux-headers-amd64).
ifeq ($(origin KDIR),command line)
KBUILD_KDIR_stock := $(KDIR)
endif

# The debug kernel is only looked for when a debug lane is asked for; it is
# built by tests/harness/debug/build-kernel (make debug-kernel), never while make
# reads this file.
ifneq ($(filter debug,$(FLAVOURS)),)
KDIR_debug ?= $(shell $(TOP)/tests/harness/debug/build-kernel --check 2>/dev/null)
ifeq ($(KDIR_debug),)
$(error the debug lane needs the debug kernel: run 'make debug-kernel' first (15-25 min cold))
endif
KREL_debug := $(shell cat $(KDIR_debug)/include/config/kernel.release)
BUILT_LANES += debug
endif

.PHONY: debug-kernel
debug-kernel:
	$(Q)tests/harness/debug/build-kernel >/dev/null
