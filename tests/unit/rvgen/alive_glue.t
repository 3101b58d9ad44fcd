#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The committed alive glue (kernel/shared/alive_model_ha.h) as a backend
# includes it: tests/fixtures/rvgen/alive/alive_glue.c, built here against
# kernel/shared (gcc and clang, -Wall -Wextra -pedantic, so never older
# than the header), defines the bounds and ha_get_env_alive(), the count
# of checkpoints, and checks every cell's reset and timer action, the
# cycle's deadline and invariant (<=: holds at the cycle's end, fails one
# ns later, at the deadline) and the guard of cycle_end at EXPECT_MIN and
# EXPECT_MAX and one either side.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my $top = top();
my $dir = tmpdir();
my $src = fixtures() . '/alive/alive_glue.c';

for my $cc (qw(gcc clang)) {
	my ($st, undef, $err) = run($cc, qw(-std=c11 -Wall -Wextra -Werror -pedantic -O2),
				    "-I$top/kernel/shared", '-o', "$dir/alive-$cc", $src);
	is($st, 0, "$cc -Wall -Wextra -pedantic: alive_glue.c") or diag($err);
}
for my $cc (qw(gcc clang)) {
	my ($st, $out, $err) = run("$dir/alive-$cc");
	is($st, 0, "alive_glue ($cc) runs and passes") or diag($err);
	next if $cc ne 'gcc';
	for (split(/\n/, $out)) {
		ok(!$1, $2) if /^(not )?ok \d+ - (.*)$/;
	}
	like($out, qr/^1\.\.\d+$/m, 'alive_glue: its plan');
	cmp_ok(scalar(() = $out =~ /^ok /mg), '>=', 30, 'alive_glue: at least 30 checks');
}

done_testing();
