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

PROGS_OFFSETS := $(BUILD)/progs/tlob-workload.offsets $(BUILD)/progs/tlob-diag.offsets \
	$(BUILD)/progs/tlob-flow.offsets
.PHONY: progs
progs: $(PROGS) $(PROGS_OFFSETS)
ALL += $(PROGS) $(PROGS_OFFSETS)
VM_DEPS += $(PROGS) $(PROGS_OFFSETS)
# The models of tlob-flow that the tool's logic test reads (--model),
# beside the program in the guest's /opt/tlob/bin/.
VM_DEPS += $(wildcard tests/guest/models/*.dot)
