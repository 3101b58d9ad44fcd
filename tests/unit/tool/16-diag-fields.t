#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# tlob:violation_detail's fields are the contract's (struct tlob_diag,
# kernel/shared/tlob_abi.h), by name and type, in the module's event
# (kernel/module/tlob_trace.h) and in the tool's decoder of it
# (user/backend/kmod/decode.c): a field renamed on one side only would decode as 0.
use strict;
use warnings;
use FindBin;
use Test::More;

my $top = "$FindBin::Bin/../../..";
sub slurp { open(my $fh, '<', "$top/$_[0]") or die "$_[0]: $!"; local $/; my $t = <$fh>; close($fh); $t }

# name => the event's declaration (the contract between the helpers)
my %want = (
	start_ns => '__field(u64', capture_ns => '__field(u64',
	pid => '__field(u32', tgid => '__field(u32', binding_id => '__field(u32',
	cpu => '__field(u32', migrations => '__field(u32', waker_pid => '__field(u32',
	state => '__field(u8', ustack_when => '__field(u8', nr_ran => '__field(u8',
	waker_comm => '__array(char', ustack => '__dynamic_array(u64',
	kstack => '__dynamic_array(u64', ran_pid => '__array(u32', ran_prio => '__array(u32',
	ran_policy => '__array(u8', ran_ns => '__array(u64', ran_comm => '__array(char',
);

my ($ev) = slurp('kernel/module/tlob_trace.h') =~ /TRACE_EVENT\(violation_detail,(.*?)\n\);/s;
ok($ev, 'violation_detail found in tlob_trace.h');
my ($entry) = $ev =~ /TP_STRUCT__entry\((.*?)\),\s*TP_fast_assign/s;
my %got = map { ($_->[1], $_->[0]) } map { [/(__\w+\(\w+), (\w+)/] } $entry =~ /(__\w+\(\w+, \w+)/g;
is_deeply([sort keys %got], [sort keys %want], 'the event has exactly the contract\'s fields');
for (sort keys %want) {
	is($got{$_}, $want{$_}, "$_: $want{$_}, ...)");
}
like($entry, qr/__array\(char, ran_comm, TLOB_DIAG_RAN \* TLOB_COMM_LEN\)/,
     'ran_comm: TLOB_DIAG_RAN comms of TLOB_COMM_LEN');

my $dec = slurp('user/backend/kmod/decode.c');
my ($table) = $dec =~ /diag_members\[TLOB_DEC_DIAG_MEMBERS\] = \{(.*?)\n\};/s;
ok($table, 'the decoder\'s table found in decode.c');
my @names = ($table =~ /\b(?:DM|DSTACK)\((\w+)\)/g, $table =~ /"(\w+)"/g);
is_deeply([sort @names], [sort keys %want], 'the decoder looks up exactly those names');
done_testing();
