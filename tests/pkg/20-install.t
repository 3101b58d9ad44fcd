#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README "Install", tried as a new user in a pristine Debian 12 root with
# the kernel headers of two lanes installed (Debian 12's 6.1 and
# bookworm-backports' 6.12, the releases the VM lanes boot):
#   - dkms from the source tree: dkms add DIR, build, install
#   - apt install ./tlob_*.deb ./tlob-dkms_*.deb: dkms builds tlob.ko for
#     every installed kernel, its vermagic that kernel's
#   - the tool runs, its man pages and completion are where they belong
#   - removing tlob-dkms removes the modules
# Each module dkms built is kept as $BUILD/dkms/KVER/tlob.ko, for a VM
# lane to load (make check-vm DKMS_KO=1, tests/harness/stage).
# Needs the packages of 10-build.t.
. "$(dirname "$0")/lib.sh"
need_mirror

version=$(cat "$top/VERSION")
tool=$(ls "$out"/tlob_"$version"_amd64.deb 2>/dev/null)
dkms=$(ls "$out"/tlob-dkms_"$version"_all.deb 2>/dev/null)
if [ -z "$tool" ] || [ -z "$dkms" ]; then
	echo "1..1"
	echo "not ok 1 - the packages of tests/pkg/10-build.t in $out"
	exit 1
fi

# The lanes' releases: the .ko files must load in those guests.
lanes=${TLOB_PKG_LANES:-stock 6.12}
krels=() hdrs=()
for l in $lanes; do
	rel=$("$top/tests/harness/kernel-release" "$l" 2>/dev/null) ||
		rel=$("$top/tests/harness/kernel-release" --candidate "$l" 2>/dev/null) || rel=
	[ -n "$rel" ] || { echo "1..1"; echo "not ok 1 - lane $l has a kernel release (make deps)"; exit 1; }
	krels+=("$rel")
	case $("$top/tests/harness/kernel-release" --field "$l" source) in
	host) hdrs+=("linux-headers-$rel") ;;
	*) hdrs+=("linux-headers-$rel/$("$top/tests/harness/kernel-release" --field "$l" source)") ;;
	esac
done

root=$out/root-install
trap '"$pkgroot" drop "$root"' EXIT
in_root() { "$pkgroot" run "$root" "$@"; }

# The root with the headers (a user's machine before tlob) is cached,
# keyed by the header packages: the packages' own dependencies (dkms, its
# compiler) are still resolved by apt in every run.
t=$(date +%s)
key=$({ "$pkgroot" base; echo "${hdrs[*]}"; } | sha256sum | cut -c1-16)
if "$pkgroot" has "headers-$key"; then
	"$pkgroot" fresh "$root" "headers-$key"
	ok 0 "a user's kernel headers: ${hdrs[*]} (cached root headers-$key)"
else
	"$pkgroot" fresh "$root" base
	run_logged "$out/install-headers.log" in_root sh -c "apt-get update -q && apt-get install -y -q ${hdrs[*]}"
	ok $? "a user's kernel headers: ${hdrs[*]}" &&
		{ "$pkgroot" forget headers-; "$pkgroot" save "$root" "headers-$key"; }
fi
echo "# pristine root with the headers: $(($(date +%s) - t)) s"
run_logged "$out/apt-update.log" in_root apt-get update -q
ok $? "apt-get update in the root"

# The packages, as README says.
t=$(date +%s)
mkdir -p "$root/tmp/debs"
cp "$tool" "$dkms" "$root/tmp/debs/"
run_logged "$out/apt-install.log" in_root sh -c "cd /tmp/debs && apt-get install -y -q ./$(basename "$tool") ./$(basename "$dkms")"
ok $? "apt install ./$(basename "$tool") ./$(basename "$dkms")"
echo "# apt install (dkms builds for ${krels[*]}): $(($(date +%s) - t)) s"
grep -E '^(Building for|Building initial module|Done|Error)' "$out/apt-install.log" | diag

status=$(in_root dkms status 2>/dev/null)
echo "$status" | diag
for k in "${krels[@]}"; do
	echo "$status" | grep -q "^tlob/$version, $k, x86_64: installed"
	ok $? "dkms status: tlob/$version installed for $k"
	# compressed where the kernel's modules are (6.12: tlob.ko.xz)
	ko=$(cd "$root" && ls "lib/modules/$k/updates/dkms/"tlob.ko* 2>/dev/null | head -n 1)
	ko=/${ko:-lib/modules/$k/updates/dkms/tlob.ko}
	vm=$(in_root modinfo -F vermagic "$ko" 2>/dev/null)
	is "${vm%% *}" "$k" "$ko: vermagic $k"
	ver=$(in_root modinfo -F version "$ko" 2>/dev/null)
	is "$ver" "$version" "$ko: version $version"
	mkdir -p "$BUILD/dkms/$k"
	case $ko in
	*.xz) xz -dc "$root$ko" >"$BUILD/dkms/$k/tlob.ko" ;;
	*.zst) zstd -qdc "$root$ko" >"$BUILD/dkms/$k/tlob.ko" ;;
	*) cp "$root$ko" "$BUILD/dkms/$k/tlob.ko" ;;
	esac
	vm=$(modinfo -F vermagic "$BUILD/dkms/$k/tlob.ko" 2>/dev/null)
	is "${vm%% *}" "$k" "kept as $BUILD/dkms/$k/tlob.ko (uncompressed), vermagic $k"
done

got=$(in_root tlob --version 2>&1)
is "$got" "tlob $version" "tlob --version"
in_root tlob list >"$out/tlob-list.log" 2>&1
ok $? "tlob list runs (no module loaded, no /sys in the root: both backends listed unusable)"
diag <"$out/tlob-list.log"
for f in usr/share/man/man8/tlob.8.gz usr/share/bash-completion/completions/tlob; do
	[ -f "$root/$f" ]
	ok $? "/$f"
done

run_logged "$out/apt-remove.log" in_root apt-get remove -y -q tlob-dkms
ok $? "apt remove tlob-dkms"
left=$(cd "$root" && ls lib/modules/*/updates/dkms/tlob.ko* 2>/dev/null)
is "$left" "" "apt remove tlob-dkms: no tlob.ko left"


# dkms from the source tree (a copy; dkms add copies it to
# /usr/src/tlob-VERSION), for the first kernel, with the dkms the package
# brought in (apt remove leaves it).
t=$(date +%s)
copy_tree "$root/build/tlob"
k=${krels[0]}
run_logged "$out/dkms-tree.log" in_root sh -c "dkms add /build/tlob && dkms build tlob/$version -k $k && dkms install tlob/$version -k $k"
ok $? "from the tree: dkms add /build/tlob; dkms build; dkms install -k $k"
vm=$(in_root modinfo -F vermagic "/lib/modules/$k/updates/dkms/tlob.ko" 2>/dev/null)
is "${vm%% *}" "$k" "from the tree: /lib/modules/$k/updates/dkms/tlob.ko, vermagic $k"
# (dkms add copied the tree to /usr/src/tlob-VERSION)
run_logged "$out/dkms-tree-remove.log" in_root sh -c "dkms remove tlob/$version --all && rm -r /usr/src/tlob-$version"
ok $? "from the tree: dkms remove tlob/$version --all"
echo "# dkms from the tree: $(($(date +%s) - t)) s"

echo "# 20-install.t: $(elapsed) s"
tap_done
