#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The committed model header is dependency-free: it compiles unchanged as
# strict C11 (gcc and clang, -pedantic, also when nothing reads it) and as
# a BPF object without pointer relocations in .rodata (libbpf's static
# linker refuses those), and the invariant glue compiles against the
# target's vmlinux.h, as userspace and as the kernel sees it. The generated headers are checkpatch --strict clean.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my $top = top();
my $dir = tmpdir();
my @warn = qw(-std=c11 -Wall -Wextra -Werror -pedantic -Wunused-const-variable);


my $uses = write_file($dir, 'uses.c', "#include \"tlob_model.h\"\nint main(void)\n{\n" .
	"\treturn automaton_tlob.function[stopped_tlob][start_tlob] == running_tlob ? 0 : 1;\n}\n");
my $unused = write_file($dir, 'unused.c', "#include \"tlob_model.h\"\nint f(void);\nint f(void)\n{\n\treturn 0;\n}\n");

for my $cc (qw(gcc clang)) {
	for my $src ($uses, $unused) {
		my ($st, undef, $err) = run($cc, @warn, "-I$top/kernel/shared", '-c', '-o', "$dir/x.o", $src);
		is($st, 0, "$cc -std=c11 -pedantic: " . ($src =~ s{.*/}{}r)) or diag($err);
	}
}

my ($st, undef, $err) = run('clang', '-target', 'bpf', '-O2', @warn, "-I$top/kernel/shared",
			    '-c', '-o', "$dir/m.bpf.o", $uses);
is($st, 0, 'clang -target bpf: tlob_model.h alone') or diag($err);
($st, my $sections) = run('llvm-readelf', '-S', "$dir/m.bpf.o");
unlike($sections, qr/\.rel\.rodata/, 'BPF object: no relocations in .rodata');

my $vmlinux = build() . '/bpf/vmlinux.h';
SKIP: {
	skip("no $vmlinux (built by the BPF backend's rules)", 1) unless -e $vmlinux;
	my $prog = write_file($dir, 'glue.bpf.c', <<"EOF2");
#include "$vmlinux"
struct ha_clocks_tlob;
static __u64 budget(const struct ha_clocks_tlob *clk);
static inline __u64 min_ns(const struct ha_clocks_tlob *clk);
#define BUDGET_NS(clk) budget(clk)
#define MIN_NS(clk) min_ns(clk)
#include "tlob_model_ha.h"
struct w { struct ha_clocks_tlob clk; __u64 budget, min, armed; };
static __u64 budget(const struct ha_clocks_tlob *clk) { return ((const struct w *)clk)->budget; }
static inline __u64 min_ns(const struct ha_clocks_tlob *clk) { return ((const struct w *)clk)->min; }
static void ha_arm_tlob(struct ha_clocks_tlob *clk, __u64 d) { ((struct w *)clk)->armed = d; }
static void ha_cancel_tlob(struct ha_clocks_tlob *clk) { ((struct w *)clk)->armed = 0; }
int step(struct w *x, unsigned int s, unsigned int e, __u64 now);
int step(struct w *x, unsigned int s, unsigned int e, __u64 now)
{
	bool guard = ha_guard_holds_tlob(&x->clk, s, e, now);

	ha_step_tlob(&x->clk, s, e, now);
	return guard && ha_invariant_holds_tlob(&x->clk, s, now);
}
EOF2
	($st, undef, $err) = run('clang', '-target', 'bpf', '-O2', '-Wall', '-Wextra', '-Werror',
				 "-I$top/kernel/shared", '-c', '-o', "$dir/g.bpf.o", $prog);
	is($st, 0, 'clang -target bpf: tlob_model_ha.h with the target vmlinux.h') or diag($err);
}

# What rvgen writes into one output directory compiles from there: the glue
# includes the model header by its name, found next to it. Built as
# userspace (the header brings __u64 and bool itself) and as the kernel
# sees it (__KERNEL__: linux/types.h only, here a stand-in with bool).
my $gen = "$dir/gen";
mkdir($gen) or die;
for my $kind (qw(header ha)) {
	($st, undef, $err) = run(rvgen(), '-k', $kind, '-o', $gen, "$top/models/tlob.dot");
	is($st, 0, "rvgen -k $kind -o DIR") or diag($err);
}
my $kinc = "$dir/kinc";
mkdir($kinc) or die;
mkdir("$kinc/linux") or die;
write_file($dir, 'kinc/linux/types.h', "typedef unsigned long long __u64;\ntypedef _Bool bool;\n" .
	   "#define true 1\n#define false 0\n");
for my $as (['userspace', ()], ['the kernel', '-D__KERNEL__', '-nostdinc', "-I$kinc"]) {
	my ($what, @flags) = @$as;
	my $src = write_file($dir, "from-dir.c", "#define BUDGET_NS(clk) 1000ULL\n" .
		"#define MIN_NS(clk) 10ULL\n" .
		"#include \"tlob_model_ha.h\"\n" .
		"static void ha_arm_tlob(struct ha_clocks_tlob *c, __u64 d) { (void)c; (void)d; }\n" .
		"static void ha_cancel_tlob(struct ha_clocks_tlob *c) { (void)c; }\n" .
		"int f(struct ha_clocks_tlob *c);\nint f(struct ha_clocks_tlob *c)\n{\n" .
		"\tbool g = ha_guard_holds_tlob(c, 0, 0, 1);\n\n" .
		"\tha_step_tlob(c, 0, 0, 1);\n\treturn g && ha_invariant_holds_tlob(c, 0, 1);\n}\n");
	($st, undef, $err) = run('gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', @flags, "-I$gen",
				 '-c', '-o', "$dir/from-dir.o", $src);
	is($st, 0, "tlob_model_ha.h compiles from the directory rvgen wrote it to, as $what")
		or diag($err);
}

my $checkpatch = $ENV{CHECKPATCH} || "$ENV{HOME}/.cache/tlob/checkpatch/checkpatch.pl";
SKIP: {
	skip("no checkpatch.pl at $checkpatch", 2) unless -e $checkpatch;
	for my $h (qw(kernel/shared/tlob_model.h kernel/shared/tlob_model_ha.h)) {
		my ($st, $out) = run('perl', $checkpatch, '--strict', '--no-tree', '-f', "$top/$h");
		ok($st == 0 && $out =~ /total: 0 errors, 0 warnings, 0 checks/, "$h: checkpatch --strict clean")
			or diag($out);
	}
}

done_testing();
