#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Symbol -> ELF file offset (user/section/elfsym.c) on fixtures built here: PIE and
# non-PIE executables and a shared library, with and without .symtab, with
# the text segment moved so that virtual address and file offset differ.
# The expected offsets come from readelf's symbol and program header
# tables, computed in this script independently of libelf.
use strict;
use warnings;
use File::Temp qw(tempdir);
use FindBin;
use lib $FindBin::Bin;
use ElfFixture qw(expected);	# readelf's view: symbol value, then the executable PT_LOAD
use Test::More;

my $build = $ENV{BUILD} // "$FindBin::Bin/../../../build";
my $drv = "$build/tests/unit/tool/elfsym_drv";
my $src = "$FindBin::Bin/fixtures/app.c";
my $dir = tempdir(CLEANUP => 1);

my %fixtures = (
	'pie'            => '-O0 -fPIE -pie',
	'pie-moved'      => '-O0 -fPIE -pie -Wl,--section-start=.text=0x20000',
	'nopie'          => '-O0 -fno-pie -no-pie',
	'lib.so'         => '-O0 -fPIC -shared -DFIXTURE_LIB -Wl,--section-start=.text=0x30000',
	'pie-stripped'   => '-O0 -fPIE -pie -rdynamic -Wl,--section-start=.text=0x20000',
	'lib-stripped.so'=> '-O0 -fPIC -shared -DFIXTURE_LIB',
);
for my $f (sort keys %fixtures) {
	system("gcc $fixtures{$f} -o $dir/$f $src") == 0 or BAIL_OUT("cannot build fixture $f");
}
system("strip --strip-all $dir/pie-stripped $dir/lib-stripped.so") == 0 or BAIL_OUT('strip');

sub resolve {
	my ($file, $sym) = @_;
	my $out = `$drv $dir/$file '$sym'`;
	chomp $out;
	return ($? >> 8, $out);
}

for my $f (sort keys %fixtures) {
	for my $sym (qw(frame_begin frame_end process_frame)) {
		my $want = expected("$dir/$f", $sym);
		ok(defined $want, "$f: readelf finds $sym") or next;
		my ($rc, $got) = resolve($f, $sym);
		is($got, sprintf('0x%x', $want), "$f: $sym at file offset " . sprintf('0x%x', $want));
	}
}

# The moved layouts really test the vaddr -> offset step.
my ($va) = map { hex((split)[1]) } grep { my @c = split; @c >= 8 && $c[7] eq 'frame_begin' }
	`readelf -sW $dir/pie-moved`;
ok($va, 'pie-moved: frame_begin has a virtual address');
isnt(sprintf('0x%x', $va), (resolve('pie-moved', 'frame_begin'))[1], 'pie-moved: offset differs from the virtual address');

my ($rc, $out) = resolve('pie', 'frame_begin+4');
is($out, sprintf('0x%x', expected("$dir/pie", 'frame_begin') + 4), 'NAME+OFFSET adds the offset');
# The offset reads as the monitor line's: decimal or 0x, never octal.
is_deeply([resolve('pie', 'frame_begin+010')], [resolve('pie', 'frame_begin+10')],
	'NAME+010 is NAME+10 (decimal, not octal)');
is_deeply([resolve('pie', 'frame_begin+0x4')], [resolve('pie', 'frame_begin+4')], 'NAME+0x4 is NAME+4');
($rc, $out) = resolve('pie', 'frame_begin+4x');
like($out, qr/^error: invalid symbol 'frame_begin\+4x'/, 'NAME+4x is refused');

($rc, $out) = resolve('pie', 'frame_begn');
is($rc, 1, 'misspelt symbol fails');
like($out, qr/symbol 'frame_begn' not found in .*pie; closest: frame_begin/, 'suggests the closest name first');
($rc, $out) = resolve('lib-stripped.so', 'proces_frame');
like($out, qr/closest: process_frame/, 'suggestion from .dynsym of a stripped library');
($rc, $out) = resolve('pie', 'zzzzzzzzzzzzzzzzzzzzzz');
unlike($out, qr/closest/, 'nothing suggested when nothing is close');

system("printf 'hello' > $dir/text");
($rc, $out) = resolve('text', 'main');
is($out, "error: $dir/text: not an ELF file", 'not an ELF file');
($rc, $out) = resolve('missing', 'main');
like($out, qr/^error: cannot open .*missing: No such file or directory$/, 'missing file');
# Only a regular file is a binary: a FIFO without a writer would block the open.
system('mkfifo', "$dir/fifo") == 0 or BAIL_OUT('mkfifo');
$out = `timeout 20 $drv $dir/fifo main`;
chomp $out;
is($out, "error: cannot open $dir/fifo: not a regular file", 'a FIFO: refused at once, not a blocked open');
done_testing();
