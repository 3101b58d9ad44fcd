# SPDX-License-Identifier: GPL-2.0
# The QEMU lanes. Each flavour gets a staged /opt/tlob tree (its own module
# build, the tool, test programs, BPF objects, the guest scripts) packed into
# an initramfs; one boot per lane runs every guest script (one lane after the
# other: two TCG guests side by side on a 2-core host once live-locked a
# guest in kernel text patching, see README); tests/harness/report
# gives prove one TAP stream per script per lane.
#
#   make check-vm                  both lanes, all guest scripts
#   make vm-test T=tests/guest/NN-name.t [LANE=rt]
#   make vm-shell [LANE=rt]        interactive shell in the VM
#   LANES="stock" make check-vm    a subset of lanes
#   make check-dkms                the module DKMS built (check-pkg) on the
#                                  6.1 and 6.12 lanes, the module's scripts

# Every make invocation boots into its own run directory, so concurrent runs
# (several people, or a check beside a vm-test) never read each other's logs.
VM_RUN_ID := $(shell date +%Y%m%d-%H%M%S)-$(shell echo $$PPID)
VM_RUNS ?= $(BUILD)/vm/runs/$(VM_RUN_ID)
GUEST_TESTS := $(notdir $(sort $(wildcard tests/guest/*.t)))
# The newest kernel's lanes in make check: the module's scripts, tlob list
# (the detector each backend runs on this kernel), the BPF scenarios and
# the BPF diagnosis (36), the bpf_timer detector's timers, the
# open-window buckets the BPF hooks check and START/STOP preempted on
# one CPU (38),
# to keep CI's run within its time (README "Supported kernels": six lanes
# measured 46 min here); make check-all runs every script there too (it
# empties these lists): the tool's, the rest of the BPF backend's, the
# consumers, the end-to-end scenarios, the fault matrix and the fuzzer.
GUEST_TESTS_newest := $(filter 00-% 01-% 1% 20-% 30-% 36-% 38-%,$(GUEST_TESTS))
# newest-rt the same but the BPF scenarios (30, 135 s there: the
# sampler's verdicts run on rt and 6.12-rt; 36 and 38 load and verify the
# same object on 7.3-rt), since CI's run of 2026-12-06 took 4529 s of its
# 4500.
GUEST_TESTS_newest-rt := $(filter-out 30-%,$(GUEST_TESTS_newest))
# make check's share-out of the other lanes (make check-all empties these
# lists: every script everywhere). The tool is the same program on every
# kernel: its scripts (21-29, and 37, the tool's diagnosis output) run on
# the stock 6.1 lane only; what differs per kernel under it (the module,
# the BPF programs and their verifier, the diagnosis the module captures)
# is checked on every lane by 1x, 3x and 18. Per lane on top of that:
# - rt: the consumers, the end-to-end scenarios, the fault matrix, the
#   fuzzer and the security checks (what PREEMPT_RT changes: locking,
#   threaded IRQs, the BPF detector); not 35;
# - 6.12 (stock): the BPF backend's sharing (35, its one lane in make
#   check) and the security checks;
# - 6.12-rt: the fault matrix's races and storms (61, 64, 65, 66; not
#   its error paths 60, 62, 63, nor 67, the rollback faults, 67 s there:
#   each removal waits for a tasks-trace RCU grace period) and the
#   security checks; not 34 (the BPF load/unload soak) nor 35 (213 s).
# CI's run had grown to 4760 s of its 5400 with the tool's scripts on rt
# and the end-to-end scenarios on 6.12-rt (README "Supported kernels").
# (39-tool-alive and 39-tool-logic, the tool's alive and logical
# supervision through the module, are no tool-only scripts: 3% runs them
# on stock, rt, 6.12, 6.12-rt and debug; 19-kmod-logic, 1%, everywhere.)
TOOL_ONLY_TESTS := 21-% 22-% 23-% 24-% 25-% 26-% 27-% 28-% 29-% 37-%
# Exits whose programs the kernel runs preemptible (7.x): in make check on
# the newest lanes only, where the kernel does (38-%); the others' make
# check-all runs it.
NEWEST_ONLY_TESTS := 38-bpf-preempted-exits.t
KERNEL_TESTS := $(filter-out $(TOOL_ONLY_TESTS),$(filter 00-% 01-% 09-% 1% 20-% 3%,$(GUEST_TESTS)))
# (35, several sessions on one shared BPF monitor, runs on 6.12 only:
# 112 s on rt, where CI's run of 2026-12-06 took 4529 s of its 4500.)
GUEST_TESTS_rt := $(filter-out 35-% $(TOOL_ONLY_TESTS) $(NEWEST_ONLY_TESTS),$(GUEST_TESTS))
# The stock 6.1 lane: every script but some the rt lane (the same 6.1
# source) runs too and whose checks do not depend on the preemption
# model: 35 (several sessions on one shared BPF monitor; rt and 6.12 run
# it) and the fault matrix's error paths (60-63, 66, 67: bad control
# lines, dead tasks, deleted binaries, a full pool, thread storms;
# rt and 6.12-rt run them, and 67, the rollback, rt alone). The races (64 migration, 65 the
# timer/STOP race), kmemleak (69), the fuzzer and the security checks stay:
# CI's run of 2026-12-04 took 4426 s of its 4500 (75 min) budget, stock
# 1121 s of it; that of 2026-12-06 4529 s, stock 1093 s: the end-to-end
# scenarios (50, 86 s) and the BPF load/unload soak (34, 42 s) left it
# then (rt runs both, 6.12 34 too).
GUEST_TESTS_stock := $(filter-out 34-% 35-% 50-% 60-% 61-% 62-% 63-% 66-% 67-% $(NEWEST_ONLY_TESTS),$(GUEST_TESTS))
# The debug lane (KASAN, lockdep, kmemleak; several times slower) runs the
# kernel backends' suites (1x module, 3x BPF), the fault matrix (6x), the
# control-file fuzzer (70) and the security checks (8x), not the tool/e2e
# scripts, nor 34 (100 BPF loads: verifying them under KASAN is minutes
# each ten; the stock and rt lanes run it). (One % per make pattern:
# "1%-kmod-%.t" would match nothing.)
# (37, the tool's diagnosis output, matched the debug lane's 3% until
# 2026-12-02: under KASAN its spin window's deadline passed while the task
# was still in the START probe, so its user stack named diag_begin.
# 36, the same scenarios on the BPF backend, stays out for that reason.)
# 39-bpf-alive and 39-bpf-logic stay out too: each tlob mon loads the BPF
# programs, minutes each under KASAN (39-bpf-alive alone took 770 s there,
# 2026-12-06, green); run them by name (GUEST_TESTS_debug=...).
GUEST_TESTS_debug := $(filter-out 34-% 36-% 39-bpf-% $(TOOL_ONLY_TESTS) $(NEWEST_ONLY_TESTS),$(filter 00-% 1% 3% 6% 7% 8%,$(GUEST_TESTS)))
# The debug lane boots with 4-level paging (no5lvl): under QEMU 10's
# -cpu max (5-level paging, the direct map at ff11...) its KASAN kernel
# (linux-source-6.1 6.1.192) reported a "wild-memory-access" in
# do_raw_spin_lock() from an interrupt during identify_cpu() at every boot,
# before any of tlob's code, and the report's taint switched lockdep off
# for the whole run (2026-12-04, two boots of two; none with no5lvl).
VM_APPEND_debug := no5lvl
# 39-bpf-alive and 39-bpf-logic (the BPF backend's alive and logical
# supervision, 40 and 80 guest s) run on stock (bpf_timer) and rt (the
# sampler) in make check; on the 6.12 lanes every BPF script's load
# verifies their programs (one object), and make check-all runs them there.
GUEST_TESTS_6.12 := $(filter-out 39-bpf-% $(NEWEST_ONLY_TESTS),$(KERNEL_TESTS)) $(filter 8%,$(GUEST_TESTS))
# 6.12-rt runs the fault matrix's races and storms (61 dead tasks, 64,
# 65, 66), not its error paths (60 control lines, 62 deleted binaries, 63
# a full pool: 77 s there, which rt runs on the same code; CI's run of
# 2026-12-06 took 4529 s of its 4500).
GUEST_TESTS_6.12-rt := $(filter-out 34-% 35-% 39-bpf-% $(NEWEST_ONLY_TESTS),$(KERNEL_TESTS)) \
	$(filter 61-% 64-% 65-% 66-%,$(GUEST_TESTS)) $(filter 8%,$(GUEST_TESTS))
# How long the stress scripts run (guest lib/tap.sh soak()): short in make
# check and the debug lane, long in make check-all and by hand.
SOAK ?= short
lane_tests = $(if $(GUEST_TESTS_$(1)),$(GUEST_TESTS_$(1)),$(GUEST_TESTS))
comma := ,
empty :=
space := $(empty) $(empty)
VM_TIMEOUT_debug ?= 5400
VM_TIMEOUT ?= 3000
VM_TEST_TIMEOUT ?= 900
# KASAN's kernel runs 30-bpf-scenarios (22 monitor sessions, each loading
# the BPF object) in about 900 s: it was killed at 902 s once min= and
# tolerance= added their scenarios (2026-12-03).
VM_TEST_TIMEOUT_debug ?= 1800

# DKMS_KO=1: each lane loads the tlob.ko that DKMS built for its kernel in
# a pristine root (make check-pkg: $(BUILD)/dkms/KVER/tlob.ko) instead of
# the lane's own build; 09-kmod-origin.t proves which one it loaded. The
# choice is kept in a file, so switching it rebuilds the initramfs.
DKMS_KO ?=
dkms_ko = $(if $(DKMS_KO),$(BUILD)/dkms/$(KREL_$(1))/tlob.ko)
$(BUILD)/dkms/%/tlob.ko:
	@echo "no $@: make check-pkg builds it (DKMS in a pristine Debian 12 root)" >&2; exit 1

define vm_flavour
.PHONY: vm-initramfs-$(1)
vm-initramfs-$(1): $(BUILD)/vm/$(1)/initramfs.cpio
$(BUILD)/vm/$(1)/tlob-ko: FORCE
	$(Q)mkdir -p $$(@D) && echo "$$(or $$(call dkms_ko,$(1)),$(BUILD)/kmod/$(1))" >$$@.tmp && \
		{ cmp -s $$@.tmp $$@ && rm $$@.tmp || mv $$@.tmp $$@; }
$(BUILD)/vm/$(1)/initramfs.cpio: $(VM_DEPS) $(VM_DEPS_$(1)) $(wildcard tests/guest/* tests/guest/lib/*) \
		tests/harness/mkinitramfs tests/harness/guest-programs tests/harness/vm.mk \
		$(BUILD)/vm/$(1)/tlob-ko $$(call dkms_ko,$(1))
	$(Q)st=$(BUILD)/vm/$(1)/stage.$$$$$$$$ && \
		TLOB_KO=$$(call dkms_ko,$(1)) \
		tests/harness/stage $$$$st $(BUILD)/kmod/$(1) tests/guest $(VM_DEPS) $(VM_DEPS_$(1)) && \
		tests/harness/mkinitramfs $$$$st tests/harness/guest-programs $$@; r=$$$$?; rm -rf $$$$st; exit $$$$r
endef
$(foreach f,$(BUILT_LANES),$(eval $(call vm_flavour,$(f))))

# run-lane LANE [extra run-lane args]; a failed boot still lets report speak
vm_run = k=$$(tests/harness/lane-kernel $(1) image) && \
	tests/harness/run-lane --lane $(1) --krel $(KREL_$(1)) --kernel $$k \
		--initrd $(BUILD)/vm/$(1)/initramfs.cpio --out $(VM_RUNS)/$(1) \
		--timeout $(or $(VM_TIMEOUT_$(1)),$(VM_TIMEOUT)) --test-timeout $(or $(VM_TEST_TIMEOUT_$(1)),$(VM_TEST_TIMEOUT)) \
		--append "tlob.pin=1 tlob.soak=$(SOAK)$(if $(VM_APPEND_$(1)), $(VM_APPEND_$(1)))" \
		$(if $(2),$(2),--tests $(subst $(space),$(comma),$(call lane_tests,$(1)))) || true

# The harness's own test (it catches failures); once per make check.
VM_SELFTEST ?= tests/harness/selftest.t

.PHONY: check-vm check-debug check-all vm-test vm-shell vm-selftest
check-vm: $(foreach l,$(LANES),$(BUILD)/vm/$(l)/initramfs.cpio)
	$(Q)$(foreach l,$(LANES),$(call vm_run,$(l));)
	$(Q)r=0; prove -e 'tests/harness/report $(VM_RUNS)' \
		$(foreach l,$(LANES),$(addprefix $(l):,$(call lane_tests,$(l))) $(l):lane) \
		$(VM_SELFTEST) || r=$$?; tests/harness/lane-times $(VM_RUNS); exit $$r

# Every lane, every script, the long soak, and the debug lane when its
# kernel is cached (make check never runs it: see the top Makefile).
check-all:
	$(Q)$(MAKE) --no-print-directory check SOAK=long GUEST_TESTS_stock= GUEST_TESTS_newest= GUEST_TESTS_newest-rt= \
		GUEST_TESTS_rt= GUEST_TESTS_6.12= GUEST_TESTS_6.12-rt=
	$(Q)if tests/harness/debug/build-kernel --check >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory check-vm LANES=debug SOAK=long VM_SELFTEST=; \
	else echo "make check-all: debug lane skipped: no cached debug kernel ('make debug-kernel' builds it)"; fi

# The debug lane on its own: builds the debug kernel first when it is not
# cached (15-25 min on 2 idle cores), then boots it with the module built
# against it. Not part of `make check` (see README: cost).
check-debug:
	$(Q)tests/harness/debug/build-kernel >/dev/null
	$(Q)$(MAKE) --no-print-directory check-vm LANES=debug

vm-test: $(BUILD)/vm/$(LANE)/initramfs.cpio
	$(Q)test -n "$(T)" || { echo "usage: make vm-test T=tests/guest/NN-name.t [LANE=rt]"; exit 2; }
	$(Q)$(call vm_run,$(LANE),--tests $(notdir $(T)))
	$(Q)prove -v -e 'tests/harness/report $(VM_RUNS)' $(LANE):$(notdir $(T)) $(LANE):lane

vm-shell: $(BUILD)/vm/$(LANE)/initramfs.cpio
	$(Q)k=$$(tests/harness/lane-kernel $(LANE) image) && tests/harness/run-lane --shell --lane $(LANE) \
		--krel $(KREL_$(LANE)) --kernel $$k \
		--initrd $< --out $(VM_RUNS)/shell

# The harness proves it catches failures (a failing script, an oops, a
# warning, a hung guest); it runs as part of check-vm.
vm-selftest: $(BUILD)/vm/stock/initramfs.cpio
	$(Q)prove -v tests/harness/selftest.t

# The main job (README): boot the VM, load the monitor, run the sample
# application under a budget and show what tlob reports. The application
# keeps its frame pointers, as a violation's user stack is walked by them
# (Debian builds its own packages without; say so to users, README).
DEMO_APP := $(BUILD)/demo/frame-app
$(DEMO_APP): tests/demo/frame-app.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-Wall -Wextra -Werror -o $@ $<
ALL += $(DEMO_APP)
VM_DEPS += $(DEMO_APP)

.PHONY: demo
demo: all
	$(Q)tests/harness/stage $(BUILD)/vm/demo/stage $(BUILD)/kmod/$(LANE) tests/demo $(VM_DEPS) $(VM_DEPS_$(LANE))
	$(Q)tests/harness/mkinitramfs $(BUILD)/vm/demo/stage tests/harness/guest-programs $(BUILD)/vm/demo/initramfs.cpio
	$(Q)k=$$(tests/harness/lane-kernel $(LANE) image) && \
		tests/harness/run-lane --lane $(LANE) --krel $(KREL_$(LANE)) --kernel $$k \
		--initrd $(BUILD)/vm/demo/initramfs.cpio --out $(VM_RUNS)/demo --tests demo.sh \
		--timeout 600 2>/dev/null; \
		sed -n '/^### BEGIN demo.sh/,/^### DMESG/p' $(VM_RUNS)/demo/results.log | sed '1d;$$d'; \
		echo "(lane $(LANE): $$(cat $(VM_RUNS)/demo/status), $$(cat $(VM_RUNS)/demo/seconds)s in the VM)"

# The module DKMS built in a pristine root (make check-pkg) loads and
# passes the module's checks on the lanes of the kernels it was built for
# (tests/pkg/20-install.t: TLOB_PKG_LANES, default stock and 6.12).
# make check runs check-dkms-lanes after check-pkg (which leaves the
# modules in $(BUILD)/dkms/); check-dkms does both.
DKMS_LANES ?= stock 6.12
# What could differ in a module DKMS built (its flags, its headers, its
# install path): it loads and unloads (10, 14), judges windows (12),
# reacts (15), diagnoses (18). The rest of the module's scripts (the
# parser, latency, stats, the stress, alive and logical supervision) test
# the same sources, which the lanes right after run on the tree's build.
DKMS_TESTS := $(filter 00-% 09-% 10-% 12-% 14-% 15-% 18-%,$(GUEST_TESTS))
.PHONY: check-dkms check-dkms-lanes
check-dkms:
	$(Q)$(MAKE) --no-print-directory check-pkg
	$(Q)$(MAKE) --no-print-directory check-dkms-lanes
check-dkms-lanes:
	$(Q)$(MAKE) --no-print-directory check-vm DKMS_KO=1 LANES="$(DKMS_LANES)" VM_SELFTEST= \
		$(foreach l,$(DKMS_LANES),GUEST_TESTS_$(l)="$(DKMS_TESTS)")
