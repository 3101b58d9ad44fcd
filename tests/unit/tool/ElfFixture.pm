# SPDX-License-Identifier: GPL-2.0
# What the tool's ELF tests share: binutils' view of a binary (readelf,
# objdump), independent of the libelf and capstone code under test, and
# the driver (elfsym_drv) and tool to run.
package ElfFixture;
use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use FindBin;

our @EXPORT = qw($BUILD $FIX $TLOB sym_value sym_size file_offset expected resolve
	insn_starts tlob_run);

# Absolute: the kernel's line takes an absolute path.
our $BUILD = File::Spec->rel2abs($ENV{BUILD} // "$FindBin::Bin/../../../build");
our $FIX = "$BUILD/tests/unit/tool/fixtures";
our $TLOB = "$BUILD/user/tlob";
my $drv = "$BUILD/tests/unit/tool/elfsym_drv";

# readelf's row of a defined symbol, named as readelf prints it (NAME@@V).
sub sym_row {
	my ($file, $sym) = @_;
	for (`readelf -sW $file`) {
		my @c = split;
		return @c if @c >= 8 && $c[7] eq $sym && $c[6] ne 'UND';
	}
	return ();
}
sub sym_value { my @c = sym_row(@_); return @c ? hex($c[1]) : undef; }
sub sym_size { my @c = sym_row(@_); return @c ? ($c[2] =~ /^0x/ ? hex($c[2]) : $c[2]) : undef; }

# The file offset of a virtual address, through the executable PT_LOAD that maps it.
sub file_offset {
	my ($file, $va) = @_;
	for (`readelf -lW $file`) {
		next unless /^\s*LOAD\s+(0x\S+)\s+(0x\S+)\s+0x\S+\s+(0x\S+)\s+0x\S+\s+(.*?)\s+0x/;
		my ($off, $base, $fsz, $flg) = (hex($1), hex($2), hex($3), $4);
		return $va - $base + $off if $va >= $base && $va < $base + $fsz && $flg =~ /E/;
	}
	return undef;
}

sub expected {
	my ($file, $sym) = @_;
	my $value = sym_value($file, $sym);
	return defined $value ? file_offset($file, $value) : undef;
}

# elfsym_drv [--force] FILE SYMBOL|OFFSET: (exit status, output line)
sub resolve {
	open(my $fh, '-|', $drv, @_) or die "$drv: $!";
	my $out = join('', <$fh>);
	close($fh);
	chomp $out;
	return ($? >> 8, $out);
}

# objdump's instruction starts (virtual addresses) in [start, start + size).
sub insn_starts {
	my ($file, $start, $size) = @_;
	my @a;
	for (`objdump -d --no-show-raw-insn --start-address=$start --stop-address=${\($start + $size)} $file`) {
		push @a, hex($1) if /^\s+([0-9a-f]+):\s+\S/;
	}
	return @a;
}

# tlob ARGS...: (exit status, stderr lines)
sub tlob_run {
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		open(STDOUT, '>', '/dev/null');
		exec($TLOB, @_) or exit 127;
	}
	my @err = <$fh>;
	close($fh);
	chomp @err;
	return ($? >> 8, @err);
}

1;
