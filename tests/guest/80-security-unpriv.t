#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: stock rt 6.12 6.12-rt debug
#   the module's permission checks on 6.1 and 6.12, each preemption model
# Security: the control files are writable by root only, and an
# unprivileged user (nobody, through tlob-asuser) can neither bind, unbind,
# enable/disable nor change the reactor -- each attempt is refused and
# changes nothing; nor can root without capabilities (tlob-asuser -n),
# which the mode bits let open the files: the module checks CAP_SYS_ADMIN
# against the opener's credentials at each write. Nor may nobody read
# other tasks' data beyond what tracefs allows it (nothing: tracefs is
# root's): the bindings listing (paths, pid=/tgid= of the tasks watched)
# and the per-binding window statistics must not be readable by others.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

NOBODY="tlob-asuser 65534 65534"
MS=1000000
kmod_load || bail_out "insmod failed"
echo 1 >$TLOB/enable
bind tlob_section_begin "$(off tlob_section_end)" $((100 * MS)) "tag=root pid=1" ||
	bail_out "cannot bind"
$WL spin 1 >/dev/null
B=$(off tlob_section_begin)

# the initramfs root may be 0700 (mktemp -d): nobody could then reach no
# file at all and every refusal below would prove nothing
chmod 755 /
# positive controls: nobody runs, and reads what everybody may read
is "$($NOBODY sh -c 'grep ^Uid: /proc/self/status' | tr -s ' \t' ' ')" "Uid: 65534 65534 65534 65534" \
	"tlob-asuser runs a command as nobody"
$NOBODY cat $TLOB/pool >/dev/null
ok $? "control: nobody can read the world-readable pool file"

# every file: owned by root, nobody else may write it
for f in $TLOB/* /sys/module/tlob/parameters/*; do
	m=$(stat -c '%a %u' "$f")
	mode=${m% *}
	is "${m#* } $(( 0$mode & 022 ))" "0 0" "$f: owned by root, not writable by group or others (mode $mode)"
done

state() { cat $TLOB/monitor $TLOB/enable $TLOB/reactors; }
before=$(state)

# as_nobody NAME FILE TEXT: nobody's write of TEXT to FILE is refused
as_nobody() {
	$NOBODY sh -c "printf '%s\n' \"\$1\" >\"\$2\"" sh "$3" "$2" 2>/tmp/sec.err
	rc=$?
	cmp_ok $rc -ne 0 "nobody cannot $1 ($(cat /tmp/sec.err | sed 's/.*: //'))"
	is "$(state)" "$before" "... and nothing changed"
}

as_nobody bind $TLOB/monitor "p $WL:$(off tlob_section2_begin) $(off tlob_section2_end) threshold=1000000"
as_nobody unbind $TLOB/monitor "-$WL:$B"
as_nobody disable $TLOB/enable 0
as_nobody "change the reactor" $TLOB/reactors printk
for p in /sys/module/tlob/parameters/*; do
	as_nobody "set $(basename $p)" "$p" 1
done

# root without capabilities: uid 0 owns the files, so the mode bits let it
# open them; the module must refuse every write (EPERM), as the kernel's
# own control files do for want of CAP_SYS_ADMIN
NOCAP="tlob-asuser -n"
is "$($NOCAP sh -c 'id -u; grep -E "^Cap(Eff|Prm|Bnd):" /proc/self/status' | tr -s ' \t\n' ' ')" \
	"0 CapPrm: 0000000000000000 CapEff: 0000000000000000 CapBnd: 0000000000000000 " \
	"tlob-asuser -n runs a command as uid 0 without any capability"
# as_nocap NAME FILE TEXT: the capless root's write of TEXT to FILE fails
# with EPERM
as_nocap() {
	printf '%s\n' "$3" >/tmp/sec.in
	# dd names the errno (busybox printf does not)
	$NOCAP dd if=/tmp/sec.in of="$2" bs=4096 conv=notrunc 2>/tmp/sec.err
	rc=$?
	cmp_ok $rc -ne 0 "root without capabilities cannot $1"
	grep -q "not permitted" /tmp/sec.err
	ok $? "... refused with EPERM ($(sed -n 's/.*: //p' /tmp/sec.err | head -n 1))"
	is "$(state)" "$before" "... and nothing changed"
}
as_nocap bind $TLOB/monitor "p $WL:$(off tlob_section2_begin) $(off tlob_section2_end) threshold=1000000"
as_nocap unbind $TLOB/monitor "-$WL:$B"
as_nocap disable $TLOB/enable 0
as_nocap "set the reactor to panic" $TLOB/reactors panic
as_nocap "open a session" /dev/tlob "p $WL:$(off tlob_section2_begin) $(off tlob_section2_end) threshold=1000000"
# the capability is the opener's: a file opened with it may be handed to a
# helper without it (and one opened without it stays powerless)
$NOCAP sh -c 'printf "printk\n" >&3' 3>$TLOB/reactors 2>/tmp/sec.err
ok $? "a capless helper may write through a file root opened with CAP_SYS_ADMIN"
grep -q '\[printk\]' $TLOB/reactors
ok $? "... and the reactor is printk"
echo nop >$TLOB/reactors
is "$(state)" "$before" "the reactor is back to nop"

# through the tool, too (same files, the same refusal)
$NOBODY tlob unbind "$WL:$B" >/tmp/sec.out 2>&1
cmp_ok $? -ne 0 "nobody cannot unbind with the tool: $(head -n 1 /tmp/sec.out)"
is "$(state)" "$before" "... and nothing changed"

# what nobody may read: tracefs gives it nothing of tlob's
$NOBODY cat $TRACE/events/tlob/window/format >/dev/null 2>&1
cmp_ok $? -ne 0 "baseline: nobody cannot read tlob's trace events"
for f in monitor stats; do
	$NOBODY cat $TLOB/$f >/tmp/sec.out 2>/dev/null
	rc=$?
	cmp_ok $rc -ne 0 "nobody cannot read $f (other tasks' bindings and window times)" ||
		diag "nobody read: $(head -c 200 /tmp/sec.out)"
done
ok_cmd "rmmod" kmod_unload
done_testing
