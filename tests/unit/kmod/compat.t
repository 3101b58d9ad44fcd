#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel/module/compat/probe against every lane built: for each probe, what the
# probe decided (tlob_compat_probed.h in the lane's module tree) agrees
# with what that kernel's headers declare, read independently here with
# grep. Catches a probe that fails for a reason other than the missing
# feature (it would say "absent" where the header has it) and one that
# builds everywhere (it would say "present" where the header lacks it).
top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BUILD:-$top/build}
n=0
fail=0
t() {
	n=$((n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $n - $3"
	else
		echo "not ok $n - $3 (probe: $1, headers: $2)"
		fail=1
	fi
}

# oracle NAME INCLUDE_DIR: yes if the headers declare the feature
oracle() {
	case $1 in
	uprobe_register_returns_uprobe) grep -q 'struct uprobe \*uprobe_register(' "$2/linux/uprobes.h" ;;
	uprobe_unregister_nosync) grep -q 'void uprobe_unregister_nosync(' "$2/linux/uprobes.h" ;;
	uprobe_handler_data) grep -q '(\*handler)(.*__u64 \*data' "$2/linux/uprobes.h" ;;
	hrtimer_setup) grep -q 'void hrtimer_setup(' "$2/linux/hrtimer.h" ;;
	assign_str_one_arg) grep -q '#define __assign_str(dst)' "$2/trace/stages/stage6_event_callback.h" ;;
	bin_attribute_const) grep -q 'const struct bin_attribute[[:space:]]*\*const \*bin_attrs;' "$2/linux/sysfs.h" ;;
	sched_delayed_dequeue) grep -q 'unsigned char[[:space:]]*sched_delayed;' "$2/linux/sched.h" ;;
	sched_process_exit_group_dead) grep -q 'TP_PROTO(struct task_struct \*p, bool group_dead)' "$2/trace/events/sched.h" ;;
	*) return 2 ;;
	esac && echo yes || echo no
}

lanes=0
for h in "$build"/kmod/*/kernel/module/tlob_compat_probed.h; do
	[ -f "$h" ] || continue
	lane=$(basename "$(dirname "$(dirname "$(dirname "$h")")")")
	[ "$lane" = debug ] && continue
	kdir=$("$top/tests/harness/lane-kernel" "$lane" kdir 2>/dev/null) || continue
	root=$("$top/tests/harness/lane-kernel" "$lane" root)
	# Debian splits headers: the flavour's tree includes the common one.
	common=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$root/$kdir/Makefile" | head -n 1)
	inc=$root/${common:-$kdir}/include
	[ -d "$inc" ] || continue
	lanes=$((lanes + 1))
	for src in "$top"/kernel/module/compat/*.c; do
		name=$(basename "$src" .c)
		[ "$name" = canary ] && continue
		macro=TLOB_HAVE_$(echo "$name" | tr '[:lower:]' '[:upper:]')
		got=no
		grep -q "^#define $macro 1" "$h" && got=yes
		want=$(oracle "$name" "$inc")
		[ -n "$want" ] || want="no oracle in compat.t for $name"
		t "$got" "$want" "$lane ($(tests/harness/kernel-release "$lane" 2>/dev/null)): $name"
	done
done
if [ $lanes = 0 ]; then
	echo "1..0 # SKIP no lane's module built (make)"
	exit 0
fi
echo "1..$n"
exit $fail
