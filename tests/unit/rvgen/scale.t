#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Finding source lines stays linear in the size of the model: a 10 000-state
# chain (one state and one edge per line) is refused for its size by
# `--kind check` within 2 s of wall time, where rescanning the text for each
# state's line would take about a minute.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use Time::HiRes qw(time);
use RvgenTest;

my $n = 10000;
my $dir = tmpdir();
open(my $fh, '>', "$dir/big.dot") or die;
print $fh "digraph big {\n\t\"__init_s0\" -> \"s0\";\n";
print $fh "\t\"s$_\" [label = \"s$_\"];\n" for 0 .. $n - 1;
print $fh "\t\"s$_\" -> \"s" . (($_ + 1) % $n) . "\" [ label = \"e$_\" ];\n" for 0 .. $n - 1;
print $fh "}\n";
close($fh);

my $t0 = time();
my ($st, undef, $err) = run(rvgen(), '--name', 'big', '-k', 'check', "$dir/big.dot");
my $dt = time() - $t0;
is($st, 1, "$n states: refused");
like($err, qr/^\Q$dir\E\/big\.dot:257: too many states \($n\)/, "$n states: for their number, at the 255th state's line")
	or diag($err);
cmp_ok($dt, '<', 2, sprintf("$n states: refused in %.2f s (limit 2 s)", $dt));

done_testing();
