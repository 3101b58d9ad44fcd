# SPDX-License-Identifier: GPL-2.0
# The conventional module build, for users, dkms and distribution recipes:
#
#   make modules [KDIR=DIR]          tlob.ko in place: kernel/module/tlob.ko
#   make modules_install [KDIR=DIR]  into /lib/modules/KVER/$(INSTALL_MOD_DIR)
#   make modules-clean [KDIR=DIR]    what make modules left in the tree
#
# the same as `make -C KDIR M=$PWD modules` (the top-level Kbuild: the
# product only). KDIR defaults to the running kernel's build tree; Yocto's
# module.bbclass names it KERNEL_SRC, so that is honoured too.
# INSTALL_MOD_PATH (a staging root) and INSTALL_MOD_DIR (default
# "updates", which depmod prefers over the kernel's own modules) go to
# kbuild as they are. The lanes' own builds (kernel/kernel.mk) are separate
# trees under $(BUILD) and never touch these objects.

KERNEL_SRC ?= /lib/modules/$(shell uname -r)/build
KDIR ?= $(KERNEL_SRC)
INSTALL_MOD_DIR ?= updates

# A missing tree is the usual first failure (a kernel newer than its
# installed headers, a container): say which tree and how to get one,
# instead of kbuild's "No such file or directory".
define kdir_check
	$(Q)test -f $(KDIR)/Makefile || { \
		echo "tlob: no kernel build tree at $(KDIR)" >&2; \
		echo "tlob: install the running kernel's headers (Debian: apt install linux-headers-$$(uname -r))" >&2; \
		echo "tlob: or name a tree: make $@ KDIR=/usr/src/linux-headers-VERSION" >&2; \
		exit 2; }
endef

.PHONY: modules modules_install modules-clean
modules:
	$(kdir_check)
	$(Q)$(MAKE) -C $(KDIR) M=$(TOP) modules

modules_install: modules
	$(Q)$(MAKE) -C $(KDIR) M=$(TOP) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install

modules-clean:
	$(kdir_check)
	$(Q)$(MAKE) -C $(KDIR) M=$(TOP) clean
