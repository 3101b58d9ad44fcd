#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages as a reader meets them: mandoc -Tlint finds nothing on any
# page (style notes included); every page has the sections a man page has;
# the page of each command names every option the command takes (the
# option table, as tlob --complete lists it); the prose of user/man/*.in
# loses no word in the merge (user/man/mkman); tlob.conf(5) documents every
# setting the configuration reader takes; tlob(8)'s ENVIRONMENT names every
# variable the tool reads (getenv in user/).
. "$(dirname "$0")/tap.sh"
man=$BUILD/man
command -v mandoc >/dev/null || { echo "Bail out! mandoc is not installed (.ci/packages)"; exit 255; }

cmds=$("$TLOB" --complete)
# squeeze: one line, runs of blanks as one space
squeeze() { tr '\n' ' ' | tr -s ' \t' '  '; }
# render FILE: the page as text, not hyphenated, every dash a plain '-'
render() {
	sed '/^\.TH/a .nh' "$1" | groff -man -Tascii 2>/dev/null | col -bx |
		sed -e ':a' -e '/-$/{N;s/-\n[[:space:]]*/-/;ba' -e '}' | squeeze
}
# sections FILE: its .SH headings, one a line
sections() { sed -n 's/^\.SH *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$1"; }
# section_text FILE NAME: the roff of one section
section_text() { awk -v s="$2" '/^\.SH/ { on = ($0 ~ "^\\.SH \"?" s "\"?$") ; next } on' "$1"; }

pages="tlob.8"
for c in $cmds; do pages="$pages tlob-$c.8"; done
pages="$pages tlob.conf.5"
for p in $pages; do
	[ -f "$man/$p" ]
	ok $? "$p built" || continue
	w=$(mandoc -Tlint -W style "$man/$p" 2>&1)
	is "$w" "" "$p: mandoc -Tlint: nothing"
	case $p in
	*.5) need="NAME|SYNOPSIS|DESCRIPTION|FILES|EXAMPLES|SEE ALSO" ;;
	tlob.8) need="NAME|SYNOPSIS|DESCRIPTION|COMMANDS|OPTIONS|EXIT STATUS|ENVIRONMENT|FILES|EXAMPLES|SEE ALSO" ;;
	*) need="NAME|SYNOPSIS|DESCRIPTION|OPTIONS|EXIT STATUS|FILES|EXAMPLES|SEE ALSO" ;;
	esac
	have=$(sections "$man/$p" | tr '\n' '|')
	missing=
	IFS='|' read -ra want <<<"$need"
	for s in "${want[@]}"; do
		case "|$have" in *"|$s|"*) ;; *) missing="$missing, $s" ;; esac
	done
	is "${missing#, }" "" "$p has $need"
done

# Every option a command takes is on its page (long and short).
for c in $cmds; do
	p=$man/tlob-$c.8
	[ -f "$p" ] || continue
	text=$(render "$p")
	missing=
	while read -r opt _; do
		case " $text" in *[\ ,\[]"$opt"[\ ,\]]*) ;; *) missing="$missing $opt" ;; esac
	done < <("$TLOB" --complete "$c")
	is "$missing" "" "tlob-$c.8 names every option tlob $c takes"
done

# The prose loses no word in the merge: every word of a prose file,
# rendered alone, is in the rendered page.
for src in "$top"/user/man/*.8.in; do
	p=$(basename "$src" .in)
	[ -f "$man/$p" ] || continue
	text=" $(render "$man/$p") "
	# under the page's own title, so that header and footer match
	grep -m1 '^\.TH' "$man/$p" >"$tmp/prose"
	cat "$src" >>"$tmp/prose"
	missing=
	for wd in $(render "$tmp/prose"); do
		case $text in *"$wd"*) ;; *) missing="$missing $wd" ;; esac
	done
	is "$missing" "" "$p: every word of user/man/$p.in is on the page"
done

# tlob-apply(8): the configuration's example lines stay lines, not a
# paragraph run together.
if [ -f "$man/tlob-apply.8" ]; then
	sed '/^\.TH/a .nh' "$man/tlob-apply.8" | groff -man -Tascii 2>/dev/null | col -bx >"$tmp/apply.txt"
	found=0
	for key in section reactor backend; do
		grep -Eq "^ +$key +[^ ]" "$tmp/apply.txt" && found=$((found + 1))
	done
	is "$found" 3 "tlob-apply.8: the section, reactor and backend example lines start lines of their own"
fi

# tlob.conf(5): every setting the reader takes (conf.c: the keys read_line
# compares, outside the state file's own restore-*), and its drop-in order.
if [ -f "$man/tlob.conf.5" ]; then
	text=$(render "$man/tlob.conf.5")
	keys=$(sed -n '/^static void read_line/,/^}/p' "$top/user/config/conf.c" |
		grep -o 'strcmp(key, "[a-z-]*")' | grep -o '"[a-z-]*"' | tr -d '"' | grep -v '^restore-' | sort -u)
	missing=
	for k in $keys; do
		case $text in *"$k "*) ;; *) missing="$missing $k" ;; esac
	done
	[ -n "$keys" ]
	ok $? "conf.c's read_line takes keys ($(echo $keys))"
	is "$missing" "" "tlob.conf.5 documents every key"
	# what it says of a missing main file is what apply does
	mkdir -p "$tmp/noconf"
	"$TLOB" apply --check --dir "$tmp/noconf" >/dev/null 2>&1
	is "$?" 1 "tlob apply --check with no tlob.conf: exit status 1"
	case $text in *"a missing tlob.conf is one (exit status 1"*) r=0 ;; *) r=1 ;; esac
	ok $r "tlob.conf.5: a missing tlob.conf is an error, exit status 1"
	for term in tlob.conf.d '*.conf' 'once' 'FILE:LINE' '1048576' '8192' 'tlob apply --check'; do
		case $text in *"$term"*) ok 0 "tlob.conf.5 says '$term'" ;; *) ok 1 "tlob.conf.5 says '$term'" ;; esac
	done
fi

# tlob(8)'s ENVIRONMENT: every variable the tool reads.
env=$(section_text "$man/tlob.8" ENVIRONMENT)
vars=$(grep -rhoE 'getenv\("[A-Za-z_0-9]+"\)' "$top/user" | sed 's/getenv("\(.*\)")/\1/' | sort -u)
[ -n "$vars" ]
ok $? "the tool reads variables ($(echo $vars))"
for v in $vars; do
	printf '%s\n' "$env" | grep -q "$v"
	ok $? "tlob.8 ENVIRONMENT documents $v"
done
tap_done
