#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tool's command line: malformed arguments exit 2 with exactly one
# line on stderr; errors found on the system (not ELF, no symbol, not
# root, no backend) exit 1 with a sentence a person understands.
. "$(dirname "$0")/tap.sh"

gcc -O0 -fPIE -pie -o "$tmp/app" "$(dirname "$0")/fixtures/app.c" || { echo "Bail out! gcc"; exit 255; }
printf 'not elf' >"$tmp/text"
app=$tmp/app
nodir=$tmp/no-such-dir

expect 2 'usage\|unknown command' "unknown command" -- frobnicate
expect 2 "unknown option '--bogus'" "unknown option" -- mon --bogus
expect 2 "option '-b' needs an argument" "missing option argument" -- mon -b
expect 2 "unexpected argument 'extra'" "stray argument" -- mon extra
expect 2 "option --bind does not apply" "option of another command" -- list -b "$app:frame_begin,ret,1ms"
expect 2 "invalid backend 'xyz'" "invalid backend" -- mon --backend xyz
expect 2 "duration '0' is out of range (1ns..365d)" "zero duration" -- mon -d 0
expect 2 "invalid duration '3parsecs'" "bad duration unit" -- mon -d 3parsecs
expect 2 "invalid pid 'abc'" "bad pid" -- mon -p abc
expect 2 "invalid buffer size '0'" "zero buffer size" -- mon --buffer-size 0
expect 2 "invalid buffer size '-4'" "negative buffer size" -- mon --buffer-size -4
expect 2 "option --buffer-size does not apply" "buffer size is mon's" -- stats --buffer-size 64
expect 2 "--flush '11s' is out of range (0..10s" "flush interval above 10s" -- mon --flush 11s
expect 2 "invalid --flush 'soon'" "flush interval not a duration" -- mon --flush soon
expect 2 "option --flush does not apply" "flush is mon's" -- stats --flush 1s
expect 2 "budget '500ns' is out of range (1us..1h)" "budget below 1us" -- mon -b "$app:frame_begin,frame_end,500ns"
expect 2 "budget '3601s' is out of range (1us..1h)" "budget above 1h" -- mon -b "$app:frame_begin,frame_end,3601s"
expect 2 "invalid budget '10xs'" "budget with a bad unit" -- mon -b "$app:frame_begin,frame_end,10xs"
expect 2 "needs START, STOP and BUDGET" "section without budget" -- mon -b "$app:frame_begin,frame_end"
expect 2 "expected PATH:START,STOP,BUDGET" "section without colon" -- mon -b "frame_begin,frame_end,1ms"
expect 2 "'color': after BUDGET come min=MIN, tolerance=K/W and tag=NAME" "bad 4th field" -- mon -b "$app:frame_begin,frame_end,1ms,color"
expect 2 "'tag=b': after BUDGET come min=MIN, tolerance=K/W and tag=NAME (1..15 characters), each once" "tag= twice" -- mon -b "$app:frame_begin,frame_end,1ms,tag=a,tag=b"
expect 2 "too many fields" "a 7th field" -- mon -b "$app:frame_begin,frame_end,1ms,min=1us,tolerance=1/2,tag=a,x"
expect 2 "tolerance=4/3 is out of range (K/W: 1 <= K <= W <= 64)" "tolerance= K above W" -- mon -b "$app:frame_begin,frame_end,1ms,tolerance=4/3"
expect 2 "tolerance=3/65 is out of range (K/W: 1 <= K <= W <= 64)" "tolerance= W above 64" -- mon -b "$app:frame_begin,frame_end,1ms,tolerance=3/65"
expect 2 "tolerance=3: expected K/W, K violations of the last W windows (e.g. 3/10)" "tolerance= without /W" -- mon -b "$app:frame_begin,frame_end,1ms,tolerance=3"
expect 2 "'tolerance=2/3': after BUDGET come min=MIN, tolerance=K/W and tag=NAME" "tolerance= twice" -- mon -b "$app:frame_begin,frame_end,1ms,tolerance=1/2,tolerance=2/3"
expect 2 "tolerance 0/4 is out of range (K/W: 1 <= K <= W <= 64)" "raw line: tolerance=0/4" -- mon -b "p $app:0x10 0x20 threshold=10000 tolerance=0/4"
expect 2 "invalid tolerance '2/x' (K/W: K violations of the last W windows)" "raw line: tolerance=2/x" -- mon -b "p $app:0x10 0x20 threshold=10000 tolerance=2/x"
expect 2 "min=10ms is not below the budget 10ms" "min= equal to the budget" -- mon -b "$app:frame_begin,frame_end,10ms,min=10ms"
expect 2 "min=20ms is not below the budget 10ms" "min= above the budget, after tag=" -- mon -b "$app:frame_begin,frame_end,10ms,tag=a,min=20ms"
expect 2 "min '500ns' is out of range (1us..1h)" "min= below 1us" -- mon -b "$app:frame_begin,frame_end,10ms,min=500ns"
expect 2 "invalid min 'soon' (a number with ns, us, ms, s, m, h or d" "min= not a duration" -- mon -b "$app:frame_begin,frame_end,10ms,min=soon"
expect 2 "min 10000ns is out of range (above 0, below threshold=)" "raw line: min= equal to the threshold" -- mon -b "p $app:0x10 0x20 threshold=10000 min=10000"
expect 2 "min 0ns is out of range" "raw line: min=0" -- mon -b "p $app:0x10 0x20 threshold=10000 min=0"
expect 2 "invalid min 'x'" "raw line: min= not a number" -- mon -b "p $app:0x10 0x20 threshold=10000 min=x"
expect 2 "unexpected 'min' in monitor line (threshold=, min=, tolerance=, tag=, pid= or tgid=, each once)" "raw line: min= twice" -- mon -b "p $app:0x10 0x20 threshold=10000 min=4 min=5"
expect 2 "invalid tag 'x tgid=1': a tag is 1..15 characters of A-Z a-z 0-9 _ . -" "a tag with a space (would be a tgid filter in the module)" -- mon -b "$app:frame_begin,frame_end,10ms,tag=x tgid=1"
expect 2 "invalid tag 'a/b'" "a tag outside the set" -- bind -b "$app:frame_begin,frame_end,10ms,tag=a/b"
expect 2 "invalid tag 'a\\\\x01b'" "a tag with a control byte, shown escaped" -- mon -b "$app:frame_begin,frame_end,10ms,tag=a$(printf '\001')b"
expect 2 "invalid tag 'a/b'" "raw line: a tag outside the set" -- mon -b "p $app:0x10 0x20 threshold=5000 tag=a/b"
expect 2 "tlob cannot bind a path with whitespace or control characters" "raw line: a control byte in the path" -- mon -b "p /a$(printf '\033')b:0x10 0x20 threshold=5000"
expect 2 "same place" "START == STOP" -- mon -b "$app:frame_begin,frame_begin,1ms"
expect 2 "threshold 999ns is out of range" "raw line with threshold below 1us" -- mon -b "p $app:0x10 0x20 threshold=999"
expect 2 "missing STOP" "raw line without STOP" -- mon -b "p $app:0x10 threshold=5000"
expect 2 "needs START, STOP and BUDGET" "mon: PATH:START alone is no section" -- mon -b "$app:frame_begin"
expect 1 "$nodir/monitor does not exist" "unbind: PATH:START names a binding" -- unbind --backend kmod --root "$nodir" -b "$app:frame_begin"
expect 1 "symbol 'frame_begn' not found" "unbind: PATH:START resolves the symbol" -- unbind --backend kmod --root "$nodir" -b "$app:frame_begn"
# Alive supervision: PATH:CHECKPOINT,alive=PERIOD,expect=N[,...] and the
# module's `a` line; the terms are checked before the file is looked at.
expect 2 "an alive binding needs expect=N: expected PATH:CHECKPOINT,alive=PERIOD,expect=N" "alive: no expect=" -- mon -b "$app:frame_begin,alive=100ms"
expect 2 "period '50us' is out of range (100us..1h)" "alive: a period below 100us" -- mon -b "$app:frame_begin,alive=50us,expect=3"
expect 2 "period '3601s' is out of range (100us..1h)" "alive: a period above 1h" -- mon -b "$app:frame_begin,alive=3601s,expect=3"
expect 2 "invalid period 'soon' (a number with ns, us, ms, s, m, h or d, e.g. 10ms; a bare number is ns)" "alive: a period that is no duration" -- mon -b "$app:frame_begin,alive=soon,expect=3"
expect 2 "invalid expect '0' (checkpoints per period, 1..1000000)" "alive: expect=0" -- mon -b "$app:frame_begin,alive=100ms,expect=0"
expect 2 "invalid expect '1000001'" "alive: expect above 1000000" -- mon -b "$app:frame_begin,alive=100ms,expect=1000001"
expect 2 "invalid expect 'ten'" "alive: expect not a number" -- mon -b "$app:frame_begin,alive=100ms,expect=ten"
expect 2 "invalid margin '4' (checkpoints the count may be off by, 0..expect=)" "alive: margin above expect" -- mon -b "$app:frame_begin,alive=100ms,expect=3,margin=4"
expect 2 "invalid margin '1 0' (no whitespace or control characters)" "alive: a blank in a value (would be a term of its own)" -- mon -b "$app:frame_begin,alive=100ms,expect=3,margin=1 0"
expect 2 "invalid per 'thread' (process or task)" "alive: per= neither process nor task" -- mon -b "$app:frame_begin,alive=100ms,expect=3,per=thread"
expect 2 "tolerance 4/3 is out of range (K/W: 1 <= K <= W <= 64)" "alive: tolerance= K above W" -- mon -b "$app:frame_begin,alive=100ms,expect=3,tolerance=4/3"
expect 2 "invalid tag 'x tgid=1': a tag is 1..15 characters" "alive: a tag with a space" -- mon -b "$app:frame_begin,alive=100ms,expect=3,tag=x tgid=1"
expect 2 "'expect=4': after CHECKPOINT come alive=PERIOD, expect=N, margin=M, per=process|task, tolerance=K/W and tag=NAME (1..15 characters), each once" "alive: expect= twice" -- mon -b "$app:frame_begin,alive=100ms,expect=3,expect=4"
expect 2 "'min=1ms': after CHECKPOINT come alive=PERIOD" "alive: a section's term" -- mon -b "$app:frame_begin,alive=100ms,expect=3,min=1ms"
expect 2 "'tgid=5': after CHECKPOINT come alive=PERIOD" "alive: no filter in the friendly form (-p)" -- mon -b "$app:frame_begin,alive=100ms,expect=3,tgid=5"
expect 2 "alive binding has too many fields" "alive: an 8th field" -- mon -b "$app:frame_begin,alive=100ms,expect=3,margin=1,per=task,tolerance=1/2,tag=a,x"
expect 2 "'frame_end': after CHECKPOINT come alive=PERIOD" "alive: a STOP is no term of a checkpoint" -- mon -b "$app:frame_begin,frame_end,alive=100ms,expect=3"
expect 1 "symbol 'frame_begn' not found in $app; closest: frame_begin" "alive: the checkpoint's symbol is resolved" -- mon -b "$app:frame_begn,alive=100ms,expect=3"
expect 1 "cannot open $tmp/nope" "alive: a missing file" -- mon -b "$tmp/nope:main,alive=100ms,expect=3"
expect 2 "missing expect=N: 'a $app:0x10 period=100000'" "raw alive line without expect=" -- mon -b "a $app:0x10 period=100000"
expect 2 "period 99999ns is out of range (100us..1h)" "raw alive line with a period below 100us" -- mon -b "a $app:0x10 period=99999 expect=1"
expect 2 "unexpected 'threshold' in monitor line (period=, expect=, margin=, per=, tolerance=, tag=, pid= or tgid=, each once)" "raw alive line with a section's term" -- mon -b "a $app:0x10 period=100000 expect=1 threshold=5000"
expect 2 "expected an absolute PATH:CHECKPOINT after 'a '" "raw alive line with a relative path" -- mon -b "a app:0x10 period=100000 expect=1"
expect 1 "offset 0x1" "raw alive line: its checkpoint is checked as any offset" -- mon -b "a $app:0x1 period=100000 expect=1"
expect 1 "$nodir/monitor does not exist" "alive: a good binding passes the checks" -- mon --backend kmod --root "$nodir" -b "$app:frame_begin,alive=100ms,expect=10,margin=2,per=task,tolerance=2/5,tag=hb"
expect 1 "$nodir/monitor does not exist" "alive: its raw line too" -- mon --backend kmod --root "$nodir" -b "a $app:$(sym_off "$app" frame_begin) period=100000000 expect=10"
expect 2 "give at least one -b" "bind without -b" -- bind
expect 2 "exclude each other" "unbind -a with -b" -- unbind -a -b "$app:frame_begin,ret,1ms"
expect 2 "give -b SECTION or --all" "unbind without target" -- unbind

expect 1 "$tmp/text: not an ELF file" "not an ELF file" -- mon -b "$tmp/text:main,ret,1ms"
expect 1 "symbol 'frame_begn' not found in $app; closest: frame_begin" "symbol not found, closest name" -- mon -b "$app:frame_begn,frame_end,1ms"
expect 1 "cannot open $tmp/nope" "missing file" -- mon -b "$tmp/nope:main,ret,1ms"
mkdir "$tmp/with space" && cp "$app" "$tmp/with space/app"
expect 1 "tlob cannot bind a path with whitespace or control characters in it (use a symlink without them)" "path with whitespace" -- mon -b "$tmp/with space/app:frame_begin,ret,1ms"
ctl=$(printf 'ctl\001x')
mkdir "$tmp/$ctl" && cp "$app" "$tmp/$ctl/app"
expect 1 "'$tmp/ctl\\\\x01x/app': tlob cannot bind a path with whitespace or control" "path with a control byte, shown escaped" -- bind -b "$tmp/$ctl/app:frame_begin,ret,1ms"
ln -s "$tmp/with space/app" "$tmp/link"
expect 1 "$nodir/monitor does not exist" "a symlink to it passes" -- mon --backend kmod --root "$nodir" -b "$tmp/link:frame_begin,ret,1ms"
(cd "$tmp" && "$TLOB" bind --backend kmod --root "$nodir" -b "app:frame_begin,ret,1ms" 2>&1 | grep -q "$nodir/monitor does not exist")
ok $? "a relative path passes"
expect 1 "$nodir/monitor does not exist" "kmod backend without its control tree" -- mon --backend kmod --root "$nodir" -b "$app:frame_begin,ret,1ms"
if "$TLOB" list --root "$nodir" 2>/dev/null | grep -q '^bpf  *yes'; then
	n=$((n + 1)); echo "ok $n # skip the BPF backend is usable on this machine"
else
	expect 1 "no backend usable: kmod: $nodir/monitor does not exist; bpf: " "auto: neither backend, both reasons" -- status --root "$nodir" --backend auto
fi
# A long path is shortened in the middle of a message, never its reason.
long=$tmp
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do long=$long/$(printf 'd%.0s' $(seq 200))$i; done
mkdir -p "$long" && cp "$app" "$long/app" && printf 'not elf' >"$long/text"
# expect_short ...: as expect, and the line is short, with "..." in it
expect_short() {
	expect "$@"
	[ "$(wc -c <"$tmp/err")" -lt 400 ] && grep -q '\.\.\.' "$tmp/err"
	ok $? "... with the path shortened in the middle" || sed 's/^/#   /' "$tmp/err"
}
expect_short 1 "/app: No such file or directory$" "a long missing path keeps the reason" -- mon -b "$long/nope/app:main,ret,1ms"
expect_short 1 "$tmp/d.*\.\.\..*d12/text: not an ELF file$" "a long path that is no ELF file keeps the reason" -- mon -b "$long/text:main,ret,1ms"
expect_short 1 "not found in $tmp/d.*\.\.\..*/app; closest: frame_begin" "a misspelt symbol in a long path keeps the suggestion" -- mon -b "$long/app:frame_begn,ret,1ms"
expect_short 1 "/monitor does not exist$" "a long --root keeps the reason" -- status --backend kmod --root "$long/nodir"
TLOB_BACKEND=nope expect 2 "invalid backend 'nope'" "invalid TLOB_BACKEND" -- status
TLOB_BACKEND=kmod expect 1 "$nodir/monitor does not exist" "TLOB_BACKEND picks the backend" -- stats --root "$nodir"

if command -v setpriv >/dev/null; then
	# (a command that changes state: status and stats only read, 54-read-only-user.t)
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TLOB" unbind --all >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q "'tlob unbind' needs root" "$tmp/err"
	ok $? "not root: unbind exits 1, says it needs root"
else
	n=$((n + 1)); echo "ok $n # skip setpriv missing"
fi

"$TLOB" mon -h >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q 'usage: tlob mon' "$tmp/out" && grep -q 'stop-on-violation' "$tmp/out"
ok $? "mon -h prints the usage on stdout, exit 0"
# Every command's -h lists the options every command takes, and each
# parses (-h and --version end the parsing, so they are tried alone).
want_version=$(sed -n 's/^#define TLOB_VERSION "\(.*\)"$/tlob \1/p' "$BUILD/user/version.h")
for cmd in list mon bind unbind status stats; do
	"$TLOB" $cmd -h >"$tmp/out" 2>"$tmp/err"
	rc=$?
	miss=
	for o in '--backend kmod|bpf|auto' '--root DIR' '-j, --json' '-h, --help' '--version'; do
		grep -q -- "^  .*$o  " "$tmp/out" || miss="$miss '$o'"
	done
	[ "$rc" -eq 0 ] && [ -z "$miss" ]
	ok $? "$cmd -h lists the common options${miss:+ (missing:$miss)}"
	"$TLOB" $cmd --backend kmod --root "$nodir" -j --version >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "$want_version" ] && [ ! -s "$tmp/err" ]
	ok $? "$cmd --version prints '$want_version' (with --backend, --root and -j given)" ||
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
done
"$TLOB" --version >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "$want_version" ] && [ -n "$want_version" ]
ok $? "tlob --version: one line, from the build's TLOB_VERSION"
"$TLOB" -h >"$tmp/out" 2>&1
grep -q -- '--backend kmod|bpf|auto' "$tmp/out" && grep -q -- '--version' "$tmp/out"
ok $? "tlob -h lists what every command takes"

"$TLOB" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q 'usage: tlob COMMAND' "$tmp/out"
ok $? "no command: usage, exit 2"

# tlob help [COMMAND] is tlob [COMMAND] -h, and -V is --version, everywhere.
"$TLOB" -h >"$tmp/want" 2>&1
"$TLOB" help >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" && [ ! -s "$tmp/err" ]
ok $? "tlob help: what tlob -h prints, exit 0"
for cmd in list mon bind unbind status stats apply; do
	"$TLOB" $cmd -h >"$tmp/want" 2>&1
	"$TLOB" help $cmd >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" && [ ! -s "$tmp/err" ]
	ok $? "tlob help $cmd: what tlob $cmd -h prints, exit 0"
	"$TLOB" $cmd -V >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "$want_version" ] && [ ! -s "$tmp/err" ]
	ok $? "tlob $cmd -V prints '$want_version'"
	grep -q -- "^  -V, --version  " "$tmp/want"
	ok $? "tlob $cmd -h lists -V, --version"
done
"$TLOB" -V >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "$want_version" ] && [ ! -s "$tmp/err" ]
ok $? "tlob -V prints '$want_version'"
expect 2 "help: unknown command 'frobnicate'" "tlob help of an unknown command" -- help frobnicate
expect 2 "help: unexpected argument 'x'" "tlob help takes one command at most" -- help mon x

tap_done
