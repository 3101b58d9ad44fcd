#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The module's record event names each time and count as the tool decodes
# them (names_drv.c, from the generated model): a field per state a window
# is open in and per event inside one, each assigned from its own slot of
# the record, printed under its name, and no other.
use strict;
use warnings;
use FindBin;
use Test::More;

my $top = "$FindBin::Bin/../../..";
my $build = $ENV{BUILD} // "$top/build";
my @names = `$build/tests/unit/tool/names_drv`;
is($?, 0, 'names_drv ran');
open(my $fh, '<', "$top/kernel/module/tlob_trace.h") or die;
my $h = do { local $/; <$fh> };
close($fh);
my ($class) = $h =~ /DECLARE_EVENT_CLASS\(tlob_record_class,(.*?)\n\);/s;
ok($class, 'tlob_record_class found');
my %seen;
for (@names) {
	my ($what, $field, $name) = split;
	my ($type, $slot) = $what eq 'time' ? ('u64', "time_ns\\[${name}_tlob\\]") :
		('u32', "count\\[${name}_tlob\\]");
	$seen{$field} = 1;
	like($class, qr/__field\($type, \Q$field\E\)/, "$what of $name: field $field");
	like($class, qr/__entry->\Q$field\E = r->$slot;/, "$what of $name: assigned from its slot");
	like($class, qr/\b\Q$field\E=%/, "$what of $name: printed as $field=");
}
my @slots = $class =~ /= r->((?:time_ns|count)\[\w+\])/g;
is(scalar(@slots), scalar(@names), 'no time or count field the model does not have');
done_testing();
