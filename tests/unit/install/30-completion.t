#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bash completion (user/completion/tlob) completes what the tool accepts:
# its commands, each command's own options and no other command's, the
# values an option takes; with bash-completion's helpers (as installed)
# and without them (sourced alone).
. "$(dirname "$0")/tap.sh"
script=$top/user/completion/tlob

# complete WORDS...: what <TAB> after WORDS offers, one line, sorted
run() {
	local mode=$1
	shift
	PATH=$BUILD/user:$PATH bash -c '
		[ "$1" = full ] && [ -r /usr/share/bash-completion/bash_completion ] &&
			. /usr/share/bash-completion/bash_completion
		. "$2"
		shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_tlob tlob "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$mode" "$script" "$@"
}

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
done
[ "$modes" = "plain full" ]
ok $? "bash-completion is installed, so its helpers were tried too (.ci/packages)"
tap_done
