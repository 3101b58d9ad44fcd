#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Every malformed model in tests/fixtures/rvgen/malformed is rejected with
# exit status 1 and exactly one line "FILE:LINE: message", where the first
# line of the fixture says "// expect: LINE: part of the message".
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my @files = sort glob(fixtures() . '/malformed/*.dot');
cmp_ok(scalar(@files), '>=', 25, 'at least 25 malformed models');

for my $f (@files) {
	my ($line, $want) = slurp($f) =~ m{^// expect: (\d+): (.*)$}m
		or BAIL_OUT("$f: no '// expect: LINE: text' line");
	my ($st, $out, $err) = run(rvgen(), '--name', 'm', '--kind', 'header', $f);
	my $name = $f =~ s{.*/}{}r;
	is($st, 1, "$name: exit status 1");
	is($out, '', "$name: nothing on stdout");
	like($err, qr/^\Q$f\E:$line: [^\n]*\Q$want\E[^\n]*\n\z/,
	     "$name: '$line: $want'") or diag("got: $err");
}

# Failures that need no fixture file.
my $dir = tmpdir();
my @cases = (
	['empty', '', 1, 'the file is empty'],
	['nul-byte', "digraph a {\0}", 1, 'the file contains a NUL byte'],
	['comment-only', "// nothing here\n", 1, 'no graph in the file'],
	['no-states', "digraph a {\n}\n", 1, 'no initial state'],
);
for my $c (@cases) {
	my ($name, $text, $line, $want) = @$c;
	open(my $fh, '>', "$dir/$name.dot") or die;
	print $fh $text;
	close($fh);
	my ($st, undef, $err) = run(rvgen(), '--name', 'm', '-k', 'check',
				    "$dir/$name.dot");
	is($st, 1, "$name: exit status 1");
	like($err, qr/^\Q$dir\E\/$name\.dot:$line: \Q$want\E[^\n]*\n\z/, "$name: message")
		or diag("got: $err");
}

# Guards: ha evaluates them as C on clocks (now - start OP value), so it
# refuses, at the guard's line, one that reads a variable which is no
# clock, and a comparison with 0 that is constant (-Wtype-limits); every
# other kind takes such a model, header and pml included (their output
# does not depend on guards).
my @refused = sort glob(fixtures() . '/guards/*.dot');
@refused = grep { slurp($_) =~ m{^// expect: } } @refused;
cmp_ok(scalar(@refused), '>=', 3, 'at least 3 guards refused by --kind ha');
for my $f (@refused) {
	my ($line, $want) = slurp($f) =~ m{^// expect: (\d+): (.*)$}m;
	my $name = $f =~ s{.*/}{}r;
	my ($st, $out, $err) = run(rvgen(), '--name', 'm', '-k', 'ha', $f);
	ok($st == 1 && $out eq '' && $err =~ /^\Q$f\E:$line: [^\n]*\Q$want\E[^\n]*\n\z/,
	   "$name: --kind ha refuses it: '$line: $want'") or diag("status $st: $err");
	for my $kind (qw(check dump header md pml svg)) {
		($st, undef, $err) = run(rvgen(), '--name', 'm', '-k', $kind, $f);
		is($st, 0, "$name: --kind $kind accepts it") or diag($err);
	}
}
# Upstream's opid guards read variables (irq_off, preempt_off), not clocks.
my $opid = fixtures() . '/upstream/sched-opid.dot';
my ($st, $out, $err) = run(rvgen(), '--name', 'm', '-k', 'ha', $opid);
ok($st == 1 && $err =~ /^\Q$opid\E:\d+: event '\w+': guard '[^']*' reads '(irq_off|preempt_off)', which is not a clock/,
   'sched-opid.dot: --kind ha refuses a guard on a variable') or diag("status $st: $err");
($st, undef, $err) = run(rvgen(), '--name', 'm', '-k', 'header', $opid);
is($st, 0, 'sched-opid.dot: --kind header accepts it') or diag($err);

# The monitor name defaults to the file name, which must then be an identifier.
my $ok = top() . '/models/tlob.dot';
system('cp', $ok, "$dir/bad-name.dot") == 0 or die;
($st, undef, $err) = run(rvgen(), '-k', 'check', "$dir/bad-name.dot");
is($st, 1, 'bad-name.dot without --name: exit status 1');
like($err, qr/:1: model name 'bad-name' is not a C identifier/, 'bad-name.dot: message');

($st, undef, $err) = run(rvgen(), '-k', 'check', "$dir/missing.dot");
is($st, 1, 'missing file: exit status 1');
like($err, qr/missing\.dot:0: cannot open: No such file/, 'missing file: message');

($st, undef, $err) = run(rvgen(), '-k', 'nonsense', $ok);
is($st, 2, 'unknown kind: usage error');
like($err, qr/unknown kind 'nonsense'/, 'unknown kind: message');

done_testing();
