#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer build of rvgen (the model reader rvgen and tlob mon
# --model share, the checks and the header emitter) replays its seeds
# (every fixture model, including the inputs earlier fuzz runs crashed
# on), then fuzzes a fixed 2000 runs from seed 1 (the same inputs on every
# machine: about 15 s on 2 cores), without a crash or a sanitizer report.
# The long fuzz run itself is manual: tests/README.md.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;
use File::Temp ();
use File::Copy ();

my @dirs = map { fixtures() . "/$_" } qw(upstream malformed guards spin fuzz);
my ($st, $out, $err) = run(rvgen('rvgen-fuzz'), '-runs=0', @dirs, top() . '/models');
is($st, 0, 'rvgen-fuzz replays every seed without a crash') or diag($err);
like($err, qr/Done \d+ runs/, 'libFuzzer finished the replay');
unlike($err, qr/ERROR: |runtime error/, 'no sanitizer report');

# The fixed run mutates a scratch copy of the seeds: the corpus in the
# tree stays as committed.
my $scratch = File::Temp::tempdir(CLEANUP => 1);
my $found = File::Temp::tempdir(CLEANUP => 1);
for my $d (@dirs, top() . '/models') {
	for my $f (glob("$d/*")) {
		next unless -f $f;
		(my $n = $f) =~ s{.*/}{};
		File::Copy::copy($f, "$scratch/" . (split m{/}, $d)[-1] . "-$n");
	}
}
($st, $out, $err) = run(rvgen('rvgen-fuzz'), '-seed=1', '-runs=2000', '-close_fd_mask=3',
	"-artifact_prefix=$found/", $scratch);
is($st, 0, 'rvgen-fuzz: 2000 runs from seed 1 without a crash') or diag($err);
unlike($err, qr/ERROR: |runtime error/, 'no sanitizer report in the fixed run');

done_testing();
