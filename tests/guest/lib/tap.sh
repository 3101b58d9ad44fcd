# SPDX-License-Identifier: GPL-2.0
# TAP helpers for in-guest test scripts (busybox ash).
#   . /opt/tlob/tests/lib/tap.sh
#   plan 3; ok 0 "name"; is "$got" "$want" "name"; diag "text"; done_testing
# Every helper returns the verdict, so `ok ... || diag ...` works.

_tap_n=0
_tap_failed=0
_tap_failed_names=

plan() { echo "1..$1"; }

diag() { echo "# $*"; }

ok() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ] 2>/dev/null; then
		echo "ok $_tap_n - $2"
		return 0
	fi
	echo "not ok $_tap_n - $2"
	_tap_failed=$((_tap_failed + 1))
	_tap_failed_names="$_tap_failed_names${_tap_failed_names:+; }$_tap_n ($2)"
	return 1
}

# ok_cmd "name" command args...: passes when the command exits 0
ok_cmd() {
	_n=$1
	shift
	"$@"
	ok $? "$_n"
}

is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got: '$1'"
		diag "expected: '$2'"
		return 1
	fi
}

# cmp_ok GOT OP WANT NAME, OP one of -lt -le -gt -ge -eq -ne (integers)
cmp_ok() {
	if [ "$1" "$2" "$3" ] 2>/dev/null; then
		ok 0 "$4"
	else
		ok 1 "$4"
		diag "failed: $1 $2 $3"
		return 1
	fi
}

skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # skip $*"; }

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

bail_out() { echo "Bail out! $*"; exit 255; }

# The failures again, last: a log that keeps only a script's comments
# or its end (CI shows the end of its output) still names them.
done_testing() {
	[ "$_tap_failed" -eq 0 ] || diag "failed $_tap_failed of $_tap_n: $_tap_failed_names"
	echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
	exit $?
}

# soak LONG SHORT: how much a stress script does (seconds, cycles, lines):
# LONG with tlob.soak=long (make check-all, and a guest booted by hand),
# SHORT with tlob.soak=short (make check and the debug lane: CI's time
# budget, docs/lanes.md). The checks are the same either way.
soak() { if [ "${TLOB_SOAK:-long}" = short ]; then echo "$2"; else echo "$1"; fi; }

# wait_line FILE PATTERN SECONDS [PID]: until FILE holds a line matching
# PATTERN (grep -E), at most SECONDS of uptime (a deadline, not a count of
# sleeps: a loaded emulated guest stretches those), or until PID exits.
# 0 when the line came; 1 otherwise, with how long it waited in
# $WAITED.
wait_line() {
	_wl_t0=$(cut -d. -f1 /proc/uptime)
	while ! grep -qE "$2" "$1" 2>/dev/null; do
		WAITED=$(($(cut -d. -f1 /proc/uptime) - _wl_t0))
		[ "$WAITED" -lt "$3" ] || return 1
		[ -z "$4" ] || kill -0 "$4" 2>/dev/null || return 1
		sleep 0.1
	done
	return 0
}
