#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install DESTDIR=... lays out exactly the files README "Install"
# lists (for PREFIX=/usr, the packages' prefix, and the default
# /usr/local), and make uninstall takes every one of them away again.
. "$(dirname "$0")/tap.sh"

# README: the indented lines after the "make install: layout" marker;
# $UNITDIR is systemd's unit directory: /lib/systemd/system for the
# system's own prefix (Debian 12's), PREFIX/lib/systemd/system otherwise.
readme_list() {
	_unitdir=$1/lib/systemd/system
	[ "$1" = /usr ] && _unitdir=/lib/systemd/system
	awk '/<!-- make install: layout -->/ { on = 1; next }
	     on && /^    / { sub(/^ +/, ""); print; next }
	     on && /^```/ { next }
	     on && NF { exit }' "$top/README.md" |
		sed -e "s|^\\\$PREFIX|$1|" -e "s|^\\\$UNITDIR|$_unitdir|" | sort
}

for prefix in /usr /usr/local; do
	d=$tmp/stage$(echo "$prefix" | tr / _)
	args=(DESTDIR="$d" BUILD="$BUILD")
	[ "$prefix" = /usr/local ] || args+=(PREFIX="$prefix")
	make -s -C "$top" install "${args[@]}" >"$tmp/install.log" 2>&1
	ok $? "make install PREFIX=$prefix DESTDIR=..." || sed 's/^/# /' "$tmp/install.log"
	got=$(cd "$d" && find . -type f -o -type l | sed 's|^\.||' | sort)
	want=$(readme_list "$prefix")
	[ -n "$want" ]
	ok $? "README lists the layout (marker 'make install: layout')"
	is "$got" "$want" "make install (PREFIX=$prefix) installs exactly README's list"
	[ -x "$d$prefix/sbin/tlob" ] && [ "$("$d$prefix/sbin/tlob" --version | cut -d' ' -f1-2)" = "tlob $(cat "$top/VERSION")" ]
	ok $? "the installed tool runs"
	make -s -C "$top" uninstall "${args[@]}" >"$tmp/uninstall.log" 2>&1
	left=$(cd "$d" && find . -type f -o -type l)
	is "$left" "" "make uninstall (PREFIX=$prefix) removes them all"
done

# The module's source for dkms: what the tlob-dkms package ships.
d=$tmp/dkms
make -s -C "$top" install-dkms-source DESTDIR="$d" BUILD="$BUILD" >/dev/null 2>&1
src=$d/usr/src/tlob-$(cat "$top/VERSION")
[ -f "$src/dkms.conf" ] && [ -f "$src/Kbuild" ] && [ -f "$src/VERSION" ] && [ -x "$src/kernel/module/compat/probe" ]
ok $? "make install-dkms-source: dkms.conf, Kbuild, VERSION and kernel/ in /usr/src/tlob-VERSION"
extra=$(cd "$src" && find . -type f | grep -v -e '^\./kernel/' -e '^\./dkms.conf$' -e '^\./Kbuild$' -e '^\./VERSION$')
is "$extra" "" "make install-dkms-source: nothing but the module"
tap_done
