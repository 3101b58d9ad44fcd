#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bash completion (user/completion/tlob) completes what the tool accepts:
# its commands, each command's own options and no other command's, the
# values an option takes; with bash-completion's helpers (as installed)
# and without them (sourced alone).
. "$(dirname "$0")/tap.sh"
script=$top/user/completion/tlob

# run MODE WORDS...: what <TAB> after WORDS offers, one line, sorted; the
# line typed is WORDS joined by blanks, or $line (then WORDS split it as
# bash does, at the COMP_WORDBREAKS characters, plus those in $breaks)
run() {
	local mode=$1
	shift
	PATH=$BUILD/user:$PATH LINE=${line-} BREAKS=${breaks-} timeout 20 bash -c '
		[ "$1" = full ] && [ -r /usr/share/bash-completion/bash_completion ] &&
			. /usr/share/bash-completion/bash_completion
		. "$2"
		shift 2
		COMP_WORDBREAKS="$COMP_WORDBREAKS$BREAKS"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE=${LINE:-$*}; COMP_POINT=${#COMP_LINE}
		_tlob tlob "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$mode" "$script" "$@"
}

app=$BUILD/tests/unit/tool/fixtures/app lib=$BUILD/tests/unit/tool/fixtures/libfix-stripped.so
[ -x "$app" ] && [ -e "$lib" ] || { echo "Bail out! no fixtures in ${app%/*}: run make tool"; exit 1; }
# app's functions, by binutils
syms=$(readelf -sW "$app" | awk '$4 == "FUNC" && $3 != "0" && $7 != "UND" { print $8 }' | sort -u | tr '\n' ' ')
syms=${syms% }
mkfifo "$tmp/fifo"

modes=plain
[ -r /usr/share/bash-completion/bash_completion ] && modes="plain full"
for m in $modes; do
	got=$(run $m tlob "")
	want=$(printf '%s\n' $("$TLOB" --complete) help -h --help -V --version | sort | tr '\n' ' ')
	is "$got" "$want" "$m: tlob <TAB>: every command"
	is "$(run $m tlob mo)" "mon " "$m: tlob mo<TAB>"
	got=$(run $m tlob mon --st)
	is "$got" "--stop-on-violation " "$m: tlob mon --st<TAB>"
	got=$(run $m tlob list --b)
	is "$got" "--backend " "$m: tlob list --b<TAB>: not mon's --buffer-size"
	is "$(run $m tlob stats --backend "")" "auto bpf kmod " "$m: --backend <TAB>: its values"
	is "$(run $m tlob mon -r p)" "panic printk " "$m: -r p<TAB>: reactors"
	mkdir -p "$tmp/bin" && touch "$tmp/bin/app"
	is "$(run $m tlob bind -b "$tmp/bin/a")" "$tmp/bin/app " "$m: -b <TAB>: the section's file"
	is "$(run $m tlob mon -d "")" "" "$m: -d <TAB>: a duration, nothing to offer"
	is "$(run $m tlob mon --on-violation "")" "exec= snapshot= traceoff= " \
		"$m: --on-violation <TAB>: the actions"
	is "$(run $m tlob mon --on-violation-l)" "--on-violation-limit " "$m: tlob mon --on-violation-l<TAB>"
	# the formats as stats names them when it refuses one
	fmts=$("$TLOB" stats --format bogus 2>&1 | sed -n 's/.*unknown format.*(\(.*\))$/\1/p' |
		tr -d ',' | tr ' ' '\n' | grep -vx 'or' | grep . | sort | tr '\n' ' ')
	[ -n "$fmts" ] || fmts="(stats names no format)"
	is "$(run $m tlob stats --format "")" "$fmts" \
		"$m: stats --format <TAB>: the formats stats accepts"
	is "$(run $m tlob stats --format p)" "prometheus " "$m: stats --format p<TAB>"
	is "$(run $m tlob mon --color "")" "always auto never " "$m: mon --color <TAB>: its values"
	is "$(run $m tlob mon --color = a)" "always auto " "$m: mon --color=a<TAB>: its values after '='"
	is "$(run $m tlob status --color = n)" "never " "$m: status --color=n<TAB>"
	is "$(run $m tlob stats --col)" "" "$m: stats --col<TAB>: stats prints no colour"
	mkdir -p "$tmp/out.d" && touch "$tmp/out.prom"
	is "$(run $m tlob stats -o "$tmp/out.")" "$tmp/out.d $tmp/out.prom " "$m: stats -o <TAB>: files"
	is "$(run $m tlob stats --output "$tmp/out.p")" "$tmp/out.prom " "$m: stats --output <TAB>: files"
	is "$(run $m tlob apply --dir "$tmp/out.")" "$tmp/out.d " "$m: apply --dir <TAB>: directories only"
	is "$(run $m tlob apply --state "$tmp/out.p")" "$tmp/out.prom " "$m: apply --state <TAB>: files"
	is "$(run $m tlob stats --interval "")" "" "$m: stats --interval <TAB>: a duration, nothing to offer"
	is "$(run $m tlob mon -V)" "-V " "$m: tlob mon -V<TAB>"
	is "$(run $m tlob help "")" "$(printf '%s\n' $("$TLOB" --complete) | sort | tr '\n' ' ')" \
		"$m: tlob help <TAB>: the commands"
	is "$(run $m tlob help mon "")" "" "$m: tlob help mon <TAB>: nothing more"
	got=$(run $m tlob mon -b "$tmp/bin/app:f,g,1ms" -- sleep)
	case " $got" in *" sleep "*) ok 0 "$m: mon ... -- sle<TAB>: the commands" ;;
	*) ok 1 "$m: mon ... -- sle<TAB>: the commands"; echo "#   got: $got" ;; esac
	is "$(run $m tlob mon -b "$tmp/bin/app:f,g,1ms" -- cat "$tmp/bin/a")" "$tmp/bin/app " \
		"$m: mon ... -- cat <TAB>: the command's arguments (files), not tlob's options"

	# After PATH: the functions of that ELF file (tlob --complete-symbols),
	# then after START, those and ret; the words as bash splits the line
	# (at ':', '=', '@'; at ',' too where COMP_WORDBREAKS has it).
	line="tlob mon -b $app:fra"
	is "$(run $m tlob mon -b "$app" : fra)" "frame_begin frame_end " "$m: -b APP:fra<TAB>: its functions"
	line="tlob mon -b $app:"
	is "$(run $m tlob mon -b "$app" :)" "$syms " "$m: -b APP:<TAB>: every function"
	line="tlob mon -b $app:frame_begin,"
	is "$(run $m tlob mon -b "$app" : frame_begin,)" \
		"$(printf 'frame_begin,%s ' $syms ret)" "$m: -b APP:frame_begin,<TAB>: the functions and ret"
	line="tlob bind -b $app:frame_begin,r"
	is "$(run $m tlob bind -b "$app" : frame_begin,r)" "frame_begin,ret " \
		"$m: bind -b APP:frame_begin,r<TAB>: ret"
	line="tlob mon -b $app:frame_begin,fr" breaks=,
	is "$(run $m tlob mon -b "$app" : frame_begin , fr)" "frame_begin frame_end " \
		"$m: with ',' in COMP_WORDBREAKS: -b APP:frame_begin,fr<TAB>"
	line="tlob mon -b $app:frame_begin,ret,"
	is "$(run $m tlob mon -b "$app" : frame_begin,ret,)" "" "$m: -b APP:START,STOP,<TAB>: a budget, nothing"
	# bash splits at '@' unless bash-completion turned hostcomplete off
	line="tlob mon -b $lib:frame_step@"
	if [ $m = plain ]; then
		is "$(run $m tlob mon -b "$lib" : frame_step @)" "LIBFIX_1.0 " \
			"$m: -b LIB:frame_step@<TAB>: its compat version, after the '@' bash splits at"
	else
		is "$(run $m tlob mon -b "$lib" : frame_step@)" "frame_step@LIBFIX_1.0 " \
			"$m: -b LIB:frame_step@<TAB>: its compat version"
	fi
	line="tlob mon -e start=$app:ma"
	is "$(run $m tlob mon -e start = "$app" : ma)" "main " "$m: -e EVENT=APP:ma<TAB>: its functions"
	line="tlob mon -e start=$tmp/bin/a"
	is "$(run $m tlob mon -e start = "$tmp/bin/a")" "$tmp/bin/app " "$m: -e EVENT=<TAB>: a file"
	line="tlob mon -b $tmp/bin/app:"
	is "$(run $m tlob mon -b "$tmp/bin/app" :)" "" "$m: -b NOT-ELF:<TAB>: nothing"
	line="tlob mon -b $tmp/fifo:"
	is "$(run $m tlob mon -b "$tmp/fifo" :; echo "exit $?")" "exit 0" "$m: -b FIFO:<TAB>: nothing, no hang"
	unset line breaks
done
[ "$modes" = "plain full" ]
ok $? "bash-completion is installed, so its helpers were tried too (.ci/packages)"
tap_done
