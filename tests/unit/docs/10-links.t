#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Every relative link of README.md and docs/*.md resolves: the file or
# folder it names exists in the tree, and an anchor (#...) into a
# Markdown file names one of its headings, spelled as GitHub spells them.
# Links inside code (fenced blocks, `spans`) are text, not links.
# TLOB_DOCS_TOP checks another tree (the test's own check that it fails).
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Cwd qw(abs_path);
use Test::More;

my $top = $ENV{TLOB_DOCS_TOP} // abs_path(dirname(__FILE__) . '/../../..');
my @docs = ('README.md', map { File::Spec->abs2rel($_, $top) } sort glob("$top/docs/*.md"));

# The file's text without code: fenced blocks, indented blocks and, unless
# $keep_spans (a heading's anchor keeps their text), `spans`.
sub prose {
	my ($text, $keep_spans) = @_;
	my ($out, $fence) = ('', 0);
	my $prev_blank = 1;
	for my $line (split /\n/, $text) {
		if ($line =~ /^\s*(```|~~~)/) {
			$fence = !$fence;
			$out .= "\n";
			next;
		}
		if ($fence || ($prev_blank && $line =~ /^(    |\t)/)) {
			$out .= "\n";
			next;
		}
		$prev_blank = $line =~ /^\s*$/;
		$line =~ s/(`+).*?\1//g if !$keep_spans;
		$out .= "$line\n";
	}
	return $out;
}

sub slurp {
	my ($path) = @_;
	open(my $fh, '<:encoding(UTF-8)', $path) or return undef;
	local $/;
	my $text = <$fh>;
	close($fh);
	return $text;
}

# GitHub's anchors of a Markdown file's headings.
sub anchors {
	my ($path) = @_;
	my $text = slurp($path) // return {};
	my (%seen, %set);
	for my $h (prose($text, 1) =~ /^#{1,6}\s+(.*?)\s*#*\s*$/mg) {
		my $a = lc $h;
		$a =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;
		$a =~ s/[^\w\- ]//g;
		$a =~ tr/ /-/;
		my $n = $seen{$a}++;
		$set{$n ? "$a-$n" : $a} = 1;
	}
	return \%set;
}

for my $doc (@docs) {
	my $text = slurp("$top/$doc");
	ok(defined $text, "$doc is readable") or next;
	my $dir = dirname("$top/$doc");
	my @bad;
	my $n = 0;
	for my $target (prose($text) =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g) {
		next if $target =~ m{^[a-z][a-z0-9+.-]*:}i;	# http:, mailto:, ...
		$n++;
		my ($file, $anchor) = split /#/, $target, 2;
		my $path = $file eq '' ? "$top/$doc" : "$dir/$file";
		if (!-e $path) {
			push @bad, "$target (no such file)";
			next;
		}
		next if !defined $anchor || $anchor eq '' || $path !~ /\.md$/;
		push @bad, "$target (no such heading)" if !anchors($path)->{$anchor};
	}
	is(join("\n", @bad), '', "$doc: its $n relative links resolve");
}
done_testing();
