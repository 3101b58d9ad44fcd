# SPDX-License-Identifier: GPL-2.0
# libFuzzer builds of the parsers that read what another writes: the
# monitor line (kernel/shared/tlob_parse.c, the module's and the tool's),
# the module's stats lines (user/backend/kmod/kmod_stats.c) and the configuration
# files (user/config/conf.c). The sources under test are compiled here with the
# fuzzer's coverage and ASan/UBSan; the rest of the tool comes from
# libtlob.a. tests/unit/fuzz/parsers.t replays each corpus
# (tests/fuzz/corpus/NAME/) and fuzzes each for a bounded time.

FUZZ_OUT := $(BUILD)/fuzz
FUZZ_CFLAGS = $(filter-out -O2,$(USER_CFLAGS)) -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_LDLIBS = $(BUILD)/user/libtlob.a $(USER_LDLIBS) $(USER_BPF_LDLIBS)
FUZZ_HDRS := $(wildcard user/*/*.h user/*/*/*.h kernel/shared/*.h) tests/fuzz/fuzz.mk

FUZZ_monline_SRCS := tests/fuzz/fuzz_monline.c kernel/shared/tlob_parse.c user/backend/monline.c
FUZZ_stats_SRCS := tests/fuzz/fuzz_stats.c user/backend/kmod/kmod_stats.c user/lib/units.c \
	kernel/shared/tlob_parse.c
FUZZ_conf_SRCS := tests/fuzz/fuzz_conf.c user/config/conf.c user/section/section.c user/backend/monline.c \
	user/lib/units.c kernel/shared/tlob_parse.c

FUZZERS := monline stats conf
FUZZ_BINS := $(patsubst %,$(FUZZ_OUT)/fuzz-%,$(FUZZERS))

define FUZZ_RULE
$(FUZZ_OUT)/fuzz-$(1): $(FUZZ_$(1)_SRCS) $(FUZZ_HDRS) $(BUILD)/user/libtlob.a
	$$(Q)mkdir -p $$(@D)
	$$(Q)clang $$(FUZZ_CFLAGS) -o $$@ $(FUZZ_$(1)_SRCS) $$(FUZZ_LDLIBS)
endef
$(foreach f,$(FUZZERS),$(eval $(call FUZZ_RULE,$(f))))

.PHONY: fuzz
fuzz: $(FUZZ_BINS)
CHECK_DEPS += $(FUZZ_BINS)
