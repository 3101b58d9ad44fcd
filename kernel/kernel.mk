# SPDX-License-Identifier: GPL-2.0
# tlob.ko (and the test-only modules, see Kbuild) for each flavour, each in
# its own output tree: Kbuild writes objects next to the sources, so every
# flavour gets a tree of symlinks to the sources and builds there.

KMOD_SRCS := Kbuild $(wildcard kernel/Kbuild kernel/*.c kernel/*.h) \
	$(wildcard tests/vm/modules/Kbuild tests/vm/modules/*.c)

define kmod_flavour
$(BUILD)/kmod/$(1)/.tree: $(KMOD_SRCS)
	$(Q)mkdir -p $(BUILD)/kmod/$(1)
	$(Q)for f in $(KMOD_SRCS); do mkdir -p $(BUILD)/kmod/$(1)/$$$$(dirname $$$$f); \
		ln -sfn $(TOP)/$$$$f $(BUILD)/kmod/$(1)/$$$$f; done
	$(Q)touch $$@

$(BUILD)/kmod/$(1)/kernel/tlob.ko: $(BUILD)/kmod/$(1)/.tree
	$(Q)$(MAKE) --no-print-directory -C $(KDIR_$(1)) M=$(BUILD)/kmod/$(1) W=1 modules

kmod-$(1): $(BUILD)/kmod/$(1)/kernel/tlob.ko
.PHONY: kmod-$(1)
ALL += $(BUILD)/kmod/$(1)/kernel/tlob.ko
VM_DEPS_$(1) += $(BUILD)/kmod/$(1)/kernel/tlob.ko
endef
$(foreach f,$(FLAVOURS),$(eval $(call kmod_flavour,$(f))))

.PHONY: kmod
kmod: $(foreach f,$(FLAVOURS),kmod-$(f))
