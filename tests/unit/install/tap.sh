# SPDX-License-Identifier: GPL-2.0
# TAP for the install tests (sourced): the tool tests' helpers ($top,
# $BUILD, $TLOB, $tmp, ok, is, tap_done), and skip_all REASON.
. "$(dirname "$0")/../tool/tap.sh"

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}
