#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt debug
#   the loader's checks: the timer's (stock) and the sampler's (rt) kernel
# Security of the BPF backend against an unprivileged local user (nobody,
# through tlob-asuser). bpffs mounted by hand without mode= (as this
# guest's init does it) is world-writable and sticky, /tmp and this
# guest's /run too. Nobody plants, before root's tlob runs:
# - /sys/fs/bpf/tlob, its own directory, holding a flock on it;
# - /sys/fs/bpf/tlob as a symbolic link to a directory of its own;
# - /run/tlob, its own directory (where root keeps the lock and the log);
# - /tmp/tlob-bpf.log as a symbolic link to a file of root's, with a
#   failed BPF load that writes the verifier log.
# Root's tlob --backend bpf must refuse each with a clear message, in
# bounded time (every command under timeout), pin nothing
# where nobody can reach it, and leave what nobody planted as it was. A
# lock root's tlob holds makes another wait a bounded time, then say who
# holds it. No kernel warning.
. /opt/tlob/tests/lib/tap.sh

W=/opt/tlob/bin/tlob-workload
S1="$W:tlob_section_begin,tlob_section_end,10ms"
NOBODY="tlob-asuser 65534 65534"
PIN=/sys/fs/bpf/tlob
RUN=/run/tlob
OUT=/tmp/82-bpf
# every root tlob here ends in seconds; a hang ends at this bound: rc 143
# (SIGTERM), or 137 (SIGKILL 10 s later: a tlob blocks SIGTERM outside its
# waits, so one hung in flock() ignores it); coreutils' timeout: 124
TO=120
T="timeout -k 10 $TO"
mkdir -p $OUT
chmod 755 / $OUT

grep -q ' /sys/fs/bpf bpf ' /proc/mounts || skip_all "no bpffs at /sys/fs/bpf"
tlob unbind -a --backend bpf >/dev/null 2>&1
warnings() { dmesg | grep -cE 'WARNING:|BUG:|Oops|general protection'; }
w0=$(warnings)
# the case this script is about: bpffs as `mount -t bpf bpf /sys/fs/bpf` leaves it
chmod 1777 /sys/fs/bpf
is "$(stat -c %a /sys/fs/bpf)" 1777 "bpffs is world-writable and sticky (mounted without mode=)"
$NOBODY mkdir /tmp/82-probe.d
ok $? "control: nobody can make a directory in a world-writable one"
rmdir /tmp/82-probe.d

# refused NAME OUT ERR RC: root's command ended in time, failed, and said why
refused() {
	[ "$4" != 124 ] && [ "$4" != 137 ] && [ "$4" != 143 ]
	ok $? "$1: no hang (ended within ${TO} s, rc $4)"
	cmp_ok "$4" -ne 0 "$1: refused" || sed 's/^/# /' "$2" "$3"
	_why=$(grep -E "$5" "$3" | head -n 1 | cut -c1-200)
	[ -n "$_why" ]
	ok $? "$1: says why (${_why:-nothing matching: $5})" || sed 's/^/# /' "$3"
}
# fresh: whatever a part before left pinned removed (nothing, where each
# refusal holds), so that each part stands alone
fresh() { $T tlob unbind -a --backend bpf >/dev/null 2>&1; }
# bind NAME: root's tlob bind --backend bpf, bounded; its rc in $rc
bind() {
	$T tlob bind --backend bpf -b "$S1" >$OUT/$1.out 2>$OUT/$1.err
	rc=$?
}

# --- 1. a pin directory nobody made, locked by nobody --------------------------
$NOBODY mkdir $PIN
$NOBODY tlob-flock $PIN >$OUT/flock.out 2>&1 &
fl=$!
wait_line $OUT/flock.out '^locked' 30 $fl
ok $? "nobody holds a flock on its $PIN" || sed 's/^/# /' $OUT/flock.out
bind squat
refused "tlob bind with $PIN nobody's and locked" $OUT/squat.out $OUT/squat.err $rc \
	"$PIN is owned by uid 65534"
$T tlob mon --backend bpf -d 1 -b "$S1" >$OUT/squat-mon.out 2>$OUT/squat-mon.err
refused "tlob mon with $PIN nobody's and locked" $OUT/squat-mon.out $OUT/squat-mon.err $? \
	"$PIN is owned by uid 65534"
kill $fl
wait $fl 2>/dev/null
bind squat2
refused "tlob bind with $PIN nobody's, unlocked" $OUT/squat2.out $OUT/squat2.err $rc \
	"$PIN is owned by uid 65534"
is "$(ls -A $PIN | wc -l | tr -d ' ')" 0 "nothing pinned in nobody's $PIN" || ls -la $PIN | sed 's/^/# /'
is "$(stat -c '%u %a' $PIN)" "65534 755" "nobody's $PIN as it made it"
$NOBODY rmdir $PIN

fresh
# --- 2. the pin path a symbolic link to nobody's directory -----------------------
$NOBODY mkdir /sys/fs/bpf/nobodys
$NOBODY ln -s /sys/fs/bpf/nobodys $PIN 2>$OUT/ln.err || ln -s /sys/fs/bpf/nobodys $PIN
[ -L $PIN ]
ok $? "a symbolic link at $PIN to nobody's directory" || sed 's/^/# /' $OUT/ln.err
bind link
refused "tlob bind with $PIN a symbolic link" $OUT/link.out $OUT/link.err $rc \
	"$PIN is a symbolic link"
is "$(readlink $PIN)" /sys/fs/bpf/nobodys "the link left as it was"
is "$(ls -A /sys/fs/bpf/nobodys | wc -l | tr -d ' ')" 0 "nothing pinned in the directory it names"
rm -f $PIN
$NOBODY rmdir /sys/fs/bpf/nobodys

fresh
# --- 3. the run directory nobody's ----------------------------------------------
rm -rf $RUN
$NOBODY mkdir $RUN
bind run
refused "tlob bind with $RUN nobody's" $OUT/run.out $OUT/run.err $rc "$RUN is owned by uid 65534"
is "$(ls -A $RUN | wc -l | tr -d ' ')" 0 "nothing made in nobody's $RUN"
[ ! -e $PIN ]
ok $? "nothing pinned either"
rm -rf $RUN

fresh
# --- 4. /tmp/tlob-bpf.log a symbolic link to root's file ------------------------
echo precious >/root/victim
chmod 644 /root/victim
$NOBODY ln -s /root/victim /tmp/tlob-bpf.log
# the kernel's default: links in sticky directories followed (no sysctl
# in this guest raises it); the tool must not rely on protected_symlinks
ps=$(cat /proc/sys/fs/protected_symlinks)
echo 0 >/proc/sys/fs/protected_symlinks
# a load that fails and writes the log: BTF that does not parse
mkdir -p $OUT/btf
mount -t tmpfs none /sys/kernel/btf
: >/sys/kernel/btf/vmlinux
$T tlob mon --backend bpf -d 1 -b "$S1" >$OUT/log.out 2>$OUT/log.err
rc=$?
umount /sys/kernel/btf
echo "$ps" >/proc/sys/fs/protected_symlinks
refused "a BPF load that fails" $OUT/log.out $OUT/log.err $rc "failed"
is "$(cat /root/victim)" precious "root's file behind nobody's /tmp link not written"
is "$(readlink /tmp/tlob-bpf.log)" /root/victim "nobody's link left as it was"
grep -q "log in $RUN/bpf.log" $OUT/log.err
ok $? "the log is kept in $RUN/bpf.log" || sed 's/^/# /' $OUT/log.err
is "$(stat -c '%u %a %F' $RUN/bpf.log 2>&1)" "0 600 regular file" "... root's, mode 600" ||
	sed 's/^/# /' $OUT/log.err
is "$(stat -c '%u %a' $RUN 2>&1)" "0 700" "$RUN: root's, mode 700"
rm -f /tmp/tlob-bpf.log /root/victim

# --- 5. root's own lock held: a bounded wait that names the holder --------------
bind first
is "$rc" 0 "control: root's tlob bind pins the monitor" || sed 's/^/# /' $OUT/first.err
is "$(stat -c '%u %a' $PIN 2>&1)" "0 700" "$PIN: root's, mode 700"
tlob-flock $RUN/bpf.lock >$OUT/rflock.out 2>&1 &
fl=$!
wait_line $OUT/rflock.out '^locked' 30 $fl
ok $? "a root process holds $RUN/bpf.lock"
TLOB_BPF_LOCK_WAIT=2 $T tlob unbind -a --backend bpf >$OUT/wait.out 2>$OUT/wait.err
refused "tlob unbind while the lock is held" $OUT/wait.out $OUT/wait.err $? \
	"lock \($RUN/bpf.lock\) is still held by pid $fl \(tlob-flock\) after 2 s"
kill $fl
wait $fl 2>/dev/null
$T tlob unbind -a --backend bpf >$OUT/unbind.out 2>&1
is "$?" 0 "the lock released: tlob unbind -a" || sed 's/^/# /' $OUT/unbind.out
[ ! -e $PIN ]
ok $? "$PIN removed"

is "$(warnings)" "$w0" "no kernel warning" || dmesg | grep -E 'WARNING:|BUG:|Oops' | sed 's/^/# /'
done_testing
