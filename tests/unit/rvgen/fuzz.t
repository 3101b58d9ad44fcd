#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer build of rvgen replays its seeds (every fixture model,
# including the inputs earlier fuzz runs crashed on) without a crash or a
# sanitizer report. The long fuzz run itself is manual: tests/README.md.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my @dirs = map { fixtures() . "/$_" } qw(upstream malformed guards spin fuzz);
my ($st, $out, $err) = run(rvgen('rvgen-fuzz'), '-runs=0', @dirs, top() . '/models');
is($st, 0, 'rvgen-fuzz replays every seed without a crash') or diag($err);
like($err, qr/Done \d+ runs/, 'libFuzzer finished the replay');
unlike($err, qr/ERROR: |runtime error/, 'no sanitizer report');

done_testing();
