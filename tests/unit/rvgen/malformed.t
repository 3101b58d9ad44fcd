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

# Guards: ha evaluates them as C, a comparison on a clock as "now - start
# OP value" and one on a variable (an env no edge resets and no invariant
# bounds) through the includer's getter, both unsigned; so it refuses, at
# the guard's line, a comparison with 0 that is constant (-Wtype-limits),
# on a clock as on a variable. Every other kind takes such a model, header
# and pml included (their output does not depend on guards).
my @refused = sort glob(fixtures() . '/guards/*.dot');
@refused = grep { slurp($_) =~ m{^// expect: } } @refused;
cmp_ok(scalar(@refused), '>=', 4, 'at least 4 guards refused by --kind ha');
for my $what (['clock', qr/a clock is never below 0/], ['variable', qr/a variable is never below 0/]) {
	my ($name, $re) = @$what;
	for my $op ('<', '>=') {
		ok((grep { slurp($_) =~ m{^// expect: \d+: .*'\w+ \Q$op\E 0' .*$re} } @refused),
		   "a refusal fixture for '$name $op 0'");
	}
}
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
# A guard on a variable is taken: upstream's opid reads irq_off and
# preempt_off (variables only, so the guard function does not read the
# time), clock-and-flag.dot a clock and a variable in one guard. The
# header declares the getter the includer defines, and the comparison
# reads the variable through it.
my ($st, $out, $err);
for my $m (['upstream/sched-opid.dot', 'irq_off', 1], ['guards/clock-and-flag.dot', 'flag', 0]) {
	my ($rel, $var, $vars_only) = @$m;
	my $f = fixtures() . "/$rel";
	my $name = $rel =~ s{.*/}{}r;
	($st, $out, $err) = run(rvgen(), '--name', 'm', '-k', 'ha', $f);
	ok($st == 0 && $err eq '', "$name: --kind ha accepts a guard on a variable") or diag("status $st: $err");
	like($out, qr/^static __u64 ha_get_env_m\(const struct ha_clocks_m \*clk,\n\t+ *unsigned int env\);\n/m,
	     "$name: declares ha_get_env_m(clk, env) for the includer to define");
	like($out, qr/\bha_get_env_m\(clk, ${var}_m\) == 1ULL\b/,
	     "$name: $var == 1 is ha_get_env_m(clk, ${var}_m) == 1ULL");
	if ($vars_only) {
		like($out, qr/^\t\(void\)now;\n/m, "$name: guards on variables only: (void)now");
	} else {
		like($out, qr/\(now - clk->start\[clk_m\]\) > 5000000ULL\) &&\n\s+\(ha_get_env_m\(clk, flag_m\) == 1ULL\)/,
		     "$name: clk > 5ms && flag == 1 reads the clock and the variable");
		unlike($out, qr/\(void\)now;/, "$name: a guard reads the time: no (void)now");
	}
	for my $kind (qw(check header pml)) {
		($st, undef, $err) = run(rvgen(), '--name', 'm', '-k', $kind, $f);
		is($st, 0, "$name: --kind $kind accepts it") or diag($err);
	}
}
# Without a guard on a variable, nothing is declared for one.
($st, $out, $err) = run(rvgen(), '--name', 'm', '-k', 'ha', fixtures() . '/guards/guards.dot');
ok($st == 0 && $out !~ /ha_get_env/, 'guards.dot (clocks only): no ha_get_env_m') or diag($err);

# The monitor name defaults to the file name, which must then be an identifier.
my $ok = top() . '/models/tlob.dot';
system('cp', $ok, "$dir/bad-name.dot") == 0 or die;
($st, undef, $err) = run(rvgen(), '-k', 'check', "$dir/bad-name.dot");
is($st, 1, 'bad-name.dot without --name: exit status 1');
like($err, qr/:1: model name 'bad-name' is not a C identifier/, 'bad-name.dot: message');

($st, undef, $err) = run(rvgen(), '-k', 'check', "$dir/missing.dot");
is($st, 1, 'missing file: exit status 1');
like($err, qr/missing\.dot:0: cannot open: No such file/, 'missing file: message');

# Only a regular file is read, and at most RV_MODEL_MAX (1 MiB) of it: a
# FIFO without a writer would block the open, /dev/zero would grow the
# reader without end (timeout: a hang fails instead of stopping prove).
system('mkfifo', "$dir/fifo.dot") == 0 or die;
symlink('/dev/zero', "$dir/zero.dot") or die;
open(my $big, '>', "$dir/big.dot") or die;
print $big "digraph a {\n", ('// ' . ('x' x 61) . "\n") x 16384, "}\n";
close($big);
for my $c (['fifo', 'cannot open: not a regular file'], ['zero', 'cannot open: not a regular file'],
	   ['big', 'larger than 1048576 bytes']) {
	my ($name, $want) = @$c;
	($st, undef, $err) = run('timeout', '20', rvgen(), '--name', 'm', '-k', 'check', "$dir/$name.dot");
	is($st, 1, "$name.dot: exit status 1");
	like($err, qr/^\Q$dir\E\/$name\.dot:0: \Q$want\E[^\n]*\n\z/, "$name.dot: message")
		or diag("got: $err");
}

($st, undef, $err) = run(rvgen(), '-k', 'nonsense', $ok);
is($st, 2, 'unknown kind: usage error');
like($err, qr/unknown kind 'nonsense'/, 'unknown kind: message');

done_testing();
