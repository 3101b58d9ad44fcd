#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Symbol versions (user/section/elfsym.c): NAME is the default version, the one the
# dynamic linker binds an unversioned call to (readelf's NAME@@V), even
# where a compat version (NAME@V) comes first in .dynsym; NAME@V and
# NAME@@V ask for a version. On libfix.so (tests/unit/tool/fixtures, built
# by make), its stripped copy (.dynsym and .gnu.version only) and the
# system's libc.so.6. Expected offsets come from readelf.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use ElfFixture;
use Test::More;

my $lib = "$FIX/libfix.so";
my $stripped = "$FIX/libfix-stripped.so";
-e $lib && -e $stripped or BAIL_OUT("no fixtures in $FIX: run make tool");

my $v1 = expected($lib, 'frame_step@LIBFIX_1.0');
my $v2 = expected($lib, 'frame_step@@LIBFIX_2.0');
ok(defined $v1 && defined $v2 && $v1 != $v2, 'readelf: frame_step has two versions at two places');
my @dyn = grep { /frame_step@/ } `readelf -W --dyn-syms $lib`;
like($dyn[0] // '', qr/frame_step\@LIBFIX_1\.0$/, 'readelf: the compat version comes first in .dynsym');

my $hex = sub { sprintf('0x%x', $_[0] // 0) };
for my $f ($lib, $stripped) {
	my $name = $f eq $lib ? 'libfix.so' : 'stripped libfix.so';
	is((resolve($f, 'frame_step'))[1], $hex->($v2), "$name: frame_step is the default version (\@\@LIBFIX_2.0)");
	is((resolve($f, 'frame_step@LIBFIX_1.0'))[1], $hex->($v1), "$name: frame_step\@LIBFIX_1.0 is the compat one");
	is((resolve($f, 'frame_step@@LIBFIX_2.0'))[1], $hex->($v2), "$name: frame_step\@\@LIBFIX_2.0");
	is((resolve($f, 'frame_step@LIBFIX_2.0'))[1], $hex->($v2), "$name: NAME\@V names version V, default or not");
	my ($rc, $out) = resolve($f, 'frame_step@@LIBFIX_1.0');
	is($rc, 1, "$name: \@\@ of a version that is not the default fails");
	like($out, qr/'frame_step\@\@LIBFIX_1\.0' not found in \Q$f\E; its versions: frame_step\@LIBFIX_1\.0, frame_step\@\@LIBFIX_2\.0$/,
		"$name: ... listing the versions there are");
	($rc, $out) = resolve($f, 'frame_legacy');
	is($rc, 1, "$name: a name with only a compat version fails unversioned");
	like($out, qr/'frame_legacy' in \Q$f\E has no default version, so no unversioned call reaches it; name one: frame_legacy\@LIBFIX_1\.0$/,
		"$name: ... naming the version to ask for");
	is((resolve($f, 'frame_legacy@LIBFIX_1.0'))[1], $hex->(expected($lib, 'frame_legacy@LIBFIX_1.0')),
		"$name: ... which resolves");
}

my ($rc, $out) = resolve("$FIX/app", 'frame_begin@V1');
like($out, qr/its versions: frame_begin \(unversioned\)$/, 'a version asked of an unversioned symbol');
for my $bad ('frame_step@', 'frame_step@@', '@LIBFIX_1.0', 'frame_step@A@B') {
	($rc, $out) = resolve($lib, $bad);
	is($rc, 2, "malformed '$bad' is a usage error");
}

# The defect as found: libc.so.6's sched_setaffinity has a compat version first.
my $libc = `gcc -print-file-name=libc.so.6`;
chomp $libc;
SKIP: {
	my $new = expected($libc, 'sched_setaffinity@@GLIBC_2.3.4');
	my $old = expected($libc, 'sched_setaffinity@GLIBC_2.3.3');
	skip "no versioned sched_setaffinity in $libc", 3 unless defined $new && defined $old;
	is((resolve($libc, 'sched_setaffinity'))[1], $hex->($new), 'libc: sched_setaffinity is @@GLIBC_2.3.4');
	is((resolve($libc, 'sched_setaffinity@GLIBC_2.3.3'))[1], $hex->($old), 'libc: sched_setaffinity@GLIBC_2.3.3 on request');
	my $m = expected($libc, 'memcpy@GLIBC_2.2.5');
	is((resolve($libc, 'memcpy@GLIBC_2.2.5'))[1], $hex->($m), 'libc: memcpy@GLIBC_2.2.5 (a function, the default is an IFUNC)');
}
done_testing();
