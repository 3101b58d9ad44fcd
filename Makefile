# SPDX-License-Identifier: GPL-2.0
#
# tlob: one build, one test command.
#
#   make            build everything that exists (rvgen, tlob.ko for every
#                   kernel lane in tests/harness/lanes, the tool, test programs)
#   make check      host unit tests, the packages in pristine roots (check-pkg),
#                   then every QEMU lane (6.1, 6.12, newest; stock and
#                   PREEMPT_RT), TAP via prove
#   make check-all  the same, every script on every lane, long soak
#   make demo       the main job: boot the VM, load the monitor, show violations
#   make deps       install every Debian package the project needs (idempotent)
#
# Installing (README "Install"), without the test harness:
#   make modules [KDIR=DIR]   tlob.ko against a kernel tree (default: the
#                             running kernel's); make modules_install
#   make install [DESTDIR=STAGE] [PREFIX=/usr/local]   tool, man pages,
#                             bash completion; make uninstall
#
# Each component keeps its rules in its own fragment (rvgen/rvgen.mk,
# kernel/kernel.mk, user/user.mk, tests/tests.mk, tests/harness/vm.mk). A fragment
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
all:

# Goals that build or install the product only: they read no test
# fragment and install no package (a user's machine, a package build, a
# Yocto recipe), so they need only what the tool and the module need.
PRODUCT_GOALS := modules modules_install modules-clean install install-tool install-man \
	install-completion install-config install-dkms-source uninstall man product clean
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(PRODUCT_GOALS),$(MAKECMDGOALS)),)
TLOB_PRODUCT_ONLY := 1
endif
endif

ifeq ($(TLOB_PRODUCT_ONLY),1)
# The BPF programs' BTF (kernel/bpf/bpf.mk): the stock lane's 6.1 kernel
# unless VMLINUX_IMAGE names an image; looked up only when used.
KREL_stock ?= $(shell $(TOP)/tests/harness/kernel-release stock 2>/dev/null)
include kernel/module.mk
include user/user.mk
include user/install.mk
else ifneq ($(TLOB_DEPS_DONE),1)
# Installing missing packages is a step every goal depends on: the
# fragments below need packages (pkg-config, kernel headers) as soon as
# they are read, so this first pass reads none of them. It runs .ci/deps
# when something is missing, then makes the goals in a second pass that
# reads everything (TLOB_DEPS_DONE=1; command-line variables pass on).
TLOB_GOALS := $(or $(filter-out deps,$(MAKECMDGOALS)),$(if $(MAKECMDGOALS),,all))
.PHONY: $(TLOB_GOALS) tlob-deps deps
ifneq ($(TLOB_GOALS),)
$(TLOB_GOALS): tlob-deps
	+$(Q)$(MAKE) --no-print-directory TLOB_DEPS_DONE=1 $@
endif
# make demo alone installs the demo's packages alone (.ci/deps --demo).
DEPS_PROFILE := $(if $(filter-out demo,$(TLOB_GOALS)),,--demo)
tlob-deps:
	$(Q).ci/deps $(DEPS_PROFILE) --check >/dev/null 2>&1 || { \
		echo "tlob: installing missing Debian packages first (.ci/deps $(DEPS_PROFILE))"; \
		.ci/deps $(DEPS_PROFILE) || { echo "tlob: packages are still missing; run .ci/deps $(DEPS_PROFILE) as root and read its output" >&2; exit 1; }; }
deps:
	$(Q).ci/deps
else
# make demo boots one lane (LANE, stock by default): the other lanes'
# kernels are not looked up, nor their modules built.
ifeq ($(filter-out demo,$(MAKECMDGOALS)),)
ifneq ($(MAKECMDGOALS),)
LANES := $(or $(LANE),stock)
endif
endif
include tests/harness/kernels.mk
include rvgen/rvgen.mk
include kernel/kernel.mk
include kernel/module.mk
include user/user.mk
include user/install.mk
include tests/tests.mk
include tests/bench/bench.mk
include tests/harness/vm.mk

all: $(ALL)

# (deps, which installs what is missing and nothing when everything is
# there, is the first pass's: above.)

# The debug lane is not part of make check, cached kernel or not: CI runs
# .ci/run on the machine of the session that submitted, where a developer
# who ran the lane may have left its kernel cached, and the lane (17-25
# min) would take CI's run past its 75-minute budget.
# make check-debug runs it; make check-all adds it when the kernel is cached.
check: all
	$(Q)$(MAKE) --no-print-directory check-unit
	$(Q)$(MAKE) --no-print-directory check-pkg
	$(Q)echo "make check: the debug lane is not part of it ('make check-debug' runs it)"
	$(Q)$(MAKE) --no-print-directory check-vm DKMS_KO_LANES="$(DKMS_LANES)"

endif

# $(BUILD), and what an in-place module build (make modules, M=$PWD) left
# beside the sources.
clean:
	rm -rf $(BUILD)
	rm -rf kernel/module/.compat-probe kernel/module/tlob_compat_probed.h kernel/module/tlob_compat_probed.h.log
	find kernel/module kernel/shared -maxdepth 1 \( -name '*.o' -o -name '*.ko' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name '.*.cmd' -o -name modules.order \) -delete
	rm -f Module.symvers modules.order .*.cmd .module-common.o
