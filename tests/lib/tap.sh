# SPDX-License-Identifier: GPL-2.0
# TAP for the host's shell tests (sourced): ok STATUS NAME and
# is GOT WANT NAME, each returning its verdict (so `ok ... || diag` works;
# is shows what it got), diag (stdin as comments), tap_done last.
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
	return "$1"
}

is() {
	[ "$1" = "$2" ]
	ok $? "$3" || { echo "$1" | sed 's/^/#   got:      /'; echo "$2" | sed 's/^/#   expected: /'; return 1; }
}

diag() { sed 's/^/# /'; }

tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
