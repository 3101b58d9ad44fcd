# SPDX-License-Identifier: GPL-2.0
# Benchmarks (tests/bench/): cost, detection latency and scale of the
# backends, as ratios measured side by side inside ONE guest boot per lane
# (absolute times in the emulated VM mean little). Not part of `make check`.
#
#   make bench                          every benchmark, lanes stock and rt,
#                                       tables -> tests/bench/RESULTS.md
#   make bench BENCH_LANES=stock BENCH_TESTS=10-sched.t BENCH_ROUNDS=3 \
#        BENCH_OUT=build/bench/smoke.md  a quick subset
#   make bench BENCH_SMP=2 ...          the cost benchmarks on 2 vCPUs
#                                       (wall clock, see bench_clock)
#
# Included right after tests/tests.mk: the recipes read VM_DEPS late, so
# what tests/harness/vm.mk adds to it still reaches the guest.
#
# Each lane boots its own initramfs: the lane's usual /opt/tlob tree (module
# build, tool, BPF objects, test programs) plus the bench programs, the
# bpftrace scripts and the bench guest scripts (tests/bench/guest/*.t) in
# place of the test scripts; bench programs and lib/ land in /opt/tlob/bin.

BENCH := $(BUILD)/bench
BENCH_LANES ?= stock rt
BENCH_ROUNDS ?= 10
# Rounds that reload the BPF backend, and rounds of the heaviest variants
# (see tests/bench/lib/bench.sh).
BENCH_BPF_ROUNDS ?= 3
BENCH_HEAVY_ROUNDS ?= 3
# Length of one ping-pong / start-stop measurement, ms.
BENCH_MS ?= 500
BENCH_TESTS ?= $(notdir $(sort $(wildcard tests/bench/guest/*.t)))
BENCH_OUT ?= tests/bench/RESULTS.md
BENCH_TIMEOUT ?= 5400
BENCH_TEST_TIMEOUT ?= 3600

BENCH_PROG_NAMES := $(patsubst tests/bench/progs/%.c,%,$(filter-out tests/bench/progs/marks.c,$(wildcard tests/bench/progs/*.c)))
BENCH_PROGS := $(addprefix $(BENCH)/bin/bench-,$(BENCH_PROG_NAMES))
BENCH_FILES := $(BENCH_PROGS) $(wildcard tests/bench/lib/*)
BENCH_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread

$(BENCH)/bin/bench-%: tests/bench/progs/%.c tests/bench/progs/marks.c tests/bench/progs/marks.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(BENCH_CFLAGS) -o $@ $< tests/bench/progs/marks.c

ALL += $(BENCH_PROGS)

define bench_lane
$(BENCH)/$(1)/initramfs.cpio: $(VM_DEPS) $(VM_DEPS_$(1)) $(wildcard $(BUILD)/progs/*) $(BENCH_FILES) \
		$(wildcard tests/bench/guest/*.t) tests/harness/mkinitramfs tests/harness/stage \
		tests/harness/guest-programs tests/bench/bench.mk
	$(Q)tests/harness/stage $(BENCH)/$(1)/stage $(BUILD)/kmod/$(1) tests/bench/guest \
		$$(VM_DEPS) $$(VM_DEPS_$(1)) $(BENCH_FILES)
	$(Q)tests/harness/mkinitramfs $(BENCH)/$(1)/stage tests/harness/guest-programs $$@
endef
$(foreach l,$(sort stock rt $(BENCH_LANES)),$(eval $(call bench_lane,$(l))))

# One boot per lane and script, all at once: a benchmark gets a guest of its
# own, and on a shared host parallel QEMUs get more of it (with icount each
# is one host thread). The cost benchmarks (rates, CPU time) run in a guest
# whose clock is QEMU's instruction counter (one vCPU, tests/bench/icount/):
# on a shared host, wall-clock rates swing by 2-10x, far above the 1-3 %
# effects they have to resolve. The detection-latency benchmark needs real
# timer behaviour and two CPUs (a hog on the task's CPU), so it boots the
# lane as the tests do, on the wall clock.
# BENCH_SMP=2 boots the cost benchmarks on two vCPUs as well: on the wall
# clock, since QEMU's icount cannot bring up a second vCPU here (see
# tests/bench/icount); 10-sched.t then adds its cross-CPU variants.
BENCH_WALL := 20-detect.t
BENCH_SMP ?= 1
bench_clock = $(if $(or $(filter $(BENCH_WALL),$(1)),$(filter-out 1,$(BENCH_SMP))),wall,icount)

# bench_boot LANE SCRIPT: boot LANE's bench guest running SCRIPT alone
bench_boot = k=$$(tests/harness/lane-kernel $(1) image) && \
	PATH=$(if $(filter icount,$(call bench_clock,$(2))),$(TOP)/tests/bench/icount:)$$PATH \
	tests/harness/run-lane --lane $(1) --krel $(KREL_$(1)) --kernel $$k \
	--initrd $(BENCH)/$(1)/initramfs.cpio --out $(BENCH)/runs/$(2)/$(1) \
	--timeout $(BENCH_TIMEOUT) --test-timeout $(BENCH_TEST_TIMEOUT) --tests $(2) \
	--append "tlob.bench_rounds=$(BENCH_ROUNDS) tlob.bench_ms=$(BENCH_MS) tlob.bench_clock=$(call bench_clock,$(2)) \
	tlob.bench_bpf_rounds=$(BENCH_BPF_ROUNDS) tlob.bench_heavy_rounds=$(BENCH_HEAVY_ROUNDS)" || true

# The exact command, recorded in the results file.
BENCH_CMD = make bench BENCH_LANES="$(BENCH_LANES)" BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_SMP=$(BENCH_SMP) \
	BENCH_BPF_ROUNDS=$(BENCH_BPF_ROUNDS) BENCH_HEAVY_ROUNDS=$(BENCH_HEAVY_ROUNDS) \
	BENCH_MS=$(BENCH_MS) BENCH_TESTS="$(BENCH_TESTS)"
BENCH_TITLE_icount = instruction-counter clock (QEMU icount; 1 vCPU)
BENCH_TITLE_wall = wall clock (2 vCPUs)
BENCH_RUNS = $(foreach t,$(BENCH_TESTS),$(foreach l,$(BENCH_LANES),\
	"$(BENCH)/runs/$(t)/$(l):$(l) - $(BENCH_TITLE_$(call bench_clock,$(t)))"))

.PHONY: bench bench-initramfs bench-results
bench-initramfs: $(foreach l,$(BENCH_LANES),$(BENCH)/$(l)/initramfs.cpio)

bench: bench-initramfs
	$(Q)rm -rf $(foreach t,$(BENCH_TESTS),$(foreach l,$(BENCH_LANES),$(BENCH)/runs/$(t)/$(l)))
	$(Q)$(foreach t,$(BENCH_TESTS),$(foreach l,$(BENCH_LANES),($(call bench_boot,$(l),$(t))) &)) wait
	$(Q)$(MAKE) --no-print-directory bench-results

# The tables from the last run (also when some script failed: the file
# says which), then the health of the run: every script ended, the kernel
# log stayed clean.
bench-results:
	$(Q)tests/bench/results --cmd '$(BENCH_CMD)' $(BENCH_RUNS) >$(BENCH_OUT).tmp
	$(Q)mv $(BENCH_OUT).tmp $(BENCH_OUT)
	$(Q)cat $(BENCH_OUT)
	$(Q)$(foreach t,$(BENCH_TESTS),prove -e 'tests/harness/report $(BENCH)/runs/$(t)' \
		$(foreach l,$(BENCH_LANES),$(l):$(t) $(l):lane) || rc=1;) exit $${rc:-0}
