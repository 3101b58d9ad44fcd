# SPDX-License-Identifier: GPL-2.0
# Benchmarks (tests/bench/): cost, detection latency and scale of the
# backends, as ratios measured side by side inside ONE guest boot per lane
# (absolute times in the emulated VM mean little). Not part of `make check`.
#
#   make bench                          every benchmark, lanes stock and rt
#                                       (60-rtlat.t: also 6.12-rt, newest-rt),
#                                       tables -> tests/bench/RESULTS.md
#   make bench BENCH_LANES=stock BENCH_TESTS=10-sched.t BENCH_ROUNDS=3
#                                       a quick subset -> build/bench/RESULTS.md
#   make bench BENCH_SMP=2 ...          the cost benchmarks on 2 vCPUs
#                                       (wall clock, see bench_clock)
#   make bench BENCH_READER_S=10 ...    shorter sustained reader runs
#                                       (50-reader.t; default 60 s)
#
# Included right after tests/tests.mk: the recipes read VM_DEPS late, so
# what tests/harness/vm.mk adds to it still reaches the guest.
#
# Each lane boots its own initramfs: the lane's usual /opt/tlob tree (module
# build, tool, BPF objects, test programs) plus the bench programs, the
# bpftrace scripts and the bench guest scripts (tests/bench/guest/*.t) in
# place of the test scripts; bench programs and lib/ land in /opt/tlob/bin.

BENCH := $(BUILD)/bench
# The lanes each script boots: BENCH_LANES; the RT-latency benchmark
# (60-rtlat.t) also every PREEMPT_RT lane, unless BENCH_LANES is given.
ifeq ($(origin BENCH_LANES),undefined)
BENCH_LANES_60-rtlat.t ?= stock rt 6.12-rt newest-rt
BENCH_DEFAULT_LANES := 1
endif
BENCH_LANES ?= stock rt
bench_lanes = $(or $(BENCH_LANES_$(1)),$(BENCH_LANES))
BENCH_ROUNDS ?= 10
# Rounds that reload the BPF backend, and rounds of the heaviest variants
# (see tests/bench/lib/bench.sh).
BENCH_BPF_ROUNDS ?= 3
BENCH_HEAVY_ROUNDS ?= 3
# Length of one ping-pong / start-stop measurement, ms.
BENCH_MS ?= 500
# Seconds of cyclictest per variant and round (60-rtlat.t).
BENCH_RTLAT_S ?= 10
# Seconds of each sustained reader measurement (50-reader.t).
BENCH_READER_S ?= 60
BENCH_ALL_TESTS := $(notdir $(sort $(wildcard tests/bench/guest/*.t)))
# tests/bench/RESULTS.md is the whole benchmark (every script, its lanes),
# one run; a subset writes $(BENCH)/RESULTS.md unless told otherwise.
ifeq ($(origin BENCH_TESTS)$(BENCH_DEFAULT_LANES),undefined1)
BENCH_OUT ?= tests/bench/RESULTS.md
else
BENCH_OUT ?= $(BENCH)/RESULTS.md
endif
BENCH_TESTS ?= $(BENCH_ALL_TESTS)
BENCH_ALL_LANES = $(sort $(foreach t,$(BENCH_TESTS),$(call bench_lanes,$(t))))
BENCH_TIMEOUT ?= 5400
BENCH_TEST_TIMEOUT ?= 3600

BENCH_PROG_NAMES := $(patsubst tests/bench/progs/%.c,%,$(filter-out tests/bench/progs/marks.c,$(wildcard tests/bench/progs/*.c)))
BENCH_PROGS := $(addprefix $(BENCH)/bin/bench-,$(BENCH_PROG_NAMES))
BENCH_FILES := $(BENCH_PROGS) $(wildcard tests/bench/lib/*)
BENCH_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread

$(BENCH)/bin/bench-%: tests/bench/progs/%.c tests/bench/progs/marks.c tests/bench/progs/marks.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(BENCH_CFLAGS) -o $@ $< tests/bench/progs/marks.c

# The BPF backend's floors: empty programs (tests/bench/bpf/floor.bpf.c)
# built as the backend's objects are (kernel/bpf/bpf.mk: its flags, its
# vmlinux.h, its skeleton rule), held attached by bench-bpffloor.
$(BPF_OUT)/bench_%.bpf.o: tests/bench/bpf/%.bpf.c $(BPF_OUT)/vmlinux.h
	@echo "  BPF      $@"
	$(Q)$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPF_STRIP) -g $@.tmp
	$(Q)mv $@.tmp $@
.SECONDARY: $(BPF_OUT)/bench_floor.bpf.o
BENCH_BPFFLOOR_SRCS := user/backend/bpf/kernel_caps.c user/backend/bpf/sampler.c
$(BENCH)/bin/bench-bpffloor: tests/bench/progs/bpffloor.c $(BENCH_BPFFLOOR_SRCS) $(BENCH_BPFFLOOR_SRCS:.c=.h) \
		$(BPF_OUT)/bench_floor.skel.h
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(BENCH_CFLAGS) -I$(BPF_OUT) -Ikernel/bpf -Iuser -o $@ $< $(BENCH_BPFFLOOR_SRCS) $(shell pkg-config --libs libbpf)

ALL += $(BENCH_PROGS)

define bench_lane
$(BENCH)/$(1)/initramfs.cpio: $(VM_DEPS) $(VM_DEPS_$(1)) $(wildcard $(BUILD)/progs/*) $(BENCH_FILES) \
		$(wildcard tests/bench/guest/*.t) tests/harness/mkinitramfs tests/harness/stage \
		tests/harness/guest-programs tests/bench/bench.mk
	$(Q)tests/harness/stage $(BENCH)/$(1)/stage $(BUILD)/kmod/$(1) tests/bench/guest \
		$$(VM_DEPS) $$(VM_DEPS_$(1)) $(BENCH_FILES)
	$(Q)tests/harness/mkinitramfs $(BENCH)/$(1)/stage tests/harness/guest-programs $$@
endef
$(foreach l,$(sort stock rt $(BENCH_ALL_LANES)),$(eval $(call bench_lane,$(l))))

# One boot per lane and script, all at once: a benchmark gets a guest of its
# own (tests/harness/run-lane boots one guest at a time on this machine; the
# others wait for it). The cost benchmarks (rates, CPU time) run in a guest
# whose clock is QEMU's instruction counter (one vCPU, tests/bench/icount/):
# on a shared host, wall-clock rates swing by 2-10x, far above the 1-3 %
# effects they have to resolve. The detection-latency and RT-latency
# benchmarks need real timer behaviour and two CPUs (a hog on the task's
# CPU; cyclictest beside busy tasks), so they boot the lane as the tests
# do, on the wall clock.
# BENCH_SMP=2 boots the cost benchmarks on two vCPUs as well: on the wall
# clock, since QEMU's icount cannot bring up a second vCPU here (see
# tests/bench/icount); 10-sched.t then adds its cross-CPU variants.
BENCH_WALL := 20-detect.t 60-rtlat.t
BENCH_SMP ?= 1
bench_clock = $(if $(or $(filter $(BENCH_WALL),$(1)),$(filter-out 1,$(BENCH_SMP))),wall,icount)

# bench_boot LANE SCRIPT: boot LANE's bench guest running SCRIPT alone
bench_boot = k=$$(tests/harness/lane-kernel $(1) image) && \
	PATH=$(if $(filter icount,$(call bench_clock,$(2))),$(TOP)/tests/bench/icount:)$$PATH \
	tests/harness/run-lane --lane $(1) --krel $(KREL_$(1)) --kernel $$k \
	--initrd $(BENCH)/$(1)/initramfs.cpio --out $(BENCH_RUN)/$(2)/$(1) \
	--timeout $(BENCH_TIMEOUT) --test-timeout $(BENCH_TEST_TIMEOUT) --tests $(2) \
	--append "tlob.bench_rounds=$(BENCH_ROUNDS) tlob.bench_ms=$(BENCH_MS) tlob.bench_clock=$(call bench_clock,$(2)) \
	tlob.bench_bpf_rounds=$(BENCH_BPF_ROUNDS) tlob.bench_heavy_rounds=$(BENCH_HEAVY_ROUNDS) \
	tlob.bench_rtlat_s=$(BENCH_RTLAT_S) tlob.bench_reader_s=$(BENCH_READER_S)" || true

# Every make bench is one run, in a directory of its own: run.info says
# what it was (the command, the tree, when, every script and lane it
# boots), tests/bench/results reads that and nothing else, so a results
# file is always one run's. runs/last names the newest.
BENCH_RUN_ID := $(shell date -u +%Y%m%d-%H%M%S)-$(shell echo $$PPID)
BENCH_RUN := $(BENCH)/runs/$(BENCH_RUN_ID)
BENCH_CMD = make bench $(if $(BENCH_DEFAULT_LANES),,BENCH_LANES="$(BENCH_LANES)" )BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_SMP=$(BENCH_SMP) \
	BENCH_BPF_ROUNDS=$(BENCH_BPF_ROUNDS) BENCH_HEAVY_ROUNDS=$(BENCH_HEAVY_ROUNDS) \
	BENCH_MS=$(BENCH_MS) BENCH_RTLAT_S=$(BENCH_RTLAT_S) BENCH_READER_S=$(BENCH_READER_S) BENCH_TESTS="$(BENCH_TESTS)"
# One "run: SCRIPT LANE CLOCK" per boot
BENCH_PAIRS = $(foreach t,$(BENCH_TESTS),$(foreach l,$(call bench_lanes,$(t)),$(t):$(l)))

.PHONY: bench bench-initramfs bench-results
bench-initramfs: $(foreach l,$(BENCH_ALL_LANES),$(BENCH)/$(l)/initramfs.cpio)

bench: bench-initramfs
	$(Q)mkdir -p $(BENCH_RUN)
	$(Q){ echo 'command: $(BENCH_CMD)'; \
	  echo "tree: $$(git -C $(TOP) describe --always --dirty 2>/dev/null) ($$(git -C $(TOP) rev-parse HEAD 2>/dev/null))"; \
	  echo "host: $$(uname -r), $$(nproc) CPUs"; \
	  echo "emulator: $$(qemu-system-x86_64 --version | head -n 1)"; \
	  echo "started: $$(date -u '+%Y-%m-%d %H:%M UTC')"; \
	  $(foreach p,$(BENCH_PAIRS),echo "run: $(subst :, ,$(p)) $(call bench_clock,$(firstword $(subst :, ,$(p))))";) \
	} >$(BENCH_RUN)/run.info
	$(Q)ln -sfn $(BENCH_RUN_ID) $(BENCH)/runs/last
	$(Q)$(foreach p,$(BENCH_PAIRS),($(call bench_boot,$(lastword $(subst :, ,$(p))),$(firstword $(subst :, ,$(p))))) &) wait
	$(Q)echo "finished: $$(date -u '+%Y-%m-%d %H:%M UTC')" >>$(BENCH_RUN)/run.info
	$(Q)$(MAKE) --no-print-directory bench-results BENCH_RESULTS_RUN=$(BENCH_RUN)

# The tables of one run (the last, or BENCH_RESULTS_RUN=DIR; also when
# some script failed: the file says which), then the health of the run:
# every script ended, its targets held, the kernel log stayed clean.
BENCH_RESULTS_RUN ?= $(BENCH)/runs/last
bench-results:
	$(Q)tests/bench/results $(BENCH_RESULTS_RUN) >$(BENCH_OUT).tmp
	$(Q)mv $(BENCH_OUT).tmp $(BENCH_OUT)
	$(Q)cat $(BENCH_OUT)
	$(Q)tests/bench/results --prove $(BENCH_RESULTS_RUN)
