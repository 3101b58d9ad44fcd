# SPDX-License-Identifier: GPL-2.0
# TAP for the tool's shell tests (sourced): $BUILD, $TLOB, a $tmp removed
# at exit, ok STATUS NAME, is GOT WANT NAME, and tap_done last.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=$(cd "${BUILD:-$top/build}" && pwd)	# absolute: tests run the tool from other directories
TLOB=$BUILD/user/tlob
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# sym_off FILE SYMBOL: the symbol's ELF file offset as the kernel's lines
# write it (0x...), looked up by the tests' own driver
sym_off() { printf '0x%x' "$("$BUILD/tests/unit/tool/elfsym_drv" "$1" "$2")"; }

# Returns STATUS, so that "ok $? NAME || diagnostics" prints them on failure only.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
	return "$1"
}

is() {
	[ "$1" = "$2" ]
	ok $? "$3" || { echo "#   got:      '$1'"; echo "#   expected: '$2'"; }
}

tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
