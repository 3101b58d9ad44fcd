#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Colour in tlob mon's text on the fake backend (mon_drv.c), and in tlob
# status' and tlob list's against a control tree of plain files (--root): --color=always
# marks each record's leading word (and a diagnosis' where: state) with
# its SGR escape and a reset, --color=never and the default on a pipe or
# a file mark nothing; auto colours a terminal (script(1)'s pseudo-
# terminal) unless NO_COLOR is set and not empty or TERM is dumb, and
# --color=always wins over NO_COLOR; -o FILE is not a terminal; JSON is
# the same bytes whatever --color says.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/mon.sh"
need_root
E=$(printf '\033')
RED="$E\[1;31m" GREEN="$E\[32m" YELLOW="$E\[33m" DIM="$E\[2m" BOLD="$E\[1m" RESET="$E\[0m"
# every record mon_drv knows how to fake: ok, violation (and its
# diagnosis), dropped, a window over budget, an aborted one, alive cycles
RECS=ovgdwDafr

# has NAME PATTERN: a line of $tmp/out matches PATTERN (grep -E)
has() {
	grep -Eq "$2" "$tmp/out"
	ok $? "$1" || sed 's/^/#   /' "$tmp/out" | cat -v
}
# plain NAME FILE: no escape anywhere in FILE
plain() {
	! grep -q "$E" "$2"
	ok $? "$1" || cat -v "$2" | sed 's/^/#   /'
}

run -V $RECS -- --color=always -d 100ms -b "$S"
expect 0 "--color=always: the session runs"
has "... VIOLATION in bold red, reset after it" "^${RED}VIOLATION${RESET} +fakeapp-"
has "... window ok in green" "^${GREEN}window ok${RESET} +fakeapp-"
has "... DROPPED in yellow" "^${YELLOW}DROPPED${RESET} +fakeapp-"
has "... window OVER in bold red" "^${RED}window OVER${RESET} +fakeapp-"
has "... window aborted dim" "^${DIM}window aborted${RESET} +fakeapp-"
has "... a diagnosis' where: state in bold" "^  where: ${BOLD}[a-z_]+${RESET}, "
has "... ALIVE TOO FEW in bold red" "^${RED}ALIVE TOO FEW${RESET} +fakeapp-"
has "... alive ok in green" "^${GREEN}alive ok${RESET} +fakeapp-"
has "... a LOGIC violation in bold red" "^${RED}LOGIC [A-Z]+${RESET} +pid="
# the columns stay where they were: the padding is outside the colour
sed "s/$E\[[0-9;]*m//g" "$tmp/out" >"$tmp/stripped"
run -V $RECS -- --color=never -d 100ms -b "$S"
expect 0 "--color=never: the session runs"
plain "... no escape" "$tmp/out"
# the pids aside: two processes
nopids() { sed -E 's/fakeapp-[0-9]+/fakeapp-PID/; s/(pid|tgid)=[0-9]+/\1=N/g' "$1"; }
nopids "$tmp/stripped" >"$tmp/a"
nopids "$tmp/out" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b"
ok $? "... the same text as --color=always without its escapes" || diff "$tmp/a" "$tmp/b" | sed 's/^/#   /'

run -V $RECS -- -d 100ms -b "$S"
expect 0 "no --color, stdout not a terminal: the session runs"
plain "... no escape (auto)" "$tmp/out"
NO_COLOR=1 run -V ov -- --color=always -d 100ms -b "$S"
has "NO_COLOR=1 --color=always: the explicit choice wins" "^${RED}VIOLATION${RESET}"

timeout 30 "$DRV" -V ov -- --color=bogus -d 100ms -b "$S" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "--color=bogus: usage error"
grep -q "^tlob: mon: invalid --color 'bogus' (auto, always or never)$" "$tmp/err"
ok $? "... saying which values" || sed 's/^/#   /' "$tmp/err"

# onterm ENV... -- MON-ARGS...: mon_drv on a pseudo-terminal (script), its
# stdout in $tmp/out
onterm() {
	envs=
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	# shellcheck disable=SC2086
	env $envs script -qec "$DRV -V ov -- $* -d 100ms -b $S" /dev/null >"$tmp/out" 2>&1 </dev/null
}
onterm TERM=xterm -- ""
has "a terminal, auto: colour" "^${RED}VIOLATION${RESET}"
onterm TERM=xterm -- --color=auto
has "... --color=auto the same" "^${GREEN}window ok${RESET}"
onterm TERM=xterm NO_COLOR=1 -- ""
grep -q '^VIOLATION' "$tmp/out" && plain "a terminal with NO_COLOR=1: no colour" "$tmp/out" ||
	ok 1 "a terminal with NO_COLOR=1: no colour"
onterm TERM=xterm NO_COLOR= -- ""
has "... NO_COLOR set but empty: colour" "^${RED}VIOLATION${RESET}"
onterm TERM=xterm NO_COLOR=1 -- --color=always
has "... NO_COLOR=1 --color=always: colour" "^${RED}VIOLATION${RESET}"
onterm TERM=dumb -- ""
grep -q '^VIOLATION' "$tmp/out" && plain "a terminal with TERM=dumb: no colour" "$tmp/out" ||
	ok 1 "a terminal with TERM=dumb: no colour"
onterm TERM=xterm -- --color=never
grep -q '^VIOLATION' "$tmp/out" && plain "a terminal, --color=never: no colour" "$tmp/out" ||
	ok 1 "a terminal, --color=never: no colour"
rm -f "$tmp/stream"
onterm TERM=xterm -- -o "$tmp/stream"
grep -q '^VIOLATION' "$tmp/stream" && plain "a terminal, -o FILE: no colour in FILE (auto)" "$tmp/stream" ||
	ok 1 "a terminal, -o FILE: no colour in FILE (auto)"
onterm TERM=xterm -- -j
grep -q '"kind_name":"violation"' "$tmp/out" && plain "a terminal, -j: no colour in JSON" "$tmp/out" ||
	ok 1 "a terminal, -j: no colour in JSON"

# JSON the same bytes whatever --color says (the pids and the stack's
# addresses aside: two processes)
json() {
	run -V $RECS -- -j "$1" -d 100ms -b "$S"
	[ "$rc" = 0 ] && grep -q '"kind_name":"violation"' "$tmp/out" || return 1
	sed -E 's/"(pid|tgid)":[0-9]+/"\1":N/g; s/"ip":"0x[0-9a-f]+"/"ip":N/g' "$tmp/out" >"$tmp/$2"
	grep -q "$E" "$tmp/out" && return 1
	return 0
}
json --color=always json.always && json --color=never json.never && cmp -s "$tmp/json.always" "$tmp/json.never"
ok $? "-j: --color=always and --color=never write the same JSON" ||
	diff "$tmp/json.always" "$tmp/json.never" 2>&1 | sed 's/^/#   /'

# tlob status: enabled yes/no
root=$tmp/ctl
mkdir "$root"
: >"$root/monitor"
: >"$root/stats"
echo 1 >"$root/enable"
echo '[nop] printk' >"$root/reactors"
"$TLOB" status --backend kmod --root "$root" --color=always >"$tmp/out" 2>&1
has "status --color=always: enabled yes in green" "^enabled: ${GREEN}yes${RESET}$"
echo 0 >"$root/enable"
"$TLOB" status --backend kmod --root "$root" --color=always >"$tmp/out" 2>&1
has "... enabled no in red" "^enabled: ${RED}no${RESET}$"
"$TLOB" status --backend kmod --root "$root" >"$tmp/out" 2>&1
grep -q '^enabled: no$' "$tmp/out" && plain "status on a pipe: no colour" "$tmp/out" ||
	ok 1 "status on a pipe: no colour"
TERM=xterm script -qec "$TLOB status --backend kmod --root $root" /dev/null >"$tmp/out" 2>&1 </dev/null
has "status on a terminal: colour" "^enabled: ${RED}no${RESET}"
"$TLOB" status -j --backend kmod --root "$root" --color=always >"$tmp/a" 2>&1
"$TLOB" status -j --backend kmod --root "$root" --color=never >"$tmp/b" 2>&1
grep -q '"enabled":false' "$tmp/a" && cmp -s "$tmp/a" "$tmp/b"
ok $? "status -j: the same JSON with --color=always and never"

# tlob list: usable yes/no, the columns where they were
"$TLOB" list --backend kmod --root "$root" --color=always >"$tmp/out" 2>&1
has "list --color=always: usable yes in green, padded after the reset" "^kmod   ${GREEN}yes${RESET}    \[OFF\] "
"$TLOB" list --backend kmod --root "$tmp/none" --color=always >"$tmp/out" 2>&1
has "... no in red" "^kmod   ${RED}no${RESET}     - "
"$TLOB" list --backend kmod --root "$root" >"$tmp/out" 2>&1
grep -q '^kmod   yes    \[OFF\] ' "$tmp/out" && plain "list on a pipe: no colour" "$tmp/out" ||
	ok 1 "list on a pipe: no colour"
NO_COLOR=1 TERM=xterm script -qec "$TLOB list --backend kmod --root $root" /dev/null >"$tmp/out" 2>&1 </dev/null
grep -q '^kmod   yes    \[OFF\] ' "$tmp/out" && plain "list on a terminal with NO_COLOR=1: no colour" "$tmp/out" ||
	ok 1 "list on a terminal with NO_COLOR=1: no colour"
tap_done
