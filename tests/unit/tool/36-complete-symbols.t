#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tlob --complete-symbols PATH (cmd/complete.c over section/elfsym.c): the
# functions of an ELF file a section can name, for bash completion after
# "-b PATH:". Sorted, each once, only names tlob_elf_resolve() takes (so
# each one resolves), NAME@VERSION only for a compat version; bounded; and
# a path that is no regular ELF file (the user's hostile input) gives exit
# 1 and nothing on stdout, without blocking.
. "$(dirname "$0")/tap.sh"
fix=$BUILD/tests/unit/tool/fixtures
[ -x "$fix/app" ] && [ -e "$fix/libfix.so" ] || { echo "Bail out! no fixtures in $fix: run make tool"; exit 1; }

# syms PATH: list PATH's functions into $tmp/out, its exit status in $rc
syms() {
	timeout 10 "$TLOB" --complete-symbols "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# listed PATH: the listing as one line
listed() { syms "$1"; tr '\n' ' ' <"$tmp/out"; }

# readelf's defined, sized functions of app (it has no versioned ones)
want=$(readelf -sW "$fix/app" | awk '$4 == "FUNC" && $3 != "0" && $7 != "UND" { print $8 }' |
	sort -u | tr '\n' ' ')
case " $want" in *" frame_begin frame_end "*" process_frame "*) ok 0 "readelf: app's functions: $want" ;;
*) ok 1 "readelf: app's functions: $want" ;; esac
syms "$fix/app"
is "$rc $(tr '\n' ' ' <"$tmp/out")" "0 $want" "app: its sized functions, sorted, each once (.symtab and .dynsym)"

got=$(listed "$fix/libfix.so")
for name in frame_step frame_step@LIBFIX_1.0 frame_legacy@LIBFIX_1.0 frame_step_v2; do
	case " $got" in *" $name "*) ok 0 "libfix.so: offers $name" ;;
	*) ok 1 "libfix.so: offers $name"; echo "#   got: $got" ;; esac
done
# frame_legacy: no default version; @@: what NAME alone means; frame_helper:
# static in two files; frame_ifunc: an IFUNC's resolver; frame_count: data
for name in frame_legacy frame_step@@LIBFIX_2.0 frame_step@LIBFIX_2.0 frame_helper frame_ifunc frame_count; do
	case " $got" in *" $name "*) ok 1 "libfix.so: offers no $name"; echo "#   got: $got" ;;
	*) ok 0 "libfix.so: offers no $name" ;; esac
done
is "$(listed "$fix/libfix-stripped.so")" "frame_legacy@LIBFIX_1.0 frame_step frame_step@LIBFIX_1.0 " \
	"stripped libfix.so: .dynsym's functions, a compat version as NAME@VERSION"

# Every name offered is one tlob binds.
bad=
for f in "$fix/app" "$fix/libfix.so" "$fix/libfix-stripped.so"; do
	for s in $(listed "$f"); do
		"$BUILD/tests/unit/tool/elfsym_drv" "$f" "$s" >/dev/null 2>&1 || bad="$bad $s"
	done
done
is "$bad" "" "every name offered resolves (tlob_elf_resolve)"
# libc.so.6 has compat versions of names that also stand before a '.' or a digit
for f in "$fix/libfix.so" "$(gcc -print-file-name=libc.so.6)"; do
	out=$("$TLOB" --complete-symbols "$f")
	is "$out" "$(printf '%s\n' "$out" | LC_ALL=C sort -u)" "${f##*/}: sorted (bytewise), each once"
done

# nothing PATH NAME: exit 1, nothing on stdout, one line on stderr, no hang
nothing() {
	syms "$1"
	[ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
	ok $? "$2: exit 1, nothing offered" ||
		{ echo "# exit $rc"; sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
}
nothing /dev/null "/dev/null"
mkfifo "$tmp/fifo"
nothing "$tmp/fifo" "a FIFO without a writer (timeout: 124)"
nothing "$tmp" "a directory"
nothing "$tmp/none" "a path that does not exist"
printf 'frame_begin\n' >"$tmp/text"
nothing "$tmp/text" "a text file"
nothing "$fix/app-stripped" "a stripped executable (no function it defines has a symbol)"
size=$(stat -c %s "$fix/app")
for cut in 16 64 1024 $((size / 2)) $((size - 64)); do
	head -c "$cut" "$fix/app" >"$tmp/cut"
	nothing "$tmp/cut" "app cut to $cut bytes"
done
"$TLOB" --complete-symbols >/dev/null 2>&1
is $? 2 "without a PATH: a usage error"

# A hostile file's names: only what a shell line carries unquoted.
cat >"$tmp/evil.s" <<'ASM'
	.text
	.irp name, "evil name", "evil$(id>evil.out)", "a,b", "c:d", "e+1", good
	.globl "\name"
	.type "\name",@function
"\name":
	ret
	.size "\name", 1
	.endr
ASM
if gcc -shared -nostdlib -o "$tmp/evil.so" "$tmp/evil.s" 2>"$tmp/gcc.err"; then
	is "$(listed "$tmp/evil.so")" "good " "names with blanks, \$( ), ',', ':' or '+' are not offered"
else
	ok 1 "gcc builds the hostile names' library"
	diag <"$tmp/gcc.err"
fi

# Bounded: a file of more functions than any shell offers.
awk 'BEGIN { print "\t.text"
	for (i = 0; i < 100005; i++)
		printf "\t.globl f%d\n\t.type f%d,@function\nf%d:\n\tret\n\t.size f%d,1\n", i, i, i, i }' \
	>"$tmp/many.s"
if gcc -shared -nostdlib -o "$tmp/many.so" "$tmp/many.s" 2>"$tmp/gcc.err"; then
	syms "$tmp/many.so"
	is "$rc $(wc -l <"$tmp/out")" "0 100000" "100005 functions: the first 100000 names"
else
	ok 1 "gcc builds the many functions' library"
	diag <"$tmp/gcc.err"
fi
tap_done
