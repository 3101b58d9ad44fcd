#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# No probe inside an instruction or outside code (user/section/elfsym.c, insn.c):
# NAME+OFF must lie inside NAME and start an instruction, a raw file
# offset (PATH:0xOFF, or the kernel's line "p PATH:0x1 0x2 threshold=")
# must lie in an executable PT_LOAD and start an instruction of the
# function around it, checked before any probe is placed. Instruction
# starts come from objdump, offsets from readelf (ElfFixture.pm), on the
# fixtures make builds (tests/unit/tool/fixtures).
use strict;
use warnings;
use File::Temp qw(tempdir);
use FindBin;
use lib $FindBin::Bin;
use ElfFixture;
use Test::More;

my $app = "$FIX/app";
my $stripped = "$FIX/app-stripped";
-e $app && -e $stripped or BAIL_OUT("no fixtures in $FIX: run make tool");
my $dir = tempdir(CLEANUP => 1);
my $hex = sub { sprintf('0x%x', $_[0]) };

# Every byte of two functions, as NAME+OFF and as a file offset: accepted
# exactly where objdump starts an instruction.
for my $fn (qw(frame_begin main)) {
	my ($va, $size) = (sym_value($app, $fn), sym_size($app, $fn));
	my %start = map { $_ => 1 } insn_starts($app, $va, $size);
	ok($size > 4 && keys %start > 2, "objdump: $fn has instructions");
	my ($good, $bad) = (0, 0);
	for my $off (0 .. $size - 1) {
		my $fo = file_offset($app, $va + $off);
		my ($rc1, $o1) = resolve($app, "$fn+$off");
		my ($rc2, $o2) = resolve($app, $hex->($fo));
		if ($start{$va + $off}) {
			$good++ if $o1 eq $hex->($fo) && $o2 eq $hex->($fo);
			diag("$fn+$off: $o1 / $o2") unless $o1 eq $hex->($fo) && $o2 eq $hex->($fo);
		} else {
			$bad++ if $rc1 == 1 && $o1 =~ /is not on an instruction boundary: it falls inside '/ &&
				$rc2 == 1 && $o2 =~ /is not on an instruction boundary/;
			diag("$fn+$off: $o1 / $o2") unless $rc1 == 1 && $rc2 == 1;
		}
	}
	is($good, scalar(keys %start), "$fn: every instruction start is accepted (NAME+OFF and file offset)");
	is($bad, $size - keys %start, "$fn: every byte inside an instruction is refused");
}

my ($va, $size) = (sym_value($app, 'frame_begin'), sym_size($app, 'frame_begin'));
my @starts = insn_starts($app, $va, $size);
my ($fb, $fe) = (expected($app, 'frame_begin'), expected($app, 'frame_end'));
# The first byte inside an instruction, and the boundaries around it.
my ($i) = grep { $starts[$_ + 1] > $starts[$_] + 1 } 0 .. $#starts - 1;
my $inside = $fb + $starts[$i] - $va + 1;
my ($lo, $hi) = map { sprintf('frame_begin\+0x%x \(file offset 0x%x\)', $_ - $va, $fb + $_ - $va) } @starts[$i, $i + 1];
my ($rc, $out) = resolve($app, 'frame_begin+' . ($inside - $fb));
like($out, qr/^error: 'frame_begin\+${\($inside - $fb)}' in \Q$app\E is not on an instruction boundary: it falls inside '[^']+'; the nearest boundaries are $lo, where that instruction starts, and $hi$/,
	'inside an instruction: the instruction and the boundaries around it');
for my $off ($size, 0x100) {
	($rc, $out) = resolve($app, sprintf('frame_begin+0x%x', $off));
	is($rc, 1, sprintf('frame_begin+0x%x (past its %d bytes) is refused', $off, $size));
	like($out, qr/is past the end of frame_begin, which is 0x${\sprintf('%x', $size)} bytes long; its last instruction is at frame_begin\+0x${\sprintf('%x', $starts[-1] - $va)} /,
		'... naming its last instruction');
}
for my $bad ('frame_begin+-1', 'frame_begin+99999999999999999999999', 'frame_begin+', 'frame_begin+ 4', 'frame_begin++4') {
	($rc, $out) = resolve($app, $bad);
	is($rc, 2, "'$bad' is malformed");
}

# Raw offsets: outside executable code, in no function, in an IFUNC's resolver.
my $code = join(', ', map { sprintf('0x%x..0x%x', @$_) } grep { 1 }
	map { /^\s*LOAD\s+(0x\S+)\s+\S+\s+\S+\s+(0x\S+)\s+\S+\s+.*E/ ? [hex($1), hex($1) + hex($2) - 1] : () } `readelf -lW $app`);
for my $off (0x10, -s $app) {
	($rc, $out) = resolve($app, $hex->($off));
	is($out, sprintf("error: offset 0x%x of %s is not in its executable code (file offsets %s)", $off, $app, $code),
		sprintf('offset 0x%x is not in executable code', $off));
}
my $main = expected($app, 'main');
($rc, $out) = resolve($stripped, $hex->($main));
is($rc, 1, 'an offset no symbol covers is refused');
is($out, sprintf("error: offset 0x%x of %s is in no function symbol, so tlob cannot check that an instruction starts there; pass --force-offset to bind it anyway", $main, $stripped),
	'... saying how to force it');
is((resolve('--force', $stripped, $hex->($main)))[1], $hex->($main), '... and forced, it passes');
($rc, $out) = resolve('--force', $app, $hex->($inside));
is($rc, 1, 'force never accepts an offset known to be inside an instruction');
my $resolver = expected("$FIX/libfix.so", 'resolve_frame_ifunc');
like((resolve("$FIX/libfix.so", $hex->($resolver)))[1], qr/'frame_ifunc' in .* is an IFUNC/,
	"an offset in an IFUNC's resolver is refused");
is((resolve($app, $hex->(expected($app, '_init'))))[1], $hex->(expected($app, '_init')),
	'the start of a function without a size (_init) passes');

# Through the tool: every check happens before the backend is asked (the
# kmod backend at a control root that does not exist: reaching it means the
# section passed).
my $nodir = "$dir/no-such-dir";
my @kmod = ('--backend', 'kmod', '--root', $nodir);
my $reached = qr/\Q$nodir\E\/monitor does not exist/;
sub tool {
	my ($want_rc, $pat, $name, @args) = @_;
	my ($rc, @err) = tlob_run(@args);
	ok($rc == $want_rc && @err == 1 && $err[0] =~ $pat, $name) or
		diag("exit $rc (want $want_rc): " . join(' | ', @err));
}
open(my $fh, '>', "$dir/text") or die; print $fh "not elf\n"; close($fh);
tool(1, qr/not on an instruction boundary/, 'mon: NAME+OFF inside an instruction',
	'mon', @kmod, '-b', "$app:frame_begin+" . ($inside - $fb) . ",frame_end,1ms");
tool(1, qr/is past the end of frame_begin/, 'mon: NAME+OFF past the function',
	'mon', @kmod, '-b', "$app:frame_begin+0x100,frame_end,1ms");
tool(2, qr/invalid symbol 'frame_begin\+-1'/, 'mon: a negative OFF is a usage error',
	'mon', @kmod, '-b', "$app:frame_begin+-1,frame_end,1ms");
tool(1, $reached, 'mon: NAME+OFF on a boundary passes',
	'mon', @kmod, '-b', "$app:frame_begin+" . ($starts[1] - $va) . ",frame_end,1ms");
tool(1, qr/offset ${\$hex->($inside)} in .* is not on an instruction boundary/, 'bind: a raw START inside an instruction',
	'bind', @kmod, '-b', sprintf('%s:0x%x,0x%x,1ms', $app, $inside, $fe));
tool(1, qr/offset 0x10 of .* is not in its executable code/, 'bind: a raw offset outside code',
	'bind', @kmod, '-b', sprintf('%s:0x%x,0x10,1ms', $app, $fb));
tool(1, $reached, 'bind: raw offsets on boundaries pass',
	'bind', @kmod, '-b', sprintf('%s:0x%x,0x%x,1ms', $app, $fb, $fe));
tool(1, qr/^tlob: \Q$dir\E\/text: not an ELF file$/, "bind: the kernel's line on a text file",
	'bind', @kmod, '-b', "p $dir/text:0x1 0x2 threshold=1000000");
tool(1, qr/not on an instruction boundary/, "bind: the kernel's line, START inside an instruction",
	'bind', @kmod, '-b', sprintf('p %s:0x%x 0x%x threshold=1000000', $app, $inside, $fe));
tool(1, qr/not on an instruction boundary/, "bind: the kernel's line, STOP inside an instruction",
	'bind', @kmod, '-b', sprintf('p %s:0x%x 0x%x threshold=1000000', $app, $fe, $inside));
tool(1, $reached, "bind: the kernel's line on boundaries passes",
	'bind', @kmod, '-b', sprintf('p %s:0x%x 0x%x threshold=1000000', $app, $fb, $fe));
tool(1, qr/in no function symbol, .*; pass --force-offset to bind it anyway$/, 'bind: an offset no symbol covers',
	'bind', @kmod, '-b', sprintf('p %s:0x%x ret threshold=1000000', $stripped, $main));
tool(1, $reached, 'bind --force-offset (after -b) binds it',
	'bind', @kmod, '-b', sprintf('p %s:0x%x ret threshold=1000000', $stripped, $main), '--force-offset');
tool(1, $reached, 'mon --force-offset binds it',
	'mon', '--force-offset', @kmod, '-b', sprintf('%s:0x%x,ret,1ms', $stripped, $main));
tool(2, qr/option --force-offset does not apply/, 'unbind takes no --force-offset',
	'unbind', '--force-offset', @kmod, '-b', "$app:0x10");
tool(1, $reached, 'unbind PATH:OFF is not checked (it names a binding)',
	'unbind', @kmod, '-b', "$app:0x10");
done_testing();
