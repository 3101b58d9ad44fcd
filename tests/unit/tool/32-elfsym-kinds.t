#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Only code binds (user/section/elfsym.c): an IFUNC's address is its resolver, so
# it is refused with the implementations the symbol table names; data
# objects, thread-local data and labels outside code are refused as what
# they are; an untyped label in .text is code; a name two functions have
# is ambiguous. On libfix.so
# (tests/unit/tool/fixtures, built by make) and the system's libc.so.6.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use ElfFixture;
use Test::More;

my $lib = "$FIX/libfix.so";
my $stripped = "$FIX/libfix-stripped.so";
-e $lib && -e $stripped or BAIL_OUT("no fixtures in $FIX: run make tool");

my ($rc, $out) = resolve($lib, 'frame_ifunc');
is($rc, 1, 'an IFUNC is refused');
like($out, qr/^error: 'frame_ifunc' in \Q$lib\E is an IFUNC: its address is the resolver that picks an implementation when the program loads, not the code a call runs; bind an implementation instead: frame_ifunc_avx2, __frame_ifunc_sse2$/,
	'... saying why, with the implementations .symtab names');
($rc, $out) = resolve($stripped, 'frame_ifunc');
is($rc, 1, 'an IFUNC of a stripped library is refused');
like($out, qr/is an IFUNC: .*, and the file's symbols name no implementation \(frame_ifunc_\*, __frame_ifunc_\*\) to bind instead$/,
	'... saying no implementation is named');
is((resolve($lib, 'frame_ifunc_avx2'))[1], sprintf('0x%x', expected($lib, 'frame_ifunc_avx2')),
	'the suggested implementation resolves');

for (['frame_count', 'a data object'], ['frame_table', 'a data object'],
     ['frame_tls', 'thread-local data'], ['frame_mark', 'a label outside the code sections']) {
	my ($sym, $what) = @$_;
	($rc, $out) = resolve($lib, $sym);
	is($rc, 1, "$sym ($what) is refused");
	is($out, "error: '$sym' in $lib is $what, not code: tlob binds functions", "... as $what");
}
is((resolve($lib, 'frame_label'))[1], sprintf('0x%x', expected($lib, 'frame_label')),
	'an untyped label in .text is code');

my @helpers = map { (split)[1] } grep { /\sFUNC\s.*\sframe_helper$/ } `readelf -sW $lib`;
($rc, $out) = resolve($lib, 'frame_helper');
is($rc, 1, 'a name two functions have is refused');
is($out, sprintf("error: 'frame_helper' names more than one symbol in %s (at file offsets 0x%x and 0x%x); bind the one you mean by its offset",
	$lib, map { file_offset($lib, hex) } @helpers), '... saying where both are');
is((resolve($lib, sprintf('0x%x', file_offset($lib, hex $helpers[1]))))[0], 0, '... and either offset binds');

my $libc = `gcc -print-file-name=libc.so.6`;
chomp $libc;
SKIP: {
	skip "memcpy in $libc is no IFUNC", 2 unless grep { /\sIFUNC\s.*\smemcpy\@\@/ } `readelf -W --dyn-syms $libc`;
	($rc, $out) = resolve($libc, 'memcpy');
	is($rc, 1, 'libc: memcpy (an IFUNC) is refused');
	like($out, qr/'memcpy' in \Q$libc\E is an IFUNC/, '... as an IFUNC');
}
done_testing();
