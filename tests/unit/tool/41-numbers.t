#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The command line's numbers, lists and filters under hostile input: a
# number that would wrap, blanks or a sign before it, an empty field of a
# section, a -p that contradicts the line's own filter, the tag a listing
# shows for "no tag". Each is a usage error (exit 2, one line naming the
# text); what is right passes the checks and reaches the backend (exit 1:
# no control tree at --root).
. "$(dirname "$0")/tap.sh"

app=$BUILD/tests/unit/tool/fixtures/app
nodir=$tmp/no-such-dir
fb=$(sym_off "$app" frame_begin)
fe=$(sym_off "$app" frame_end)
nl='
'

# passes NAME -- ARGS...: the arguments are taken (the kmod backend is missing)
passes() {
	name=$1
	shift 2
	expect 1 "$nodir/monitor does not exist" "$name" -- "$@" --backend kmod --root "$nodir"
}

# Numbers that do not fit are refused, not wrapped.
expect 2 "budget '18446744073.9s' is out of range (1us..1h)" "a budget above 2^64 ns" -- bind -b "$app:frame_begin,frame_end,18446744073.9s"
expect 2 "duration '213503.99d' is out of range (1ns..365d)" "a duration above 2^64 ns" -- mon -d 213503.99d
expect 2 "duration '366d' is out of range (1ns..365d)" "a duration above 365 days" -- mon -d 366d
expect 2 "interval '99999999999999999999' is out of range\|duration '99999999999999999999' is out of range" "an interval above 2^64 ns" -- stats --interval 99999999999999999999
expect 2 "invalid budget '1.0000000001s' (finer than a nanosecond)" "a budget finer than a ns" -- bind -b "$app:frame_begin,frame_end,1.0000000001s"
# ... and what is exact and in range is taken, whatever its digits.
passes "a budget of 1h (the range is inclusive)" -- bind -b "$app:frame_begin,frame_end,1h"
passes "a budget with 18 fraction digits" -- bind -b "$app:frame_begin,frame_end,0.100000000000000000s"
passes "a duration of 365d" -- mon -d 365d -b "$app:frame_begin,frame_end,10ms"

# A number is its digits: no blank, sign or newline around it.
expect 2 "invalid pid ' 7'" "-p with a leading blank" -- mon -p " 7"
expect 2 "invalid pid '+7'" "-p with a sign" -- mon -p +7
expect 2 "invalid pid '7" "-p with a trailing newline" -- mon -p "7$nl"
expect 2 "invalid pid '2147483648'" "-p above the largest pid" -- mon -p 2147483648
expect 2 "invalid buffer size ' 64'" "--buffer-size with a leading blank" -- mon --buffer-size " 64"
expect 2 "invalid buffer size '99999999999999999999'" "--buffer-size above 2^64" -- mon --buffer-size 99999999999999999999
expect 2 "invalid --bpf-tasks ' 5'" "--bpf-tasks with a leading blank" -- mon --bpf-tasks " 5"
expect 2 "invalid --bpf-tasks '65537' (1..65536)" "--bpf-tasks above its maximum" -- mon --bpf-tasks 65537
expect 2 "invalid --on-violation-limit ' 5'" "--on-violation-limit with a leading blank" -- mon --on-violation-limit " 5"
expect 2 "invalid --on-violation-limit '5/ 1s'" "--on-violation-limit's period with a blank" -- mon --on-violation-limit "5/ 1s"
expect 2 "invalid duration ' 10'" "-d with a leading blank" -- mon -d " 10"
expect 2 "--flush '11s' is out of range (0..10s" "--flush above 10s" -- mon --flush 11s
passes "--flush 0 (no batching)" -- mon --flush 0 -b "$app:frame_begin,frame_end,10ms"
passes "-p 7, --buffer-size 64, --on-violation-limit 5/10s" -- mon -p 7 --buffer-size 64 --on-violation exec=true --on-violation-limit 5/10s -b "$app:frame_begin,frame_end,10ms"

# A section's fields: none empty.
expect 2 "has an empty field" "empty fields between the ends and the budget" -- bind -b "$app:,,frame_begin,,frame_end,,10ms"
expect 2 "has an empty field" "an empty field at the end" -- bind -b "$app:frame_begin,frame_end,10ms,"
expect 2 "has an empty field" "an empty field at the start" -- bind -b "$app:,frame_begin,frame_end,10ms"
expect 2 "has an empty field" "an alive binding's empty field" -- bind -b "$app:frame_begin,,alive=100ms,expect=3"
expect 2 "tolerance=1/2.*: expected K/W" "a tolerance with a trailing newline" -- bind -b "$app:frame_begin,frame_end,10ms,tolerance=1/2$nl"
expect 2 "invalid expect '3" "an expect= with a trailing newline" -- bind -b "$app:frame_begin,alive=100ms,expect=3$nl"

# -p and the line's own filter: one, or the same.
expect 2 "-p 7 contradicts the pid=5 of $app:$fb" "-p and a line's pid=" -- bind -p 7 -b "p $app:$fb $fe threshold=10000 pid=5"
expect 2 "-p 7 contradicts the tgid=5 of $app:$fb" "-p and a line's other tgid=" -- bind -p 7 -b "p $app:$fb $fe threshold=10000 tgid=5"
expect 2 "-p 7 contradicts the pid=7 of" "-p and a line's pid= of the same number (a thread, not a process)" -- bind -p 7 -b "p $app:$fb $fe threshold=10000 pid=7"
passes "-p and a line's same tgid=" -- bind -p 7 -b "p $app:$fb $fe threshold=10000 tgid=7"

# The listing's "no tag" is no tag one can give.
expect 2 "invalid tag '-'" "tag=- in a section" -- bind -b "$app:frame_begin,frame_end,10ms,tag=-"
expect 2 "invalid tag '-'" "tag=- in an alive binding" -- bind -b "$app:frame_begin,alive=100ms,expect=3,tag=-"
expect 2 "invalid tag '-'" "tag=- in the kernel's line" -- bind -b "p $app:$fb $fe threshold=10000 tag=-"
passes "a tag with a '-' in it" -- bind -b "$app:frame_begin,frame_end,10ms,tag=a-b"

tap_done
