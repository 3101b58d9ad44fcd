#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# No model name can collide with an identifier rvgen generates. Every
# identifier NAME_m that the C and Promela outputs of a model define
# (enumerators of the model's own names aside, tags aside: they have their
# own name space) is read from those outputs here, independently of
# rvgen's table; a state called NAME must then be refused by `--kind
# check`, and so must an event and a clock called NAME where the C outputs
# define NAME_m (Promela defines only the states' names), and a variable
# (an env a guard reads, no clock) called NAME likewise. The plain model
# has a guard on a variable, so that ha declares its getter. A new
# generated identifier that the table misses fails this test.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Test::More;
use RvgenTest;

my $dir = tmpdir();

sub model_file {
	my ($name, $extra) = @_;
	my $path = "$dir/$name.dot";
	open(my $fh, '>', $path) or die;
	print $fh <<"EOF2";
digraph state_automaton {
	{node [shape = plaintext, style=invis, label=""] "__init_idle"};
	{node [shape = doublecircle] "idle"};
	"__init_idle" -> "idle";
	"busy" [label = "busy\\nclk < LIMIT_NS()"];
	"idle" -> "busy" [ label = "go;reset(clk)" ];
	"busy" -> "idle" [ label = "done;flag == 1" ];
$extra}
EOF2
	close($fh);
	return $path;
}

# The identifiers the outputs of the plain model define.
my $base = model_file('base', '');
my %model_names = map { ($_ => 1) } qw(idle busy go done clk flag);
my %ids;
for my $kind (qw(header ha pml)) {
	my ($st, $out, $err) = run(rvgen(), '--name', 'm', '-k', $kind, $base);
	is($st, 0, "$kind of the plain model") or diag($err);
	$out =~ s{/\*.*?\*/}{}gs;
	$out =~ s{(?:struct|enum)\s+\w+}{}g;	# tags
	$ids{$_}{$kind} = 1 for grep { !$model_names{$_} } $out =~ /\b(\w+)_m\b/g;
}
cmp_ok(scalar(keys %ids), '>=', 15, 'generated identifiers found: ' .
       join(' ', sort keys %ids));
ok($ids{ha_get_env}, 'ha_get_env_m, the getter of a guard on a variable, is among them');

for my $id (sort keys %ids) {
	my %as = (
		state => "\t\"busy\" -> \"$id\" [ label = \"fail\" ];\n" .
			 "\t\"$id\" -> \"idle\" [ label = \"back\" ];\n",
		event => "\t\"busy\" -> \"idle\" [ label = \"$id\" ];\n",
		# a state of its own: relabelling "busy" would be refused
		clock => "\t\"idle\" -> \"wait\" [ label = \"tick;reset($id)\" ];\n" .
			 "\t\"wait\" [label = \"wait\\n$id < 5ms\"];\n" .
			 "\t\"wait\" -> \"idle\" [ label = \"back\" ];\n",
		variable => "\t\"idle\" -> \"idle\" [ label = \"poll;$id == 1\" ];\n",
	);
	my $kinds = join(', ', sort keys %{$ids{$id}});
	delete @as{qw(event clock variable)} if $kinds eq 'pml';
	for my $what (sort keys %as) {
		my $f = model_file("$what-$id", $as{$what});
		my ($st, undef, $err) = run(rvgen(), '--name', 'm', '-k', 'check', $f);
		ok($st == 1 && $err =~ /'\Q$id\E' is reserved: rvgen generates '\Q${id}_m\E'/,
		   "$what '$id' is refused ($kinds: ${id}_m)") or diag("status $st: $err");
	}
}

done_testing();
