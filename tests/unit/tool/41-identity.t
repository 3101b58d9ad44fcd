#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One file-identity rule, by device and inode: the same START of one file
# named twice (through a link, through "/./") is one section, refused on
# the command line before any backend is touched; tlob's own binary,
# however it is named (/proc/self/exe, its path), is not bound.
. "$(dirname "$0")/tap.sh"

app=$BUILD/tests/unit/tool/fixtures/app
fb=$(sym_off "$app" frame_begin)
nodir=$tmp/no-such-dir
ln -s "$app" "$tmp/link"
dot=$(dirname "$app")/./app

refused 2 "the same START through a link: one section, refused" \
	"tlob: $app:$fb is given twice (as $tmp/link): one file's START is one section" -- \
	mon --backend kmod --root "$nodir" -b "$app:frame_begin,ret,1ms" -b "$tmp/link:frame_begin,frame_end,2ms"
refused 2 "the same START through /./: refused" \
	"tlob: $dot:$fb is given twice (as $app): one file's START is one section" -- \
	mon --backend kmod --root "$nodir" -b "$dot:frame_begin,ret,1ms" -b "$app:frame_begin,ret,2ms"
refused 2 "bind: the same START through a link, refused before the backend" \
	"tlob: $app:$fb is given twice (as $tmp/link): one file's START is one section" -- \
	bind --backend kmod --root "$nodir" -b "$app:frame_begin,ret,1ms" -b "$tmp/link:frame_begin,ret,2ms"
refused 1 "two STARTs of one file through a link: two sections" "tlob: $nodir/monitor does not exist" -- \
	mon --backend kmod --root "$nodir" -b "$app:frame_begin,ret,1ms" -b "$tmp/link:frame_end,ret,2ms"
refused 2 "/proc/self/exe: tlob itself, refused" \
	"tlob: /proc/self/exe is tlob itself: tlob does not bind its own binary" -- \
	mon --backend kmod --root "$nodir" -b /proc/self/exe:main,ret,1ms
refused 2 "tlob's own path: refused" "tlob: $TLOB is tlob itself: tlob does not bind its own binary" -- \
	mon --backend kmod --root "$nodir" -b "$TLOB:main,ret,1ms"
ln -s "$TLOB" "$tmp/tool"
refused 2 "a link to tlob: refused" "tlob: $tmp/tool is tlob itself: tlob does not bind its own binary" -- \
	bind -b "$tmp/tool:main,ret,1ms"

tap_done
