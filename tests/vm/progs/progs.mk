# SPDX-License-Identifier: GPL-2.0
# Test programs for the guest (tests/vm/progs/*.c -> $(BUILD)/progs/), built
# static so the guest needs no libraries, plus the ELF file offsets of the
# workload's section functions (the guest has no nm).

PROGS_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -static -pthread
PROGS := $(patsubst tests/vm/progs/%.c,$(BUILD)/progs/%,$(wildcard tests/vm/progs/*.c))
WORKLOAD_SYMS := tlob_section_begin tlob_section_end tlob_section2_begin \
	tlob_section2_end tlob_section_ret

$(BUILD)/progs/%: tests/vm/progs/%.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PROGS_CFLAGS) -o $@ $<

$(BUILD)/progs/tlob-workload.offsets: $(BUILD)/progs/tlob-workload tests/vm/progs/elf-offsets
	$(Q)tests/vm/progs/elf-offsets $< $(WORKLOAD_SYMS) >$@.tmp && mv $@.tmp $@

.PHONY: progs
progs: $(PROGS) $(BUILD)/progs/tlob-workload.offsets
ALL += $(PROGS) $(BUILD)/progs/tlob-workload.offsets
VM_DEPS += $(PROGS) $(BUILD)/progs/tlob-workload.offsets
