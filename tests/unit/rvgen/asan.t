#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# rvgen built with AddressSanitizer and UndefinedBehaviorSanitizer runs
# over every model the tests know (models/: tlob, alive; upstream,
# malformed, guards, spin and fuzz fixtures) and every kind of output: it exits 0 or 1, never
# crashes, and the sanitizers report nothing (leaks included).
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

$ENV{ASAN_OPTIONS} = 'detect_leaks=1:abort_on_error=0:exitcode=99';
$ENV{LSAN_OPTIONS} = "suppressions=$FindBin::Bin/lsan.supp:print_suppressions=0";
$ENV{UBSAN_OPTIONS} = 'print_stacktrace=1:halt_on_error=1:exitcode=98';

my @models = (sort(glob(top() . '/models/*.dot')),
	      map { sort glob(fixtures() . "/$_/*.dot") } qw(upstream malformed guards spin fuzz));
cmp_ok(scalar(@models), '>=', 70, 'models to run');
ok((grep { m{/models/alive\.dot$} } @models) && (grep { m{/models/tlob\.dot$} } @models),
   'models/tlob.dot and models/alive.dot among them');
my $out = tmpdir();
for my $m (@models) {
	my $name = $m =~ s{.*/(.*/.*)$}{$1}r;
	my @bad;
	for my $kind (qw(dump header ha md pml svg)) {
		my ($st, undef, $err) = run(rvgen('rvgen-asan'), '--name', 'm',
					    '--kind', $kind, '-o', $out, $m);
		push(@bad, "$kind: status $st: $err")
			if ($st != 0 && $st != 1) || $err =~ /Sanitizer|runtime error/;
	}
	is_deeply(\@bad, [], "$name: clean under ASan/UBSan") or diag(join("\n", @bad));
}

done_testing();
