#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Every cell of the committed tlob table (kernel/shared/tlob_model.h, compiled and
# printed by tlob_table), the invalid cells included, against the edges
# of models/tlob.dot as graphviz's own gvpr reads them (not rvgen): next
# state, clock reset and timer action, plus state/event order, initial,
# final and invariant metadata.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my $dot = top() . '/models/tlob.dot';
my ($st, $gv, $err) = run('gvpr', 'N { printf("N\t%s\t%s\t%s\n", $.name, $.label, $.shape); } ' .
			  'E { printf("E\t%s\t%s\t%s\n", $.tail.name, $.head.name, $.label); }', $dot);
is($st, 0, 'gvpr reads models/tlob.dot') or BAIL_OUT($err);

# The model, from the DOT.
my (%states, %events, %edge, %inv, %final, $initial);
for (split(/\n/, $gv)) {
	my @f = split(/\t/, $_, -1);
	if ($f[0] eq 'N') {
		if ($f[1] =~ /^__init_(.*)/) { $initial = $1; next; }
		$states{$f[1]} = 1;
		$final{$f[1]} = 1 if $f[3] =~ /^(doublecircle|ellipse)$/;
		my (undef, $i) = split(/\\n/, $f[2]);
		$inv{$f[1]} = $i if defined $i;
	} elsif ($f[0] eq 'E') {
		next if $f[1] =~ /^__init_/;
		for my $piece (split(/\\n/, $f[3])) {
			my ($ev, @rest) = split(/;/, $piece);
			my ($reset) = map { /^reset\((\w+)\)$/ ? $1 : () } @rest;
			die "two edges for $f[1] x $ev" if $edge{$f[1]}{$ev};
			$edge{$f[1]}{$ev} = { next => $f[2], reset => $reset // '-' };
			$events{$ev} = 1;
		}
	}
}
%final = ($initial => 1) unless %final;
my @states = ($initial, sort grep { $_ ne $initial } keys %states);
my @events = sort keys %events;
is(scalar(@states), 4, 'DOT: four states');
is(scalar(@events), 7, 'DOT: seven events');

# The table, from the compiled header.
($st, my $out, $err) = run(build() . '/rvgen/tests/tlob_table');
is($st, 0, 'tlob_table runs') or BAIL_OUT($err);
my (%cell, @tstates, @tevents, %tfinal, %tinv, %tle, $tinitial);
for (split(/\n/, $out)) {
	my @f = split(/ /);
	if ($f[0] eq 'initial') { $tinitial = $f[1]; }
	elsif ($f[0] eq 'state') {
		push(@tstates, $f[2]);
		$tfinal{$f[2]} = 1 if $f[3] eq 'final=1';
		$tinv{$f[2]} = $f[4] =~ s/^inv=//r;
		$tle{$f[2]} = $f[5] =~ s/^le=//r;
	} elsif ($f[0] eq 'event') { push(@tevents, $f[2]); }
	elsif ($f[0] eq 'cell') {
		$cell{$f[1]}{$f[2]} = { next => $f[3], reset => $f[4] =~ s/^reset=//r,
					timer => $f[5] =~ s/^timer=//r };
	}
}

is_deeply(\@tstates, \@states, 'states: initial first, the rest sorted');
is_deeply(\@tevents, \@events, 'events sorted');
is($tinitial, $initial, "initial state is $initial");
is_deeply(\%tfinal, \%final, 'final states');
for my $s (@states) {
	my ($env, $op) = ($inv{$s} // '') =~ /^\s*(\w+)\s*(<=?)/;
	is($tinv{$s}, $env // '-', "$s: invariant clock");
	is($tle{$s}, ($op // '') eq '<=' ? 1 : 0, "$s: invariant comparison");
}

# The timer rule of the model contract (kernel/shared/README.md), computed
# here from the DOT.
sub timer_rule {
	my ($s, $ev, $e) = @_;
	my ($from, $to) = ($inv{$s}, $inv{$e->{next}});
	my ($clk) = defined $to ? $to =~ /^\s*(\w+)/ : ();
	return 'arm' if defined $to && ($e->{reset} eq ($clk // '') ||
					!defined $from || $from ne $to);
	return 'cancel' if !defined $to && defined $from;
	return 'keep';
}

for my $s (@states) {
	for my $ev (@events) {
		my $e = $edge{$s}{$ev};
		my $c = $cell{$s}{$ev};
		if (!$e) {
			is_deeply($c, { next => '-', reset => '-', timer => 'keep' },
				  "$s x $ev: not allowed (INVALID_STATE_TLOB, no reset, keep)");
			next;
		}
		is($c->{next}, $e->{next}, "$s x $ev -> $e->{next}");
		is($c->{reset}, $e->{reset}, "$s x $ev: reset $e->{reset}");
		is($c->{timer}, timer_rule($s, $ev, $e), "$s x $ev: timer " . timer_rule($s, $ev, $e));
	}
}

# The timer actions the design asks for, spelled out.
my %want = ('stopped start' => 'arm', 'running stop' => 'cancel',
	    'running abort' => 'cancel', 'waiting abort' => 'cancel',
	    'sleeping abort' => 'cancel');
my @bad;
for my $s (@states) {
	for my $ev (@events) {
		my $w = $want{"$s $ev"} // 'keep';
		push(@bad, "$s x $ev: $cell{$s}{$ev}{timer}, want $w")
			if $cell{$s}{$ev}{timer} ne $w;
	}
}
is_deeply(\@bad, [], 'timer armed only at stopped x start, cancelled only at stop/abort');

done_testing();
