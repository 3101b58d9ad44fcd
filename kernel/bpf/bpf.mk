# SPDX-License-Identifier: GPL-2.0
# The BPF backend's programs (libbpf-tools pattern):
#   vmlinux.h (from the target kernel's own BTF) ->
#   kernel/bpf/X.bpf.c -> $(BUILD)/bpf/X.bpf.o -> $(BUILD)/bpf/X.skel.h
# The skeletons embed the objects; the tool (user/backend_bpf.c) includes
# them, so nothing else has to reach the target.
#
# vmlinux.h is generated at build time, never committed, and not from the
# build machine's kernel (far newer than the targets): it comes from the BTF
# in Debian's image of the stock target kernel (tests/vm/fetch-kernel),
# decompressed by the kernel's own scripts/extract-vmlinux (taken from
# linux-source-6.1). The PREEMPT_RT kernel differs in structure layouts;
# every kernel structure access goes through CO-RE (BPF_CORE_READ, the
# preserve_access_index of vmlinux.h), so one header serves both.
#
# Included from user/user.mk (BPF backend section).

BPF_OUT := $(BUILD)/bpf
BPF_CLANG ?= clang
BPF_STRIP ?= llvm-strip
BPFTOOL ?= bpftool
LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.1.tar.xz
# A directory holding another rvgen output (tlob_model.h, tlob_model_ha.h)
# may be put in front of the tree's.
BPF_GEN_INC ?=

BPF_SRCS := $(wildcard kernel/bpf/*.bpf.c)
BPF_OBJS := $(patsubst kernel/bpf/%.bpf.c,$(BPF_OUT)/%.bpf.o,$(BPF_SRCS))
BPF_SKELS := $(BPF_OBJS:.bpf.o=.skel.h)
BPF_HDRS := $(wildcard kernel/bpf/*.h kernel/tlob_abi.h kernel/tlob_model.h kernel/tlob_model_ha.h)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Werror \
	$(if $(BPF_GEN_INC),-I$(BPF_GEN_INC)) \
	-I$(BPF_OUT) -I$(TOP)/kernel/bpf -I$(TOP)/kernel

$(BPF_OUT)/extract-vmlinux: $(LINUX_SOURCE_TAR)
	$(Q)mkdir -p $(BPF_OUT)/src
	$(Q)tar -xJf $< -C $(BPF_OUT)/src --wildcards '*/scripts/extract-vmlinux'
	$(Q)cp $(BPF_OUT)/src/*/scripts/extract-vmlinux $@.tmp && chmod +x $@.tmp && mv $@.tmp $@
	$(Q)rm -rf $(BPF_OUT)/src

$(BPF_OUT)/vmlinux-$(KREL_stock): $(BPF_OUT)/extract-vmlinux tests/vm/fetch-kernel
	@echo "  BTF      $@"
	$(Q)k=$$(tests/vm/fetch-kernel stock) && \
		$(BPF_OUT)/extract-vmlinux $$k/boot/vmlinuz-$(KREL_stock) > $@.tmp
	$(Q)mv $@.tmp $@

$(BPF_OUT)/vmlinux.h: $(BPF_OUT)/vmlinux-$(KREL_stock)
	@echo "  GEN      $@"
	$(Q)$(BPFTOOL) btf dump file $< format c > $@.tmp
	$(Q)mv $@.tmp $@

$(BPF_OUT)/%.bpf.o: kernel/bpf/%.bpf.c $(BPF_HDRS) $(BPF_OUT)/vmlinux.h
	@echo "  BPF      $@"
	$(Q)$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPF_STRIP) -g $@.tmp
	$(Q)mv $@.tmp $@

# The bpf_timer path attaches fexit programs to tlob_arm()/tlob_cancel():
# they must stay real calls in the object. (They once were not: the
# compiler deleted calls to a pure function whose result was unused, and
# the timer object failed to load with "Subprog tlob_arm doesn't exist".)
$(BPF_OUT)/tlob.bpf.checked: $(BPF_OUT)/tlob.bpf.o
	$(Q)for f in tlob_arm tlob_cancel; do \
		llvm-objdump -dr $< | grep -q "R_BPF_64_32[[:space:]]*$$f$$" || \
		{ echo "$<: no call to $$f left: the bpf_timer path cannot attach" >&2; exit 1; }; \
	done
	$(Q)touch $@

$(BPF_OUT)/tlob.skel.h: $(BPF_OUT)/tlob.bpf.checked

$(BPF_OUT)/%.skel.h: $(BPF_OUT)/%.bpf.o
	@echo "  SKEL     $@"
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst .,_,$*)_bpf > $@.tmp 2> $@.log || \
		{ cat $@.log >&2; exit 1; }
	$(Q)mv $@.tmp $@

.SECONDARY: $(BPF_OBJS)
.PHONY: bpf
bpf: $(BPF_SKELS)
