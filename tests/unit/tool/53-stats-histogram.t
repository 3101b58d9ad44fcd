#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The readable log2 histogram of tlob stats, against a control tree of
# plain files (--root, as 50-kmod-control.t): a binding whose four filled
# buckets lie far apart (3, 9, 21, 50) prints those four rows and no
# empty one; --with-zeros prints every row from the first filled bucket
# to the last (48), the empty ones with a count of 0 and no bar. The
# option changes neither JSON nor the metrics. tlob mon's end-of-session
# summary (on mon_drv.c's fake backend, -H 1: buckets 3, 9 and 21) prints
# its histogram the same way.
. "$(dirname "$0")/tap.sh"

root=$tmp/ctl
mkdir "$root"
echo 1 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"
: >"$root/monitor"
cat >"$root/stats" <<'EOT'
id=7 path=/opt/app start=0x10 stop=0x20 tag=ui windows=10 violations=2 errors=0 aborted=1 dropped=0 min_ns=10 max_ns=1500000000000000 mean_ns=3000000 sum_ns=30000000 hist=3:1,9:2,21:6,50:1
EOT
stats() { "$TLOB" stats --backend kmod --root "$root" "$@"; }
# rows FILE: the histogram's rows ("FROM .. TO COUNT |BAR"), header excluded
rows() { grep -E '^ +[0-9.]+[a-z]+ \.\. [0-9.]+[a-z]+ +[0-9]+ \|' "$1"; }

stats >"$tmp/text" 2>"$tmp/err"
is "$?" 0 "stats: exit 0"
cat >"$tmp/want" <<'EOT'
binding 7: /opt/app:0x10 0x20 tag=ui
  windows=10 violations=2 errors=0 aborted=1 dropped=0
  elapsed min=10ns mean=3.000ms max=1500000.000s
          from .. to                count
           8ns .. 16ns                  1 |******
         512ns .. 1.024us               2 |*************
       2.097ms .. 4.194ms               6 |****************************************
  1125899.907s .. 2251799.814s          1 |******
EOT
cmp -s "$tmp/want" "$tmp/text"
ok $? "stats: the four filled buckets, no empty row between them" ||
	diff "$tmp/want" "$tmp/text" | sed 's/^/#   /'

stats --with-zeros >"$tmp/zeros" 2>"$tmp/err"
is "$?" 0 "stats --with-zeros: exit 0"
is "$(rows "$tmp/zeros" | wc -l)" 48 "--with-zeros: every row from bucket 3 to bucket 50"
is "$(rows "$tmp/zeros" | grep -c ' 0 |$')" 44 "... the 44 empty ones with count 0 and no bar"
is "$(rows "$tmp/zeros" | sed -n '1p;2p;48p' | awk '{ print $1 }' | tr '\n' ' ')" \
	"8ns 16ns 1125899.907s " "... in order: 8ns, 16ns, ... up to the last filled"
is "$(rows "$tmp/zeros" | grep -v ' 0 |$')" "$(rows "$tmp/text")" \
	"... the filled rows as without it"
is "$(head -4 "$tmp/zeros")" "$(head -4 "$tmp/text")" "... the summary lines as without it"

stats --json >"$tmp/j1" && stats --json --with-zeros >"$tmp/j2"
ok $? "stats --json --with-zeros: exit 0"
cmp -s "$tmp/j1" "$tmp/j2"
ok $? "... the same JSON as without it" || diff "$tmp/j1" "$tmp/j2" | sed 's/^/#   /'
stats --format openmetrics >"$tmp/m1" && stats --format openmetrics --with-zeros >"$tmp/m2" &&
	cmp -s "$tmp/m1" "$tmp/m2"
ok $? "... and the same metrics"

APP=$BUILD/tests/unit/tool/fixtures/app
# mon ARGS...: the session's summary histogram's rows, in $tmp/mon
mon() {
	timeout 20 "$BUILD/tests/unit/tool/mon_drv" -H 1 -- -q -d 50ms \
		-b "$APP:frame_begin,frame_end,5ms" "$@" >"$tmp/mon.out" 2>"$tmp/mon.err"
	rows "$tmp/mon.out" >"$tmp/mon"
}
mon
is "$(awk '{ print $1 "-" $4 }' "$tmp/mon" | tr '\n' ' ')" "8ns-1 512ns-2 2.097ms-6 " \
	"mon's summary: the three filled buckets only" || sed 's/^/#   /' "$tmp/mon.out" "$tmp/mon.err"
mon --with-zeros
is "$(wc -l <"$tmp/mon")" 19 "mon --with-zeros: every row from bucket 3 to bucket 21" ||
	sed 's/^/#   /' "$tmp/mon.out" "$tmp/mon.err"
is "$(grep -c ' 0 |$' "$tmp/mon")" 16 "... the 16 empty ones with count 0"
mon -j --with-zeros
grep -q '^{"type":"stats","id":1,.*"hist":{"3":1,"9":2,"21":6}}$' "$tmp/mon.out"
ok $? "mon -j --with-zeros: the JSON stats as ever" || sed 's/^/#   /' "$tmp/mon.out"
tap_done
