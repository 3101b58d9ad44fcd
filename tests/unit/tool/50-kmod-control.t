#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kmod backend's side of the control-tree contract
# (kernel/shared/README.md), against a control tree of plain
# files (--root): what bind/unbind write to `monitor` and `enable`, how
# status and stats read the kernel's canonical `monitor` and `stats`
# listings and `reactors`. The kernel's own answers (errnos) are covered
# by the VM tests.
. "$(dirname "$0")/tap.sh"

need_root
gcc -O0 -fPIE -pie -o "$tmp/app" "$(dirname "$0")/fixtures/app.c" || { echo "Bail out! gcc"; exit 255; }
app=$tmp/app
fb=$(printf '0x%x' "$("$BUILD/tests/unit/tool/elfsym_drv" "$app" frame_begin)")
fe=$(printf '0x%x' "$("$BUILD/tests/unit/tool/elfsym_drv" "$app" frame_end)")
root=$tmp/ctl
mkdir "$root"
: >"$root/monitor"
: >"$root/stats"
echo 0 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"

"$TLOB" bind --backend kmod --root "$root" -b "$app:frame_begin,frame_end,10ms,tag=ui" -p 42 >"$tmp/out" 2>"$tmp/err"
ok $? "bind against the tree exits 0"
is "$(cat "$root/monitor")" "p $app:$fb $fe threshold=10000000 tag=ui tgid=42" "bind writes the canonical line, with tag and -p as tgid"
is "$(cat "$root/enable")" 1 "bind enables the monitor"
grep -q '^tlob: monitor enabled$' "$tmp/err"
ok $? "bind says it enabled the monitor"

cat >"$root/monitor" <<EOT
p $app:$fb $fe threshold=10000000 tag=ui tgid=42
p /opt/my:app/bin:0x2000 ret threshold=5000 min=1200 tolerance=2/4
EOT
cat >"$root/stats" <<EOT
id=7 path=$app start=$fb stop=$fe tag=ui windows=10 violations=2 errors=0 aborted=1 dropped=4 min_ns=1000 max_ns=20000000 mean_ns=3000000 sum_ns=30000000 hist=9:1,21:7,24:2
id=9 path=/opt/my:app/bin start=0x2000 stop=ret tag=- windows=0 violations=0 errors=0 aborted=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=
EOT
"$TLOB" status --json --backend kmod --root "$root" >"$tmp/st"
ok $? "status exits 0"
is "$(head -1 "$tmp/st")" '{"type":"status","backend":"kmod","enabled":true,"reactor":"nop","reactors":"[nop] printk panic signal","bindings":2}' "status: enabled, reactor, reactors, 2 bindings"
is "$(sed -n 2p "$tmp/st")" "{\"type\":\"binding\",\"id\":7,\"path\":\"$app\",\"start\":\"$fb\",\"stop\":\"$fe\",\"tag\":\"ui\",\"budget_ns\":10000000,\"min_time_ns\":0,\"tolerance_k\":1,\"tolerance_w\":1,\"pid\":0,\"tgid\":42}" "status: first binding, id joined from stats"
is "$(sed -n 3p "$tmp/st")" '{"type":"binding","id":9,"path":"/opt/my:app/bin","start":"0x2000","stop":"ret","tag":"","budget_ns":5000,"min_time_ns":1200,"tolerance_k":2,"tolerance_w":4,"pid":0,"tgid":0}' "status: a path with a colon, STOP ret, a minimum, a tolerance"

"$TLOB" stats --json --backend kmod --root "$root" >"$tmp/stats"
is "$(head -1 "$tmp/stats")" "{\"type\":\"stats\",\"id\":7,\"path\":\"$app\",\"start\":\"$fb\",\"stop\":\"$fe\",\"tag\":\"ui\",\"windows\":10,\"violations\":2,\"errors\":0,\"aborted\":1,\"early\":0,\"tolerated\":0,\"dropped\":4,\"min_ns\":1000,\"max_ns\":20000000,\"mean_ns\":3000000,\"sum_ns\":30000000,\"hist\":{\"9\":1,\"21\":7,\"24\":2}}" "stats --json: every field"
"$TLOB" stats --backend kmod --root "$root" >"$tmp/stats.txt"
grep -q '^  windows=10 violations=2 errors=0 aborted=1 dropped=4$' "$tmp/stats.txt" &&
	grep -q '^  elapsed min=1.000us mean=3.000ms max=20.000ms$' "$tmp/stats.txt" &&
	grep -Eq '^ +2\.097ms \.\. 4\.194ms +7 \|\*{40}$' "$tmp/stats.txt" &&
	! grep -Eq '^ +4\.194ms \.\. 8\.389ms +0 \|$' "$tmp/stats.txt"
ok $? "stats: readable summary and histogram (filled buckets only: 53-stats-histogram.t)" ||
	sed 's/^/#   /' "$tmp/stats.txt"

"$TLOB" unbind --backend kmod --root "$root" -b "$app:frame_begin" >/dev/null
ok $? "unbind by PATH:START exits 0"
is "$(head -1 "$root/monitor")" "-$app:$fb" "unbind writes the removal line"

: >"$root/monitor"
(cd "$tmp" && "$TLOB" bind --backend kmod --root "$root" -b "app:frame_begin,ret,2ms" >/dev/null 2>&1)
is "$(cat "$root/monitor")" "p $app:$fb ret threshold=2000000" "a relative path is bound as an absolute one"

printf 'p %s:0x10\n' "$app" >"$root/monitor"
"$TLOB" status --backend kmod --root "$root" >/dev/null 2>"$tmp/err"
is "$?" 1 "a listing the tool cannot parse: exit 1"
grep -q "^tlob: cannot parse monitor line 'p $app:0x10': missing STOP" "$tmp/err"
ok $? "... quoting the line and what is wrong" || cat "$tmp/err"

# enable is the module's "0" or "1": anything else is an error, not "off".
for v in 2 -1 ' 1' 1x ''; do
	printf '%s\n' "$v" >"$root/enable"
	"$TLOB" status --backend kmod --root "$root" >/dev/null 2>"$tmp/err"
	is "$?" 1 "enable '$v': status exits 1"
	grep -q "enable: '$v' is neither 0 nor 1" "$tmp/err"
	ok $? "... saying what enable holds" || cat "$tmp/err"
done
echo 1 >"$root/enable"

tap_done
