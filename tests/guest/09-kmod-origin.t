#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt 6.12 6.12-rt dkms
#   which tlob.ko loaded: the DKMS build exists for the 6.1 and 6.12 kernels
#   only
# Which tlob.ko the module's scripts (10-17) load. With make check-vm
# DKMS_KO=1 (make check-dkms) it is the one DKMS built for this kernel in a
# pristine Debian 12 root from the tlob-dkms package (tests/pkg/), and
# README's install steps run here: the module is installed where DKMS puts
# it, modprobe loads it, tlob list shows the module usable. Otherwise
# the lane's own build is staged and there is nothing to check here.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh
origin=/opt/tlob/modules/tlob.ko.origin
[ -f "$origin" ] || skip_all "the lane's own tlob.ko (make check-vm DKMS_KO=1 stages DKMS's)"

# "FILE VERMAGIC-RELEASE VERSION SHA256", written by tests/harness/stage
read -r file rel version sum <"$origin"
diag "staged: $file"
is "$(sha256sum <"$TLOB_KO" | cut -d' ' -f1)" "$sum" "modules/tlob.ko is the file DKMS built"
is "$rel" "$(uname -r)" "built by DKMS for the running kernel ($rel)"

# where DKMS installs it, then modprobe, as README says
dir=/lib/modules/$(uname -r)/updates/dkms
mkdir -p "$dir" && cp "$TLOB_KO" "$dir/tlob.ko"
ok_cmd "depmod" depmod -a
[ -d "$TLOB" ] && rmmod tlob
ok_cmd "modprobe tlob" modprobe tlob
is "$(cat /sys/module/tlob/version 2>/dev/null)" "$version" "/sys/module/tlob/version: $version"
tlob list --json >/tmp/origin-list 2>&1
ok $? "tlob list" || sed 's/^/# /' /tmp/origin-list
grep -q '"name":"kmod","usable":true' /tmp/origin-list
ok $? "tlob list: the module is usable" || sed 's/^/# /' /tmp/origin-list
ok_cmd "rmmod tlob" kmod_unload
rm -f "$dir/tlob.ko"
done_testing
