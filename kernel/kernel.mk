# SPDX-License-Identifier: GPL-2.0
# tlob.ko and the test-only modules for each flavour, each in its own
# output tree: Kbuild writes objects next to the sources, so every flavour
# gets a tree of symlinks to the sources and builds there. The tree's
# Kbuild is tests/modules/lane.Kbuild (the product and the test
# modules); the top-level Kbuild, the product only, is what users build
# (kernel/module.mk: make modules, dkms).

# What an in-place build (make modules, M=$PWD) generated in kernel/module/ is
# not a source: a lane tree linking it would let kbuild write through the
# link into the source tree.
KMOD_GENERATED := %.mod.c %/tlob_compat_probed.h
KMOD_SRCS := VERSION $(filter-out $(KMOD_GENERATED),$(wildcard kernel/module/Kbuild \
	kernel/module/*.[ch] kernel/shared/*.[ch] kernel/module/compat/*)) $(wildcard tests/modules/Kbuild tests/modules/*.c)
KMOD_TREE_KBUILD := tests/modules/lane.Kbuild

define kmod_flavour
$(BUILD)/kmod/$(1)/.tree: $(KMOD_SRCS) $(KMOD_TREE_KBUILD)
	$(Q)mkdir -p $(BUILD)/kmod/$(1)
	$(Q)find $(BUILD)/kmod/$(1) -xtype l -delete	# sources moved or deleted since
	$(Q)for f in $(KMOD_SRCS); do mkdir -p $(BUILD)/kmod/$(1)/$$$$(dirname $$$$f); \
		ln -sfn $(TOP)/$$$$f $(BUILD)/kmod/$(1)/$$$$f; done
	$(Q)ln -sfn $(TOP)/$(KMOD_TREE_KBUILD) $(BUILD)/kmod/$(1)/Kbuild
	$(Q)touch $$@

# tests/harness/kbuild: the lane's headers and compiler, in the build root for
# the newest kernels; it holds the tree's lock (several engineers' makes
# share build/).
$(BUILD)/kmod/$(1)/kernel/module/tlob.ko: $(BUILD)/kmod/$(1)/.tree
	$(Q)$(if $(KBUILD_KDIR_$(1)),TLOB_KDIR=$(KBUILD_KDIR_$(1))) tests/harness/kbuild $(1) $(BUILD)/kmod/$(1) W=1 modules

kmod-$(1): $(BUILD)/kmod/$(1)/kernel/module/tlob.ko
.PHONY: kmod-$(1)
ALL += $(BUILD)/kmod/$(1)/kernel/module/tlob.ko
VM_DEPS_$(1) += $(BUILD)/kmod/$(1)/kernel/module/tlob.ko
endef
$(foreach f,$(BUILT_LANES),$(eval $(call kmod_flavour,$(f))))

.PHONY: kmod
kmod: $(foreach f,$(BUILT_LANES),kmod-$(f))
# tests/unit/kmod/no-cycles.t reads one lane's objects.
CHECK_DEPS += $(BUILD)/kmod/$(firstword $(filter stock,$(BUILT_LANES)) $(BUILT_LANES))/kernel/module/tlob.ko

# Style and static checks of every kernel source, generated ones included:
# checkpatch --strict (from Debian's linux-source, see tests/unit/kmod/)
# and sparse through kbuild (C=2: check every file, built or not).
CHECKPATCH ?= /root/.cache/tlob/checkpatch/checkpatch.pl
KMOD_STYLE_SRCS = $(filter-out $(KMOD_GENERATED) %/tlob_host_shim.h,$(wildcard kernel/module/*.[ch] kernel/module/compat/*.c kernel/shared/*.[ch]))

.PHONY: kmod-style kmod-sparse
kmod-style:
	$(Q)$(CHECKPATCH) --strict --no-tree --quiet -f $(KMOD_STYLE_SRCS)

kmod-sparse: $(foreach f,$(BUILT_LANES),$(BUILD)/kmod/$(f)/.tree)
	$(Q)set -e; for f in $(BUILT_LANES); do \
		tests/harness/kbuild $$f $(BUILD)/kmod/$$f W=1 C=2 modules 2>&1 | tee $(BUILD)/kmod/$$f/sparse.log; \
		! grep -E 'warning:|error:' $(BUILD)/kmod/$$f/sparse.log; \
		! grep -E 'not available or not up to date' $(BUILD)/kmod/$$f/sparse.log || \
			{ echo "kmod-sparse: lane $$f: kbuild did not run sparse (Debian's 7.x headers lack scripts/checker-valid.sh)"; exit 1; }; \
	done

# Guest test programs (the tool tests use them too).
include tests/programs/progs.mk

# Host unit test of the monitor-line parser: the module's own tlob_parse.c
# built against the tool's shim of kstrto*() (kernel/shared/tlob_host_shim.h).
$(BUILD)/unit/kmod/parse-test: tests/unit/kmod/parse-test.c kernel/shared/tlob_parse.c \
		kernel/shared/tlob_parse.h kernel/shared/tlob_logic.h kernel/shared/tlob_abi.h \
		kernel/shared/tlob_host_shim.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Ikernel/shared -Iuser \
		-o $@ tests/unit/kmod/parse-test.c kernel/shared/tlob_parse.c
CHECK_DEPS += $(BUILD)/unit/kmod/parse-test

# A logical instance's step (kernel/shared/tlob_logic_step.h) on tables
# that parser makes: edges, guards, resets, invariants, a late timer.
$(BUILD)/unit/kmod/logic-step-test: tests/unit/kmod/logic-step-test.c kernel/shared/tlob_parse.c \
		kernel/shared/tlob_parse.h kernel/shared/tlob_logic.h kernel/shared/tlob_logic_step.h \
		kernel/shared/tlob_abi.h kernel/shared/tlob_host_shim.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Ikernel/shared -Iuser \
		-o $@ tests/unit/kmod/logic-step-test.c kernel/shared/tlob_parse.c
CHECK_DEPS += $(BUILD)/unit/kmod/logic-step-test

# An alive instance's cycles (kernel/shared/tlob_alive_cycle.h, module and
# BPF), the model's verdict at a cycle's end, tlob_history_push_n().
$(BUILD)/unit/kmod/alive-cycle-test: tests/unit/kmod/alive-cycle-test.c \
		kernel/shared/tlob_alive_cycle.h kernel/shared/tlob_alive_judging.h \
		kernel/shared/alive_model_ha.h \
		kernel/shared/alive_model.h kernel/shared/tlob_tolerance.h kernel/shared/tlob_abi.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Ikernel/shared \
		-o $@ tests/unit/kmod/alive-cycle-test.c
CHECK_DEPS += $(BUILD)/unit/kmod/alive-cycle-test

# Round trip: the tool's monitor lines (user/backend/monline.c) through that parser.
$(BUILD)/unit/kmod/roundtrip-test: tests/unit/kmod/roundtrip-test.c kernel/shared/tlob_parse.c \
		kernel/shared/tlob_parse.h kernel/shared/tlob_logic.h kernel/shared/tlob_abi.h \
		kernel/shared/tlob_host_shim.h \
		user/backend/monline.c user/backend/monline.h user/backend/backend.h user/lib/utils.c user/lib/utils.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Ikernel/shared -Iuser \
		-o $@ tests/unit/kmod/roundtrip-test.c kernel/shared/tlob_parse.c \
		user/backend/monline.c user/lib/utils.c
CHECK_DEPS += $(BUILD)/unit/kmod/roundtrip-test
