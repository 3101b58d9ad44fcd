# SPDX-License-Identifier: GPL-2.0
# Host unit tests: every executable *.t under tests/unit/, run by prove.
# Components add what their tests need to CHECK_DEPS.

# The engine both backends run (kernel/shared/tlob_engine.h), on the host, under
# ASan and UBSan: tests/unit/engine/engine.t drives it with every scenario
# of tests/e2e/scenarios.tsv and the edge cases.
$(BUILD)/unit/engine/engine-test: tests/unit/engine/engine-test.c kernel/shared/tlob_engine.h kernel/shared/tlob_tolerance.h \
		kernel/shared/tlob_abi.h kernel/shared/tlob_model.h kernel/shared/tlob_model_ha.h kernel/shared/tlob_switch_rule.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=all -Ikernel/shared -o $@ $<
CHECK_DEPS += $(BUILD)/unit/engine/engine-test

# The diagnosis steps both backends share (kernel/shared/tlob_diag.h).
$(BUILD)/unit/engine/diag-test: tests/unit/engine/diag-test.c kernel/shared/tlob_diag.h \
		kernel/shared/tlob_abi.h kernel/shared/tlob_model.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=all -Ikernel/shared -o $@ $<
CHECK_DEPS += $(BUILD)/unit/engine/diag-test

include tests/fuzz/fuzz.mk

# Two at a time (the machines are 2-core); each script keeps its files
# under its own name or a mktemp directory, so two never share one.
.PHONY: check-unit
check-unit: $(CHECK_DEPS)
	$(Q)BUILD=$(BUILD) prove -j2 -r tests/unit

# The packages in pristine Debian 12 roots (tests/pkg/, docs/lanes.md):
# build, lintian, install with DKMS for the 6.1 and 6.12 lanes.
# As root (debootstrap, chroot); minutes cold, about one warm.
.PHONY: check-pkg
check-pkg:
	$(Q)BUILD=$(BUILD) prove tests/pkg
