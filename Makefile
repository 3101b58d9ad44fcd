# SPDX-License-Identifier: GPL-2.0
#
# tlob: one build, one test command.
#
#   make            build everything that exists (rvgen, tlob.ko for the stock
#                   and the PREEMPT_RT headers, the tool, test programs)
#   make check      host unit tests, then both QEMU lanes (stock, rt), TAP via prove
#   make demo       the main job: boot the VM, load the monitor, show violations
#   make deps       install every Debian package the project needs (idempotent)
#
# Each component keeps its rules in its own fragment (rvgen/rvgen.mk,
# kernel/kernel.mk, user/user.mk, tests/tests.mk, tests/vm/vm.mk). A fragment
# adds its outputs to ALL, what host tests need to CHECK_DEPS, and what the
# guest needs to VM_DEPS.

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD ?= $(TOP)/build
Q ?= @

ALL :=
CHECK_DEPS :=
VM_DEPS :=

.PHONY: all check check-unit check-vm deps demo clean
all: deps-ok

include tests/vm/kernels.mk
include rvgen/rvgen.mk
include kernel/kernel.mk
include user/user.mk
include tests/tests.mk
include tests/vm/vm.mk

all: $(ALL)

# Installs what is missing, and nothing when everything is there.
deps:
	$(Q).ci/deps

deps-ok:
	$(Q).ci/deps --check >/dev/null 2>&1 || .ci/deps

check: all
	$(Q)$(MAKE) --no-print-directory check-unit
	$(Q)$(MAKE) --no-print-directory check-vm

clean:
	rm -rf $(BUILD)
