#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Every upstream model in tests/fixtures/rvgen/upstream parses, and where
# the kernel's generated header is there (NAME.expected.h), rvgen's states,
# events, initial and final states and the whole transition matrix equal
# it, order included (initial state first, the rest and the events sorted).
# The header is read here with regular expressions, independently of rvgen.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

sub strip_comments { my ($t) = @_; $t =~ s{/\*.*?\*/}{}gs; $t =~ s{//[^\n]*}{}g; return $t; }

# The body of "NAME = {" up to its matching brace.
sub block {
	my ($text, $start) = @_;
	my $i = index($text, $start);
	return undef if $i < 0;
	$i = index($text, '{', $i);
	my ($depth, $j) = (0, $i);
	for (; $j < length($text); $j++) {
		my $c = substr($text, $j, 1);
		$depth++ if $c eq '{';
		$depth-- if $c eq '}';
		last if !$depth;
	}
	return substr($text, $i + 1, $j - $i - 1);
}

sub enum_items {
	my ($text, $kind, $name) = @_;
	my ($body) = $text =~ /enum\s+${kind}_\Q$name\E\s*\{(.*?)\}/s or return ();
	my @items;
	for my $item (split(/,/, $body)) {
		$item =~ s/=.*//s;
		$item =~ s/\s+//g;
		next if $item eq '' || $item =~ /^(state|event)_max_/;
		$item =~ s/_\Q$name\E$// or die "enum item $item without _$name";
		push(@items, $item);
	}
	return @items;
}

sub read_expected {
	my ($path, $name) = @_;
	my $t = strip_comments(slurp($path));
	my %e;
	$e{states} = [enum_items($t, 'states', $name)];
	$e{events} = [enum_items($t, 'events', $name)];
	($e{initial}) = $t =~ /\.initial_state\s*=\s*(\w+)_\Q$name\E\s*,/;
	my ($finals) = $t =~ /\.final_states\s*=\s*\{([^}]*)\}/;
	my @f = $finals =~ /(\d+)/g;
	$e{final} = { map { $e{states}[$_] => 1 } grep { $f[$_] } 0 .. $#f };
	$e{nfinal} = scalar(@f);
	my @cells = block($t, '.function') =~ /\b(INVALID_STATE|\w+_\Q$name\E)\b/g;
	my $i = 0;
	for my $s (@{$e{states}}) {
		for my $ev (@{$e{events}}) {
			my $c = $cells[$i++] // 'MISSING';
			$c = $c eq 'INVALID_STATE' ? '-' : $c =~ s/_\Q$name\E$//r;
			$e{cell}{$s}{$ev} = $c;
		}
	}
	$e{ncells} = scalar(@cells);
	return \%e;
}

# Every DOT model parses and validates (also those without a header).
for my $dot (sort glob(fixtures() . '/upstream/*.dot')) {
	my ($st, undef, $err) = run(rvgen(), '--name', 'm', '-k', 'check', $dot);
	is($st, 0, "parses: " . ($dot =~ s{.*/}{}r)) or diag($err);
}

my @models = upstream_models();
cmp_ok(scalar(@models), '>=', 20, 'at least 20 upstream models with a golden header');
for my $m (@models) {
	my ($dot, $h, $name) = @$m;
	my $label = $dot =~ s{.*/}{}r;
	my ($st, $out, $err) = run(rvgen(), '--name', $name, '-k', 'dump', $dot);
	is($st, 0, "$label: dump") or diag($err);
	my $got = parse_dump($out);
	my $exp = read_expected($h, $name);

	is_deeply($got->{states}, $exp->{states}, "$label: states in order");
	is_deeply($got->{events}, $exp->{events}, "$label: events in order");
	is($got->{initial}, $exp->{initial}, "$label: initial state");
	is($exp->{nfinal}, scalar(@{$exp->{states}}), "$label: header has one final flag per state");
	is_deeply($got->{final}, $exp->{final}, "$label: final states");
	is($exp->{ncells}, @{$exp->{states}} * @{$exp->{events}},
	   "$label: header matrix is states x events");
	my %gotcells;
	for my $s (keys %{$got->{cell}}) {
		$gotcells{$s}{$_} = $got->{cell}{$s}{$_}{next} for keys %{$got->{cell}{$s}};
	}
	is_deeply(\%gotcells, $exp->{cell}, "$label: transition matrix");
}

done_testing();
