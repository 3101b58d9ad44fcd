#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# user/systemd/tlob.service: systemd-analyze verify accepts it without a
# word (a misspelt key is only a warning, so any output fails), on a copy
# whose unqualified "tlob" is the tool just built (verify checks that every
# command exists); negative controls show verify can fail here. Its start
# and stop commands, read from the unit, work against a control tree of
# files (the guest's 27-tool-unit.t runs them on the kernel).
. "$(dirname "$0")/tap.sh"

UNIT=$top/user/systemd/tlob.service
if ! command -v systemd-analyze >/dev/null; then
	echo "Bail out! systemd-analyze is not installed (the systemd package, .ci/packages)"
	exit 255
fi
mkdir "$tmp/units"
# copy NAME SED...: the unit with tlob's path, then the edits, as $tmp/units/NAME
copy() {
	name=$1
	shift
	sed -e "s|^\(Exec[A-Za-z]*=[-@:+!]*\)tlob |\1$TLOB |" "$@" "$UNIT" >"$tmp/units/$name"
}
verify() {
	systemd-analyze verify --man=no "$tmp/units/$1" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && [ ! -s "$tmp/out" ]
}

copy tlob.service
verify tlob.service
ok $? "systemd-analyze verify accepts the unit, silently" || sed 's/^/#   /' "$tmp/out"
copy typo.service -e 's/^RemainAfterExit=/RemainAfterExti=/'
if verify typo.service; then ok 1 "negative: a misspelt key fails"; else ok 0 "negative: a misspelt key fails"; fi
grep -q "Unknown key 'RemainAfterExti'" "$tmp/out"
ok $? "... verify says which" || sed 's/^/#   /' "$tmp/out"
copy nocmd.service -e "s|^ExecStop=$TLOB|ExecStop=$tmp/no-such-tlob|"
if verify nocmd.service; then ok 1 "negative: a command that is not there fails"; else ok 0 "negative: a command that is not there fails"; fi
copy type.service -e 's/^Type=oneshot/Type=oneshut/'
if verify type.service; then ok 1 "negative: a bad Type= fails"; else ok 0 "negative: a bad Type= fails"; fi

# key NAME: the value of NAME= in the unit (the last, as systemd takes it)
key() { sed -n "s/^$1=//p" "$UNIT" | tail -n 1; }
is "$(key Type)" oneshot "Type=oneshot"
is "$(key RemainAfterExit)" yes "RemainAfterExit=yes: active while the configuration is applied"
is "$(key ConditionPathExists)" /etc/tlob/tlob.conf "starts only where there is a configuration"
is "$(key ExecStartPre)" "-/sbin/modprobe -q tlob" "loads the module, going on without it (BPF-only systems)"
key After | grep -qw local-fs.target
ok $? "After=local-fs.target"
key Before | grep -qw shutdown.target && [ "$(key Conflicts)" = shutdown.target ]
ok $? "stops for shutdown (no default dependencies)"

# The unit's own commands, against a control tree of files.
if [ "$(id -u)" != 0 ]; then
	n=$((n + 1)); echo "ok $n # skip the commands need root"
	tap_done
	exit
fi
APP=$BUILD/tests/unit/tool/fixtures/app
root=$tmp/ctl
mkdir -p "$root" "$tmp/etc"
: >"$root/monitor"
: >"$root/stats"
echo 0 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"
echo "section $APP:frame_begin,frame_end,10ms,tag=unit" >"$tmp/etc/tlob.conf"
start=$(key ExecStart)
stop=$(key ExecStop)
where="--backend kmod --root $root --state $tmp/apply.state"
# run COMMAND ARGS...: as systemd would, found in PATH (the tool just built first)
run() { (PATH=$BUILD/user:$PATH; export PATH; "$@") >"$tmp/out" 2>&1; }
# shellcheck disable=SC2086
run $start --dir "$tmp/etc" $where
ok $? "ExecStart ($start) applies the configuration" || sed 's/^/#   /' "$tmp/out"
grep -q "threshold=10000000 tag=unit" "$root/monitor" && [ "$(cat "$root/enable")" = 1 ]
ok $? "... the section bound, the monitor enabled"
echo "p $APP:$(sym_off "$APP" frame_begin) $(sym_off "$APP" frame_end) threshold=10000000 tag=unit" >"$root/monitor"
# shellcheck disable=SC2086
run $stop $where
ok $? "ExecStop ($stop) removes it" || sed 's/^/#   /' "$tmp/out"
grep -q "^-$APP:" "$root/monitor" && [ "$(cat "$root/enable")" = 0 ] && [ ! -e "$tmp/apply.state" ]
ok $? "... the removal written, the monitor disabled, no state left"

tap_done
