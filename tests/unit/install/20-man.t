#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages (user/man/mkman over tlob --man): tlob(8) and one page per
# command the tool has; each renders without a groff warning and passes
# the check lintian runs (man --warnings); and every line that the
# command's -h prints is on its page (the page is generated from the same
# lines, this proves the generator drops none of them).
. "$(dirname "$0")/tap.sh"
man=$BUILD/man

cmds=$("$TLOB" --complete)
for p in tlob $(echo "$cmds" | sed 's/^/tlob-/'); do
	[ -f "$man/$p.8" ]
	ok $? "$p.8 built" || continue
	w=$(groff -man -Tutf8 -ww -z "$man/$p.8" 2>&1)
	is "$w" "" "$p.8: groff -man -ww: no warnings"
	# lintian's own check (manpage-has-errors-from-man)
	w=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$man/$p.8" 2>&1 >/dev/null)
	is "$w" "" "$p.8: man --warnings: nothing"
done
n_pages=$(ls "$man"/*.8 | wc -l)
is "$n_pages" "$(($(echo "$cmds" | wc -l) + 1))" "no page of a command the tool does not have"

# squeeze: one line, runs of blanks as one space
squeeze() { tr '\n' ' ' | tr -s ' \t' '  '; }
# The page as text, not hyphenated, every dash a plain '-', a line broken
# after a word's own hyphen ("--stop-on-" "violation") joined again.
page_text() {
	sed '/^\.TH/a .nh' "$1" | groff -man -Tascii 2>/dev/null | col -bx |
		sed -e ':a' -e '/-$/{N;s/-\n[[:space:]]*/-/;ba' -e '}' | squeeze
}

for c in "" $cmds; do
	p=tlob${c:+-$c}
	[ -f "$man/$p.8" ] || continue
	text=$(page_text "$man/$p.8")
	missing=
	# tlob -h exits 0; tlob CMD -h too
	while IFS= read -r line; do
		line=${line#usage: }
		# a label ("exit status: 0 ...; 1 ...") is a section heading there,
		# its items separated by ';' each on a line of their own
		case $line in
		"common options:"|"every command takes:"|"commands:"|"") continue ;;
		[a-z]*": "*) [ "${line%%:*}" = "${line%%[^a-z ]*}" ] && line=${line#*: } ;;
		esac
		IFS=';' read -ra parts <<<"$line"
		for part in "${parts[@]}"; do
			part=$(printf '%s' "$part" | squeeze)
			part=${part# }
			part=${part% }
			[ -z "$part" ] && continue
			case $text in *"$part"*) ;; *) missing="$missing|$part" ;; esac
		done
	done < <("$TLOB" $c -h)
	is "$missing" "" "$p.8 has every line of 'tlob${c:+ $c} -h'"
done
tap_done
