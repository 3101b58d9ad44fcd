#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob apply against a control tree of plain files (--root, as
# 50-kmod-control.t): a good configuration is bound in file order
# (tlob.conf, then tlob.conf.d/*.conf by name), every bad line is reported
# as FILE:LINE: reason with exit 2 (malformed) or 1 (not on the system)
# and nothing is written, a kernel refusal after the bindings rolls them
# back, and --remove writes exactly the removals of what apply added.
# TLOB_VERBOSE logs every control write, in order, which is what a tree
# of plain files cannot keep (each write replaces the last).
. "$(dirname "$0")/tap.sh"

need_root
APP=$BUILD/tests/unit/tool/fixtures/app
fb=$(sym_off "$APP" frame_begin)
fe=$(sym_off "$APP" frame_end)
pf=$(sym_off "$APP" process_frame)
mn=$(sym_off "$APP" main)
root=$tmp/ctl
etc=$tmp/etc
state=$tmp/run/apply.state
mkdir -p "$root" "$etc/tlob.conf.d"
reset_tree() {
	: >"$root/monitor"
	: >"$root/stats"
	echo 0 >"$root/enable"
	echo '[nop] printk panic signal' >"$root/reactors"
}
reset_tree
cat >"$etc/tlob.conf" <<EOT
# tlob.conf of the tests

section $APP:frame_begin,frame_end,10ms,tag=frame   # a comment after a blank
reactor printk
backend kmod
EOT
echo "section $APP:main,ret,1s" >"$etc/tlob.conf.d/20-main.conf"
printf '\t section   %s:process_frame,ret,5ms\t\n' "$APP" >"$etc/tlob.conf.d/10-frame.conf"
echo "this is not read" >"$etc/tlob.conf.d/README"
echo "section $APP:nosuch,ret,1ms" >"$etc/tlob.conf.d/.hidden.conf"
L1="p $APP:$fb $fe threshold=10000000 tag=frame"
L2="p $APP:$pf ret threshold=5000000"
L3="p $APP:$mn ret threshold=1000000000"

# tlob ARGS...: out, err, rc; TLOB_VERBOSE on, so err has every control write
tlob() {
	TLOB_VERBOSE=1 "$TLOB" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
apply() { tlob apply --backend kmod --root "$root" --state "$state" "$@"; }
writes() { sed -n 's/^tlob: \[+[0-9.]*\] write \([a-z]*\): \(.*\): [A-Za-z ]*$/\1 \2/p' "$tmp/err" | tr '\n' '|'; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

tlob apply --check --dir "$etc"
is "$rc" 0 "--check: a good configuration is valid" || show
is "$(sed 's/  (.*//' "$tmp/out" | tr '\n' '|')" "section $L1|section $L2|section $L3|reactor printk|backend kmod|" \
	"... its sections in order: tlob.conf, then the drop-ins by name (no README, no dot file)"
grep -q "^section $L2  ($etc/tlob.conf.d/10-frame.conf:1)\$" "$tmp/out"
ok $? "... each with its FILE:LINE" || show

apply --dir "$etc"
is "$rc" 0 "apply: exit 0" || show
is "$(writes)" "monitor $L1|monitor $L2|monitor $L3|reactors printk|enable 1|" \
	"... writes every section in order, then the reactor, then enable"
grep -q "^bound id=0 $L3  ($etc/tlob.conf.d/20-main.conf:1)\$" "$tmp/out"
ok $? "... printing each binding with the line it came from" || show
grep -q "^tlob: applied 3 section(s) from $etc/tlob.conf (+2 drop-ins); 'tlob apply --remove' undoes it\$" "$tmp/err"
ok $? "... and a summary" || show
[ -f "$state" ]
ok $? "... and records the state"

apply --dir "$etc"
is "$rc" 1 "apply again: exit 1 (applied already)"
is "$(writes)" "" "... writing nothing"

# The kernel's listing after apply, with another tool's binding.
cat >"$root/monitor" <<EOT
p /usr/bin/other:0x1000 0x1010 threshold=1000000
$L1
$L2
$L3
EOT
echo 'nop [printk] panic signal' >"$root/reactors"
apply --remove
is "$rc" 0 "--remove: exit 0" || show
is "$(writes)" "monitor -$APP:$mn|monitor -$APP:$pf|monitor -$APP:$fb|reactors nop|" \
	"... writes the removals of what apply added (newest first), the old reactor, not enable"
grep -q '^tlob: monitor left enabled: 1 binding(s) remain$' "$tmp/err"
ok $? "... which the other binding needs" || show
[ ! -e "$state" ]
ok $? "... and removes the state"
apply --remove
is "$rc" 0 "--remove with nothing applied: exit 0"
grep -q "^tlob: nothing to remove: no configuration applied (no $state)\$" "$tmp/err"
ok $? "... saying so" || show

# bad CONTENT RC PATTERN NAME: one bad line in tlob.conf (at line 2)
bad() {
	printf '# line 1\n%s\n' "$1" >"$tmp/bad.conf"
	reset_tree
	apply "$tmp/bad.conf"
	is "$rc" "$2" "$4: exit $2" || show
	grep -q -- "^$tmp/bad.conf:2: $3" "$tmp/err"
	ok $? "... reported as FILE:LINE: reason" || show
	[ -z "$(writes)" ] && [ ! -e "$state" ] && [ "$(cat "$root/enable")" = 0 ]
	ok $? "... and nothing written"
}
bad "sectoin $APP:frame_begin,ret,1ms" 2 "unknown setting 'sectoin' (section, reactor or backend)" "an unknown setting"
bad "section" 2 "'section' needs a value" "a section without a value"
bad "section $APP:frame_begin,frame_end" 2 "section '$APP:...' needs START, STOP and BUDGET" "a section without a budget"
bad "section $APP:frame_begin,frame_end,500ns" 2 "budget '500ns' is out of range (1us..1h)" "a budget out of range"
bad "section $APP:frame_begin,frame_end,1ms,tag=a/b" 2 "invalid tag 'a/b'" "a bad tag"
bad "section app:frame_begin,frame_end,1ms" 2 "section 'app:frame_begin,frame_end,1ms': the path must be absolute" "a relative path"
bad "section $tmp/nope:main,ret,1ms" 1 "cannot open $tmp/nope" "a file that is not there"
bad "section $APP:frame_begn,frame_end,1ms" 1 "symbol 'frame_begn' not found in $APP; closest: frame_begin" "a misspelt symbol"
bad "section $APP:frame_begin+0x2,ret,1ms" 1 ".*is not on an instruction boundary: it falls inside " "an offset inside an instruction"
bad "section p $APP:$fb $fe threshold=999" 2 "threshold 999ns is out of range" "the kernel's line, out of range"
bad "reactor printk panic" 2 "reactor takes one value, not 'printk panic'" "two reactors"
bad "reactor bogus" 2 "unknown reactor 'bogus' (available: nop printk panic signal; the kmod backend)" "a reactor the backend lacks"
bad "backend dpdk" 2 "invalid backend 'dpdk' (kmod, bpf or auto)" "an unknown backend"

# A section another binding holds: seen in the listing, before any write.
printf '# line 1\nsection %s:frame_begin,frame_end,10ms\n' "$APP" >"$tmp/bad.conf"
reset_tree
echo "$L1" >"$root/monitor"
apply "$tmp/bad.conf"
is "$rc" 1 "a section another binding holds: exit 1" || show
grep -q "^$tmp/bad.conf:2: $APP:$fb is bound already (id=0, not by this configuration): tlob unbind it first\$" "$tmp/err"
ok $? "... reported as FILE:LINE: reason" || show
[ -z "$(writes)" ]
ok $? "... and nothing written"

reset_tree
cat >"$tmp/many.conf" <<EOT
section $APP:frame_begin,frame_end,10ms
section $APP:frame_begn,ret,1ms
section $APP:frame_begin,ret,2ms
frobnicate
section $APP:main,ret,1ms
EOT
apply "$tmp/many.conf"
is "$rc" 2 "several bad lines: exit 2 (a malformed line is the worst)" || show
is "$(grep -c "^$tmp/many.conf:[0-9]*: " "$tmp/err")" 3 "... every one reported" || show
grep -q "^$tmp/many.conf:3: $APP:$fb is a section already ($tmp/many.conf:1)\$" "$tmp/err"
ok $? "... a second section at the same START names the first" || show
grep -q "^tlob: $tmp/many.conf: nothing applied\$" "$tmp/err" && [ -z "$(writes)" ]
ok $? "... and nothing is applied" || show

mkdir -p "$tmp/etc2/tlob.conf.d"
echo "reactor printk" >"$tmp/etc2/tlob.conf"
echo "section $APP:frame_begin,ret" >"$tmp/etc2/tlob.conf.d/50-x.conf"
apply --dir "$tmp/etc2"
is "$rc" 2 "a bad line in a drop-in: exit 2"
grep -q "^$tmp/etc2/tlob.conf.d/50-x.conf:1: " "$tmp/err"
ok $? "... named by the drop-in's FILE:LINE" || show
apply --dir "$tmp/nowhere"
is "$rc" 1 "--dir without tlob.conf: exit 1"
grep -q "^$tmp/nowhere/tlob.conf: cannot open: No such file or directory\$" "$tmp/err"
ok $? "... saying which file" || show
# Regular files only, of bounded size: a FIFO would block the open, a
# drop-in linked to /dev/zero would grow the reader without end (ulimit
# and timeout: before, such a run must fail, not take the machine).
mkdir -p "$tmp/etc3/tlob.conf.d"
mkfifo "$tmp/etc3/tlob.conf"
ln -s /dev/zero "$tmp/etc3/tlob.conf.d/10-zero.conf"
(ulimit -v 1000000; timeout 20 "$TLOB" apply --check --dir "$tmp/etc3" >"$tmp/out" 2>"$tmp/err")
is "$?:$(head -n 2 "$tmp/err")" "1:$tmp/etc3/tlob.conf: cannot open: not a regular file
$tmp/etc3/tlob.conf.d/10-zero.conf: cannot open: not a regular file" \
	"a FIFO as tlob.conf, a drop-in linked to /dev/zero: each refused, exit 1"
head -c 1048577 /dev/zero | tr '\0' '#' >"$tmp/big.conf"
(ulimit -v 1000000; timeout 20 "$TLOB" apply --check "$tmp/big.conf" >"$tmp/out" 2>"$tmp/err")
is "$?:$(head -n 1 "$tmp/err")" "1:$tmp/big.conf: larger than 1048576 bytes, the most a configuration file may hold" \
	"a file of 1 MiB and a byte: refused"
{ printf 'section %s:main,ret,1ms # ' "$APP"; head -c 8192 /dev/zero | tr '\0' x; echo; echo "reactor printk"; } >"$tmp/long.conf"
tlob apply --check "$tmp/long.conf"
is "$rc:$(grep -c "^$tmp/long.conf:" "$tmp/err"):$(head -n 1 "$tmp/err")" "2:1:$tmp/long.conf:1: longer than 8192 bytes" \
	"a line longer than 8192 bytes: refused at its FILE:LINE" || show
echo "# nothing yet" >"$tmp/empty.conf"
reset_tree
apply "$tmp/empty.conf"
is "$rc" 0 "a configuration without sections: exit 0"
is "$(writes)" "enable 1|" "... it only enables the monitor"
apply --remove
is "$(writes)" "enable 0|" "... and --remove disables it again"

# A refusal after the bindings: enable cannot be written (immutable).
reset_tree
if chattr +i "$root/enable" 2>/dev/null; then
	apply --dir "$etc"
	chattr -i "$root/enable"
	is "$rc" 1 "enable refused after the bindings: exit 1" || show
	is "$(writes)" "monitor $L1|monitor $L2|monitor $L3|reactors printk|enable 1|reactors nop|monitor -$APP:$mn|monitor -$APP:$pf|monitor -$APP:$fb|" \
		"... the reactor put back and the bindings removed, newest first"
	grep -q '^tlob: nothing applied (rolled back 3 binding(s), the reactor)$' "$tmp/err" && [ ! -e "$state" ]
	ok $? "... no state, and it says so" || show
else
	for i in 1 2 3; do n=$((n + 1)); echo "ok $n # skip chattr +i does not work in $tmp"; done
fi

"$TLOB" apply a.conf --dir "$etc" >/dev/null 2>"$tmp/err"
is "$?" 2 "FILE and --dir: usage error"
"$TLOB" apply --remove "$etc/tlob.conf" >/dev/null 2>"$tmp/err"
is "$?" 2 "--remove with a FILE: usage error"
"$TLOB" apply a.conf b.conf >/dev/null 2>"$tmp/err"
is "$?" 2 "two files: usage error"
grep -q "^tlob: apply: unexpected argument 'b.conf'" "$tmp/err"
ok $? "... naming the second" || sed 's/^/#   /' "$tmp/err"

tap_done
