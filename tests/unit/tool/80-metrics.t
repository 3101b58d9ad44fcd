#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob stats --format openmetrics|prometheus against a control tree of
# files (as 50-kmod-control.t), read back by prometheus_client's own
# parsers (metrics_check.py, Debian's python3-prometheus-client): every
# family, exact values, cumulative buckets, labels escaped and valid
# UTF-8, symbols for offsets where the file has them; --output replaces
# its file atomically, --interval rewrites it until SIGTERM. Negative
# controls: the checker refuses broken text, so a pass means something.
. "$(dirname "$0")/tap.sh"

need_root
PY=/usr/bin/python3
CHECK="$PY $(dirname "$0")/metrics_check.py"
if ! $PY -c 'import prometheus_client' 2>/dev/null; then
	echo "Bail out! python3-prometheus-client is not installed (.ci/packages)"
	exit 255
fi
APP=$BUILD/tests/unit/tool/fixtures/app
fb=$(sym_off "$APP" frame_begin)
fe=$(sym_off "$APP" frame_end)
pf=$(sym_off "$APP" process_frame)
mn=$(sym_off "$APP" main)
pf4=$(printf '0x%x' $(($pf + 4)))
root=$tmp/ctl
mkdir "$root"
echo 1 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"
# A path with a quote and a backslash, one with a Latin-1 byte (not UTF-8).
weird='/opt/we"ird\path/bin'
latin=$(printf '/opt/caf\351/bin')
cat >"$root/monitor" <<EOT
p $APP:$fb $fe threshold=10000000 tag=frame
p $weird:0x2000 ret threshold=5000
p $APP:$mn ret threshold=1000000
p $APP:$mn ret threshold=2000000 pid=5
EOT
cat >"$root/stats" <<EOT
id=7 path=$APP start=$fb stop=$fe tag=frame windows=10 violations=2 errors=1 aborted=1 min_ns=1000 max_ns=20000000 mean_ns=3000000 sum_ns=30000000 hist=3:1,9:1,21:6,24:1,50:1
id=9 path=$weird start=0x2000 stop=ret tag=- windows=0 violations=0 errors=0 aborted=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=
id=11 path=$latin start=0x10 stop=0x20 tag=x windows=1 violations=0 errors=0 aborted=0 min_ns=5 max_ns=5 mean_ns=5 sum_ns=5 hist=2:1
id=12 path=$APP start=$pf stop=$pf4 tag=- windows=0 violations=0 errors=0 aborted=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=
id=13 path=$APP start=$mn stop=ret threshold=1000000 tag=- windows=3 violations=0 errors=0 aborted=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=
id=14 path=$APP start=$mn stop=ret threshold=2000000 tag=- windows=4 violations=0 errors=0 aborted=0 min_ns=0 max_ns=0 mean_ns=0 sum_ns=0 hist=
EOT
stats() { "$TLOB" stats --backend kmod --root "$root" "$@"; }
B1="\"binding\": \"7\", \"path\": \"$APP\", \"start\": \"frame_begin\", \"stop\": \"frame_end\", \"tag\": \"frame\""
B2='"binding": "9", "path": "/opt/we\"ird\\path/bin", "start": "0x2000", "stop": "ret", "tag": ""'
B3="\"binding\": \"11\", \"path\": \"/opt/caf$(printf '\357\277\275')/bin\", \"start\": \"0x10\", \"stop\": \"0x20\", \"tag\": \"x\""
B4="\"binding\": \"12\", \"path\": \"$APP\", \"start\": \"process_frame\", \"stop\": \"process_frame+0x4\", \"tag\": \"\""
B5="\"binding\": \"13\", \"path\": \"$APP\", \"start\": \"main\", \"stop\": \"ret\", \"tag\": \"\""
B6="\"binding\": \"14\", \"path\": \"$APP\", \"pid\": \"5\", \"start\": \"main\", \"stop\": \"ret\", \"tag\": \"\""
# has LINE NAME: the parsed output has the line
has() { grep -qxF -- "$1" "$tmp/parsed"; ok $? "$2" || { echo "#   missing: $1"; sed 's/^/#   /' "$tmp/parsed" | head -40; }; }
# (fixed strings: a label's escaped quote and backslash are no pattern; as
# a pattern, "{$B2}" matched nothing and its check could not fail)
lacks() { ! grep -qF -- "$1" "$tmp/parsed"; ok $? "$2" || grep -F -- "$1" "$tmp/parsed" | sed 's/^/#   /'; }

for fmt in openmetrics prometheus; do
	stats --format $fmt >"$tmp/$fmt" 2>"$tmp/err"
	is "$?" 0 "$fmt: exit 0"
	$CHECK $fmt <"$tmp/$fmt" >"$tmp/parsed"
	ok $? "$fmt: prometheus_client's parser reads it" || sed 's/^/#   /' "$tmp/parsed"
	has "family tlob_windows counter -" "$fmt: windows, a counter"
	has "sample tlob_windows_total {$B1} 10" "$fmt: ... per binding, labelled path, start and stop symbols, tag"
	has "sample tlob_violations_total {$B1} 2" "$fmt: violations"
	has "sample tlob_model_errors_total {$B1} 1" "$fmt: model errors"
	has "sample tlob_aborted_windows_total {$B1} 1" "$fmt: aborted windows"
	has "sample tlob_budget_seconds {$B1} 0.01" "$fmt: the budget, in seconds"
	has "sample tlob_window_elapsed_seconds_bucket {$B1, \"le\": \"0.000001023\"} 2" \
		"$fmt: the first bucket holds the windows below it too (cumulative)"
	has "sample tlob_window_elapsed_seconds_bucket {$B1, \"le\": \"0.004194303\"} 8" \
		"$fmt: le = 2^22-1 ns holds log2 buckets 0..21"
	has "sample tlob_window_elapsed_seconds_bucket {$B1, \"le\": \"0.033554431\"} 9" "$fmt: ... and up to 24"
	has "sample tlob_window_elapsed_seconds_bucket {$B1, \"le\": \"4398.046511103\"} 9" \
		"$fmt: the last boundary, ~73 min"
	has "sample tlob_window_elapsed_seconds_bucket {$B1, \"le\": \"+Inf\"} 10" "$fmt: +Inf holds the slower ones"
	has "sample tlob_window_elapsed_seconds_count {$B1} 10" "$fmt: _count"
	has "sample tlob_window_elapsed_seconds_sum {$B1} 0.03" "$fmt: _sum, in seconds"
	is "$(grep -c "^sample tlob_window_elapsed_seconds_bucket {$B1, " "$tmp/parsed")" 34 \
		"$fmt: 33 boundaries and +Inf, the same for every binding"
	has "sample tlob_window_elapsed_min_seconds {$B1} 1e-06" "$fmt: min"
	has "sample tlob_window_elapsed_max_seconds {$B1} 0.02" "$fmt: max"
	has "sample tlob_window_elapsed_mean_seconds {$B1} 0.003" "$fmt: mean"
	has "sample tlob_windows_total {$B2} 0" "$fmt: a quote and a backslash in a path survive the escaping"
	has "sample tlob_budget_seconds {$B2} 5e-06" "$fmt: ... (budget 5us), STOP ret, offsets where there is no file"
	for g in min max mean; do
		lacks "tlob_window_elapsed_${g}_seconds {$B2}" "$fmt: no elapsed $g before a window ended"
	done
	has "sample tlob_windows_total {$B3} 1" "$fmt: a path that is not UTF-8 gets U+FFFD"
	lacks "tlob_budget_seconds {$B3}" "$fmt: no budget sample when the listing lacks the binding"
	has "sample tlob_windows_total {$B4} 0" "$fmt: an offset inside a function is NAME+0xD"
	# Two bindings of one section (main..ret): other budgets, one with pid=5.
	has "sample tlob_windows_total {$B5} 3" "$fmt: two bindings of one section: the first, by its id"
	has "sample tlob_windows_total {$B6} 4" "$fmt: ... the second, by its id and its pid filter"
	has "sample tlob_budget_seconds {$B5} 0.001" "$fmt: ... each with its own budget (1ms)"
	has "sample tlob_budget_seconds {$B6} 0.002" "$fmt: ... (2ms)"
	has "sample tlob_bindings {} 6" "$fmt: the number of bindings"
done
tail -n 1 "$tmp/openmetrics" | grep -qx '# EOF'
ok $? "openmetrics ends with # EOF"
! grep -q '^# \(EOF\|UNIT\)' "$tmp/prometheus" && grep -q '^# TYPE tlob_windows_total counter$' "$tmp/prometheus"
ok $? "prometheus: no # EOF or # UNIT, counters TYPE'd by their _total name"

# Negative controls: the checker must refuse what is broken.
# refuse FMT NAME: the checker refuses $tmp/broken, which differs from the good $tmp/FMT
refuse() {
	if cmp -s "$tmp/broken" "$tmp/$1"; then
		ok 1 "$2 (the edit changed nothing: no control)"
	elif $CHECK "$1" <"$tmp/broken" >"$tmp/parsed"; then
		ok 1 "$2"
	else
		ok 0 "$2"
	fi
}
sed '$d' "$tmp/openmetrics" >"$tmp/broken"
refuse openmetrics "negative: openmetrics without # EOF"
sed 's|we\\"ird|we"ird|' "$tmp/openmetrics" >"$tmp/broken"
refuse openmetrics "negative: an unescaped quote in a label (openmetrics)"
sed 's|we\\"ird|we"ird|' "$tmp/prometheus" >"$tmp/broken"
# The text 0.0.4 parser is lax: it reads "/opt/we" and goes on. The exact
# label values checked above are what catches that.
$CHECK prometheus <"$tmp/broken" >"$tmp/parsed"
! grep -qF "{$B2}" "$tmp/parsed" && ! cmp -s "$tmp/broken" "$tmp/prometheus"
ok $? "negative: an unescaped quote in a label (prometheus) does not read back as the path"
sed 's|le="0.004194303"} 8$|le="0.004194303"} 1|' "$tmp/openmetrics" >"$tmp/broken"
refuse openmetrics "negative: buckets not cumulative (openmetrics)"
sed 's|le="0.004194303"} 8$|le="0.004194303"} 1|' "$tmp/prometheus" >"$tmp/broken"
refuse prometheus "negative: buckets not cumulative (prometheus)"
sed 's|^\(tlob_window_elapsed_seconds_count{.*tag="frame"}\) 10$|\1 11|' "$tmp/prometheus" >"$tmp/broken"
refuse prometheus "negative: _count is not the +Inf bucket (prometheus)"
cp "$tmp/openmetrics" "$tmp/broken"
refuse prometheus "negative: OpenMetrics read as text 0.0.4 (its counters' samples fall outside their families)"
cp "$tmp/prometheus" "$tmp/broken"
refuse openmetrics "negative: text 0.0.4 read as OpenMetrics"
printf 'tlob_windows_total{path="/x" 1\n' >"$tmp/broken"
refuse prometheus "negative: a malformed line"

# --output: the file is replaced (a new inode), never written in place.
out=$tmp/textfile/tlob.prom
mkdir "$tmp/textfile"
echo "old" >"$out"
exec 3<"$out"
ino=$(stat -c %i "$out")
stats --format prometheus -o "$out"
is "$?" 0 "--output: exit 0"
cmp -s "$out" "$tmp/prometheus"
ok $? "... the file holds the metrics"
[ "$(stat -c %i "$out")" != "$ino" ] && [ "$(cat <&3)" = old ]
ok $? "... a new file renamed over the old one: a reader of the old one still reads it whole"
exec 3<&-
is "$(stat -c %a "$out")" 644 "... readable by node_exporter's user (0644)"
is "$(ls -A "$tmp/textfile")" "tlob.prom" "... and no temporary file left beside it"
stats --format openmetrics -o "$tmp/nodir/tlob.prom" 2>"$tmp/err"
is "$?" 1 "--output into a directory that is not there: exit 1"
grep -q "^tlob: cannot create a file beside $tmp/nodir/tlob.prom: No such file or directory\$" "$tmp/err"
ok $? "... saying why" || sed 's/^/#   /' "$tmp/err"

# --interval: rewritten while it runs, a clean exit on SIGTERM.
rm -f "$out"
"$TLOB" stats --backend kmod --root "$root" --format prometheus -o "$out" --interval 100ms 2>"$tmp/err" &
pid=$!
i=0
while [ ! -s "$out" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
grep -q 'tlob_windows_total{.*tag="frame"} 10$' "$out"
ok $? "--interval: the file is written at once"
sed -i 's/^id=7 \(.*\) windows=10 /id=7 \1 windows=11 /' "$root/stats"
i=0
while ! grep -q 'tlob_windows_total{.*tag="frame"} 11$' "$out" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
grep -q 'tlob_windows_total{.*tag="frame"} 11$' "$out"
ok $? "... and rewritten with the kernel's new numbers"
kill -TERM $pid
wait $pid
is "$?" 0 "... SIGTERM ends it with exit 0"

stats --format xml >/dev/null 2>"$tmp/err"
is "$?" 2 "an unknown format: usage error"
stats --interval 1s >/dev/null 2>"$tmp/err"
is "$?" 2 "--interval without -o: usage error"
stats -j --format openmetrics >/dev/null 2>"$tmp/err"
is "$?" 2 "-j with --format openmetrics: usage error"
stats --format json >"$tmp/json"
is "$(head -1 "$tmp/json" | cut -c1-22)" '{"type":"stats","id":7' "--format json is -j"
: >"$root/stats"
: >"$root/monitor"
stats --format openmetrics | $CHECK openmetrics >"$tmp/parsed"
ok $? "no bindings: still valid"
has "sample tlob_bindings {} 0" "... saying 0 bindings"

tap_done
