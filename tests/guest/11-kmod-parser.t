#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lanes: all debug
#   the kernel contract: what it checks depends on the kernel
# The monitor file: upstream's parser vectors, this project's extensions,
# canonical read-back, errnos, all-or-nothing writes, long listings.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/tests/lib/kmod.sh

EINVAL="Invalid argument"
ERANGE="Numerical result out of range"
EEXIST="File exists"
ENOENT="No such file or directory"
ENOSPC="No space left on device"

kmod_load || bail_out "insmod failed"
mkdir -p /usr/bin "/opt/my:app"
cp "$WL" /usr/bin/myapp
cp "$WL" "/opt/my:app/bin"
ln -sf /usr/bin/myapp /tmp/myapp-link

# accepted (upstream vectors)
is "$(errno_of 'p /usr/bin/myapp:4768 4848 threshold=5000000')" ok "upstream: decimal offsets"
is "$(errno_of 'p /opt/my:app/bin:0x100 0x200 threshold=1000000')" ok "upstream: ':' inside the path"
is "$(cat $TLOB/monitor)" "p /usr/bin/myapp:0x12a0 0x12f0 threshold=5000000
p /opt/my:app/bin:0x100 0x200 threshold=1000000" "canonical read-back"

# rejected (upstream vectors), each with its errno
is "$(errno_of 'p :0x100 0x200 threshold=5000')" "$EINVAL" "upstream: empty path"
is "$(errno_of 'p /usr/bin/myapp:0x100 threshold=5000000')" "$EINVAL" "upstream: missing STOP"
is "$(errno_of 'p /usr/bin/myapp:0x100 0x100 threshold=5000000')" "$EINVAL" "upstream: START == STOP"
is "$(errno_of 'p /usr/bin/myapp:0x300 0x400 threshold=0')" "$ERANGE" "upstream: threshold=0"
is "$(errno_of 'p /usr/bin/myapp:0x300 0x400 threshold=999')" "$ERANGE" "upstream: threshold=999"
is "$(errno_of 'p /usr/bin/myapp:0x300 0x400 threshold=3600000000001')" "$ERANGE" "upstream: threshold=3600000000001"
is "$(errno_of '-usr/bin/myapp:0x12a0')" "$EINVAL" "upstream: removal with a relative path"
is "$(errno_of '-/usr/bin/myapp')" "$EINVAL" "upstream: removal without offset"
is "$(errno_of '-/usr/bin/myapp:-1')" "$EINVAL" "upstream: removal with offset -1"
is "$(errno_of '-/usr/bin/myapp:abc')" "$EINVAL" "upstream: removal with offset abc"

# budget bounds are inclusive
is "$(errno_of 'p /usr/bin/myapp:0x300 0x400 threshold=1000')" ok "threshold=1000 (1 us) accepted"
is "$(errno_of 'p /usr/bin/myapp:0x500 0x600 threshold=3600000000000')" ok "threshold=3600000000000 (1 h) accepted"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=99999999999999999999999')" "$ERANGE" "threshold overflowing u64"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=5000 min=5000')" "$ERANGE" "min= not below the threshold"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=5000 min=0')" "$ERANGE" "min=0"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=5000 min=1ms')" "$EINVAL" "min= with a unit"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=5000 tolerance=4/3')" "$ERANGE" "tolerance= K above W"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=5000 tolerance=1/65')" "$ERANGE" "tolerance= W above 64"
is "$(errno_of 'p /usr/bin/myapp:0x700 0x800 threshold=5000 tolerance=3')" "$EINVAL" "tolerance= without /W"

# bad input of this project's list
is "$(errno_of 'p usr/bin/myapp:0x900 0xa00 threshold=1000000')" "$EINVAL" "relative path"
is "$(errno_of 'p /nonexistent/app:0x900 0xa00 threshold=1000000')" "$ENOENT" "missing file"
is "$(errno_of 'p /tmp:0x900 0xa00 threshold=1000000')" "$EINVAL" "a directory is not a regular file"
is "$(errno_of 'p /dev/null:0 1 threshold=1000000')" "$EINVAL" "a device is not a regular file"
size=$(wc -c </usr/bin/myapp)
is "$(errno_of "p /usr/bin/myapp:$size 0x10 threshold=1000000")" "$EINVAL" "START at end of file"
is "$(errno_of "p /usr/bin/myapp:0x10 $((size + 1)) threshold=1000000")" "$EINVAL" "STOP past end of file"
is "$(errno_of 'p /usr/bin/myapp:0x12a0 0x1300 threshold=1000000')" "$EEXIST" "duplicate (same file, same START)"
is "$(errno_of 'p /tmp/myapp-link:0x12a0 0x1300 threshold=1000000')" "$EEXIST" "duplicate through a symlink (same inode)"
is "$(errno_of '-/usr/bin/myapp:0x999')" "$ENOENT" "unknown removal"
is "$(errno_of 'p /usr/bin/myapp:0xzz 0x1300 threshold=1000000')" "$EINVAL" "non-numeric START"
is "$(errno_of 'p /usr/bin/myapp:0x900 12ab threshold=1000000')" "$EINVAL" "non-numeric STOP"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1e6')" "$EINVAL" "non-numeric threshold"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=')" "$EINVAL" "empty threshold"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=-5')" "$EINVAL" "negative threshold"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 junk')" "$EINVAL" "trailing garbage"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 threshold=2000000')" "$EINVAL" "threshold twice"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00')" "$EINVAL" "missing threshold"
is "$(errno_of '-/usr/bin/myapp:0x12a0 junk')" "$EINVAL" "trailing garbage after a removal"
is "$(errno_of 'x /usr/bin/myapp:0x900 0xa00 threshold=1000000')" "$EINVAL" "unknown command"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 color=red')" "$EINVAL" "unknown option"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 tag=0123456789abcdef')" "$EINVAL" "tag of 16 characters"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 tag=a/b')" "$EINVAL" "tag with '/'"
# what a line cannot carry (tlob_abi.h), even where the file exists
ctl=$(printf 'my\001app')
cp "$WL" "/usr/bin/$ctl"
is "$(errno_of "p /usr/bin/$ctl:0x900 0xa00 threshold=1000000")" "$EINVAL" "a control byte in the path"
is "$(errno_of "-/usr/bin/$ctl:0x900")" "$EINVAL" "a control byte in a removal's path"
is "$(errno_of "p /usr/bin/myapp:0x900 0xa00 threshold=1000000 tag=a$(printf '\013')b")" "$EINVAL" "a control byte in a tag"
rm -f "/usr/bin/$ctl"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 pid=0')" "$EINVAL" "pid=0"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 pid=12x')" "$EINVAL" "pid=12x"
is "$(errno_of 'p /usr/bin/myapp:0x900 0xa00 threshold=1000000 pid=1 tgid=1')" "$EINVAL" "pid and tgid"
long=$(printf '%05000d' 0 | tr 0 a)
is "$(errno_of "p /usr/bin/$long:0x900 0xa00 threshold=1000000")" "$EINVAL" "overlong line (5000 bytes)"
is "$(cat $TLOB/monitor | wc -l)" "4" "nothing was added by the rejected writes"

# extensions, read back canonically
is "$(errno_of 'p /usr/bin/myapp:0x900 ret threshold=2000000 tag=frame_1.x-y pid=42')" ok "ret STOP, tag, pid"
is "$(errno_of 'p /usr/bin/myapp:0xb00 0xc00 threshold=2000000 tgid=7 tag=t')" ok "tgid and tag in any order"
is "$(tail -n 2 $TLOB/monitor)" "p /usr/bin/myapp:0x900 ret threshold=2000000 tag=frame_1.x-y pid=42
p /usr/bin/myapp:0xb00 0xc00 threshold=2000000 tag=t tgid=7" "extensions read back canonically"

# all or nothing
before=$(cat $TLOB/monitor)
is "$(errno_of 'p /usr/bin/myapp:0xd00 0xe00 threshold=1000000' 'p /usr/bin/myapp:0xd10 0xe10 threshold=10')" "$ERANGE" "a write with one bad line fails"
is "$(cat $TLOB/monitor)" "$before" "... and adds none of its lines"
is "$(errno_of '-/usr/bin/myapp:0x900' '-/usr/bin/myapp:0x901')" "$ENOENT" "a removal batch with one unknown line fails"
is "$(cat $TLOB/monitor)" "$before" "... and removes nothing"
is "$(errno_of 'p /usr/bin/myapp:0xd00 0xe00 threshold=1000000' 'p /usr/bin/myapp:0xd00 0xe10 threshold=1000000')" "$EEXIST" "a duplicate inside one write"
is "$(errno_of 'p /usr/bin/myapp:0xd00 0xe00 threshold=1000000' '' '  ' 'p /usr/bin/myapp:0xd10 0xe10 threshold=1000000')" ok "several lines (and blank ones) in one write"
is "$(errno_of '-/usr/bin/myapp:0xd00' 'p /usr/bin/myapp:0xd00 0xf00 threshold=3000000')" ok "remove and re-add in one write"
grep -q "0xd00 0xf00 threshold=3000000" $TLOB/monitor
ok $? "... the re-added binding replaced the old one"
is "$(errno_of '-/tmp/myapp-link:0xd10')" ok "removal through another path to the same file"
is "$(errno_of '-/usr/bin/myapp:0xd00' '-/usr/bin/myapp:0xb00' '-/usr/bin/myapp:0x900' '-/usr/bin/myapp:0x300' '-/usr/bin/myapp:0x500')" ok "remove several"

# ids are never reused
monitor "p /usr/bin/myapp:0x2000 0x2100 threshold=1000000"
id1=$(sed -n 's/^id=\([0-9]*\) .* start=0x2000 .*/\1/p' $TLOB/stats)
monitor "-/usr/bin/myapp:0x2000"
monitor "p /usr/bin/myapp:0x2000 0x2100 threshold=1000000"
id2=$(sed -n 's/^id=\([0-9]*\) .* start=0x2000 .*/\1/p' $TLOB/stats)
cmp_ok "$id2" -gt "$id1" "a re-added binding gets a new id ($id1 -> $id2)"
monitor "-/usr/bin/myapp:0x2000" "-/usr/bin/myapp:0x12a0" "-/opt/my:app/bin:0x100"
is "$(cat $TLOB/monitor)" "" "all removed"

# no listing truncates: 300 bindings with long paths (> 40 KiB)
dir=/tmp/$(printf '%0100d' 0 | tr 0 d)
mkdir -p "$dir" && cp "$WL" "$dir/wl"
i=1
while [ $i -le 300 ]; do
	echo "p $dir/wl:$((i * 16)) 0x8 threshold=1000000" >$TLOB/monitor || break
	i=$((i + 1))
done
is "$(wc -l <$TLOB/monitor)" "300" "monitor lists all 300 bindings"
cmp_ok "$(wc -c <$TLOB/monitor)" -gt 40000 "... over 40000 bytes"
is "$(grep -c "^id=.* path=$dir/wl start=" $TLOB/stats)" "300" "stats lists all 300 bindings"
is "$(tail -n 1 $TLOB/monitor)" "p $dir/wl:0x12c0 0x8 threshold=1000000" "the last line is whole"
i=1
while [ $i -le 300 ]; do
	echo "-$dir/wl:$((i * 16))" >$TLOB/monitor || break
	i=$((i + 1))
done
is "$(cat $TLOB/monitor)" "" "all 300 removed"
ok_cmd "rmmod" kmod_unload

# a full table
kmod_load max_bindings=2
monitor "p /usr/bin/myapp:0x100 0x200 threshold=1000000" "p /usr/bin/myapp:0x300 0x400 threshold=1000000"
is "$(errno_of 'p /usr/bin/myapp:0x500 0x600 threshold=1000000')" "$ENOSPC" "a full binding table"
is "$(errno_of '-/usr/bin/myapp:0x100' 'p /usr/bin/myapp:0x500 0x600 threshold=1000000')" ok "room made in the same write"
ok_cmd "rmmod with bindings" kmod_unload
done_testing
