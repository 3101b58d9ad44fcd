#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer builds of the parsers that read what another writes
# (tests/fuzz/fuzz.mk): the monitor line, the module's stats lines, the
# configuration files. Each replays its corpus (tests/fuzz/corpus/NAME/,
# the inputs earlier runs failed on included) and then fuzzes for
# FUZZ_SECONDS (default 20) from a copy of it, without a crash, a leak or
# a sanitizer report; the run count is printed. A failing input is shown
# in base64: add it to the corpus with the fix.
top=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=$(cd "${BUILD:-$top/build}" && pwd)
. "$top/tests/lib/tap.sh"
seconds=${FUZZ_SECONDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for name in monline stats conf; do
	bin=$BUILD/fuzz/fuzz-$name
	corpus=$top/tests/fuzz/corpus/$name
	if [ ! -x "$bin" ]; then
		ok 1 "fuzz-$name is built (make fuzz)"
		continue
	fi
	"$bin" -runs=0 -close_fd_mask=3 "$corpus" >"$tmp/replay" 2>&1
	ok $? "fuzz-$name replays its $(ls "$corpus" | wc -l) seeds" || diag <"$tmp/replay"
	mkdir "$tmp/$name" "$tmp/$name-found"
	cp "$corpus"/* "$tmp/$name/"
	"$bin" -max_total_time="$seconds" -print_final_stats=1 -close_fd_mask=3 \
		-artifact_prefix="$tmp/$name-found/" "$tmp/$name" >"$tmp/log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	[ "$st" -eq 0 ] && [ -n "$runs" ] && [ -z "$(ls "$tmp/$name-found")" ]
	ok $? "fuzz-$name: ${runs:-no} runs in ${seconds}s, no failure" || {
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$tmp/log" | head -20 | diag
		for f in "$tmp/$name-found"/*; do
			[ -e "$f" ] && { echo "input $(basename "$f"):"; base64 -w0 "$f"; echo; } | diag
		done
	}
	echo "# fuzz-$name: stat::number_of_executed_units: ${runs:-?}"
done
tap_done
