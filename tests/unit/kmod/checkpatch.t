#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every kernel source (generated ones included) is checkpatch --strict
# clean; one TAP test per file, the report as diagnostics.
top=$(cd "$(dirname "$0")/../../.." && pwd)
cp=${CHECKPATCH:-/root/.cache/tlob/checkpatch/checkpatch.pl}
if [ ! -x "$cp" ]; then
	# Debian's linux-source-6.1 ships it (see README)
	src=/usr/src/linux-source-6.1.tar.xz
	[ -r "$src" ] || { echo "1..0 # SKIP no checkpatch.pl and no $src"; exit 0; }
	mkdir -p "$(dirname "$cp")"
	tar -xJf "$src" -C "$(dirname "$cp")" --strip-components=2 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
n=0
fail=0
for f in "$top"/kernel/module/*.c "$top"/kernel/module/*.h "$top"/kernel/module/compat/*.c "$top"/kernel/shared/*.c "$top"/kernel/shared/*.h; do
	# what an in-place build (make modules, dkms) generated is no source
	case $f in *.mod.c|*/tlob_compat_probed.h) continue ;; esac
	# the host's stand-in for kernel headers (user space C, never in a kernel)
	case $f in */tlob_host_shim.h) continue ;; esac
	n=$((n + 1))
	out=$("$cp" --strict --no-tree --quiet --no-summary -f "$f" 2>&1)
	if [ $? -eq 0 ] && [ -z "$out" ]; then
		echo "ok $n - checkpatch --strict: ${f#$top/}"
	else
		echo "not ok $n - checkpatch --strict: ${f#$top/}"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
