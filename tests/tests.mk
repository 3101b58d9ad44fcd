# SPDX-License-Identifier: GPL-2.0
# Host unit tests: every executable *.t under tests/unit/, run by prove.
# Components add what their tests need to CHECK_DEPS.

# The engine both backends run (kernel/tlob_engine.h), on the host, under
# ASan and UBSan: tests/unit/engine/engine.t drives it with every scenario
# of tests/e2e/scenarios.tsv and the edge cases.
$(BUILD)/unit/engine/engine-test: tests/unit/engine/engine-test.c kernel/tlob_engine.h \
		kernel/tlob_abi.h kernel/tlob_model.h kernel/tlob_model_ha.h kernel/tlob_switch_rule.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=all -Ikernel -o $@ $<
CHECK_DEPS += $(BUILD)/unit/engine/engine-test

.PHONY: check-unit
check-unit: $(CHECK_DEPS)
	$(Q)BUILD=$(BUILD) prove -r tests/unit
