#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Every cell of the committed tables (kernel/shared/tlob_model.h and
# alive_model.h, compiled and printed by model_table.h: tlob_table, built
# by make, and alive's, built here), the invalid cells included, against
# the edges of models/tlob.dot and models/alive.dot as graphviz's own gvpr
# reads them (not rvgen): next state, clock reset and timer action, plus
# state/event order, initial, final and invariant metadata.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my $top = top();
my $dir = tmpdir();

# alive's printer: model_table.h on alive_model.h, built now, so that it
# is never older than the header.
my $alive_src = write_file($dir, 'alive_table.c', "#include \"alive_model.h\"\n\n" .
			   "#define MON alive\n#define INVALID INVALID_STATE_ALIVE\n" .
			   "#include \"model_table.h\"\n");
my ($st, undef, $err) = run('gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', '-O2',
			    "-I$top/kernel/shared", "-I$FindBin::Bin", '-o', "$dir/alive_table", $alive_src);
is($st, 0, 'alive_table builds (model_table.h on alive_model.h)') or BAIL_OUT($err);

# Each model: its table printer, the number of states and events, and the
# timer actions the design asks for (every other cell keeps the timer).
my @models = (
	{ mon => 'tlob', table => build() . '/rvgen/tests/tlob_table', nstates => 4, nevents => 7,
	  why => 'armed only at stopped x start, cancelled only at stop/abort',
	  want => { 'stopped start' => 'arm', 'running stop' => 'cancel',
		    'running abort' => 'cancel', 'waiting abort' => 'cancel',
		    'sleeping abort' => 'cancel' } },
	{ mon => 'alive', table => "$dir/alive_table", nstates => 2, nevents => 4,
	  why => 'armed at idle x begin and at every cycle_end (clk_cycle reset), cancelled only at abort',
	  want => { 'idle begin' => 'arm', 'supervised cycle_end' => 'arm',
		    'supervised abort' => 'cancel' } },
);

for my $m (@models) {
	my $mon = $m->{mon};
	my $dot = "$top/models/$mon.dot";
	my $gv;
	($st, $gv, $err) = run('gvpr', 'N { printf("N\t%s\t%s\t%s\n", $.name, $.label, $.shape); } ' .
			       'E { printf("E\t%s\t%s\t%s\n", $.tail.name, $.head.name, $.label); }', $dot);
	is($st, 0, "gvpr reads models/$mon.dot") or BAIL_OUT($err);

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
	is(scalar(@states), $m->{nstates}, "$mon DOT: $m->{nstates} states");
	is(scalar(@events), $m->{nevents}, "$mon DOT: $m->{nevents} events");

	# The table, from the compiled header.
	($st, my $out, $err) = run($m->{table});
	is($st, 0, "${mon}_table runs") or BAIL_OUT($err);
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

	is_deeply(\@tstates, \@states, "$mon states: initial first, the rest sorted");
	is_deeply(\@tevents, \@events, "$mon events sorted");
	is($tinitial, $initial, "$mon initial state is $initial");
	is_deeply(\%tfinal, \%final, "$mon final states");
	for my $s (@states) {
		my ($env, $op) = ($inv{$s} // '') =~ /^\s*(\w+)\s*(<=?)/;
		is($tinv{$s}, $env // '-', "$mon $s: invariant clock");
		is($tle{$s}, ($op // '') eq '<=' ? 1 : 0, "$mon $s: invariant comparison");
	}

	# The timer rule of the model contract (kernel/shared/README.md),
	# computed here from the DOT.
	my $timer_rule = sub {
		my ($s, $ev, $e) = @_;
		my ($from, $to) = ($inv{$s}, $inv{$e->{next}});
		my ($clk) = defined $to ? $to =~ /^\s*(\w+)/ : ();
		return 'arm' if defined $to && ($e->{reset} eq ($clk // '') ||
						!defined $from || $from ne $to);
		return 'cancel' if !defined $to && defined $from;
		return 'keep';
	};

	my $invalid = 'INVALID_STATE_' . uc($mon);
	for my $s (@states) {
		for my $ev (@events) {
			my $e = $edge{$s}{$ev};
			my $c = $cell{$s}{$ev};
			if (!$e) {
				is_deeply($c, { next => '-', reset => '-', timer => 'keep' },
					  "$mon $s x $ev: not allowed ($invalid, no reset, keep)");
				next;
			}
			my $rule = $timer_rule->($s, $ev, $e);
			is($c->{next}, $e->{next}, "$mon $s x $ev -> $e->{next}");
			is($c->{reset}, $e->{reset}, "$mon $s x $ev: reset $e->{reset}");
			is($c->{timer}, $rule, "$mon $s x $ev: timer $rule");
		}
	}

	# The timer actions the design asks for, spelled out.
	my @bad;
	for my $s (@states) {
		for my $ev (@events) {
			my $w = $m->{want}{"$s $ev"} // 'keep';
			push(@bad, "$s x $ev: $cell{$s}{$ev}{timer}, want $w")
				if $cell{$s}{$ev}{timer} ne $w;
		}
	}
	is_deeply(\@bad, [], "$mon timer $m->{why}");
}

done_testing();
