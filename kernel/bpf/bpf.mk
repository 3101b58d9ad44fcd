# SPDX-License-Identifier: GPL-2.0
# The BPF backend's programs (libbpf-tools pattern):
#   vmlinux.h (from the target kernel's own BTF) ->
#   kernel/bpf/X.bpf.c -> $(BUILD)/bpf/X.bpf.o -> $(BUILD)/bpf/X.skel.h
# The skeletons embed the objects; the tool (user/backend/bpf/backend_bpf.c) includes
# them, so nothing else has to reach the target.
#
# vmlinux.h is generated at build time, never committed, and not from the
# build machine's kernel (far newer than the targets): it comes from the BTF
# in Debian's image of the stock target kernel (tests/harness/fetch-kernel), or
# from the image VMLINUX_IMAGE names (the package build: the installed
# linux-image-amd64's, with no network; debian/rules), decompressed by the
# kernel's own scripts/extract-vmlinux (kernel/bpf/extract-vmlinux, an
# unchanged copy of Linux 6.1's). The PREEMPT_RT kernel differs in
# structure layouts; every kernel structure access goes through CO-RE
# (BPF_CORE_READ, the preserve_access_index of vmlinux.h), so one header
# serves both.
#
# Included from user/user.mk (BPF backend section).

BPF_OUT := $(BUILD)/bpf
BPF_CLANG ?= clang
BPF_STRIP ?= llvm-strip
BPFTOOL ?= bpftool
VMLINUX_IMAGE ?=
# A directory holding another rvgen output (tlob_model.h, tlob_model_ha.h)
# may be put in front of the tree's.
BPF_GEN_INC ?=

BPF_SRCS := $(wildcard kernel/bpf/*.bpf.c)
BPF_OBJS := $(patsubst kernel/bpf/%.bpf.c,$(BPF_OUT)/%.bpf.o,$(BPF_SRCS))
BPF_SKELS := $(BPF_OBJS:.bpf.o=.skel.h)
BPF_HDRS := $(wildcard kernel/bpf/*.bpf.h kernel/bpf/tlob_bpf.h kernel/shared/*.h)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Werror \
	$(if $(BPF_GEN_INC),-I$(BPF_GEN_INC)) \
	-I$(BPF_OUT) -I$(TOP)/kernel/bpf -I$(TOP)/kernel/shared

ifeq ($(VMLINUX_IMAGE),)
BPF_VMLINUX := $(BPF_OUT)/vmlinux-$(KREL_stock)
$(BPF_VMLINUX): kernel/bpf/extract-vmlinux tests/harness/fetch-kernel
	@echo "  BTF      $@"
	$(Q)mkdir -p $(@D)
	$(Q)test -n "$(KREL_stock)" || { echo "tlob: no stock 6.1 kernel to take the BPF programs' BTF from:" \
		"install linux-headers-amd64 (make deps), or name an image: VMLINUX_IMAGE=/boot/vmlinuz-..." >&2; exit 1; }
	$(Q)k=$$(tests/harness/fetch-kernel stock) && \
		kernel/bpf/extract-vmlinux $$k/boot/vmlinuz-$(KREL_stock) > $@.tmp
	$(Q)mv $@.tmp $@
else
BPF_VMLINUX := $(BPF_OUT)/vmlinux-$(notdir $(VMLINUX_IMAGE))
$(BPF_VMLINUX): $(VMLINUX_IMAGE) kernel/bpf/extract-vmlinux
	@echo "  BTF      $@"
	$(Q)mkdir -p $(@D)
	$(Q)kernel/bpf/extract-vmlinux $< > $@.tmp
	$(Q)mv $@.tmp $@
endif

$(BPF_OUT)/vmlinux.h: $(BPF_VMLINUX)
	@echo "  GEN      $@"
	$(Q)$(BPFTOOL) btf dump file $< format c > $@.tmp
	$(Q)mv $@.tmp $@

$(BPF_OUT)/%.bpf.o: kernel/bpf/%.bpf.c $(BPF_HDRS) $(BPF_OUT)/vmlinux.h
	@echo "  BPF      $@"
	$(Q)$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPF_STRIP) -g $@.tmp
	$(Q)mv $@.tmp $@

# The bpf_timer path attaches fexit programs to tlob_arm()/tlob_cancel():
# they must stay real calls in the object. (The compiler may delete calls
# to a pure function whose result is unused, and the timer object then
# fails to load with "Subprog tlob_arm doesn't exist".)
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
