#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every guest script names its lanes in its own "# lanes:" header line,
# and tests/harness/guest-lanes, which vm.mk builds each lane's list
# from, refuses a script without one or with a lane that does not exist:
# such a script would otherwise run on no lane of make check, unseen.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/tap.sh"
gl=$top/tests/harness/guest-lanes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gl" "$top/tests/guest" >"$tmp/out" 2>"$tmp/err"
ok $? "every tests/guest/*.t has a valid lanes: line"
[ -s "$tmp/err" ] && diag <"$tmp/err"
scripts=$(ls "$top"/tests/guest/*.t | wc -l)
named=$(grep -c '^# lanes: ' "$top"/tests/guest/*.t | grep -c ':1$')
is "$named" "$scripts" "each of the $scripts guest scripts has exactly one lanes: line"
grep -qx 'stock:00-lane.t' "$tmp/out"
ok $? "00-lane.t runs on stock"

script() { printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n%s\n' "$2" >"$tmp/$1/x.t"; }

mkdir "$tmp/all"
script all '# lanes: all debug dkms'
"$gl" "$tmp/all" >"$tmp/out" 2>&1
ok $? "all, debug and dkms are accepted"
want=$(sed -n 's/^\([a-z0-9][a-z0-9.-]*\)[[:space:]].*/\1:x.t/p' "$top/tests/harness/lanes"; echo dkms:x.t)
is "$(sort "$tmp/out")" "$(echo "$want" | sort)" "all names every lane but debug"

mkdir "$tmp/none"
script none '# lanes: none'
"$gl" "$tmp/none" >"$tmp/out" 2>&1
ok $? "none is accepted"
is "$(cat "$tmp/out")" "" "none runs on no lane of make check"

check_refused() { # DIR LINE MESSAGE WHAT
	mkdir "$tmp/$1"
	script "$1" "$2"
	"$gl" "$tmp/$1" >"$tmp/out" 2>&1
	[ $? -ne 0 ] && grep -q "$3" "$tmp/out"
	ok $? "$4 is refused"
}
check_refused missing '# (no lanes line)' "no '# lanes:' line" "a script without a lanes: line"
check_refused unknown '# lanes: stock stok' "unknown lane 'stok'" "an unknown lane"
check_refused empty '# lanes:' "empty lanes: line" "an empty lanes: line"
check_refused mixed '# lanes: none rt' "'none' beside lanes" "none beside a lane"
tap_done
