#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One version: VERSION is what tlob --version prints, what dkms reads from
# dkms.conf, what the module carries (MODULE_VERSION) and what
# debian/changelog says (the one place that cannot read the file).
. "$(dirname "$0")/tap.sh"
v=$(cat "$top/VERSION")
[ -n "$v" ] && [ "$(echo "$v" | wc -l)" = 1 ]
ok $? "VERSION holds one version ($v)"
got=$("$TLOB" --version | cut -d' ' -f2)
is "$got" "$v" "tlob --version"
# dkms sources dkms.conf with bash (safe_source), from any directory
got=$(cd / && bash -c '. "$1" >/dev/null; echo "$PACKAGE_NAME/$PACKAGE_VERSION"' _ "$top/dkms.conf")
is "$got" "tlob/$v" "dkms.conf: PACKAGE_NAME/PACKAGE_VERSION"
got=$(sed -n '1s/^tlob (\([^)]*\)).*/\1/p' "$top/debian/changelog")
is "${got%-*}" "$v" "debian/changelog's version"
grep -q 'MODULE_VERSION(TLOB_MODULE_VERSION)' "$top/kernel/module/tlob_main.c" &&
	grep -q 'TLOB_MODULE_VERSION := $(shell cat $(src)/../../VERSION' "$top/kernel/module/Kbuild"
ok $? "the module's MODULE_VERSION is VERSION (kernel/module/Kbuild)"
for ko in "$BUILD"/kmod/*/kernel/module/tlob.ko; do
	[ -f "$ko" ] || continue
	is "$(modinfo -F version "$ko")" "$v" "modinfo ${ko#"$BUILD"/}: version"
done
tap_done
