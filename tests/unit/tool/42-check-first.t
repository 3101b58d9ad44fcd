#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The whole command line is checked before a backend is touched (opening
# the BPF backend loads its programs into the kernel): what the command
# line alone refuses is a usage error with nothing opened (TLOB_VERBOSE
# would log "opening the ... backend" first), and tlob list --backend
# NAME lists, and so probes and loads, that backend alone.
. "$(dirname "$0")/tap.sh"

app=$BUILD/tests/unit/tool/fixtures/app
nodir=$tmp/no-such-dir
ln -s "$app" "$tmp/link"
S="$app:frame_begin,ret,1ms"

export TLOB_VERBOSE=1
refused 2 "mon --backend bpf: --on-violation-limit without an action, refused before the backend" \
	"tlob: mon: --on-violation-limit limits --on-violation actions, and none is given" -- \
	mon --backend bpf --on-violation-limit 3/1s -b "$S"
refused 2 "mon --backend kmod: --bpf-tasks refused before the backend" \
	"tlob: mon: --bpf-tasks sizes the BPF backend; the kmod backend's capacity is set at load (pool_size=)" -- \
	mon --backend kmod --root "$nodir" --bpf-tasks 64 -b "$S"
refused 2 "mon --backend bpf: one section twice, refused before the backend" \
	"tlob: $app:$(sym_off "$app" frame_begin) is given twice (as $tmp/link): one file's START is one section" -- \
	mon --backend bpf -b "$S" -b "$tmp/link:frame_begin,ret,2ms"
acts=""
for i in 1 2 3 4 5 6 7 8 9; do acts="$acts --on-violation exec=true"; done
refused 2 "mon --backend bpf: 9 actions, refused before the backend" \
	"tlob: mon: at most 8 --on-violation actions" -- mon --backend bpf $acts -b "$S"

if [ "$(id -u)" = 0 ]; then
	"$TLOB" list --backend kmod --root "$nodir" >"$tmp/out" 2>"$tmp/err"
	is "$?:$(cut -c1-6 "$tmp/out" | tr -s ' \n' '  ')" "0:name kmod " \
		"list --backend kmod: the kmod backend alone (BPF neither probed nor loaded)"
	"$TLOB" list --root "$nodir" >"$tmp/out" 2>"$tmp/err"
	is "$(cut -c1-6 "$tmp/out" | tr -s ' \n' '  ')" "name kmod bpf " "list: every backend"
else
	for i in 1 2; do n=$((n + 1)); echo "ok $n # skip list needs root"; done
fi
tap_done
