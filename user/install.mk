# SPDX-License-Identifier: GPL-2.0
# make install: the tool, its man pages and bash completion, as README
# "Install" lists them; make uninstall removes them again.
#
#   make install [DESTDIR=STAGE] [PREFIX=/usr/local]
#
# The BPF programs are inside the tool (libbpf skeletons), so nothing else
# is installed for them. The module is make modules_install's
# (kernel/module.mk) or dkms's; make install-dkms-source lays out its
# source for dkms (the tlob-dkms package uses it).

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUNITDIR ?= $(if $(filter /usr,$(PREFIX)),$(or $(shell pkg-config \
	--variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system),$(PREFIX)/lib/systemd/system)
DOCDIR ?= $(PREFIX)/share/doc/tlob
DKMSSRCDIR ?= /usr/src
INSTALL ?= install

# The man pages are rendered by the tool just built (user/man/mkman); a
# cross build names a tool that runs on the build machine instead.
MAN_TLOB ?= $(BUILD)/user/tlob
MAN_DIR := $(BUILD)/man
$(MAN_DIR)/.pages: $(MAN_TLOB) user/man/mkman $(wildcard user/man/*.8.in user/man/*.5)
	$(Q)user/man/mkman $(MAN_TLOB) user/man $(MAN_DIR)
	$(Q)touch $@

.PHONY: man product
man: $(MAN_DIR)/.pages
CHECK_DEPS += $(MAN_DIR)/.pages
# What make install installs, built (the package build's one build step).
product: $(BUILD)/user/tlob $(MAN_DIR)/.pages

# The boot-time configuration (tlob apply): the unit, and the example
# configuration as documentation. No /etc/tlob/tlob.conf is installed: the
# unit starts only where the administrator wrote one.
INSTALL_UNITS = user/systemd/tlob.service
INSTALL_EXAMPLES = user/tlob.conf.example

# The module's source as dkms takes it (/usr/src/tlob-VERSION): the top
# Kbuild, dkms.conf, VERSION, kernel/module/ and kernel/shared/ (not
# kernel/bpf/: the tool's).
DKMS_FILES = Kbuild dkms.conf VERSION kernel/module/Kbuild \
	$(filter-out $(KMOD_GENERATED),$(wildcard kernel/module/*.c kernel/module/*.h \
		kernel/shared/*.c kernel/shared/*.h)) \
	$(wildcard kernel/module/compat/*.c) kernel/module/compat/probe
KMOD_GENERATED ?= %.mod.c %/tlob_compat_probed.h

.PHONY: install install-tool install-man install-completion install-config \
	install-dkms-source uninstall
install: install-tool install-man install-completion install-config

install-tool: $(BUILD)/user/tlob
	$(INSTALL) -d $(DESTDIR)$(SBINDIR)
	$(INSTALL) -m 0755 $(BUILD)/user/tlob $(DESTDIR)$(SBINDIR)/tlob

install-man: $(MAN_DIR)/.pages
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5
	$(INSTALL) -m 0644 $(MAN_DIR)/*.8 $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 0644 $(MAN_DIR)/*.5 $(DESTDIR)$(MANDIR)/man5/

install-completion:
	$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 0644 user/completion/tlob $(DESTDIR)$(BASHCOMPDIR)/tlob

install-config:
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0644 $(INSTALL_UNITS) $(DESTDIR)$(SYSTEMDUNITDIR)/
	$(INSTALL) -m 0644 $(INSTALL_EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/

install-dkms-source:
	$(Q)for f in $(DKMS_FILES); do \
		$(INSTALL) -D -m $$(test -x $$f && echo 0755 || echo 0644) $$f \
			$(DESTDIR)$(DKMSSRCDIR)/tlob-$(TLOB_VERSION)/$$f || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/tlob $(DESTDIR)$(BASHCOMPDIR)/tlob
	rm -f $(DESTDIR)$(MANDIR)/man8/tlob.8 $(DESTDIR)$(MANDIR)/man8/tlob-*.8
	rm -f $(DESTDIR)$(MANDIR)/man5/tlob.conf.5
	rm -f $(addprefix $(DESTDIR)$(SYSTEMDUNITDIR)/,$(notdir $(INSTALL_UNITS)))
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(notdir $(INSTALL_EXAMPLES)))
