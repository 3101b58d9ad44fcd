# SPDX-License-Identifier: GPL-2.0
# rvgen: the model generator (a host tool), its sanitizer and fuzzer builds,
# and `make regen`, which rewrites every committed file generated from the
# models (models/tlob.dot, models/alive.dot: rvgen/regen --list). Building the module never runs rvgen: its output is
# committed, and tests/unit/rvgen checks that it is up to date.

RVGEN := $(BUILD)/rvgen/rvgen
RVGEN_ASAN := $(BUILD)/rvgen/rvgen-asan
RVGEN_FUZZ := $(BUILD)/rvgen/rvgen-fuzz
RVGEN_PKGS := libcgraph libgvc
RVGEN_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
	$(shell pkg-config --cflags $(RVGEN_PKGS) 2>/dev/null)
RVGEN_LIBS := $(shell pkg-config --libs $(RVGEN_PKGS) 2>/dev/null)
RVGEN_HDRS := $(wildcard rvgen/*.h)
# fuzz.c replaces main.c in the fuzzer build
RVGEN_LIB_SRCS := $(filter-out rvgen/main.c rvgen/fuzz.c,$(wildcard rvgen/*.c))
RVGEN_SRCS := $(RVGEN_LIB_SRCS) rvgen/main.c

$(RVGEN): $(RVGEN_SRCS) $(RVGEN_HDRS) rvgen/rvgen.mk
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(RVGEN_CFLAGS) -o $@ $(RVGEN_SRCS) $(RVGEN_LIBS)

# Every test model also runs through this build (tests/unit/rvgen/asan.t).
$(RVGEN_ASAN): $(RVGEN_SRCS) $(RVGEN_HDRS) rvgen/rvgen.mk
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(RVGEN_CFLAGS) -O1 -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-o $@ $(RVGEN_SRCS) $(RVGEN_LIBS)

# libFuzzer over parse + validate + the header emitter; see tests/README.md.
$(RVGEN_FUZZ): $(RVGEN_LIB_SRCS) rvgen/fuzz.c $(RVGEN_HDRS) rvgen/rvgen.mk
	$(Q)mkdir -p $(@D)
	$(Q)clang $(filter-out -O2,$(RVGEN_CFLAGS)) -O1 -fno-omit-frame-pointer \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $(RVGEN_LIB_SRCS) rvgen/fuzz.c $(RVGEN_LIBS)

# Test programs that include the generated headers.
RVGEN_TEST_PROGS := $(patsubst tests/unit/rvgen/%.c,$(BUILD)/rvgen/tests/%,\
	$(wildcard tests/unit/rvgen/*.c))

$(BUILD)/rvgen/tests/%: tests/unit/rvgen/%.c kernel/shared/tlob_model.h kernel/shared/tlob_model_ha.h \
		kernel/shared/alive_model.h kernel/shared/alive_model_ha.h \
		$(wildcard tests/unit/rvgen/*.h)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -Wall -Wextra -Werror -O2 -g -Ikernel/shared -o $@ $<

.PHONY: rvgen regen rvgen-fuzz rvgen-tests
rvgen: $(RVGEN)
rvgen-fuzz: $(RVGEN_FUZZ)
rvgen-tests: $(RVGEN) $(RVGEN_ASAN) $(RVGEN_TEST_PROGS)

regen: $(RVGEN)
	$(Q)rvgen/regen $(RVGEN) .

ALL += $(RVGEN)
CHECK_DEPS += $(RVGEN) $(RVGEN_ASAN) $(RVGEN_FUZZ) $(RVGEN_TEST_PROGS)
