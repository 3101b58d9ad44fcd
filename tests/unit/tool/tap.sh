# SPDX-License-Identifier: GPL-2.0
# TAP for the tool's shell tests (sourced): $BUILD, $TLOB, a $tmp removed
# at exit, and tests/lib/tap.sh's ok, is, diag, tap_done.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=$(cd "${BUILD:-$top/build}" && pwd)	# absolute: tests run the tool from other directories
TLOB=$BUILD/user/tlob
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/lib/tap.sh"

# need_root: a script whose commands the tool runs only as root skips
# whole under another user (the tool refuses before doing anything)
need_root() {
	[ "$(id -u)" = 0 ] && return
	echo "1..0 # SKIP needs root (the tool checks it first)"
	exit 0
}

# sym_off FILE SYMBOL: the symbol's ELF file offset as the kernel's lines
# write it (0x...), looked up by the tests' own driver
sym_off() { printf '0x%x' "$("$BUILD/tests/unit/tool/elfsym_drv" "$1" "$2")"; }

# refused RC NAME WANT -- ARGS: tlob's exit status and its one stderr line, exactly
refused() {
	local rc=$1 name=$2 want=$3
	shift 4
	"$TLOB" "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -eq "$rc" ] && [ "$(cat "$tmp/err")" = "$want" ]; then
		ok 0 "$name"
	else
		ok 1 "$name"
		echo "# exit $got (want $rc), stderr:"
		sed 's/^/#   /' "$tmp/err"
		echo "# want: $want"
	fi
}

# expect RC PATTERN NAME -- ARGS...: tlob ARGS exits RC, and its stderr is
# one line matching PATTERN (grep's); out and err stay in $tmp
expect() {
	rc=$1 pat=$2 name=$3
	shift 4
	"$TLOB" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	lines=$(wc -l <"$tmp/err")
	[ "$got" -eq "$rc" ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$tmp/err"
	ok $? "$name"
	if [ "$got" -ne "$rc" ] || [ "$lines" -ne 1 ] || ! grep -q -- "$pat" "$tmp/err"; then
		echo "# exit $got (want $rc), $lines stderr line(s):"
		sed 's/^/#   /' "$tmp/err"
	fi
}
