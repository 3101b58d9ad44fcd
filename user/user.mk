# SPDX-License-Identifier: GPL-2.0
# The tlob tool: $(BUILD)/user/tlob.
#
# Every user/*.c is part of the tool except the BPF backend's files, which
# the "BPF backend" section below adds (with TLOB_HAVE_BPF) when they exist;
# without them `--backend bpf` says "built without the BPF backend".

USER_PKGS := libtracefs libtraceevent libelf
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
	-I$(TOP)/user -I$(TOP)/kernel $(shell pkg-config --cflags $(USER_PKGS))
USER_LDLIBS := $(shell pkg-config --libs $(USER_PKGS))

USER_SRCS := $(filter-out user/backend_bpf.c,$(wildcard user/*.c))
# Sources, generated headers and libraries the BPF backend brings.
USER_BPF_SRCS :=
USER_BPF_DEPS :=
USER_BPF_LDLIBS :=

# ---------------------------------------------------------------------------
# BPF backend (owned by the BPF engineer: append USER_BPF_SRCS/DEPS/LDLIBS
# and the skeleton rules here)
# ---------------------------------------------------------------------------

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

-include $(USER_OBJS:.o=.d)

ifneq ($(wildcard user/tlob.c),)
$(BUILD)/user/tlob: $(USER_OBJS)
	$(Q)$(CC) -o $@ $^ $(USER_LDLIBS) $(USER_BPF_LDLIBS)

ALL += $(BUILD)/user/tlob
CHECK_DEPS += $(BUILD)/user/tlob
VM_DEPS += $(BUILD)/user/tlob
else
ALL += $(USER_OBJS)
endif

.PHONY: tool
tool: $(filter $(BUILD)/user/%,$(ALL))
