# SPDX-License-Identifier: GPL-2.0
# The QEMU lanes. Each flavour gets a staged /opt/tlob tree (its own module
# build, the tool, test programs, BPF objects, the guest scripts) packed into
# an initramfs; one boot per lane runs its guest scripts (one lane after the
# other: two TCG guests side by side on a 2-core host once live-locked a
# guest in kernel text patching, see docs/lanes.md); tests/harness/report
# gives prove one TAP stream per script per lane.
#
#   make check-vm                  every lane, each on its scripts
#   make vm-lists                  which scripts each lane runs
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
# make check's share-out of the scripts over the lanes: each script names
# its lanes, and says why, in its own "# lanes:" header line
# (tests/harness/guest-lanes documents the words; docs/lanes.md the
# share-out). make check-all empties these lists: every script on every
# lane, the long soak. GUEST_TESTS_<lane>=... on the command line
# overrides a lane's list.
GUEST_LANE_WORDS := $(shell tests/harness/guest-lanes tests/guest)
ifneq ($(.SHELLSTATUS),0)
$(error tests/harness/guest-lanes: a guest script's "# lanes:" line is missing or wrong (above))
endif
guest_lane = $(sort $(patsubst $(1):%,%,$(filter $(1):%,$(GUEST_LANE_WORDS))))
$(foreach l,$(ALL_LANES) debug,$(eval GUEST_TESTS_$(l) = $$(call guest_lane,$(l))))
# The debug lane boots with 4-level paging (no5lvl): under QEMU 10's
# -cpu max (5-level paging, the direct map at ff11...) its KASAN kernel
# (linux-source-6.1 6.1.192) reports a "wild-memory-access" in
# do_raw_spin_lock() from an interrupt during identify_cpu() at every boot,
# before any of tlob's code, and the report's taint switches lockdep off
# for the whole run; with no5lvl it boots without the report.
VM_APPEND_debug := no5lvl
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
# the BPF object) in about 900 s, the whole of VM_TEST_TIMEOUT: twice that
# leaves it room.
VM_TEST_TIMEOUT_debug ?= 1800

# DKMS_KO=1: each lane loads the tlob.ko that DKMS built for its kernel in
# a pristine root (make check-pkg: $(BUILD)/dkms/KVER/tlob.ko) instead of
# the lane's own build; DKMS_KO_LANES="stock 6.12": those lanes only (make
# check). 09-kmod-origin.t proves which one it loaded. The choice is kept
# in a file, so switching it rebuilds the initramfs.
DKMS_KO ?=
DKMS_KO_LANES ?=
dkms_ko = $(if $(or $(DKMS_KO),$(filter $(1),$(DKMS_KO_LANES))),$(BUILD)/dkms/$(KREL_$(1))/tlob.ko)
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
# against it. Not part of `make check` (see docs/lanes.md: cost).
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
# What the demo stages, and all it builds: the tool, the lane's module and
# the application; no test program, no host program in the guest.
DEMO_DEPS = $(BUILD)/user/tlob $(DEMO_APP) $(VM_DEPS_$(LANE))
demo: $(DEMO_DEPS)
	@echo "  DEMO     lane $(LANE): booting its kernel under QEMU (a minute or two)"
	$(Q)tests/harness/stage $(BUILD)/vm/demo/stage $(BUILD)/kmod/$(LANE) tests/demo $(DEMO_DEPS)
	$(Q)tests/harness/mkinitramfs $(BUILD)/vm/demo/stage /dev/null $(BUILD)/vm/demo/initramfs.cpio
	$(Q)k=$$(tests/harness/lane-kernel $(LANE) image) && \
		tests/harness/run-lane --lane $(LANE) --krel $(KREL_$(LANE)) --kernel $$k \
		--initrd $(BUILD)/vm/demo/initramfs.cpio --out $(VM_RUNS)/demo --tests demo.sh \
		--timeout 600 2>/dev/null; \
		sed -n '/^### BEGIN demo.sh/,/^### DMESG/p' $(VM_RUNS)/demo/results.log | sed '1d;$$d'; \
		echo "(lane $(LANE): $$(cat $(VM_RUNS)/demo/status), $$(cat $(VM_RUNS)/demo/seconds)s in the VM)"

# The module DKMS built in a pristine root (make check-pkg) loads and
# passes the module's checks on the lanes of the kernels it was built for
# (tests/pkg/20-install.t: TLOB_PKG_LANES, default stock and 6.12). make
# check stages it on those lanes for their whole run (DKMS_KO_LANES), so
# every module script there runs on what a user's DKMS built, and the
# other four lanes run the tree's own build; check-dkms-lanes boots those
# two lanes on the scripts that could tell a DKMS build apart (its flags,
# its headers, its install path: it loads and unloads (10, 14), judges
# windows (12), reacts (15), diagnoses (18)), and check-dkms runs
# check-pkg before it. (Two boots of their own in make check would cost
# about 85 s each and run every one of those scripts again on the tree's
# build.)
DKMS_LANES ?= stock 6.12
DKMS_TESTS := $(call guest_lane,dkms)
.PHONY: check-dkms check-dkms-lanes
check-dkms:
	$(Q)$(MAKE) --no-print-directory check-pkg
	$(Q)$(MAKE) --no-print-directory check-dkms-lanes
check-dkms-lanes:
	$(Q)$(MAKE) --no-print-directory check-vm DKMS_KO=1 LANES="$(DKMS_LANES)" VM_SELFTEST= \
		$(foreach l,$(DKMS_LANES),GUEST_TESTS_$(l)="$(DKMS_TESTS)")

# Which scripts each lane runs in make check, one line per lane (the
# debug lane's and check-dkms-lanes' lists too): what a change of the
# lists changes shows as a diff of this output.
.PHONY: vm-lists
vm-lists:
	@$(foreach l,$(ALL_LANES) debug,echo "$(l): $(call lane_tests,$(l))";) echo "dkms: $(DKMS_TESTS)"
