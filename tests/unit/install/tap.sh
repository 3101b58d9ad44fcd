# SPDX-License-Identifier: GPL-2.0
# TAP for the install tests (sourced): the tool's helpers ($tmp, $BUILD,
# $TLOB, tap_done), ok and is returning the check's status (is prints
# what it got when it fails), skip_all REASON.
. "$(dirname "$0")/../tool/tap.sh"

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
	return "$1"
}

is() {
	[ "$1" = "$2" ]
	ok $? "$3" || { echo "$1" | sed 's/^/#   got:      /'; echo "$2" | sed 's/^/#   expected: /'; }
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}
