#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# spin verifies the committed Promela models, models/tlob.pml and
# models/alive.pml: no two transitions for one state and event, no
# reachable deadlock, and every other state can get back to the initial
# one (stopped, idle). The same checks must fail on models built to break
# them (tests/fixtures/rvgen/spin, and copies of tlob.pml and alive.pml
# with a second transition for one state and event).
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

# Each committed model: its states, initial first, and a transition to
# duplicate (FROM x EVENT -> TO, and the second target to add).
my $dir = tmpdir();
my @models = (
	['tlob', [qw(stopped running sleeping waiting)], 'start', 'stopped', 'running', 'waiting'],
	['alive', [qw(idle supervised)], 'begin', 'idle', 'supervised', 'idle'],
);
for my $m (@models) {
	my ($mon, $states, $ev, $from, $to, $also) = @$m;
	my $pml = top() . "/models/$mon.pml";
	my $r = pan($pml);
	is($r->{errors}, 0, "$mon: spin finds no error") or diag($r->{out});
	ok(!$r->{assertion}, "$mon: no state has two transitions for one event");
	ok(!$r->{deadlock}, "$mon: no reachable deadlock");
	like($r->{out}, qr/invalid end states\s+\+/, "$mon: pan checked for invalid end states");

	my @states = grep { !/^ev_/ } states_of($pml);
	is_deeply([@states], [map { "${_}_$mon" } @$states],
		  "$mon.pml: the " . scalar(@$states) . ' states, initial first');
	like(slurp($pml), qr/^#define START $states->[0]_$mon$/m, "$mon.pml: starts in $states->[0]");
	for my $s (grep { $_ ne "$states->[0]_$mon" } @states) {
		$r = pan($pml, "-DSTART=$s", '-DCHECK_RETURN');
		ok($r->{assertion} && $r->{errors} == 1, "$mon: $states->[0] reachable from $s")
			or diag($r->{out});
	}

	# The checks can fail.
	(my $dup = slurp($pml)) =~ s/^(\t+)T\(${from}_$mon, ${to}_$mon\);\n/$&$1T(${from}_$mon, ${also}_$mon);\n/m
		or die "no T(${from}_$mon, ${to}_$mon) in $mon.pml";
	open(my $fh, '>', "$dir/dup-$mon.pml") or die;
	print $fh $dup;
	close($fh);
	$r = pan("$dir/dup-$mon.pml");
	ok($r->{assertion}, "$mon: a second $from x $ev transition is caught") or diag($r->{out});
}

sub pml_of {
	my ($m) = @_;
	my ($st, undef, $err) = run(rvgen(), '-k', 'pml', '--name', 'm', '-o', $dir,
				    fixtures() . "/spin/$m.dot");
	is($st, 0, "$m.dot: rvgen writes Promela") or diag($err);
	return "$dir/m.pml";
}

my $r = pan(pml_of('deadlock'));
ok($r->{deadlock}, 'deadlock.dot: spin reports the deadlock in stuck') or diag($r->{out});
$r = pan(pml_of('no-return'));
is($r->{errors}, 0, 'no-return.dot: no deadlock, deterministic');
$r = pan("$dir/m.pml", '-DSTART=busy_m', '-DCHECK_RETURN');
ok($r->{assertion}, 'no-return.dot: idle reachable from busy');
$r = pan("$dir/m.pml", '-DSTART=trap_m', '-DCHECK_RETURN');
is($r->{errors}, 0, 'no-return.dot: idle not reachable from trap, and spin says so');

done_testing();
