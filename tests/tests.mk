# SPDX-License-Identifier: GPL-2.0
# Host unit tests: every executable *.t under tests/unit/, run by prove.
# Components add what their tests need to CHECK_DEPS.

.PHONY: check-unit
check-unit: $(CHECK_DEPS)
	$(Q)BUILD=$(BUILD) prove -r tests/unit

# The packages in pristine Debian 12 roots (tests/pkg/, README "Test
# lanes"): build, lintian, install with DKMS for the 6.1 and 6.12 lanes.
# As root (debootstrap, chroot); minutes cold, about one warm.
.PHONY: check-pkg
check-pkg:
	$(Q)BUILD=$(BUILD) prove tests/pkg
