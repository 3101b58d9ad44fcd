#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A configuration sets its reactor and its backend once: a second line, in
# the same file or in a drop-in, is refused naming both lines (which one
# was meant cannot be known), rather than replacing the first silently.
# tlob apply --check reads the files as apply does and changes nothing.
. "$(dirname "$0")/tap.sh"

APP=$BUILD/tests/unit/tool/fixtures/app
etc=$tmp/etc
mkdir -p "$etc/tlob.conf.d"

# check ARGS...: tlob apply --check, out, err, rc
check() {
	"$TLOB" apply --check "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

printf 'section %s:frame_begin,frame_end,10ms\nreactor printk\nbackend kmod\n' "$APP" >"$tmp/one.conf"
check "$tmp/one.conf"
is "$rc" 0 "one reactor and one backend: valid" || show

printf 'reactor printk\n# a comment\nreactor panic\n' >"$tmp/two.conf"
check "$tmp/two.conf"
is "$rc" 2 "two reactor lines in a file: exit 2" || show
grep -q "^$tmp/two.conf:3: a second 'reactor' line (the first is $tmp/two.conf:1; " "$tmp/err"
ok $? "... the second named by FILE:LINE, and the first" || show

printf 'backend kmod\nbackend bpf\nbackend auto\n' >"$tmp/three.conf"
check "$tmp/three.conf"
is "$rc" 2 "three backend lines: exit 2" || show
is "$(grep -c "a second 'backend' line (the first is $tmp/three.conf:1;" "$tmp/err")" 2 \
	"... the second and the third each name the first" || show

printf 'backend kmod\nbackend kmod\n' >"$tmp/same.conf"
check "$tmp/same.conf"
is "$rc" 2 "the same backend twice: refused too" || show

printf 'reactor printk\nbackend kmod\n' >"$etc/tlob.conf"
printf 'reactor panic\n' >"$etc/tlob.conf.d/10-panic.conf"
printf 'backend bpf\n' >"$etc/tlob.conf.d/20-bpf.conf"
check --dir "$etc"
is "$rc" 2 "a drop-in's second reactor and backend: exit 2" || show
grep -q "^$etc/tlob.conf.d/10-panic.conf:1: a second 'reactor' line (the first is $etc/tlob.conf:1; " "$tmp/err"
ok $? "... the drop-in's reactor names tlob.conf's" || show
grep -q "^$etc/tlob.conf.d/20-bpf.conf:1: a second 'backend' line (the first is $etc/tlob.conf:2; " "$tmp/err"
ok $? "... the drop-in's backend names tlob.conf's" || show

printf 'reactor printk panic\nreactor printk\n' >"$tmp/bad-first.conf"
check "$tmp/bad-first.conf"
is "$rc" 2 "a malformed first reactor line: exit 2" || show
is "$(grep -c "^$tmp/bad-first.conf:" "$tmp/err")" 1 "... only it is reported: it set nothing" || show

# apply's state file is read by the same code: restore-* once too.
mkdir "$tmp/ctl"
printf 'backend kmod\nrestore-reactor nop\nrestore-reactor printk\nrestore-enable 0\nrestore-enable 0\n' >"$tmp/apply.state"
"$TLOB" apply --remove --state "$tmp/apply.state" --backend kmod --root "$tmp/ctl" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] && grep -q "^$tmp/apply.state:3: a second 'restore-reactor' line (the first is $tmp/apply.state:2; " "$tmp/err" &&
	grep -q "^$tmp/apply.state:5: a second 'restore-enable' line (the first is $tmp/apply.state:4; " "$tmp/err"
ok $? "a state file's second restore-reactor and restore-enable: refused, both named" || show

tap_done
