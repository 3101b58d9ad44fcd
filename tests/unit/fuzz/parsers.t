#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer builds of the parsers that read what another writes
# (tests/fuzz/fuzz.mk): the monitor line, the module's stats lines, the
# configuration files. Each replays its corpus (tests/fuzz/corpus/NAME/,
# the inputs earlier runs failed on included) and then fuzzes from a copy
# of it, without a crash, a leak or a sanitizer report; the run count is
# printed. make check's run is a fixed one (seed 1, a fixed number of
# runs: the same inputs on every machine, so it cannot pass here and fail
# there); FUZZ_SECONDS=N fuzzes N seconds each from a random seed instead,
# to look further. A failing input is shown in base64: add it to the
# corpus with the fix.
top=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=$(cd "${BUILD:-$top/build}" && pwd)
. "$top/tests/lib/tap.sh"
seconds=${FUZZ_SECONDS:-}
# runs per parser in the fixed run: a few seconds each on 2 cores
runs_of() { case $1 in monline) echo 200000 ;; stats) echo 200000 ;; conf) echo 50000 ;; esac; }
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
	if [ -n "$seconds" ]; then
		bound="-max_total_time=$seconds" how="in ${seconds}s"
	else
		bound="-seed=1 -runs=$(runs_of $name)" how="(seed 1)"
	fi
	t=$(date +%s)
	"$bin" $bound -print_final_stats=1 -close_fd_mask=3 \
		-artifact_prefix="$tmp/$name-found/" "$tmp/$name" >"$tmp/log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	[ "$st" -eq 0 ] && [ -n "$runs" ] && [ -z "$(ls "$tmp/$name-found")" ]
	ok $? "fuzz-$name: ${runs:-no} runs $how, $(($(date +%s) - t)) s, no failure" || {
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$tmp/log" | head -20 | diag
		for f in "$tmp/$name-found"/*; do
			[ -e "$f" ] && { echo "input $(basename "$f"):"; base64 -w0 "$f"; echo; } | diag
		done
	}
	echo "# fuzz-$name: stat::number_of_executed_units: ${runs:-?}"
done
tap_done
