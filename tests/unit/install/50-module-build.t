#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The conventional module build (kernel/module.mk, the top-level Kbuild),
# in a copy of the tree as a user checks it out:
#   - make modules without a build tree for the running kernel says so
#   - make modules KDIR=... builds kernel/module/tlob.ko and nothing else (the
#     test-only modules are the harness's), with the release's vermagic
#     and VERSION as its version
#   - the same tree against another kernel re-runs the compat probes
#     (their verdicts are that kernel's) and rebuilds; again changes nothing
#   - make -C KDIR M=$PWD modules (kbuild directly) and KERNEL_SRC= work
#   - make modules_install INSTALL_MOD_PATH=... puts it in updates/
#   - make clean leaves no object
# Against the headers of the host lanes (tests/harness/lanes) that are installed.
. "$(dirname "$0")/tap.sh"

kdirs=()
declare -A krel
for l in stock 6.12; do
	k=$("$top/tests/harness/lane-kernel" "$l" kdir 2>/dev/null) &&
		[ "$("$top/tests/harness/lane-kernel" "$l" root)" = / ] && [ -f "$k/Makefile" ] || continue
	kdirs+=("$k")
	krel[$k]=$("$top/tests/harness/lane-kernel" "$l" release)
done
[ ${#kdirs[@]} -gt 0 ] || skip_all "no host lane's kernel headers installed (make deps)"

src=$tmp/tlob
mkdir -p "$src"
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	xargs -0 cp -P --parents -t "$src")
# The copy's own build directory: $BUILD (exported by make check-unit) is
# the real tree's, which the copy's make clean would remove.
mk() { make -s -C "$src" BUILD="$src/build" "$@" >"$tmp/log" 2>&1; }
rel() { echo "${krel[$1]}"; }
v=$(cat "$top/VERSION")

if [ ! -e "/lib/modules/$(uname -r)/build/Makefile" ]; then
	mk modules
	rc=$?
	is "$rc" 2 "make modules without /lib/modules/$(uname -r)/build: exit 2"
	grep -q "no kernel build tree at /lib/modules/$(uname -r)/build" "$tmp/log" && grep -q 'KDIR=' "$tmp/log"
	ok $? "make modules without a tree: says which tree and KDIR=" || sed 's/^/# /' "$tmp/log"
fi

k=${kdirs[0]}
mk modules KDIR="$k"
ok $? "make modules KDIR=$k" || tail -n 20 "$tmp/log" | sed 's/^/# /'
kos=$(cd "$src" && find . -name '*.ko' | sort)
is "$kos" "./kernel/module/tlob.ko" "the top-level Kbuild builds tlob.ko only"
is "$(modinfo -F vermagic "$src/kernel/module/tlob.ko" | cut -d' ' -f1)" "$(rel "$k")" "vermagic $(rel "$k")"
is "$(modinfo -F version "$src/kernel/module/tlob.ko")" "$v" "modinfo version $v"
grep -q "against $k\\b" "$src/kernel/module/tlob_compat_probed.h"
ok $? "the probes ran against $k"
mk modules KDIR="$k" V=1
! grep -qE 'compat/probe|tlob_main\.c' "$tmp/log"
ok $? "a second make modules builds nothing"
st=$(cd "$src" && git status --porcelain 2>/dev/null)

if [ ${#kdirs[@]} -gt 1 ]; then
	k2=${kdirs[1]}
	before=$(grep -c '^#define' "$src/kernel/module/tlob_compat_probed.h")
	mk modules KDIR="$k2"
	ok $? "the same tree, make modules KDIR=$k2" || tail -n 20 "$tmp/log" | sed 's/^/# /'
	grep -q "against $k2\\b" "$src/kernel/module/tlob_compat_probed.h"
	ok $? "the probes ran again, against $k2"
	after=$(grep -c '^#define' "$src/kernel/module/tlob_compat_probed.h")
	[ "$before" != "$after" ]
	ok $? "their verdicts are the new kernel's ($before features, then $after)"
	is "$(modinfo -F vermagic "$src/kernel/module/tlob.ko" | cut -d' ' -f1)" "$(rel "$k2")" "vermagic $(rel "$k2")"
fi

make -s -C "$k" M="$src" modules >"$tmp/log" 2>&1
ok $? "make -C $k M=\$PWD modules" || tail -n 20 "$tmp/log" | sed 's/^/# /'
is "$(modinfo -F vermagic "$src/kernel/module/tlob.ko" | cut -d' ' -f1)" "$(rel "$k")" "kbuild directly: vermagic $(rel "$k")"

mk modules_install KERNEL_SRC="$k" INSTALL_MOD_PATH="$tmp/root" DEPMOD=true
ok $? "make modules_install KERNEL_SRC=$k INSTALL_MOD_PATH=..." || tail -n 20 "$tmp/log" | sed 's/^/# /'
got=$(cd "$tmp/root" && find . -name '*.ko*' | sort)
is "$got" "./lib/modules/$(rel "$k")/updates/kernel/module/tlob.ko" "installed in /lib/modules/KVER/updates/"

mk clean
left=$(cd "$src" && find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod.c' -o -name '.*.cmd' \
	-o -name tlob_compat_probed.h -o -name .compat-probe \) | sort)
is "$left" "" "make clean removes what the in-place build left"
tap_done
