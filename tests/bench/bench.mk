# SPDX-License-Identifier: GPL-2.0
# Benchmarks (tests/bench/): cost, detection latency and scale of the
# backends, as ratios measured side by side inside ONE guest boot per lane
# (absolute times in the emulated VM mean little). Not part of `make check`.
#
#   make bench                          every benchmark, lanes stock and rt,
#                                       tables -> tests/bench/RESULTS.md
#   make bench BENCH_LANES=stock BENCH_TESTS=10-sched.t BENCH_ROUNDS=3 \
#        BENCH_OUT=build/bench/smoke.md  a quick subset
#
# Included right after tests/tests.mk: the recipes read VM_DEPS late, so
# what tests/vm/vm.mk adds to it still reaches the guest.
#
# Each lane boots its own initramfs: the lane's usual /opt/tlob tree (module
# build, tool, BPF objects, test programs) plus the bench programs, the
# bpftrace scripts and the bench guest scripts (tests/bench/guest/*.t) in
# place of the test scripts.

BENCH := $(BUILD)/bench
BENCH_LANES ?= stock rt
BENCH_ROUNDS ?= 10
# Length of one ping-pong / start-stop measurement, ms.
BENCH_MS ?= 1000
BENCH_TESTS ?= $(notdir $(sort $(wildcard tests/bench/guest/*.t)))
BENCH_OUT ?= tests/bench/RESULTS.md
BENCH_TESTS_CSV = $(shell echo $(BENCH_TESTS) | tr " " ,)
BENCH_TIMEOUT ?= 5400
BENCH_TEST_TIMEOUT ?= 3600

BENCH_PROG_NAMES := $(patsubst tests/bench/progs/%.c,%,$(filter-out tests/bench/progs/marks.c,$(wildcard tests/bench/progs/*.c)))
BENCH_PROGS := $(addprefix $(BENCH)/bin/bench-,$(BENCH_PROG_NAMES))
BENCH_FILES := $(BENCH_PROGS) $(wildcard tests/bench/lib/* tests/bench/bt/*)
BENCH_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread

$(BENCH)/bin/bench-%: tests/bench/progs/%.c tests/bench/progs/marks.c tests/bench/progs/marks.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(BENCH_CFLAGS) -o $@ $< tests/bench/progs/marks.c

ALL += $(BENCH_PROGS)

define bench_lane
$(BENCH)/$(1)/initramfs.cpio: $(VM_DEPS) $(VM_DEPS_$(1)) $(wildcard $(BUILD)/progs/*) $(BENCH_FILES) \
		$(wildcard tests/bench/guest/*.t) tests/vm/mkinitramfs tests/vm/stage \
		tests/vm/guest-programs tests/bench/bench.mk
	$(Q)tests/vm/stage $(BENCH)/$(1)/stage $(BUILD)/kmod/$(1) tests/bench/guest \
		$$(VM_DEPS) $$(VM_DEPS_$(1)) $(BENCH_FILES)
	$(Q)tests/vm/mkinitramfs $(BENCH)/$(1)/stage tests/vm/guest-programs $$@
endef
$(foreach l,$(sort stock rt $(BENCH_LANES)),$(eval $(call bench_lane,$(l))))

# The exact command, recorded in the results file.
BENCH_CMD = make bench BENCH_LANES="$(BENCH_LANES)" BENCH_ROUNDS=$(BENCH_ROUNDS) \
	BENCH_MS=$(BENCH_MS) BENCH_TESTS="$(BENCH_TESTS)"

.PHONY: bench bench-initramfs bench-results
bench-initramfs: $(foreach l,$(BENCH_LANES),$(BENCH)/$(l)/initramfs.cpio)

bench: bench-initramfs
	$(Q)$(foreach l,$(BENCH_LANES),k=$$(tests/vm/lane-kernel $(l) image) && \
		tests/vm/run-lane --lane $(l) --krel $(KREL_$(l)) --kernel $$k \
		--initrd $(BENCH)/$(l)/initramfs.cpio --out $(BENCH)/runs/$(l) \
		--timeout $(BENCH_TIMEOUT) --test-timeout $(BENCH_TEST_TIMEOUT) \
		--tests $(BENCH_TESTS_CSV) \
		--append "tlob.bench_rounds=$(BENCH_ROUNDS) tlob.bench_ms=$(BENCH_MS)" || true;)
	$(Q)$(MAKE) --no-print-directory bench-results

# The tables from the last run (also when some script failed: the file
# says which), then the health of the run: every script ended, the kernel
# log stayed clean.
bench-results:
	$(Q)tests/bench/results --cmd '$(BENCH_CMD)' $(BENCH)/runs $(BENCH_LANES) >$(BENCH_OUT).tmp
	$(Q)mv $(BENCH_OUT).tmp $(BENCH_OUT)
	$(Q)cat $(BENCH_OUT)
	$(Q)prove -e 'tests/vm/report $(BENCH)/runs' \
		$(foreach l,$(BENCH_LANES),$(addprefix $(l):,$(BENCH_TESTS)) $(l):lane)
