# SPDX-License-Identifier: GPL-2.0
# Test programs for the guest (tests/programs/*.c -> $(BUILD)/progs/), built
# static so the guest needs no libraries, plus the ELF file offsets of the
# workload's section functions (the guest has no nm).

PROGS_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -static -pthread
PROGS := $(patsubst tests/programs/%.c,$(BUILD)/progs/%,$(wildcard tests/programs/*.c))
WORKLOAD_SYMS := tlob_section_begin tlob_section_end tlob_section2_begin \
	tlob_section2_end tlob_section_ret tlob_heartbeat
# tlob-diag's section and the functions its diagnosis must name; built
# with frame pointers, as the user-stack walk of a violation needs them.
DIAG_SYMS := diag_begin diag_end diag_spin_leaf diag_spin_caller main
$(BUILD)/progs/tlob-diag: PROGS_CFLAGS += -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer
# tlob-flow's events (logical supervision, `l` lines: tests/guest/*-logic.t)
FLOW_SYMS := flow_init frame_begin frame_end flow_shutdown flow_idle

$(BUILD)/progs/%: tests/programs/%.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PROGS_CFLAGS) -o $@ $<

$(BUILD)/progs/tlob-workload.offsets: $(BUILD)/progs/tlob-workload tests/programs/elf-offsets
	$(Q)tests/programs/elf-offsets $< $(WORKLOAD_SYMS) >$@.tmp && mv $@.tmp $@

$(BUILD)/progs/tlob-diag.offsets: $(BUILD)/progs/tlob-diag tests/programs/elf-offsets
	$(Q)tests/programs/elf-offsets $< $(DIAG_SYMS) >$@.tmp && mv $@.tmp $@

$(BUILD)/progs/tlob-flow.offsets: $(BUILD)/progs/tlob-flow tests/programs/elf-offsets
	$(Q)tests/programs/elf-offsets $< $(FLOW_SYMS) >$@.tmp && mv $@.tmp $@

# tlob-flow-split: tlob-flow with frame_begin and frame_end in a library
# of its own (libtlob-flow.so, found beside it: $$ORIGIN), for models whose
# events lie in several files. Dynamic, unlike the others: the guest's
# initramfs carries the libraries of every program (mkinitramfs: ldd).
FLOW_SPLIT_SYMS := flow_init flow_shutdown
FLOW_LIB_SYMS := frame_begin frame_end
$(BUILD)/progs/libtlob-flow.so: tests/programs/lib/tlob-flow-frames.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -shared -fPIC -o $@ $<

$(BUILD)/progs/tlob-flow-split: tests/programs/tlob-flow.c tests/programs/lib/tlob-flow-frames.c \
		$(BUILD)/progs/libtlob-flow.so
	$(Q)$(CC) $(filter-out -static,$(PROGS_CFLAGS)) -DTLOB_FLOW_SPLIT -o $@ $< \
		-L$(BUILD)/progs -ltlob-flow -Wl,-rpath,'$$ORIGIN'

$(BUILD)/progs/tlob-flow-split.offsets: $(BUILD)/progs/tlob-flow-split tests/programs/elf-offsets
	$(Q)tests/programs/elf-offsets $< $(FLOW_SPLIT_SYMS) >$@.tmp && mv $@.tmp $@

$(BUILD)/progs/libtlob-flow.offsets: $(BUILD)/progs/libtlob-flow.so tests/programs/elf-offsets
	$(Q)tests/programs/elf-offsets $< $(FLOW_LIB_SYMS) >$@.tmp && mv $@.tmp $@

PROGS += $(BUILD)/progs/libtlob-flow.so $(BUILD)/progs/tlob-flow-split
PROGS_OFFSETS := $(BUILD)/progs/tlob-workload.offsets $(BUILD)/progs/tlob-diag.offsets \
	$(BUILD)/progs/tlob-flow.offsets $(BUILD)/progs/tlob-flow-split.offsets \
	$(BUILD)/progs/libtlob-flow.offsets
.PHONY: progs
progs: $(PROGS) $(PROGS_OFFSETS)
ALL += $(PROGS) $(PROGS_OFFSETS)
VM_DEPS += $(PROGS) $(PROGS_OFFSETS)
# The models of tlob-flow that the tool's logic test reads (--model),
# beside the program in the guest's /opt/tlob/bin/.
VM_DEPS += $(wildcard tests/guest/models/*.dot)
