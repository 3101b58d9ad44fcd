#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The tool's JSON decodes with a real parser and carries every field.
use strict;
use warnings;
use JSON::PP;
use Test::More;

use FindBin;
my $build = $ENV{BUILD} // "$FindBin::Bin/../../../build";
my @out = `$build/tests/unit/tool/json_emit`;
is($?, 0, 'json_emit ran');
chomp @out;
is(scalar @out, 6, 'six lines');

my ($state2, $event4, $state1, $state3) = split / /, $out[5];
# The model header gives these names; check them against models/tlob.dot's own order rule:
# states: initial first, the rest sorted; events sorted.
is_deeply([$state1, $state2, $state3], [sort($state1, $state2, $state3)], 'states after the initial one are sorted');

my $r = decode_json($out[0]);
my %want = (type => 'record', start_ns => 1000000001, end_ns => 1012000002,
	budget_ns => 10000000, min_time_ns => 2000000, elapsed_ns => 12000001, running_ns => 5000003,
	waiting_ns => 4000004, sleeping_ns => 3000005, detect_latency_ns => -6,
	pid => 4242, tgid => 4241, binding_id => 7, preemptions => 8, sleeps => 9,
	wakeups => 10, switch_ins => 12, kind => 2, kind_name => 'window', verdict => 1,
	verdict_name => 'over_budget', abort_reason => 0, abort_reason_name => 'none',
	detector => 1, detector_name => 'hrtimer', state => 2, state_name => $state2,
	event => 4, event_name => $event4, react => JSON::PP::true, comm => "a\"b\\c\td\x01e",
	tag => '0123456789abcdef');
for my $k (sort keys %want) {
	is($r->{$k}, $want{$k}, "record.$k");
}
is(scalar keys %$r, scalar keys %want,
   'record has no other fields (no time for the final state, no count of start, stop, abort)');

my $t = decode_json($out[1]);
is($t->{type}, 'transition', 'transition.type');
is($t->{id}, 4242, 'transition.id');
is($t->{cpu}, 1, 'transition.cpu');
is($t->{comm}, 'worker', 'transition.comm');
is($t->{state}, $state1, 'transition.state by name');
is($t->{next_state}, $state3, 'transition.next_state by name');
ok(!$t->{final} && !$t->{error}, 'transition.final/error false');

my $s = decode_json($out[2]);
is($s->{type}, 'stats', 'stats.type');
is($s->{path}, '/opt/a "b"/app', 'stats.path escaped and decoded');
is($s->{stop}, 'ret', 'stats.stop ret');
is($s->{start}, '0x1139', 'stats.start: hex, as text writes it');
is($s->{windows}, 11, 'stats.windows');
is($s->{early}, 4, 'stats.early');
is($s->{tolerated}, 5, 'stats.tolerated');
is_deeply($s->{hist}, { 6 => 1, 23 => 10 }, 'stats.hist only non-empty buckets');

my $b = decode_json($out[3]);
is($b->{type}, 'binding', 'binding.type');
is($b->{stop}, '0x1150', 'binding.stop: hex, one type with "ret"');
is($b->{budget_ns}, 5000000, 'binding.budget_ns');
is($b->{min_time_ns}, 1000000, 'binding.min_time_ns');
is($b->{tolerance_k} . '/' . $b->{tolerance_w}, '3/10', 'binding.tolerance_k/_w');
is($b->{tgid}, 99, 'binding.tgid');

ok($out[4] < 0, 'a too small buffer fails instead of truncating');
done_testing();
