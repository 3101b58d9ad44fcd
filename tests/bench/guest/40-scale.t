#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scale. Memory per monitored task: the module preallocates its windows
# (pool_size), so the cost of one more monitored task is the slope of the
# memory the module takes at load over pool_size: its vmalloc areas
# (/proc/vmallocinfo, exact; pools this large are vmalloc'ed) and, as a
# cross-check, MemFree before/after insmod; the BPF backend's maps as
# bpftool reports them. Overhead growth: ping-pong rate with 0 .. 1024
# tasks parked inside windows (module, default pool_size 1024: up to the
# whole pool), interleaved with the monitor absent and the empty-probe
# floor, HEAVY_ROUNDS rounds.
. /opt/tlob/tests/lib/tap.sh
. /opt/tlob/bin/bench.sh

POOLS="16384 65536 262144"
REPS=3
BIG=1024
PARKS="0 1 16 256 1024"
BUDGET=600000000000

memfree() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }

# ---- memory per window -------------------------------------------------
progress memory
for p in $POOLS; do
	i=1
	while [ $i -le $REPS ]; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 0.5
		a=$(memfree)
		mod_in pool_size=$p || break
		sleep 0.5
		b=$(memfree)
		size=$(awk '$1 == "tlob" { print $2 }' /proc/modules)
		vm=$(awk '/\[tlob\]/ { s += $2 } END { print s + 0 }' /proc/vmallocinfo)
		mod_out
		sample mem pool$p $i $(((a - b) * 1024))
		sample vm pool$p $i "$vm"
		echo "$p $size" >"$DATA/modsize.$p"
		i=$((i + 1))
	done
done
ok 0 "module loaded with pool_size $POOLS"
{
	echo "#### Memory: the module's preallocated windows ($TLOB_LANE)"
	echo
	echo "| pool_size (windows) | module vmalloc (bytes) | per window (bytes) | MemFree drop at load, median of $REPS (bytes) | its slope from pool_size $(echo $POOLS | cut -d' ' -f1) (bytes/window) | module core size (bytes) |"
	echo "|---:|---:|---:|---:|---:|---:|"
	first=
	med() { awk -v t="$1 pool$2" '$1 " " $2 == t { print $4 }' "$DATA/samples" | sort -n |
		awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : 0 }'; }
	for p in $POOLS; do
		mf=$(med mem $p)
		vm=$(med vm $p)
		[ -n "$first" ] || { first=$p; fmed=$mf; }
		slope=-
		[ "$p" != "$first" ] && slope=$(((mf - fmed) / (p - first)))
		echo "| $p | $vm | $((vm / p)) | $mf | $slope | $(cut -d' ' -f2 "$DATA/modsize.$p") |"
	done
	echo
	echo "MemFree moves by whole pages and with whatever else the guest does, hence the slope over a large range."
	echo
} >"$DATA/mem.md"
show "$DATA/mem.md"

if have_bpf; then
	bpf_mon -q -b "$BIN/bench-park:bench_start,bench_stop,600s"
	bpftool map show >"$DATA/maps" 2>&1
	{
		echo "#### Memory: the BPF backend's maps while bound (bpftool map show, $TLOB_LANE)"
		echo
		echo "| map | type | key B | value B | max_entries | memlock B | memlock per entry B |"
		echo "|---|---|---:|---:|---:|---:|---:|"
		awk '
			/^[0-9]+:/ { type = $2; name = "-"; for (i = 3; i <= NF; i++) if ($i == "name") name = $(i + 1) }
			/key/ { k = $2; v = $4; m = $6; ml = $8; sub(/B$/, "", k); sub(/B$/, "", v); sub(/B$/, "", ml)
				printf "| %s | %s | %s | %s | %s | %s | %s |\n", name, type, k, v, m, ml, (m > 0 ? int(ml / m) : "-") }' "$DATA/maps"
		echo
	} >"$DATA/bpfmem.md"
	bpf_stop
	show "$DATA/bpfmem.md"
	[ -s "$DATA/maps" ]
	ok $? "bpftool lists the BPF backend's maps" || diag "$(head -5 "$DATA/maps"; tail -3 "$DATA/bpf.err")"
else
	diag "BPF backend not available: no map sizes"
fi

# ---- overhead growth ---------------------------------------------------
# Warm-up, not recorded: the first ping-pong of a boot runs slower.
pingpong 1 >/dev/null
pingpong 8 >/dev/null
diag "overhead growth: $HEAVY_ROUNDS rounds of ${MS} ms"
r=1
while [ "$r" -le "$HEAVY_ROUNDS" ]; do
	progress "round $r"
	sample grow absent $r "$(pingpong 1)"
	floor_in
	sample grow floor $r "$(pingpong 1)"
	floor_out
	mod_in pool_size=$BIG && mod_bind bench-park $BUDGET && mod_enable
	for n in $PARKS; do
		progress "round $r: $n parked"
		[ $n = 0 ] || park_start $n
		[ $r = 1 ] && is "$(mod_open)" "$n" "$n parked tasks hold $n open windows"
		sample grow park$n $r "$(pingpong 1)"
		park_stop
	done
	mod_out
	r=$((r + 1))
done
: >"$DATA/labels"
order="absent floor"
for n in $PARKS; do
	echo "park$n|module: $n tasks parked in windows|" >>"$DATA/labels"
	order="$order park$n"
done
echo "absent|monitor absent|" >>"$DATA/labels"
echo "floor|module floor: 5 empty tracepoint probes|" >>"$DATA/labels"
{
	echo "#### Overhead growth: ping-pong (1 pair, CPU $CPU) with N tasks parked in windows, pool_size=$BIG ($TLOB_LANE, $CLOCK clock)"
	echo
	awk -v table=grow -v base=absent -v floor=floor -v order="$order" \
		-v labels="$DATA/labels" -v unit="switches/s" \
		-f $BIN/bench-ratio.awk "$DATA/samples"
	echo
} >"$DATA/grow.md"
show "$DATA/grow.md"
done_testing
