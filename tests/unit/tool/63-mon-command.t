#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob mon ... -- CMD [ARGS]: the command runs in the process the sections
# are narrowed to, the session ends when it does (the fake backend sleeps
# as the real ones do, so only the command's SIGCHLD can end the wait),
# tlob exits with its status unless a violation stopped the session, a
# command tlob stops gets SIGTERM, then SIGKILL, and the command line is
# refused where it names two processes or nothing to watch (mon_drv.c,
# lib/workload.c).
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/mon_drv
APP=$BUILD/tests/unit/tool/fixtures/app
S="$APP:frame_begin,frame_end,5us"

# run DRIVER-ARGS... -- MON-ARGS...: out, err, rc (tlob's exit: the
# session's, or the parser's own exit for what it refuses), secs
run() {
	t0=$(date +%s%N)
	timeout 30 "$DRV" "$@" >"$tmp/out" 2>"$tmp/err"
	prc=$?
	secs=$((($(date +%s%N) - t0) / 1000000000))
	rc=$(sed -n 's/^exit //p' "$tmp/out")
	[ -n "$rc" ] || rc=$prc
}
# want RC NAME: rc, or the output as diagnostics
want() {
	[ "${rc:-none}" = "$1" ]
	ok $? "$2" || { echo "#   exit ${rc:-none} (want $1)"; sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
}

run -W 1 -V oo -- -b "$S" -- sh -c "echo \$\$ >$tmp/pid; sleep 0.2; exit 7"
want 7 "the session ends when the command does, with its exit status"
narrowed=$(sed -n 's/.*narrowed to tgid //p' "$tmp/out")
is "$(cat "$tmp/pid" 2>/dev/null)" "$narrowed" "the sections are narrowed to the process that runs the command"
[ "$secs" -lt 10 ]
ok $? "... at once, not after a poll's timeout (${secs}s)"
is "$(grep -c '^window ok' "$tmp/out")" 2 "... and every record before its end is printed"
grep -q "^tlob: sh exited with status 7$" "$tmp/err"
ok $? "... which tlob says on stderr"

run -W 1 -- -b "$S" -- sh -c 'kill -9 $$'
want 137 "a command killed by a signal: 128 + the signal"

run -W 1 -- -b "$S" -- "$tmp/no-such-command"
want 127 "a command that does not exist: 127, as a shell's"
grep -q "cannot run $tmp/no-such-command: No such file or directory" "$tmp/err"
ok $? "... with the reason"
run -W 1 -- -b "$S" -- "$tmp/no
such"
is "$(grep -c '^such' "$tmp/err") $(grep -c 'cannot run .*no\\x0asuch: No such file' "$tmp/err")" "0 1" \
	"a command name with a newline is shown escaped, on one line"
printf 'not a program\n' >"$tmp/data"
chmod 644 "$tmp/data"
run -W 1 -- -b "$S" -- "$tmp/data"
want 126 "a command that cannot be run: 126"

run -W 1 -V oov -- --stop-on-violation -b "$S" -- sh -c "echo \$\$ >$tmp/pid; exec sleep 30"
want 3 "--stop-on-violation stops the session: 3, not the command's status"
[ "$secs" -lt 10 ] && ! kill -0 "$(cat "$tmp/pid")" 2>/dev/null
ok $? "... and the command is ended with it (${secs}s)"

run -W 1 -- -d 100ms -b "$S" -- sleep 30
want 143 "-d ends a longer command: it gets SIGTERM (143)"

run -W 1 -- -d 100ms -b "$S" -- perl -e '$SIG{TERM} = "IGNORE"; sleep 30'
want 137 "a command that ignores SIGTERM gets SIGKILL after the grace"
[ "$secs" -lt 10 ]
ok $? "... 2 s later, not at its own end (${secs}s)"

run -W 1 -- --json -b "$S" -- echo -d hello
want 0 "what follows -- is the command's: tlob takes no -d from it"
! grep -q hello "$tmp/out" && grep -q "^-d hello$" "$tmp/err"
ok $? "with --json the command's stdout goes to stderr: the stream stays JSON"
run -W 1 -- -b "$S" -- echo -d hello
grep -q "^-d hello$" "$tmp/out"
ok $? "without --json the command's stdout is tlob's"

run -- -p 1 -b "$S" -- true
want 2 "-p and a command: a usage error"
run -- -b "$S" --
want 2 "-- with no command after it: a usage error"
run -- -- true
want 2 "a command and no section to watch in it: a usage error"
run -- -b "p $APP:$(sym_off "$APP" frame_begin) $(sym_off "$APP" frame_end) threshold=5000 tgid=1" -- true
want 2 "a command and a section narrowed to another process: a usage error"
run -- -d 100ms -b "$S" stray
want 2 "an operand without -- is still refused"
tap_done
