#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One source of truth for the options: for every command, what getopt
# parses (the option table, as tlob --complete lists it for completion),
# what -h describes and what the man page's OPTIONS describe are the same
# options; the completion script names no option the table lacks. And no
# help text, man page, example configuration, README or doc says a
# capability both backends run (alive, logical supervision) is "kmod
# only" or "module only".
. "$(dirname "$0")/tap.sh"
man=$BUILD/man

# table CMD: the table's options of CMD, long and short, one a line
table() { "$TLOB" --complete "$1" | awk '{ print $1 }' | sort -u; }
# help_defined CMD: the options -h describes on a line of their own
help_defined() {
	"$TLOB" $1 -h | grep -oE '^ +(-[A-Za-z], )?--?[A-Za-z][A-Za-z-]*' |
		sed 's/^ *//; s/,.*//' | sort -u
}
# help_named CMD: every option word -h names anywhere
help_named() {
	"$TLOB" $1 -h | grep -oE '(^|[][ (,|])--?[A-Za-z][A-Za-z-]*' | sed 's/^[][ (,|]//' | sort -u
}
# man_defined PAGE: the options the tags of its OPTIONS sections name
man_defined() {
	awk '/^\.SH/ { on = ($0 ~ /OPTIONS/); next } on' "$1" |
		awk '/^\.TP/ { tag = 1; next } tag { print; tag = 0 }' |
		grep -oE '\\fB(\\-)+[A-Za-z][A-Za-z-]*' | sed 's/\\fB//; s/\\-/-/g' | sort -u
}

for c in $("$TLOB" --complete); do
	tab=$(table "$c")
	[ -n "$tab" ]
	ok $? "tlob --complete $c lists its options" || continue
	extra=$(comm -13 <(echo "$tab") <(help_defined "$c") | tr '\n' ' ')
	is "$extra" "" "tlob $c -h describes no option it does not take"
	named=$(help_named "$c")
	missing=
	# an option is in -h when its long or its short form is
	for o in $(echo "$tab" | grep '^--'); do
		echo "$named" | grep -qx -- "$o" && continue
		s=$(printf '%s\n' "$o" | sed 's/^--//')
		sh=$(grep -E "^[[:space:]]*\{ \"$s\"," "$top/user/options/params.c" | grep -oE "'[A-Za-z]'" | tr -d "'")
		[ -n "$sh" ] && echo "$named" | grep -qx -- "-$sh" && continue
		missing="$missing $o"
	done
	is "$missing" "" "tlob $c -h names every option tlob $c takes"
	p=$man/tlob-$c.8
	[ -f "$p" ] || { ok 1 "tlob-$c.8 built"; continue; }
	mdef=$(man_defined "$p")
	is "$(comm -23 <(echo "$tab" | grep '^--') <(echo "$mdef") | tr '\n' ' ')" "" \
		"tlob-$c.8's OPTIONS describe every option tlob $c takes"
	is "$(comm -13 <(echo "$tab") <(echo "$mdef") | tr '\n' ' ')" "" \
		"tlob-$c.8's OPTIONS describe no option tlob $c does not take"
done

# The completion script completes values by the table's names; an option
# it names itself must be one the tool has (but the hidden entries it
# asks, which no -h or man page describes).
all=$(for c in $("$TLOB" --complete); do table "$c"; done | sort -u)
script_opts=$(grep -v '^[[:space:]]*#' "$top/user/completion/tlob" |
	grep -oE '(^|[ "=(])--[A-Za-z][A-Za-z-]*' | sed 's/^[ "=(]//' | sort -u |
	grep -vxE -- '--complete(-symbols)?')
[ -n "$script_opts" ]
ok $? "user/completion/tlob names options ($(echo $script_opts))"
is "$(comm -13 <(echo "$all") <(echo "$script_opts") | tr '\n' ' ')" "" \
	"user/completion/tlob names no option the tool lacks"

# backend_claims FILE...: lines that call alive or logical supervision
# (both backends run them) kmod or module only; the line before counts,
# a sentence may wrap
backend_claims() {
	awk '
	{ cur = tolower($0) }
	cur ~ /(kmod|module|tlob\.ko)[ -]*only|only (on|with|in) (the )?(kmod|module)/ &&
	    (prev " " cur) ~ /alive|logic|--model|checkpoint|supervision/ {
		print FILENAME ":" FNR ": " $0
	}
	{ prev = cur }' "$@"
}
printf 'Alive supervision (kmod only) watches a checkpoint\n' >"$tmp/claim.md"
[ -n "$(backend_claims "$tmp/claim.md")" ]
ok $? "the claim check finds 'alive supervision (kmod only)'"

texts=$(ls "$top"/README.md "$top"/user/README.md "$top"/user/tlob.conf.example \
	"$top"/user/man/* "$top"/docs/*.md "$top"/kernel/*/README.md "$man"/* 2>/dev/null)
for c in "" $("$TLOB" --complete); do
	"$TLOB" $c -h >"$tmp/help-${c:-tlob}.txt"
	texts="$texts $tmp/help-${c:-tlob}.txt"
done
# the usage lines as written, too (a help text's words wrap there)
texts="$texts $(ls "$top"/user/cmd/*.c "$top"/user/options/*.c)"
claims=$(backend_claims $texts)
is "$claims" "" "no text calls alive or logical supervision kmod or module only"
tap_done
