#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The committed model headers (kernel/shared/tlob_model.h, alive_model.h)
# are dependency-free: each compiles unchanged as strict C11 (gcc and
# clang, -pedantic, also when nothing reads it) and as a BPF object
# without pointer relocations in .rodata (libbpf's static linker refuses
# those), and the invariant glue compiles against the target's vmlinux.h,
# as userspace and as the kernel sees it (alive's with the includer's
# ha_get_env_alive(), its guard reading a variable). The generated headers
# are checkpatch --strict clean.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my $top = top();
my $dir = tmpdir();
my @warn = qw(-std=c11 -Wall -Wextra -Werror -pedantic -Wunused-const-variable);

# Each committed model: an allowed transition (state, event, next), its
# bounds, and whether a guard reads a variable (the includer's getter).
my @models = (
	{ mon => 'tlob', cell => [qw(stopped start running)],
	  bounds => [qw(BUDGET_NS MIN_NS)], getter => 0 },
	{ mon => 'alive', cell => [qw(idle begin supervised)],
	  bounds => [qw(PERIOD_NS EXPECT_MIN EXPECT_MAX)], getter => 1 },
);

my $kinc = "$dir/kinc";
mkdir($kinc) or die;
mkdir("$kinc/linux") or die;
write_file($dir, 'kinc/linux/types.h', "typedef unsigned long long __u64;\ntypedef _Bool bool;\n" .
	   "#define true 1\n#define false 0\n");
my $vmlinux = build() . '/bpf/vmlinux.h';
my $checkpatch = $ENV{CHECKPATCH} || "$ENV{HOME}/.cache/tlob/checkpatch/checkpatch.pl";

for my $m (@models) {
	my $mon = $m->{mon};
	my ($s, $e, $n) = @{$m->{cell}};

	my $uses = write_file($dir, "uses-$mon.c", "#include \"${mon}_model.h\"\nint main(void)\n{\n" .
		"\treturn automaton_$mon.function[${s}_$mon][${e}_$mon] == ${n}_$mon ? 0 : 1;\n}\n");
	my $unused = write_file($dir, "unused-$mon.c", "#include \"${mon}_model.h\"\nint f(void);\n" .
		"int f(void)\n{\n\treturn 0;\n}\n");

	for my $cc (qw(gcc clang)) {
		for my $src ($uses, $unused) {
			my ($st, undef, $err) = run($cc, @warn, "-I$top/kernel/shared", '-c',
						    '-o', "$dir/x.o", $src);
			is($st, 0, "$cc -std=c11 -pedantic: " . ($src =~ s{.*/}{}r)) or diag($err);
		}
	}

	my ($st, undef, $err) = run('clang', '-target', 'bpf', '-O2', @warn, "-I$top/kernel/shared",
				    '-c', '-o', "$dir/m-$mon.bpf.o", $uses);
	is($st, 0, "clang -target bpf: ${mon}_model.h alone") or diag($err);
	($st, my $sections) = run('llvm-readelf', '-S', "$dir/m-$mon.bpf.o");
	ok($st == 0 && $sections !~ /\.rel\.rodata/, "$mon BPF object: no relocations in .rodata")
		or diag($sections);

	# The bounds read a structure that embeds the clocks, as a backend's do.
	my @b = @{$m->{bounds}};
	my $decl = join('', map { "static __u64 b_$_(const struct ha_clocks_$mon *clk);\n" .
				  "#define $_(clk) b_$_(clk)\n" } @b);
	my $def = join('', map { "static __u64 b_$_(const struct ha_clocks_$mon *clk) " .
				 "{ return ((const struct w *)clk)->b; }\n" } @b);
	my $getter = $m->{getter} ?
		"static __u64 ha_get_env_$mon(const struct ha_clocks_$mon *clk, unsigned int env)\n" .
		"{\n\treturn env == 0 ? ((const struct w *)clk)->var : 0;\n}\n" : '';
	SKIP: {
		skip("no $vmlinux (built by the BPF backend's rules)", 1) unless -e $vmlinux;
		my $prog = write_file($dir, "glue-$mon.bpf.c", "#include \"$vmlinux\"\n" .
			"struct ha_clocks_$mon;\n$decl#include \"${mon}_model_ha.h\"\n" .
			"struct w { struct ha_clocks_$mon clk; __u64 b, var, armed; };\n$def$getter" .
			"static void ha_arm_$mon(struct ha_clocks_$mon *clk, __u64 d) { ((struct w *)clk)->armed = d; }\n" .
			"static void ha_cancel_$mon(struct ha_clocks_$mon *clk) { ((struct w *)clk)->armed = 0; }\n" .
			"int step(struct w *x, unsigned int s, unsigned int e, __u64 now);\n" .
			"int step(struct w *x, unsigned int s, unsigned int e, __u64 now)\n{\n" .
			"\tbool guard = ha_guard_holds_$mon(&x->clk, s, e, now);\n\n" .
			"\tha_step_$mon(&x->clk, s, e, now);\n" .
			"\treturn guard && ha_invariant_holds_$mon(&x->clk, s, now);\n}\n");
		($st, undef, $err) = run('clang', '-target', 'bpf', '-O2', '-Wall', '-Wextra', '-Werror',
					 "-I$top/kernel/shared", '-c', '-o', "$dir/g-$mon.bpf.o", $prog);
		is($st, 0, "clang -target bpf: ${mon}_model_ha.h with the target vmlinux.h") or diag($err);
	}

	# What rvgen writes into one output directory compiles from there: the
	# glue includes the model header by its name, found next to it. Built
	# as userspace (the header brings __u64 and bool itself) and as the
	# kernel sees it (__KERNEL__: linux/types.h only, here a stand-in with
	# bool).
	my $gen = "$dir/gen-$mon";
	mkdir($gen) or die;
	for my $kind (qw(header ha)) {
		($st, undef, $err) = run(rvgen(), '-k', $kind, '-o', $gen, "$top/models/$mon.dot");
		is($st, 0, "$mon.dot: rvgen -k $kind -o DIR") or diag($err);
	}
	for my $as (['userspace', ()], ['the kernel', '-D__KERNEL__', '-nostdinc', "-I$kinc"]) {
		my ($what, @flags) = @$as;
		my $src = write_file($dir, "from-dir-$mon.c",
			join('', map { "#define $_(clk) 1000ULL\n" } @b) .
			"#include \"${mon}_model_ha.h\"\n" .
			"static void ha_arm_$mon(struct ha_clocks_$mon *c, __u64 d) { (void)c; (void)d; }\n" .
			"static void ha_cancel_$mon(struct ha_clocks_$mon *c) { (void)c; }\n" .
			($m->{getter} ? "static __u64 ha_get_env_$mon(const struct ha_clocks_$mon *c, unsigned int e)\n" .
					"{\n\t(void)c;\n\treturn e;\n}\n" : '') .
			"int f(struct ha_clocks_$mon *c);\nint f(struct ha_clocks_$mon *c)\n{\n" .
			"\tbool g = ha_guard_holds_$mon(c, 0, 0, 1);\n\n" .
			"\tha_step_$mon(c, 0, 0, 1);\n\treturn g && ha_invariant_holds_$mon(c, 0, 1);\n}\n");
		($st, undef, $err) = run('gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', @flags, "-I$gen",
					 '-c', '-o', "$dir/from-dir.o", $src);
		is($st, 0, "${mon}_model_ha.h compiles from the directory rvgen wrote it to, as $what")
			or diag($err);
	}

	SKIP: {
		skip("no checkpatch.pl at $checkpatch", 2) unless -e $checkpatch;
		for my $h ("kernel/shared/${mon}_model.h", "kernel/shared/${mon}_model_ha.h") {
			my ($st, $out) = run('perl', $checkpatch, '--strict', '--no-tree', '-f', "$top/$h");
			ok($st == 0 && $out =~ /total: 0 errors, 0 warnings, 0 checks/,
			   "$h: checkpatch --strict clean") or diag($out);
		}
	}
}

done_testing();
