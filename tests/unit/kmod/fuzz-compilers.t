#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob-fuzz (tests/programs/tlob-fuzz.c) is a fixed seed's stream of
# lines: a failure in a guest is reproduced by its seed. That holds only
# if every expression draws its random numbers in an order C fixes. Two
# draws in the arguments of one call, or on both sides of one `=`, are
# unsequenced, and gcc and clang take them in opposite orders: the same
# seed would give other lines per compiler. Built by both and run on the
# model alone (-M, no kernel), one seed must give the same counts and the
# same final table.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/tap.sh"
for cc in gcc clang; do
	command -v $cc >/dev/null || {
		echo "1..0 # SKIP $cc is not installed"
		exit 0
	}
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src="$top/tests/programs/tlob-fuzz.c"
flags="-std=gnu11 -O2 -Wall -Wextra -Werror -pthread"

# the targets its lines bind: ELF files, as the guest's copies of the workload
mkdir -p "$tmp/d/dir"
for cc in gcc clang; do
	# shellcheck disable=SC2086
	$cc $flags -o "$tmp/fuzz-$cc" "$src" 2>"$tmp/$cc.err"
	ok $? "tlob-fuzz builds with $cc" || diag <"$tmp/$cc.err"
done
for i in 0 1 2 3; do cp "$tmp/fuzz-gcc" "$tmp/d/t$i"; done
echo "not a program, just bytes to put probes on" >"$tmp/d/data"
ln -s t0 "$tmp/d/link"

for seed in 1 7; do
	for cc in gcc clang; do
		"$tmp/fuzz-$cc" -M -s $seed -n 20000 -o "$tmp/$cc-$seed.table" "$tmp/d" \
			>"$tmp/$cc-$seed.out" 2>/dev/null
	done
	[ "$(grep -c '^fuzz: ' "$tmp/gcc-$seed.out")" -ge 5 ]
	ok $? "seed $seed: gcc's build ran and counted"
	is "$(cat "$tmp/clang-$seed.out")" "$(cat "$tmp/gcc-$seed.out")" \
		"seed $seed: clang's build counted what gcc's did"
	is "$(cat "$tmp/clang-$seed.table")" "$(cat "$tmp/gcc-$seed.table")" \
		"seed $seed: ... and left the same table"
done
tap_done
