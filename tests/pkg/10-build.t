#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The packages build in a pristine Debian 12 root: debian/control's
# Build-Depends (installed there by apt-get build-dep, nothing else) are
# enough for dpkg-buildpackage -us -uc -b; the packages hold what README
# "Install" says; lintian finds no error (its warnings are printed).
# Leaves the packages in $BUILD/pkg/ for 20-install.t.
#
# The root with the build dependencies installed is cached, keyed by
# debian/control: a warm run unpacks it instead of installing them again.
. "$(dirname "$0")/lib.sh"
need_mirror

root=$out/root-build
trap '"$pkgroot" drop "$root"' EXIT
key=$({ "$pkgroot" base; cat "$top/debian/control"; } | sha256sum | cut -c1-16)
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo

# 1. The root: the cached one with the build dependencies, or base plus
# apt-get build-dep (then cached, and older keys dropped).
t=$(date +%s)
if "$pkgroot" has "build-$key"; then
	"$pkgroot" fresh "$root" "build-$key"
	how="cached root build-$key"
	ok 0 "build root with debian/control's Build-Depends ($how)"
else
	"$pkgroot" fresh "$root" base
	mkdir -p "$root/build/deps/debian"
	cp "$top/debian/control" "$root/build/deps/debian/"
	run_logged "$out/build-deps.log" "$pkgroot" run "$root" sh -c \
		'apt-get update -q && cd /build/deps && apt-get build-dep -y -q ./'
	ok $? "apt-get build-dep installs debian/control's Build-Depends in a pristine root" &&
		{ rm -rf "$root/build"; "$pkgroot" forget build-; "$pkgroot" save "$root" "build-$key"; }
	how="installed by apt-get build-dep"
fi
echo "# build root: $how, $(($(date +%s) - t)) s"

# 2. The build, from a copy of the tree (no .git, nothing ignored).
t=$(date +%s)
copy_tree "$root/build/tlob"
run_logged "$out/dpkg-buildpackage.log" "$pkgroot" run "$root" sh -c \
	'cd /build/tlob && dpkg-buildpackage -us -uc -b'
ok $? "dpkg-buildpackage -us -uc -b"
cp "$root"/build/*.deb "$root"/build/*.changes "$root"/build/*.buildinfo "$out/" 2>/dev/null
echo "# dpkg-buildpackage: $(($(date +%s) - t)) s"

version=$(cat "$top/VERSION")
tool=$(ls "$out"/tlob_"$version"_amd64.deb 2>/dev/null)
dkms=$(ls "$out"/tlob-dkms_"$version"_all.deb 2>/dev/null)
ok $([ -n "$tool" ] && [ -n "$dkms" ]; echo $?) "tlob_${version}_amd64.deb and tlob-dkms_${version}_all.deb"

# 3. What they hold. The tool's package: what make install installs
# (the list README "Install" gives, tests/unit/install/ compares it), man
# pages compressed; the module's: its source for dkms.
if [ -n "$tool" ]; then
	files=$(dpkg-deb -c "$tool" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./||' | sort)
	for f in usr/sbin/tlob usr/share/man/man8/tlob.8.gz usr/share/man/man8/tlob-mon.8.gz \
		usr/share/bash-completion/completions/tlob usr/share/doc/tlob/copyright; do
		echo "$files" | grep -qx "$f"
		ok $? "tlob package: /$f"
	done
	pages=$(echo "$files" | grep -c '^usr/share/man/man8/tlob.*\.8\.gz$')
	cmds=$(dpkg-deb --fsys-tarfile "$tool" | tar -xO ./usr/sbin/tlob >"$out/tlob.bin"; chmod +x "$out/tlob.bin"; "$out/tlob.bin" --complete | wc -l)
	is "$pages" "$((cmds + 1))" "tlob package: tlob(8) and one page per command"
	rm -f "$out/tlob.bin"
fi
if [ -n "$dkms" ]; then
	files=$(dpkg-deb -c "$dkms" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./||' | sort)
	src=usr/src/tlob-$version
	for f in dkms.conf VERSION Kbuild kernel/module/Kbuild kernel/module/tlob_main.c kernel/module/compat/probe; do
		echo "$files" | grep -qx "$src/$f"
		ok $? "tlob-dkms package: /$src/$f"
	done
	! echo "$files" | grep -q "^$src/\(tests\|user\|kernel/bpf\)/"
	ok $? "tlob-dkms package: the module only (no tests/, user/, kernel/bpf/)"
	dpkg-deb -f "$dkms" Depends | grep -q dkms
	ok $? "tlob-dkms depends on dkms ($(dpkg-deb -f "$dkms" Depends))"
fi

# 4. lintian (the host's: Debian 12's, as in the root).
t=$(date +%s)
changes=$(ls "$out"/*.changes 2>/dev/null | head -n 1)
if [ -z "$changes" ]; then
	ok 1 "lintian: a .changes to check"
elif command -v lintian >/dev/null; then
	lintian --no-tag-display-limit --info "$changes" >"$out/lintian.log" 2>&1
	errs=$(grep -c '^E:' "$out/lintian.log")
	is "$errs" 0 "lintian: no errors"
	grep '^[EW]:' "$out/lintian.log" | diag
	echo "# lintian: $(grep -c '^W:' "$out/lintian.log") warning(s), $(($(date +%s) - t)) s"
else
	ok 1 "lintian is installed (.ci/packages)"
fi
echo "# 10-build.t: $(elapsed) s"
tap_done
