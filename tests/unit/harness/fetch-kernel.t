#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/harness/fetch-kernel when several callers want one kernel at once,
# as make bench's side-by-side boots do: one download, one unpack, every
# caller gets the whole image. Without the lock, a second caller takes
# the first one's half-written .deb for a complete one and unpacks a torn
# image. apt-get is a stub that
# writes its .deb in two halves, a second apart; the cache is a temporary
# directory (TLOB_CACHE). Needs the stock lane's headers (kernel-release).
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/tap.sh"
rel=$("$top/tests/harness/kernel-release" stock 2>/dev/null) || {
	echo "1..0 # SKIP the stock lane's headers are not installed"
	exit 0
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The package a download brings: boot/vmlinuz-REL, a few MB so the
# unpack takes a moment too.
mkdir -p "$tmp/pkg/DEBIAN" "$tmp/pkg/boot"
head -c 4000000 /dev/urandom >"$tmp/pkg/boot/vmlinuz-$rel"
cat >"$tmp/pkg/DEBIAN/control" <<CTL
Package: linux-image-$rel-unsigned
Version: 1
Architecture: amd64
Maintainer: tlob tests <tlob@localhost>
Description: fetch-kernel test image
CTL
dpkg-deb -Znone -b "$tmp/pkg" "$tmp/image.deb" >/dev/null
mkdir -p "$tmp/bin"
cat >"$tmp/bin/apt-get" <<STUB
#!/bin/sh
# apt-get download PKG: the fake image, in two halves a second apart
[ "\$1" = download ] || exit 0
echo "\$2" >>"$tmp/downloads"
[ "\$2" = "linux-image-$rel-unsigned" ] || exit 100
f=./\${2}_1_amd64.deb
size=\$(stat -c %s "$tmp/image.deb")
head -c \$((size / 2)) "$tmp/image.deb" >"\$f"
sleep 1
tail -c +\$((size / 2 + 1)) "$tmp/image.deb" >>"\$f"
STUB
chmod +x "$tmp/bin/apt-get"

export TLOB_CACHE="$tmp/cache"
for i in 1 2 3; do
	PATH="$tmp/bin:$PATH" "$top/tests/harness/fetch-kernel" stock >"$tmp/out$i" 2>"$tmp/err$i" &
done
wait
want=$tmp/cache/kernels/$rel
for i in 1 2 3; do
	is "$(cat "$tmp/out$i")" "$want" "caller $i: the image's directory" ||
		diag <"$tmp/err$i"
done
is "$(wc -l <"$tmp/downloads")" "1" "one download for three callers"
cmp -s "$want/boot/vmlinuz-$rel" "$tmp/pkg/boot/vmlinuz-$rel"
ok $? "the image unpacked whole"
is "$(ls "$tmp/cache/kernels" | grep -c -e '\.tmp$' -e '\.part$')" "0" \
	"nothing half-done left in the cache"
# A later caller finds it complete: no download.
PATH="$tmp/bin:$PATH" "$top/tests/harness/fetch-kernel" stock >/dev/null 2>&1
is "$(wc -l <"$tmp/downloads")" "1" "a later caller: from the cache"
tap_done
