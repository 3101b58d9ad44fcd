#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Alive bindings on the kmod backend's side of the control-tree contract
# (as 50-kmod-control.t, against a tree of plain files): what bind writes
# to `monitor` (the module's canonical `a` line), how status and stats
# read the module's `a` listing and its kind=alive stats lines (ids and
# holders joined, text and JSON, sections beside them unchanged), the
# metrics of an alive binding, its removal, and the refusal of an
# in-kernel RV tlob, which has no alive supervision.
. "$(dirname "$0")/tap.sh"

need_root
app=$BUILD/tests/unit/tool/fixtures/app
fb=$(sym_off "$app" frame_begin)
fe=$(sym_off "$app" frame_end)
pf=$(sym_off "$app" process_frame)
root=$tmp/ctl
mkdir "$root"
: >"$root/monitor"
: >"$root/stats"
echo 0 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"
kmod() { "$TLOB" "$@" --backend kmod --root "$root"; }

kmod bind -b "$app:frame_begin,alive=100ms,expect=10,margin=2,per=task,tolerance=2/5,tag=hb" -p 42 >"$tmp/out" 2>"$tmp/err"
ok $? "bind of an alive binding exits 0" || sed 's/^/#   /' "$tmp/err"
is "$(cat "$root/monitor")" "a $app:$fb period=100000000 expect=10 margin=2 per=task tolerance=2/5 tag=hb tgid=42" \
	"bind writes the module's canonical 'a' line, every term in its order, -p as tgid"
is "$(cat "$tmp/out")" "bound id=0 a $app:$fb period=100000000 expect=10 margin=2 per=task tolerance=2/5 tag=hb tgid=42" \
	"bind prints the binding as that line"
is "$(cat "$root/enable")" 1 "bind enables the monitor"
: >"$root/monitor"
kmod bind -b "a $app:$pf period=250000 expect=1" >/dev/null 2>&1
is "$(cat "$root/monitor")" "a $app:$pf period=250000 expect=1" "bind of the module's own 'a' line writes it back canonical"
kmod bind -j -b "$app:process_frame,alive=1s,expect=3" >"$tmp/out" 2>&1
is "$(cat "$tmp/out")" "{\"type\":\"binding\",\"id\":0,\"path\":\"$app\",\"start\":\"$pf\",\"tag\":\"\",\"kind\":\"alive\",\"period_ns\":1000000000,\"expect\":3,\"margin\":0,\"per\":\"process\",\"tolerance_k\":1,\"tolerance_w\":1,\"pid\":0,\"tgid\":0}" \
	"bind -j: the binding object of an alive binding"

# The module's listing: an alive binding and a section the monitor holds
# (one binding per file and START each holder), and what only sessions
# hold: a section at the alive binding's checkpoint, an alive binding.
cat >"$root/monitor" <<EOT
a $app:$fb period=100000000 expect=10 margin=2 per=task tolerance=2/5 tag=hb tgid=42
p $app:$fe ret threshold=5000 tag=ui
EOT
cat >"$root/stats" <<EOT
id=7 path=$app start=$fb stop=$fe tag=ui threshold=10000000 min=0 tolerance=1/1 holders=813:tlob windows=10 violations=2 errors=0 aborted=1 dropped=4 min_ns=1000 max_ns=20000000 mean_ns=3000000 sum_ns=30000000 hist=9:1,21:7,24:2
id=8 kind=alive path=$app start=$fb tag=hb period=100000000 expect=10 margin=2 per=task tolerance=2/5 holders=monitor,812:tlob cycles=120 too_few=3 too_many=1 tolerated=2 aborted=4 errors=0 dropped=5 instances=6 min_checkpoints=7 max_checkpoints=13 sum_checkpoints=1199
id=9 kind=alive path=$app start=$pf tag=- period=250000 expect=1 margin=0 per=process tolerance=1/1 holders=812:tlob cycles=0 too_few=0 too_many=0 tolerated=0 aborted=0 errors=0 dropped=0 instances=0 min_checkpoints=0 max_checkpoints=0 sum_checkpoints=0
id=10 path=$app start=$fe stop=ret tag=ui threshold=5000 min=0 tolerance=1/1 holders=monitor windows=0 violations=0 errors=0 aborted=0 dropped=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=
EOT
kmod status >"$tmp/st" 2>"$tmp/err"
ok $? "status exits 0 with an alive binding listed" || sed 's/^/#   /' "$tmp/err"
grep -qxF "  id=8 a $app:$fb period=100000000 expect=10 margin=2 per=task tolerance=2/5 tag=hb tgid=42 holders=monitor,812:tlob" "$tmp/st"
ok $? "status: the alive binding, its id and holders from stats (not the section's at its offset)" ||
	sed 's/^/#   /' "$tmp/st"
grep -qxF "  id=10 p $app:$fe ret threshold=5000 tag=ui holders=monitor" "$tmp/st"
ok $? "status: the section beside it as it always was" || sed 's/^/#   /' "$tmp/st"
grep -qxF "  id=7 p $app:$fb $fe threshold=10000000 tag=ui holders=813:tlob" "$tmp/st" &&
	grep -qxF "  id=9 a $app:$pf period=250000 expect=1 holders=812:tlob" "$tmp/st"
ok $? "status: a section and an alive binding only sessions hold, after the persistent ones" ||
	sed 's/^/#   /' "$tmp/st"
grep -qxF "bindings: 4" "$tmp/st"
ok $? "status: 4 bindings"
kmod status -j >"$tmp/st"
is "$(sed -n 2p "$tmp/st")" "{\"type\":\"binding\",\"id\":8,\"path\":\"$app\",\"start\":\"$fb\",\"tag\":\"hb\",\"kind\":\"alive\",\"period_ns\":100000000,\"expect\":10,\"margin\":2,\"per\":\"task\",\"tolerance_k\":2,\"tolerance_w\":5,\"pid\":0,\"tgid\":42,\"holders\":\"monitor,812:tlob\"}" \
	"status -j: the alive binding, every term"
is "$(sed -n 3p "$tmp/st")" "{\"type\":\"binding\",\"id\":10,\"path\":\"$app\",\"start\":\"$fe\",\"stop\":\"ret\",\"tag\":\"ui\",\"budget_ns\":5000,\"min_time_ns\":0,\"tolerance_k\":1,\"tolerance_w\":1,\"pid\":0,\"tgid\":0,\"holders\":\"monitor\"}" \
	"status -j: the section as it always was"

kmod stats -j >"$tmp/stats"
is "$(sed -n 2p "$tmp/stats")" "{\"type\":\"stats\",\"id\":8,\"path\":\"$app\",\"start\":\"$fb\",\"tag\":\"hb\",\"kind\":\"alive\",\"period_ns\":100000000,\"expect\":10,\"margin\":2,\"per\":\"task\",\"tolerance_k\":2,\"tolerance_w\":5,\"cycles\":120,\"too_few\":3,\"too_many\":1,\"tolerated\":2,\"aborted\":4,\"errors\":0,\"dropped\":5,\"instances\":6,\"min_checkpoints\":7,\"max_checkpoints\":13,\"mean_checkpoints\":9.99,\"sum_checkpoints\":1199}" \
	"stats -j: the alive binding's counts and checkpoints per cycle"
is "$(sed -n 1p "$tmp/stats")" "{\"type\":\"stats\",\"id\":7,\"path\":\"$app\",\"start\":\"$fb\",\"stop\":\"$fe\",\"tag\":\"ui\",\"windows\":10,\"violations\":2,\"errors\":0,\"aborted\":1,\"early\":0,\"tolerated\":0,\"dropped\":4,\"min_ns\":1000,\"max_ns\":20000000,\"mean_ns\":3000000,\"sum_ns\":30000000,\"hist\":{\"9\":1,\"21\":7,\"24\":2}}" \
	"stats -j: the section beside it as it always was"
kmod stats >"$tmp/stats.txt"
grep -qxF "binding 8: alive $app:$fb period=100ms expect=10$(printf '\302\261')2 per task tag=hb" "$tmp/stats.txt" &&
	grep -qxF "  cycles=120 too_few=3 too_many=1 errors=0 aborted=4 dropped=5 instances=6 tolerated=2 (tolerance 2/5)" "$tmp/stats.txt" &&
	grep -qxF "  checkpoints per cycle min=7 mean=9.99 max=13" "$tmp/stats.txt" &&
	grep -qxF "binding 9: alive $app:$pf period=250us expect=1 per process" "$tmp/stats.txt"
ok $? "stats: alive bindings readable" || sed 's/^/#   /' "$tmp/stats.txt"
grep -qxF "  windows=10 violations=2 errors=0 aborted=1 dropped=4" "$tmp/stats.txt"
ok $? "stats: the section's lines unchanged"

kmod stats --format prometheus >"$tmp/prom"
grep -qxF "tlob_alive_cycles_total{binding=\"8\",path=\"$app\",checkpoint=\"frame_begin\",tag=\"hb\",tgid=\"42\"} 120" "$tmp/prom" &&
	grep -qxF "tlob_alive_too_few_total{binding=\"8\",path=\"$app\",checkpoint=\"frame_begin\",tag=\"hb\",tgid=\"42\"} 3" "$tmp/prom" &&
	grep -qxF "tlob_alive_period_seconds{binding=\"9\",path=\"$app\",checkpoint=\"process_frame\",tag=\"\"} 0.00025" "$tmp/prom" &&
	grep -qxF "tlob_bindings 4" "$tmp/prom"
ok $? "metrics: the alive families, labelled by checkpoint" || sed 's/^/#   /' "$tmp/prom"
! grep -q "tlob_windows_total{[^}]*checkpoint=" "$tmp/prom" && ! grep -q "tlob_alive_[a-z_]*{[^}]*stop=" "$tmp/prom"
ok $? "metrics: an alive binding is in no section's family, a section in no alive one"
if /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
	for fmt in openmetrics prometheus; do
		kmod stats --format $fmt | /usr/bin/python3 "$(dirname "$0")/metrics_check.py" $fmt >/dev/null
		ok $? "metrics: $fmt with alive families is read by prometheus_client"
	done
else
	n=$((n + 1)); echo "ok $n # skip python3-prometheus-client missing"
	n=$((n + 1)); echo "ok $n # skip python3-prometheus-client missing"
fi

# tlob apply: a configuration's alive binding, recorded and removed exactly.
: >"$root/monitor"
: >"$root/stats"
echo 0 >"$root/enable"
mkdir -p "$tmp/etc"
echo "section $app:frame_begin,alive=100ms,expect=10,margin=2,tag=hb" >"$tmp/etc/tlob.conf"
TLOB_VERBOSE=1 kmod apply --state "$tmp/run/apply.state" --dir "$tmp/etc" >"$tmp/out" 2>"$tmp/err"
ok $? "apply of an alive binding exits 0" || sed 's/^/#   /' "$tmp/err"
grep -q "write monitor: a $app:$fb period=100000000 expect=10 margin=2 tag=hb: ok" "$tmp/err" &&
	grep -qxF "section a $app:$fb period=100000000 expect=10 margin=2 tag=hb  # $tmp/etc/tlob.conf:1" "$tmp/run/apply.state"
ok $? "... writes the 'a' line, and records it in the state file" ||
	sed 's/^/#   /' "$tmp/err" "$tmp/run/apply.state"
TLOB_VERBOSE=1 kmod apply --remove --state "$tmp/run/apply.state" >"$tmp/out" 2>"$tmp/err"
grep -q "write monitor: -$app:$fb: ok" "$tmp/err"
ok $? "apply --remove reads the state file's 'a' line back and removes it" || sed 's/^/#   /' "$tmp/err"

kmod unbind -b "$app:frame_begin" >/dev/null
ok $? "unbind of an alive binding by PATH:CHECKPOINT exits 0"
is "$(head -1 "$root/monitor")" "-$app:$fb" "... writes the removal line"

printf 'a %s:0x10 period=100\n' "$app" >"$root/monitor"
kmod status >/dev/null 2>"$tmp/err"
is "$?" 1 "an 'a' listing the tool cannot parse: exit 1"
grep -q "^tlob: cannot parse monitor line 'a $app:0x10 period=100': period 100ns is out of range (100us..1h)" "$tmp/err"
ok $? "... quoting the line and what is wrong" || cat "$tmp/err"
printf 'id=3 kind=logical path=%s start=0x10 tag=-\n' "$app" >"$root/stats"
kmod stats >/dev/null 2>"$tmp/err"
grep -q "^tlob: cannot parse stats line: id=3 kind=logical" "$tmp/err"
ok $? "a stats line of a kind this tool does not know: said, not shown as a section"

# In-kernel RV's tlob (its control directory under rv/monitors/) has no 'a' line.
rv=$tmp/rv/monitors/tlob
mkdir -p "$rv"
: >"$rv/monitor"
echo 0 >"$rv/enable"
"$TLOB" bind --backend kmod --root "$rv" -b "$app:frame_begin,alive=100ms,expect=10" >/dev/null 2>"$tmp/err"
is "$?" 1 "RV tlob: an alive binding is refused (exit 1)"
is "$(cat "$tmp/err")" "tlob: alive supervision needs the module backend (tlob.ko); the kernel's RV tlob does not run it" "... saying why"
is "$(cat "$rv/monitor")" "" "... writing nothing"
tap_done
