# SPDX-License-Identifier: GPL-2.0
# For the tests of tlob mon on the fake backend (mon_drv.c), sourced after
# tap.sh: DRV, a section S on the fixture app, and
#   run DRIVER-ARGS... -- MON-ARGS...  $tmp/out, $tmp/err, rc (the session's status)
#   expect RC NAME                     rc, or the output as diagnostics
#   envof FILE KEY                     the (first line of the) value of KEY in an `env` dump
DRV=$BUILD/tests/unit/tool/mon_drv
APP=$BUILD/tests/unit/tool/fixtures/app
S="$APP:frame_begin,frame_end,5us"

run() {
	timeout 30 "$DRV" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$(sed -n 's/^exit //p' "$tmp/out")
}
expect() {
	[ "${rc:-none}" = "$1" ]
	ok $? "$2" || { echo "#   exit ${rc:-none} (want $1)"; sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
}
envof() { sed -n "s/^$2=//p" "$1" | head -1; }
