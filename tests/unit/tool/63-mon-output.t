#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob mon -o FILE on the fake backend (mon_drv.c): the stream (records,
# diagnoses, the summary; text or --json) goes to FILE and nothing of it
# to stdout, messages stay on stderr, -o - is stdout; each batch reaches
# FILE while the session runs (tail -f), and SIGTERM still ends it with
# the summary; a link, a FIFO (without hanging), a directory, another
# user's file in a sticky world-writable directory are refused (exit 1)
# before anything changes. And the tool itself takes -o for mon.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/mon.sh"
need_root

# ops: the driver's op: lines (what the session changed)
ops() { grep -c '^op:' "$tmp/out"; }

run -V ovgo -- -d 50ms -b "$S" -o "$tmp/f"
expect 0 "-o FILE: the session ends as without it"
[ "$(grep -c '^window ok' "$tmp/f")" = 2 ] && grep -q '^VIOLATION' "$tmp/f" &&
	grep -q '^  diagnosis\|^ *stack\|fake_poll' "$tmp/f" &&
	tail -n 2 "$tmp/f" | grep -q '^records: 3 (windows 2, violations 1, dropped 0'
ok $? "... the records, the diagnosis and the summary in FILE" || diag <"$tmp/f"
! grep -q '^window\|^VIOLATION\|^records:' "$tmp/out" && [ "$(ops)" -gt 0 ]
ok $? "... none of them on stdout" || diag <"$tmp/out"
grep -q '^tlob: monitoring 1 section(s)' "$tmp/err" && ! grep -q '^tlob:' "$tmp/f"
ok $? "... messages on stderr only" || diag <"$tmp/err"
is "$(stat -c %a "$tmp/f")" 644 "... a new FILE made 0644"

printf 'old content\nmore\n' >"$tmp/f"
run -V o -- -j -d 50ms -b "$S" -o "$tmp/f"
expect 0 "-j -o over an existing FILE"
! grep -q 'old content\|^more' "$tmp/f" && [ "$(sed -n 1p "$tmp/f" | cut -c1-17)" = '{"type":"header",' ] &&
	[ "$(sed -n 2p "$tmp/f" | cut -c1-18)" = '{"type":"binding",' ] &&
	[ "$(sed -n 3p "$tmp/f" | cut -c1-17)" = '{"type":"record",' ] &&
	tail -n 1 "$tmp/f" | grep -q '^{"type":"summary","records":1,'
ok $? "... truncated, then one JSON object a line: the header, the binding, the record" || diag <"$tmp/f"

run -V o -- -d 50ms -b "$S" -o -
expect 0 "-o -: stdout"
grep -q '^window ok' "$tmp/out" && grep -q '^records: 1 ' "$tmp/out" && [ ! -e ./- ]
ok $? "... the records and the summary there, no file named -" || diag <"$tmp/out"

# A batch reaches FILE while the session still runs; SIGTERM ends it with the summary.
"$DRV" -G 1 -V o -- -d 20s -b "$S" -o "$tmp/live" >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
until grep -q '^window ok' "$tmp/live" 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -0 $pid 2>/dev/null && grep -q '^window ok' "$tmp/live"
ok $? "a record is in FILE while the session runs (tail -f follows it)" || diag <"$tmp/err"
kill -TERM $pid
wait $pid
rc=$(sed -n 's/^exit //p' "$tmp/out")
expect 0 "SIGTERM: the session ends as usual"
tail -n 1 "$tmp/live" | grep -q '^records: 1 (windows 1,'
ok $? "... the summary written to FILE" || diag <"$tmp/live"

# refusal NAME TARGET: -o TARGET refused, exit 1, one line, nothing changed
refusal() {
	run -V o -- -d 50ms -b "$S" -o "$2"
	expect 1 "$1: refused (exit 1)"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^tlob: refusing to write $2: $3\$" "$tmp/err" &&
		[ "$(ops)" = 0 ]
	ok $? "... saying '$3', before anything changed" || diag <"$tmp/err"
}
echo keep >"$tmp/target"
ln -s "$tmp/target" "$tmp/link"
refusal "a symbolic link" "$tmp/link" "it is a symbolic link"
is "$(cat "$tmp/target")" keep "... the file it points to untouched"
mkfifo "$tmp/fifo"
refusal "a FIFO nobody reads (no hang: timeout 30s)" "$tmp/fifo" "it is not a regular file"
mkdir "$tmp/dir"
refusal "a directory" "$tmp/dir" "it is a directory"
mkdir -m 1777 "$tmp/sticky"
echo theirs >"$tmp/sticky/f"
chown 65534 "$tmp/sticky/f"
refusal "another user's file in a sticky world-writable directory" "$tmp/sticky/f" \
	"it belongs to uid 65534 in a sticky directory others can write to"
is "$(cat "$tmp/sticky/f")" theirs "... not truncated"

# The tool: mon takes -o (tlob mon's refusal comes before its backend opens).
refused 1 "tlob mon -o a link: refused by mon itself" \
	"tlob: refusing to write $tmp/link: it is a symbolic link" -- mon -o "$tmp/link" -b "$S"
"$TLOB" mon -h >"$tmp/out" 2>&1
grep -q '^  -o, --output FILE' "$tmp/out"
ok $? "tlob mon -h describes -o" || diag <"$tmp/out"

tap_done
