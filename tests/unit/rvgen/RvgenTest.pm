# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the rvgen tests: where things are, and running a
# command with its stdout, stderr and exit status captured.
package RvgenTest;

use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use Exporter qw(import);

our @EXPORT = qw(top build rvgen run slurp fixtures upstream_models
		 parse_dump tmpdir write_file);

sub top { return abs_path(dirname(__FILE__) . '/../../..'); }
sub build { return $ENV{BUILD} || top() . '/build'; }
sub rvgen { return build() . '/rvgen/' . ($_[0] // 'rvgen'); }
sub fixtures { return top() . '/tests/fixtures/rvgen'; }
sub tmpdir { return tempdir('rvgen-test.XXXXXX', TMPDIR => 1, CLEANUP => 1); }

sub slurp {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!";
	local $/;
	my $text = <$fh>;
	close($fh);
	return $text;
}

# write_file($dir, $name, $text) -> "$dir/$name", written.
sub write_file {
	my ($dir, $name, $text) = @_;
	open(my $fh, '>', "$dir/$name") or die "$dir/$name: $!";
	print $fh $text;
	close($fh);
	return "$dir/$name";
}

# run(@argv) -> (status, stdout, stderr); status is the exit code, or
# 128 + signal if the command died from one.
sub run {
	my @argv = @_;
	my $dir = tmpdir();
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		open(STDOUT, '>', "$dir/out") or die;
		open(STDERR, '>', "$dir/err") or die;
		exec(@argv) or die "exec $argv[0]: $!";
	}
	waitpid($pid, 0);
	my $st = $? & 127 ? 128 + ($? & 127) : $? >> 8;
	return ($st, slurp("$dir/out"), slurp("$dir/err"));
}

# Upstream models with a golden header: [dot, header, monitor name].
sub upstream_models {
	my $dir = fixtures() . '/upstream';
	my @out;
	for my $dot (sort glob("$dir/*.dot")) {
		(my $h = $dot) =~ s/\.dot$/.expected.h/;
		next unless -e $h;
		my ($name) = slurp($h) =~ /enum\s+states_(\w+)/;
		push(@out, [$dot, $h, $name]);
	}
	return @out;
}

# The line format of `rvgen --kind dump` as a hash.
sub parse_dump {
	my ($text) = @_;
	my %d = (states => [], events => [], envs => [], final => {},
		 inv => {}, cell => {});
	for (split(/\n/, $text)) {
		my @f = split(/ /);
		if ($f[0] eq 'state') {
			push(@{$d{states}}, $f[2]);
			$d{initial} = $f[2] if grep { $_ eq 'initial' } @f;
			$d{final}{$f[2]} = 1 if grep { $_ eq 'final' } @f;
			my ($inv) = /inv=(\S+)/;
			$d{inv}{$f[2]} = $inv if defined $inv;
		} elsif ($f[0] eq 'event') {
			push(@{$d{events}}, $f[2]);
		} elsif ($f[0] eq 'env') {
			push(@{$d{envs}}, $f[2]);
		} elsif ($f[0] eq 'cell') {
			my ($reset) = /reset=(\S+)/;
			my ($timer) = /timer=(\S+)/;
			$d{cell}{$f[1]}{$f[2]} = { next => $f[3], reset => $reset,
						   timer => $timer };
		}
	}
	return \%d;
}

1;
