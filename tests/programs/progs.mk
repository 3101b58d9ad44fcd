# SPDX-License-Identifier: GPL-2.0
# Test programs for the guest (tests/programs/*.c -> $(BUILD)/progs/), built
# static so the guest needs no libraries, plus the ELF file offsets of the
# workload's section functions (the guest has no nm).

PROGS_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -static -pthread
PROGS := $(patsubst tests/programs/%.c,$(BUILD)/progs/%,$(wildcard tests/programs/*.c))
WORKLOAD_SYMS := tlob_section_begin tlob_section_end tlob_section2_begin \
	tlob_section2_end tlob_section_ret

$(BUILD)/progs/%: tests/programs/%.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PROGS_CFLAGS) -o $@ $<

$(BUILD)/progs/tlob-workload.offsets: $(BUILD)/progs/tlob-workload tests/programs/elf-offsets
	$(Q)tests/programs/elf-offsets $< $(WORKLOAD_SYMS) >$@.tmp && mv $@.tmp $@

.PHONY: progs
progs: $(PROGS) $(BUILD)/progs/tlob-workload.offsets
ALL += $(PROGS) $(BUILD)/progs/tlob-workload.offsets
VM_DEPS += $(PROGS) $(BUILD)/progs/tlob-workload.offsets
