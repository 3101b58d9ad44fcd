#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlob stats and tlob status only read: an unprivileged user (nobody, no
# groups) runs them against a control tree of plain files (--root) it can
# read, and gets what root gets. Where a file of the tree is mode 0600
# (root's), each read-only command that reads it exits 1 with one
# sentence naming the file and what reading it needs, and prints nothing
# on stdout. The commands that change state still refuse nobody first.
. "$(dirname "$0")/tap.sh"

need_root
command -v setpriv >/dev/null || { echo "Bail out! setpriv is not installed (util-linux)"; exit 255; }
# Everything nobody reads lives under a directory of its own, mode 755
# (tap.sh's $tmp is 700, and the build tree may be under /root).
pub=$(mktemp -d)
trap 'rm -rf "$tmp" "$pub"' EXIT
chmod 755 "$pub"
cp "$TLOB" "$pub/tlob"
cp "$BUILD/tests/unit/tool/fixtures/app" "$pub/app"
root=$pub/ctl
mkdir "$root"
echo 1 >"$root/enable"
echo '[nop] printk panic signal' >"$root/reactors"
echo 'p /opt/app:0x10 0x20 threshold=1000000 tag=ui' >"$root/monitor"
echo 'id=7 path=/opt/app start=0x10 stop=0x20 tag=ui windows=10 violations=2 errors=0 aborted=1 dropped=0 min_ns=1000 max_ns=20000000 mean_ns=3000000 sum_ns=30000000 hist=9:1,21:9' >"$root/stats"
chmod -R a+rX "$pub"

# as_nobody NAME ARGS...: tlob ARGS as nobody; out, err and rc in $tmp
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$pub/tlob" "$@" --backend kmod --root "$root" >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/rc"
}
# as_root ARGS...: the same as root, into $tmp/root.out
as_root() { "$TLOB" "$@" --backend kmod --root "$root" >"$tmp/root.out" 2>/dev/null; }

for c in stats status "stats --format openmetrics" "stats --json" "status --json"; do
	as_nobody $c
	is "$(cat "$tmp/rc")" 0 "nobody: tlob $c on a tree it can read: exit 0" ||
		sed 's/^/#   /' "$tmp/err"
	as_root $c
	cmp -s "$tmp/out" "$tmp/root.out"
	ok $? "... the same output as root's" || diff "$tmp/root.out" "$tmp/out" | sed 's/^/#   /'
done

# denied FILE CMD...: with FILE 0600, nobody's CMD exits 1 with the one sentence
denied() {
	f=$1
	shift
	chmod 600 "$root/$f"
	as_nobody "$@"
	chmod 644 "$root/$f"
	is "$(cat "$tmp/rc")" 1 "$f 0600: nobody's tlob $*: exit 1"
	is "$(cat "$tmp/err")" \
		"tlob: reading $root/$f needs root or membership of the group that can read it" \
		"... one sentence naming $f and what reading it needs"
	is "$(wc -c <"$tmp/out")" 0 "... nothing on stdout"
}
denied stats stats
denied stats stats --json
denied stats status
denied monitor status
denied monitor stats --format prometheus
denied enable status
denied reactors status

# The commands that change state: refused before anything is read.
S=$pub/app:frame_begin,frame_end,1ms
for c in "bind -b $S" "unbind --all" "mon -d 1s -b $S"; do
	as_nobody $c
	name=${c%% -*}
	is "$(cat "$tmp/rc") $(cat "$tmp/err")" \
		"1 tlob: 'tlob $name' needs root (it changes kernel tracing and tlob settings)" \
		"nobody: tlob $name still needs root"
done
tap_done
