#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob apply compares files by identity (device and inode), as the
# backends do: a configuration naming one START of one file twice, through
# a link, has one section too many; a section bound already under another
# name of its file is bound already.
. "$(dirname "$0")/tap.sh"

need_root
APP=$BUILD/tests/unit/tool/fixtures/app
fb=$(sym_off "$APP" frame_begin)
ln -s "$APP" "$tmp/link"
root=$tmp/ctl
mkdir "$root"
echo 0 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"
: >"$root/stats"
: >"$root/monitor"

printf 'section %s:frame_begin,ret,1ms\nsection %s:frame_begin,ret,2ms\n' "$APP" "$tmp/link" >"$tmp/two.conf"
"$TLOB" apply --check "$tmp/two.conf" >"$tmp/out" 2>"$tmp/err"
is "$?:$(head -n 1 "$tmp/err")" "2:$tmp/two.conf:2: $tmp/link:$fb is a section already ($tmp/two.conf:1)" \
	"one START of one file, named through a link: a section already"

echo "p $APP:$fb ret threshold=1000000" >"$root/monitor"
printf 'section %s:frame_begin,ret,2ms\n' "$tmp/link" >"$tmp/one.conf"
"$TLOB" apply --backend kmod --root "$root" --state "$tmp/state" "$tmp/one.conf" >"$tmp/out" 2>"$tmp/err"
is "$?:$(head -n 1 "$tmp/err")" "1:$tmp/one.conf:1: $tmp/link:$fb is bound already (id=0, not by this configuration): tlob unbind it first" \
	"bound already under the file's other name: refused before anything changes"
is "$(cat "$root/monitor")" "p $APP:$fb ret threshold=1000000" "... and nothing written"
tap_done
