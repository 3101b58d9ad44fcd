#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The userspace C (user/ and rvgen/) keeps its functions short: none over
# 80 lines, body included, as pmccabe counts them, except the ones named in
# long-functions.allow beside this script (path:function, one a line), each
# a debt still to pay. The test fails on a long function the list does not
# name and on an entry that is no longer long (or no longer there), so the
# list only shrinks. First the checker proves it can tell an 81-line
# function from an 80-line one.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
allow=$top/tests/unit/layout/long-functions.allow
MAX=80
echo "1..5"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

# long FILE...: "path:function lines" for every function over $MAX lines
long() {
	pmccabe "$@" | awk -F'\t' -v max=$MAX '$5 > max {
		split($6, a, "\\("); sub(/^[^:]*: /, "", $6); print a[1] ":" $6, $5 }'
}

if ! command -v pmccabe >/dev/null; then
	for t in "pmccabe installed (.ci/packages)" "the checker" "no long function outside the list" \
		"every entry still long" "the list well formed"; do
		ok 1 "$t"
	done
	exit 1
fi
ok 0 "pmccabe installed (.ci/packages)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# body LINES NAME: a C function of LINES lines, its braces included
body() {
	echo "int $2(int x)"
	echo "{"
	for ((i = 0; i < $1 - 4; i++)); do echo "	x += $i;"; done
	echo "	return x;"
	echo "}"
}
{ body 80 fits; body 81 too_long; } >"$tmp/probe.c"
got=$(cd "$tmp" && long probe.c)
[ "$got" = "probe.c:too_long 81" ]
ok $? "the checker flags an 81-line function and passes an 80-line one"
[ "$got" = "probe.c:too_long 81" ] || echo "$got" | sed 's/^/# got: /'

files=$(cd "$top" && find user rvgen -name '*.c' | sort)
found=$(cd "$top" && long $files | sort)
listed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$allow" | grep -v '^$' | sort)

extra=$(echo "$found" | while read -r fn lines; do
	[ -n "$fn" ] || continue
	grep -qxF "$fn" <<<"$listed" || echo "$fn is $lines lines"
done)
[ -z "$extra" ]
ok $? "no function of user/ or rvgen/ over $MAX lines outside long-functions.allow"
[ -z "$extra" ] || echo "$extra" | sed 's/^/# split it: /'

paid=$(echo "$listed" | while read -r fn; do
	[ -n "$fn" ] || continue
	echo "$found" | awk -v f="$fn" '$1 == f { hit = 1 } END { exit !hit }' || echo "$fn"
done)
[ -z "$paid" ]
ok $? "every entry of long-functions.allow is still over $MAX lines"
[ -z "$paid" ] || echo "$paid" | sed 's/^/# no longer long or gone, remove it from the list: /'

bad=$(echo "$listed" | grep -v '^$' | grep -vE '^(user|rvgen)/[A-Za-z0-9_/.-]+\.c:[A-Za-z_][A-Za-z0-9_]*$')
dup=$(echo "$listed" | uniq -d)
[ -z "$bad$dup" ]
ok $? "long-functions.allow holds path:function lines, each once"
[ -z "$bad$dup" ] || printf '%s\n%s\n' "$bad" "$dup" | grep -v '^$' | sed 's/^/# bad entry: /'
