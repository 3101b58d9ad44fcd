# SPDX-License-Identifier: GPL-2.0
# Host unit tests: every executable *.t under tests/unit/, run by prove.
# Components add what their tests need to CHECK_DEPS.

.PHONY: check-unit
check-unit: $(CHECK_DEPS)
	$(Q)BUILD=$(BUILD) prove -r tests/unit
