#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# spin verifies the committed Promela model models/tlob.pml: no two
# transitions for one state and event, no reachable deadlock, and every
# active state can get back to stopped. The same checks must fail on
# models built to break them (tests/fixtures/rvgen/spin, and a copy of
# tlob.pml with a second transition for stopped x start).
use strict;
use warnings;
use Cwd qw(getcwd);
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

# pan's verdict on PML built with the -D options in @defs.
sub pan {
	my ($pml, @defs) = @_;
	my $dir = tmpdir();
	my $cwd = getcwd();
	chdir($dir) or die;
	my ($st, $out, $err) = run('spin', @defs, '-a', $pml);
	($st, $out, $err) = run('cc', '-O0', '-w', '-o', 'pan', 'pan.c') if !$st;
	($st, $out, $err) = run('./pan') if !$st;
	chdir($cwd) or die;
	die "spin/pan failed on $pml: $out$err" if $st;
	my ($errors) = $out =~ /errors: (\d+)/ or die "no verdict from pan: $out";
	return { errors => $errors, out => $out,
		 assertion => $out =~ /assertion violated/ ? 1 : 0,
		 deadlock => $out =~ /invalid end state \(/ ? 1 : 0 };
}

sub states_of {
	my ($pml) = @_;
	return (slurp($pml) =~ /^#define (\w+_\w+)\t\d+$/mg);
}

my $pml = top() . '/models/tlob.pml';
my $r = pan($pml);
is($r->{errors}, 0, 'tlob: spin finds no error') or diag($r->{out});
ok(!$r->{assertion}, 'tlob: no state has two transitions for one event');
ok(!$r->{deadlock}, 'tlob: no reachable deadlock');
like($r->{out}, qr/invalid end states\s+\+/, 'tlob: pan checked for invalid end states');

my @states = grep { !/^ev_/ } states_of($pml);
is_deeply([@states], [qw(stopped_tlob running_tlob sleeping_tlob waiting_tlob)],
	  'tlob.pml: the four states');
for my $s (grep { $_ ne 'stopped_tlob' } @states) {
	$r = pan($pml, "-DSTART=$s", '-DCHECK_RETURN');
	ok($r->{assertion} && $r->{errors} == 1, "tlob: stopped reachable from $s")
		or diag($r->{out});
}

# The checks can fail.
my $dir = tmpdir();
(my $dup = slurp($pml)) =~ s/^(\t+)T\(stopped_tlob, running_tlob\);\n/$&$1T(stopped_tlob, waiting_tlob);\n/m
	or die 'no T(stopped_tlob, running_tlob) in tlob.pml';
open(my $fh, '>', "$dir/dup.pml") or die;
print $fh $dup;
close($fh);
$r = pan("$dir/dup.pml");
ok($r->{assertion}, 'a second stopped x start transition is caught') or diag($r->{out});

sub pml_of {
	my ($m) = @_;
	my ($st, undef, $err) = run(rvgen(), '-k', 'pml', '--name', 'm', '-o', $dir,
				    fixtures() . "/spin/$m.dot");
	is($st, 0, "$m.dot: rvgen writes Promela") or diag($err);
	return "$dir/m.pml";
}

$r = pan(pml_of('deadlock'));
ok($r->{deadlock}, 'deadlock.dot: spin reports the deadlock in stuck') or diag($r->{out});
$r = pan(pml_of('no-return'));
is($r->{errors}, 0, 'no-return.dot: no deadlock, deterministic');
$r = pan("$dir/m.pml", '-DSTART=busy_m', '-DCHECK_RETURN');
ok($r->{assertion}, 'no-return.dot: idle reachable from busy');
$r = pan("$dir/m.pml", '-DSTART=trap_m', '-DCHECK_RETURN');
is($r->{errors}, 0, 'no-return.dot: idle not reachable from trap, and spin says so');

done_testing();
