#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The symbolizer (user/output/symbolize.c, through symbolize_drv.c) on live
# processes: a copy of the driver, built with frame pointers, runs as a
# child and prints three of its own addresses (4 bytes into sym_leaf, its
# return into sym_caller, sym_caller's return into main, found through the
# frame pointers); the names come back from those addresses with the file
# and its build-id (readelf's). A symbolizer that cached the process keeps
# its names after it exited; a fresh one says the process is gone and
# prints the addresses. A file replaced on disk, then deleted, after the
# process mapped it gets no names and says why. Kernel addresses are named
# from /proc/kallsyms, or said hidden when kptr_restrict hides them.
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/symbolize_drv

# child PROG: start PROG child, its pid in $pid, its addresses in $addrs
child() {
	rm -f "$tmp/in" "$tmp/addrs"
	mkfifo "$tmp/in"
	"$1" child <"$tmp/in" >"$tmp/addrs" 3>&- &
	pid=$!
	exec 3>"$tmp/in"
	for _ in $(seq 100); do
		[ -s "$tmp/addrs" ] && break
		sleep 0.05
	done
	addrs=$(cat "$tmp/addrs")
}
end_child() {
	exec 3>&-
	wait "$pid"
}

cp "$DRV" "$tmp/prog"
child "$tmp/prog"
"$DRV" user "$pid" $addrs >"$tmp/out"
bid=$(readelf -n "$tmp/prog" | sed -n 's/.*Build ID: *//p')
[ "$(grep '^    at ' "$tmp/out" | sed 's/+0x[0-9a-f]* / /')" = "$(printf '    at sym_leaf (%s)\n    at sym_caller (%s)\n    at main (%s)' "$tmp/prog" "$tmp/prog" "$tmp/prog")" ]
ok $? "a live process's stack named innermost first: sym_leaf, sym_caller, main (its file)" ||
	sed 's/^/#   /' "$tmp/out"
grep -q "^    at sym_leaf+0x4 (" "$tmp/out"
ok $? "... the offset into the function (sym_leaf+0x4)" || sed 's/^/#   /' "$tmp/out"
[ -n "$bid" ] && grep -qx "    module $tmp/prog build-id $bid" "$tmp/out"
ok $? "... the module's build-id, readelf's ($bid)" || sed 's/^/#   /' "$tmp/out"

# The symbolizer keeps the process: its names outlive it.
rm -f "$tmp/go"
mkfifo "$tmp/go"
"$DRV" twice "$pid" "$tmp/go" $addrs >"$tmp/twice" 3>&- &
tw=$!
for _ in $(seq 100); do
	grep -q "^  ran instead" "$tmp/twice" && break
	sleep 0.05
done
end_child
echo go >"$tmp/go"
wait "$tw"
[ "$(sed -n '/^--$/,$p' "$tmp/twice" | grep -c '^    at sym_\|^    at main')" = 3 ]
ok $? "a process cached while it lived keeps its names after it exited" || sed 's/^/#   /' "$tmp/twice"

"$DRV" user "$pid" $addrs >"$tmp/out"
grep -q "^  where: running, user stack at the deadline (process gone: raw addresses)$" "$tmp/out" &&
	[ "$(grep '^    at ' "$tmp/out" | tr -d ' ' | tr '\n' ' ')" = "$(for a in $addrs; do printf 'at%s ' "$a"; done)" ]
ok $? "a process gone (never seen): raw addresses, and a note saying so" || sed 's/^/#   /' "$tmp/out"

cp "$DRV" "$tmp/prog2"
child "$tmp/prog2"
cp "$BUILD/tests/unit/tool/output_drv" "$tmp/prog2.new"
mv "$tmp/prog2.new" "$tmp/prog2"
"$DRV" user "$pid" $addrs >"$tmp/out"
[ "$(grep -c "^    at 0x[0-9a-f]* ($tmp/prog2 (deleted): replaced on disk since the process mapped it: no names)$" "$tmp/out")" = 3 ] &&
	! grep -q 'at sym_\|at main' "$tmp/out"
ok $? "a file replaced on disk since it was mapped: no names (not another build's), and why" ||
	sed 's/^/#   /' "$tmp/out"
grep -qx "    module $tmp/prog2 (deleted) build-id $bid" "$tmp/out"
ok $? "... the build-id of the file the process mapped" || sed 's/^/#   /' "$tmp/out"
rm "$tmp/prog2"
"$DRV" user "$pid" $addrs >"$tmp/out"
[ "$(grep -c "^    at 0x[0-9a-f]* ($tmp/prog2 (deleted): deleted since the process mapped it: no names)$" "$tmp/out")" = 3 ]
ok $? "a file deleted since: no names, and why" || sed 's/^/#   /' "$tmp/out"
end_child

ka=$(awk '$3 == "vfs_read" { print $1; exit }' /proc/kallsyms)
case "$ka" in
"")
	skip "no vfs_read in /proc/kallsyms" ;;
0000000000000000)
	"$DRV" kernel 0xffffffff81000000 >"$tmp/out"
	grep -qx "  kernel: (addresses hidden by kptr_restrict: raw addresses)" "$tmp/out" &&
		grep -qx "    at 0xffffffff81000000" "$tmp/out"
	ok $? "kernel addresses hidden (kptr_restrict, not root): raw, and a note" ||
		sed 's/^/#   /' "$tmp/out" ;;
*)
	# + 0x10 on the low 16 bits (sh arithmetic is signed 64-bit)
	lo=${ka#"${ka%????}"}
	"$DRV" kernel "$(printf '0x%s%04x' "${ka%????}" $((0x$lo + 0x10)))" >"$tmp/out"
	[ "$(grep '^    at ' "$tmp/out" | sed 's/^ *at //' | head -1)" = "vfs_read+0x10" ] &&
		grep -q '^  kernel:$' "$tmp/out"
	ok $? "a kernel return address named from /proc/kallsyms (vfs_read+0x10)" ||
		sed 's/^/#   /' "$tmp/out" ;;
esac
# x86-64 lists its per-CPU symbols first, at 0: the others still name addresses.
printf '%s\n' "0000000000000000 A fixed_percpu_data" "0000000000001000 A cpu_debug_store" \
	"ffffffff81a52000 T pipe_read" "ffffffff81a53000 T pipe_write" >"$tmp/kallsyms"
"$DRV" kallsyms "$tmp/kallsyms" 0xffffffff81a5271d >"$tmp/out"
grep -qx "    at pipe_read+0x71d" "$tmp/out" && grep -qx "  kernel:" "$tmp/out"
ok $? "kallsyms with per-CPU symbols at 0 first: names (pipe_read+0x71d)" || sed 's/^/#   /' "$tmp/out"
printf '%s\n' "0000000000000000 A fixed_percpu_data" "0000000000000000 T pipe_read" >"$tmp/kallsyms"
"$DRV" kallsyms "$tmp/kallsyms" 0xffffffff81a5271d >"$tmp/out"
grep -qx "    at 0xffffffff81a5271d" "$tmp/out" &&
	grep -qx "  kernel: (addresses hidden by kptr_restrict: raw addresses)" "$tmp/out"
ok $? "kallsyms all zeros (kptr_restrict): raw addresses, and why" || sed 's/^/#   /' "$tmp/out"
tap_done
