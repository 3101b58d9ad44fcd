# SPDX-License-Identifier: GPL-2.0
# The tlob tool: $(BUILD)/user/tlob.
#
# Every C file under user/ is part of the tool, in rooms by job (user/README.md):
# the commands (cmd/), the configuration (config/), the options (options/),
# reactions (react/), output (output/), the supervision kinds (kinds/),
# sections (section/), the backends (backend/: the module's in kmod/, the
# BPF programs' loader in bpf/) and the small helpers all of them use
# (lib/). A file includes another by its room ("lib/utils.h"). The
# "BPF backend" section below adds the BPF backend (user/backend/bpf/, with
# TLOB_HAVE_BPF) and its programs' skeletons; without it `--backend bpf`
# says "built without the BPF backend".

# capstone decodes instructions, so that no probe lands inside one (elfsym.c, insn.c);
# libdw (libdwfl) names the user stacks of violations (symbolize.c).
# libcgraph (graphviz) reads the DOT models of logical supervision, through
# rvgen's own reader and validator (rvgen/model.mk, user/kinds/logic.c).
# -pthread: the symbolizer reads /proc/kallsyms in a thread of its own.
include rvgen/model.mk
USER_PKGS := libtracefs libtraceevent libelf libdw capstone $(RVGEN_MODEL_PKGS)
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread \
	-I$(TOP)/user -I$(TOP)/kernel/shared -I$(TOP)/rvgen \
	$(shell pkg-config --cflags $(USER_PKGS))
USER_LDLIBS := $(shell pkg-config --libs $(USER_PKGS)) -pthread
# A distribution's flags (dpkg-buildflags: hardening, debug prefix maps)
# come after the tool's own, as the environment gives them.
USER_CFLAGS += $(CPPFLAGS) $(CFLAGS)
USER_LDFLAGS := $(LDFLAGS)

# The version tlob --version prints, set in one place: the VERSION file
# (the module's MODULE_VERSION, dkms.conf and the packages read it too),
# and where the tree is a git checkout, the commit it was built from. (The
# variable is not VERSION: a command-line VERSION= would reach the
# kernel's kbuild.)
TLOB_VERSION ?= $(shell cat $(TOP)/VERSION)
TLOB_GIT := $(shell git -C $(TOP) describe --always --dirty 2>/dev/null)
TLOB_VERSION_STRING := $(TLOB_VERSION)$(if $(TLOB_GIT), (git $(TLOB_GIT)))
USER_CFLAGS += -I$(BUILD)/user

# Rewritten only when the string changes, so a build that changes nothing
# relinks nothing.
$(BUILD)/user/version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '#define TLOB_VERSION "$(TLOB_VERSION_STRING)"' >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
# (-MMD finds the other headers after a first build; this one is generated)
$(BUILD)/user/options/params.o $(BUILD)/user/options/manpage.o $(BUILD)/user/output/output.o: \
	$(BUILD)/user/version.h
.PHONY: FORCE
FORCE:

USER_SRCS := $(filter-out user/backend/bpf/%,$(wildcard user/*/*.c user/*/*/*.c))
# Sources, generated headers and libraries the BPF backend brings.
USER_BPF_SRCS :=
USER_BPF_DEPS :=
USER_BPF_LDLIBS :=

# ---------------------------------------------------------------------------
# BPF backend: the programs and their skeletons (kernel/bpf/), the loader
# and backend (user/backend/bpf/)
# ---------------------------------------------------------------------------
include kernel/bpf/bpf.mk
USER_BPF_SRCS := $(wildcard user/backend/bpf/*.c)
USER_BPF_DEPS := $(BPF_SKELS)
USER_BPF_LDLIBS := $(shell pkg-config --libs libbpf)
USER_CFLAGS += -I$(BPF_OUT) -I$(TOP)/kernel/bpf

# ---------------------------------------------------------------------------
# end of BPF backend section
# ---------------------------------------------------------------------------

ifneq ($(strip $(USER_BPF_SRCS)),)
USER_CFLAGS += -DTLOB_HAVE_BPF
endif

USER_OBJS := $(patsubst user/%.c,$(BUILD)/user/%.o,$(USER_SRCS) $(USER_BPF_SRCS))

$(BUILD)/user/%.o: user/%.c $(USER_BPF_DEPS)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

# The module's monitor-line parser is the tool's too (user/backend/monline.c), built
# with the kstrto*() shim kernel/shared/tlob_host_shim.h: one reading of a line.
USER_OBJS += $(BUILD)/user/tlob_parse.o
$(BUILD)/user/tlob_parse.o: kernel/shared/tlob_parse.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

# rvgen's model reader and validator (rvgen/model.mk), objects of the
# tool's own: one DOT reading, with rvgen's errors, for rvgen and the tool.
USER_OBJS += $(patsubst rvgen/%.c,$(BUILD)/user/rvgen/%.o,$(RVGEN_MODEL_SRCS))
$(BUILD)/user/rvgen/%.o: rvgen/%.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

-include $(USER_OBJS:.o=.d)

# Everything but main() in an archive: the tool and the unit tests link it.
USER_LIB_OBJS := $(filter-out $(BUILD)/user/cmd/tlob.o,$(USER_OBJS))
$(BUILD)/user/libtlob.a: $(USER_LIB_OBJS)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/user/tlob: $(BUILD)/user/cmd/tlob.o $(BUILD)/user/libtlob.a
	$(Q)$(CC) $(USER_LDFLAGS) -o $@ $^ $(USER_LDLIBS) $(USER_BPF_LDLIBS)

ALL += $(BUILD)/user/tlob
CHECK_DEPS += $(BUILD)/user/tlob
VM_DEPS += $(BUILD)/user/tlob
# Helpers of the tool's guest tests, sourced as /opt/tlob/bin/tool.sh.
VM_DEPS += tests/guest/tool.sh
# The systemd unit, whose commands 27-tool-unit.t runs (/opt/tlob/bin/tlob.service).
VM_DEPS += user/systemd/tlob.service
# The example model of logical supervision (/opt/tlob/bin/frame-flow.dot);
# the tool's libcgraph comes with it through mkinitramfs' ldd.
VM_DEPS += models/examples/frame-flow.dot

# The tool's unit tests (tests/unit/tool/): each C file is a test program
# or a driver the .t scripts run.
TOOL_TEST_BINS := $(patsubst tests/unit/tool/%.c,$(BUILD)/tests/unit/tool/%,\
	$(wildcard tests/unit/tool/*.c))
$(BUILD)/tests/unit/tool/%: tests/unit/tool/%.c tests/unit/tool/tap.h $(BUILD)/user/libtlob.a
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(BUILD)/user/libtlob.a $(USER_LDLIBS) $(USER_BPF_LDLIBS)
CHECK_DEPS += $(TOOL_TEST_BINS)
# output_drv counts the printf-family calls of the formatter (15-output.t).
$(BUILD)/tests/unit/tool/output_drv: USER_LDLIBS += -Wl,--wrap=vsnprintf,--wrap=snprintf \
	-Wl,--wrap=vfprintf,--wrap=fprintf,--wrap=fputc
# mon_drv -K makes /proc/kallsyms slow to read, -U a process slow to
# report to libdwfl (62-mon-late-names.t).
$(BUILD)/tests/unit/tool/mon_drv: USER_LDLIBS += -Wl,--wrap=tlob_read_file \
	-Wl,--wrap=dwfl_linux_proc_report
# test_decode counts the lookups of fields by name per record (13-decode.t).
$(BUILD)/tests/unit/tool/test_decode: USER_LDLIBS += -Wl,--wrap=tep_find_field \
	-Wl,--wrap=tep_find_any_field,--wrap=tep_get_field_raw

.PHONY: tool
tool: $(BUILD)/user/tlob $(TOOL_TEST_BINS)

# Fixtures of the tool's unit tests, from tests/unit/tool/fixtures/: a
# library with versioned symbols, an IFUNC and data (and a stripped copy),
# an executable (and a stripped copy, whose code no symbol covers).
TOOL_FIX := $(BUILD)/tests/unit/tool/fixtures
TOOL_FIXTURES := $(TOOL_FIX)/libfix.so $(TOOL_FIX)/libfix-stripped.so \
	$(TOOL_FIX)/app $(TOOL_FIX)/app-stripped
$(TOOL_FIX)/libfix.so: tests/unit/tool/fixtures/libfix.c tests/unit/tool/fixtures/libfix2.c \
		tests/unit/tool/fixtures/libfix.map
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O1 -fPIC -shared -Wall -Wextra -Werror \
		-Wl,--version-script=tests/unit/tool/fixtures/libfix.map -o $@ $(filter %.c,$^)
$(TOOL_FIX)/app: tests/unit/tool/fixtures/app.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O0 -fPIE -pie -Wall -Wextra -Werror -o $@ $<
$(TOOL_FIX)/libfix-stripped.so: $(TOOL_FIX)/libfix.so
	$(Q)strip --strip-all -o $@ $<
$(TOOL_FIX)/app-stripped: $(TOOL_FIX)/app
	$(Q)strip --strip-all -o $@ $<
CHECK_DEPS += $(TOOL_FIXTURES)
tool: $(TOOL_FIXTURES)
# The symbolizer's test program walks its own stack through the frame pointers.
$(BUILD)/tests/unit/tool/symbolize_drv: USER_CFLAGS += -fno-omit-frame-pointer
