#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tool's rooms call downwards only, and kernel/ holds only what runs
# in a kernel. The rooms of user/, top to bottom (user/README.md):
#   cmd > config > options > react > kinds > output > section > backend > lib
# with the module's parser (kernel/shared) and rvgen's model reader
# beneath them all. From the tool's built objects (nm: which file defines
# each symbol another one uses), every file-to-file call must stay in its
# room or go to a room further down, and the calls must have no cycle
# (tsort). kernel/ and rvgen/ include nothing of user/, and kernel/ holds
# no C file a kernel does not run (the module's, the BPF programs', the
# shared contracts'). First the checker proves it can fail on a graph with
# a cycle and one with an arrow upwards.
#   BUILD=DIR (default: build/): the tool built there (make tool).
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
B=${BUILD:-$top/build}
objdir=$B/user
if ! [ -f "$objdir/cmd/tlob.o" ]; then
	echo "1..0 # SKIP no built tool objects under $objdir (make tool)"
	exit 0
fi
echo "1..8"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

ROOMS="cmd config options react kinds output section backend lib shared rvgen"

# room FILE: the room of an object's path under $objdir
room() {
	case $1 in
	rvgen/*) echo rvgen ;;
	tlob_parse.o) echo shared ;;
	*/*) echo "${1%%/*}" ;;
	*) echo "?" ;;
	esac
}
# rank ROOM: its place from the top (0), or 99 for a room not listed
rank() {
	local i=0 r
	for r in $ROOMS; do
		[ "$r" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}
# edges: "caller callee" (paths under $objdir) for every symbol one object
# uses that another defines
edges() {
	local o
	for o in "$@"; do
		nm "$objdir/$o" | awk -v f="$o" \
			'NF == 3 && $2 ~ /^[TDBRV]$/ { print "D", f, $3 } NF == 2 && $1 == "U" { print "U", f, $2 }'
	done | awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[$2 " " $3] = 1 }
		END { for (k in use) { split(k, a, " "); if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' |
		sort -u
}
# upward: the edges on stdin that go to a room higher up
upward() {
	local a b
	while read -r a b; do
		[ "$(rank "$(room "$a")")" -le "$(rank "$(room "$b")")" ] || echo "$a -> $b"
	done
}
cycles() { tsort 2>&1 >/dev/null | sed 's/^tsort: //'; }

got=$(printf 'a b\nb c\nc a\n' | cycles)
[ -n "$got" ]
ok $? "the checker finds the cycle a -> b -> c -> a"
got=$(printf 'lib/utils.o cmd/tlob.o\ncmd/tlob.o lib/utils.o\n' | upward)
[ "$got" = "lib/utils.o -> cmd/tlob.o" ]
ok $? "the checker finds lib calling up into cmd (and lets cmd call lib)"

# The objects of today's sources only (a build directory keeps those of
# files since moved or gone).
objs=$(cd "$top" && { find user -name '*.c' | sed 's|^user/||; s|\.c$|.o|'
	echo tlob_parse.o
	find rvgen -name '*.c' | sed 's|\.c$|.o|'; } | while read -r o; do
	[ -f "$objdir/$o" ] && echo "$o"; done)
graph=$(edges $objs)
[ "$(echo "$graph" | wc -l)" -ge 50 ]
ok $? "the tool's files call each other ($(echo "$graph" | wc -l) file-to-file edges)"
stray=$(for o in $objs; do [ "$(rank "$(room "$o")")" = 99 ] && echo "$o"; done)
[ -z "$stray" ]
ok $? "every file of the tool is in a room of the list"
[ -z "$stray" ] || echo "$stray" | sed 's/^/# in no room: /'

up=$(echo "$graph" | upward)
[ -z "$up" ]
ok $? "no call goes up a room"
[ -z "$up" ] || echo "$up" | sed 's/^/# /'
got=$(echo "$graph" | cycles)
[ -z "$got" ]
ok $? "no call cycle among the tool's files"
[ -z "$got" ] || echo "$got" | sed 's/^/# /'

# The same order in what each file of user/ includes: a header of its own
# room or of one further down.
upinc=$(cd "$top" && find user -name '*.[ch]' | while read -r f; do
	from=${f#user/}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z]*\)\/[^"]*".*/\1/p' "$f" | while read -r to; do
		[ "$(rank "$(room "$from")")" -le "$(rank "$to")" ] || echo "$f includes a header of $to/"
	done
done)
[ -z "$upinc" ]
ok $? "no file of user/ includes a header of a room above its own"
[ -z "$upinc" ] || echo "$upinc" | sort -u | sed 's/^/# /'

# kernel/ and rvgen/ reach nothing of user/: no quoted include that names
# a file of user/; and kernel/'s C files are the module's, the BPF
# programs' and the shared contracts'.
bad=$(cd "$top" && find kernel rvgen -name '*.[ch]' ! -name '*.mod.c' | while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		[ -e "user/$inc" ] || [ -e "user/${inc##*/}" ] && echo "$f includes $inc"
	done
done
find kernel -name '*.c' ! -name '*.mod.c' | grep -vE '^kernel/(module/[^/]+|module/compat/[^/]+|bpf/[^/]+\.bpf|shared/[^/]+)\.c$' | sed 's/$/ is no kernel code/')
[ -z "$bad" ]
ok $? "kernel/ and rvgen/ include nothing of user/; kernel/ holds kernel code only"
[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'
