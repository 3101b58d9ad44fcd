#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module's files call each other in one direction only: no call cycle
# among kernel/module/*.c (and the shared parser). From one lane's built
# objects (nm: which file defines each symbol another one uses), the
# file-to-file call graph goes through tsort, which names any cycle. The
# graph is printed as diagnostics; first the checker proves it can fail on
# a graph with a cycle.
#   KMOD_OBJS=DIR (default: $BUILD/kmod/stock/kernel/module, else the
#   first lane built)
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
B=${BUILD:-$top/build}
dir=${KMOD_OBJS:-$(ls -d "$B"/kmod/stock/kernel/module "$B"/kmod/*/kernel/module 2>/dev/null | head -n 1)}
dir=${dir%/kernel/module}
if [ -z "$dir" ] || ! ls "$dir"/kernel/module/tlob_main.o >/dev/null 2>&1; then
	echo "1..0 # SKIP no built module objects under $B/kmod (make kmod)"
	exit 0
fi
echo "1..3"

# edges OBJ...: "caller callee" for every symbol one object uses that
# another defines
edges() {
	local o
	for o in "$@"; do
		nm "$o" | awk -v f="$(basename "$o" .o)" \
			'NF == 3 && $2 ~ /^[TDBR]$/ { print "D", f, $3 } NF == 2 && $1 == "U" { print "U", f, $2 }'
	done | awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[$2 " " $3] = 1 }
		END { for (k in use) { split(k, a, " "); if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' |
		sort -u
}
# cycles: what tsort says of a cycle in the edges on stdin (nothing: none)
cycles() { { cat; } | tsort 2>&1 >/dev/null | sed 's/^tsort: //'; }

got=$(printf 'a b\nb c\nc a\n' | cycles)
[ -n "$got" ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 1 - the checker finds the cycle a -> b -> c -> a"

objs=$(ls "$dir"/kernel/module/tlob_*.o "$dir"/kernel/shared/*.o 2>/dev/null | grep -v '\.mod\.o$' | grep -v '/tlob\.o$')
graph=$(edges $objs)
[ "$(echo "$graph" | wc -l)" -ge 10 ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 2 - the module's files call each other ($(echo "$graph" | wc -l) file-to-file edges, ${dir#"$B"/})"
echo "$graph" | awk '{ c[$1] = c[$1] " " $2 } END { for (f in c) print "# " f " ->" c[f] }' | sort

got=$(echo "$graph" | cycles)
[ -z "$got" ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 3 - no call cycle among the module's files"
[ -z "$got" ] || echo "$got" | sed 's/^/# /'
