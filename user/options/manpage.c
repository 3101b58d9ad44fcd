// SPDX-License-Identifier: GPL-2.0
/*
 * tlob --man [COMMAND]: the generated part of tlob(8) or tlob-COMMAND(8),
 * rendered as roff from the same usage lines and option table that -h
 * prints, so the page and the help cannot drift. The prose (description,
 * examples, files) is hand-written in user/man/ and merged in by
 * user/man/mkman.
 *
 * The usage lines follow one layout, which this file reads:
 *   "usage: tlob ..."        the synopsis (with indented continuations)
 *   "  -x, --long ARG   text" an option; text continues at the same column,
 *                            lines indented further are literal examples
 *   "  text"                 a sentence of the description
 *   "label: text"            its own section (exit status: "N what; ...")
 *   "commands:"              the tool's command table ("  name  summary")
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "options/manpage.h"
#include "version.h"

static const char *const tool_name_line = "hold marked code sections to a wall-clock budget";

/* A command whose usage names no exit status exits as every command does (lib/exit.h). */
static const char *const default_exit_status[] = {
	"exit status: 0 done; 1 an error found on the system (not root, no backend,",
	"             a file or symbol missing; the message says which); 2 a malformed",
	"             command line, with a one-line message",
	NULL,
};

/* Text as roff: backslashes escaped, a dash that starts a word is a minus. */
static void roff_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		char c = s[i];
		bool word_start = !i || strchr(" [(,|=/\"'", s[i - 1]);

		if (c == '\\')
			fputs("\\e", stdout);
		else if (c == '-' && (word_start || s[i - 1] == '-'))
			fputs("\\-", stdout);
		else
			fputc(c, stdout);
	}
}

static void roff_line(const char *s)
{
	/* A line starting with . or ' would be a request. */
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	roff_text(s, strlen(s));
	fputc('\n', stdout);
}

/* The longest input line of filled text: mandoc -Tlint wants at most 80 bytes, escapes included. */
#define ROFF_WIDTH	70

/*
 * Text in fill mode, as input lines broken at blanks; @used bytes of the
 * first line are taken already. The reader sees the same paragraph.
 */
static void roff_fill(const char *s, size_t used)
{
	size_t width = used < ROFF_WIDTH / 2 ? ROFF_WIDTH - used : ROFF_WIDTH / 2;

	while (*s) {
		size_t cut = strlen(s);

		if (cut > width) {
			cut = width;
			while (cut && s[cut] != ' ')
				cut--;
			if (!cut)	/* one word longer than a line */
				cut = strcspn(s, " ");
		}
		if (*s == '.' || *s == '\'')
			fputs("\\&", stdout);
		roff_text(s, cut);
		fputc('\n', stdout);
		for (s += cut; *s == ' '; s++)
			;
		width = ROFF_WIDTH;
	}
}

static size_t indent_of(const char *s)
{
	size_t n = 0;

	while (s[n] == ' ')
		n++;
	return n;
}

/* Where a two-space gap ends (the option's text column), or 0. */
static size_t text_column(const char *s)
{
	const char *gap = strstr(s + indent_of(s), "  ");

	return gap ? (size_t)(gap - s) + indent_of(gap) : 0;
}

/* "-b, --bind SECTION": options bold, what they take italic. */
static void roff_option_tag(const char *s, size_t len)
{
	size_t i = 0;

	fputs(".TP\n", stdout);
	while (i < len) {
		size_t j = i;

		while (j < len && s[j] != ' ' && s[j] != ',')
			j++;
		if (j > i) {
			fputs(s[i] == '-' ? "\\fB" : "\\fI", stdout);
			roff_text(s + i, j - i);
			fputs("\\fR", stdout);
		}
		for (; j < len && (s[j] == ' ' || s[j] == ','); j++)
			fputc(s[j], stdout);
		i = j;
	}
	fputc('\n', stdout);
}

/* A label line: "exit status: ...", "commands:". */
static bool label_of(const char *line, char *label, size_t len)
{
	const char *colon = strchr(line, ':');
	size_t n;

	if (!colon || line[0] == ' ' || !line[0])
		return false;
	n = (size_t)(colon - line);
	if (n >= len || n > 20)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)line[i]) && line[i] != ' ')
			return false;
	memcpy(label, line, n);
	label[n] = '\0';
	return true;
}

static void section(const char *title)
{
	char up[64];
	size_t i;

	for (i = 0; title[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)title[i]);
	up[i] = '\0';
	printf(".SH %s\n", up);
}

/* The synopsis: "usage: tlob mon [...]" and its indented continuations. */
static const char *const *synopsis(const char *const *l)
{
	size_t strip = strlen("usage: ");

	section("synopsis");
	fputs(".nf\n", stdout);
	for (; *l && **l; l++) {
		const char *s = strncmp(*l, "usage: ", strip) ? *l : *l + strip;
		const char *cmd_end = s;

		if (s != *l) {
			/* tlob and a command word (not COMMAND) in bold */
			cmd_end = s + strcspn(s, " ");
			if (islower((unsigned char)cmd_end[*cmd_end ? 1 : 0]))
				cmd_end += 1 + strcspn(cmd_end + 1, " ");
			fputs("\\fB", stdout);
			roff_text(s, (size_t)(cmd_end - s));
			fputs("\\fR", stdout);
		} else {
			s += indent_of(s) >= strip ? strip : indent_of(s);
			cmd_end = s;
		}
		roff_text(cmd_end, strlen(cmd_end));
		fputc('\n', stdout);
	}
	fputs(".fi\n", stdout);
	return l;
}

/* "exit status: 0 what; 1 what" (continued on indented lines) as a list. */
static const char *const *exit_status(const char *const *l, const char *first)
{
	char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", first);

	for (l++; *l && (*l)[0] == ' '; l++)
		n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, " %s",
				      *l + indent_of(*l));
	section("exit status");
	for (char *item = strtok(buf, ";"); item; item = strtok(NULL, ";")) {
		char *what;

		item += indent_of(item);
		what = strchr(item, ' ');
		if (!what)
			continue;
		printf(".TP\n.B %.*s\n", (int)(what - item), item);
		roff_fill(what + 1, 0);
	}
	return l;
}

/* "commands:" and its "  name   summary" lines. */
static const char *const *commands(const char *const *l)
{
	section("commands");
	for (l++; *l && (*l)[0] == ' '; l++) {
		const char *name = *l + indent_of(*l);
		size_t n = strcspn(name, " ");
		size_t col = text_column(*l);

		printf(".TP 9n\n.B %.*s\n", (int)n, name);
		roff_fill(col ? *l + col : "", 0);
		printf("(see \\fBtlob\\-%.*s\\fR(8))\n", (int)n, name);
	}
	return l;
}

/* The indent of a description's sentences; a line indented further is literal. */
#define DESC_INDENT	2

/* A description line that is a term and its text ("  FILE   that file alone"). */
static bool is_item(const char *s)
{
	size_t ind = indent_of(s), word = strcspn(s + ind, " ");

	return ind == DESC_INDENT && !strncmp(s + ind + word, "  ", 2) && s[text_column(s)];
}

/* How a description line starts its block: the paragraph, item or literal it is in. */
enum desc_block { DESC_NONE, DESC_PARA, DESC_ITEM, DESC_LITERAL };

static enum desc_block desc_line(const char *s, enum desc_block in, bool fresh)
{
	size_t ind = indent_of(s);

	if (ind > DESC_INDENT) {
		if (in != DESC_LITERAL)
			fputs(".RS\n.nf\n", stdout);
		/* a literal block keeps its lines' indent relative to the block */
		roff_line(s + (ind < 2 * DESC_INDENT ? ind : 2 * DESC_INDENT));
		return DESC_LITERAL;
	}
	if (in == DESC_LITERAL)
		fputs(".fi\n.RE\n", stdout);
	if (is_item(s)) {
		size_t col = text_column(s);

		printf(".TP\n.I %.*s\n", (int)strcspn(s + ind, " "), s + ind);
		roff_fill(s + col, 0);
		return DESC_ITEM;
	}
	/* a paragraph's first line right after the heading needs no .PP */
	if (in != DESC_PARA && !fresh)
		fputs(".PP\n", stdout);
	roff_fill(s + ind, 0);
	return DESC_PARA;
}

/*
 * The body of a usage: description sentences, options, labelled sections.
 * Descriptions come first on the page, so the lines are walked twice. An
 * option's text keeps the line breaks -h shows (no fill): its lines are
 * often a list or examples, not one sentence.
 */
static void description(const char *const *l)
{
	enum desc_block in = DESC_NONE;
	bool titled = false, in_option = false;
	char label[32];

	for (; *l; l++) {
		size_t ind = indent_of(*l);
		bool option = ind && (*l)[ind] == '-';

		in_option = in_option && **l && ind > DESC_INDENT;
		if (in_option && !option)
			continue;	/* an option's text */
		if (label_of(*l, label, sizeof(label)) || !**l || option) {
			/* a label's continuation lines belong to it */
			while (!option && **l && l[1] && l[1][0] == ' ')
				l++;
			if (in == DESC_LITERAL)
				fputs(".fi\n.RE\n", stdout);
			in = DESC_NONE;
			in_option = option;
			continue;
		}
		if (!titled)
			section("description");
		in = desc_line(*l, in, !titled);
		titled = true;
	}
	if (in == DESC_LITERAL)
		fputs(".fi\n.RE\n", stdout);
}

/* What body() found in a usage besides its description. */
struct body_has {
	bool options;
	bool exit_status;
};

/*
 * Where an option's text is cut from: its own column on its line, on the
 * lines after it the shallower of that and their first indent (the text
 * of a long option tag starts to its left).
 */
static size_t option_base(const char *const *l, size_t col)
{
	size_t next = l[1] ? indent_of(l[1]) : 0;

	if (!l[1] || !l[1][0] || next <= DESC_INDENT || l[1][next] == '-')
		return col;
	return next < col ? next : col;
}

static void body(const char *const *l, struct body_has *has)
{
	bool in_opts = false, in_option = false;
	size_t col = 0, base = 0;
	char label[32];

	description(l);
	while (*l) {
		size_t ind = indent_of(*l);
		bool option = ind && (*l)[ind] == '-';

		if (in_option && (option || !**l || ind <= DESC_INDENT)) {
			fputs(".fi\n", stdout);
			in_option = false;
		}
		if (label_of(*l, label, sizeof(label))) {
			const char *text = *l + strlen(label) + 1;

			text += indent_of(text);
			if (!strcmp(label, "exit status")) {
				l = exit_status(l, text);
				has->exit_status = true;
			} else if (!strcmp(label, "commands")) {
				l = commands(l);
			} else {
				/* any other label: a paragraph in its own section */
				section(label);
				roff_fill(text, 0);
				for (l++; *l && (*l)[0] == ' '; l++)
					roff_fill(*l + indent_of(*l), 0);
			}
			continue;
		}
		if (option) {
			size_t tag_end;

			col = text_column(*l);
			tag_end = col ? col : strlen(*l);
			while (tag_end > ind && (*l)[tag_end - 1] == ' ')
				tag_end--;
			if (!in_opts)
				section("options");
			in_opts = true;
			has->options = true;
			roff_option_tag(*l + ind, tag_end - ind);
			fputs(".nf\n", stdout);
			in_option = true;
			if (col)
				roff_line(*l + col);
			base = option_base(l, col ? col : strlen(*l));
		} else if (in_option) {
			roff_line(*l + (ind < base ? ind : base));
		}
		l++;
	}
	if (in_option)
		fputs(".fi\n", stdout);
}

/* The options every command (or, opts = 0, the tool itself) shares. */
static void common_options(unsigned int opts, const char *title)
{
	section(title);
	for (size_t i = 0; i < tlob_nr_options; i++) {
		const struct tlob_cli_option *o = &tlob_cli_options[i];
		char left[64];

		if (!o->help || !tlob_option_applies(o, opts))
			continue;
		tlob_option_left(o, left, sizeof(left));
		roff_option_tag(left + indent_of(left), strlen(left + indent_of(left)));
		roff_fill(o->help, 0);
	}
}

/* The summary of a command in the tool's "commands:" table. */
static bool command_summary(const char *const *tool_usage, const char *name, char *buf,
			    size_t len)
{
	bool in_table = false;

	for (; *tool_usage; tool_usage++) {
		const char *l = *tool_usage;
		size_t n = strlen(name);

		if (!strcmp(l, "commands:")) {
			in_table = true;
			continue;
		}
		if (in_table && l[0] != ' ')
			in_table = false;
		if (in_table && !strncmp(l + indent_of(l), name, n) && l[indent_of(l) + n] == ' ') {
			snprintf(buf, len, "%s", l + text_column(l));
			return true;
		}
	}
	return false;
}

static void header(const char *page, const char *summary)
{
	char up[64];
	size_t i;

	for (i = 0; page[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)page[i]);
	up[i] = '\0';
	printf(".\\\" Generated by tlob --man from the tool's usage lines and option\n"
	       ".\\\" table, merged with the prose of user/man/%s.8.in (if any) by\n"
	       ".\\\" user/man/mkman. DO NOT EDIT.\n", page);
	printf(".TH %s 8 \"\" \"tlob %s\" \"System Administration\"\n", up, TLOB_VERSION);
	section("name");
	roff_text(page, strlen(page));
	fputs(" \\- ", stdout);
	roff_fill(summary, strlen(page) + strlen(" \\- "));
}

int tlob_manpage(const char *const *tool_usage, const struct tlob_command *const *cmds,
		 const char *name)
{
	struct body_has has = { 0 };
	char summary[256], page[64];
	const char *const *rest;

	if (!name) {
		header("tlob", tool_name_line);
		rest = synopsis(tool_usage);
		body(rest, &has);
		common_options(0, "options");
		/* every command's page; the prose adds the other tools after them */
		section("see also");
		for (int i = 0; cmds[i]; i++)
			printf(".BR tlob\\-%s (8),\n", cmds[i]->name);
		return TLOB_EXIT_OK;
	}
	for (int i = 0; cmds[i]; i++) {
		if (strcmp(cmds[i]->name, name))
			continue;
		if (!command_summary(tool_usage, name, summary, sizeof(summary)))
			snprintf(summary, sizeof(summary), "the %s command of tlob", name);
		snprintf(page, sizeof(page), "tlob-%s", name);
		header(page, summary);
		rest = synopsis(cmds[i]->usage);
		body(rest, &has);
		if (!has.exit_status)
			body(default_exit_status, &has);
		/* a command with none of its own has the common ones as its options */
		common_options(cmds[i]->opts, has.options ? "common options" : "options");
		return TLOB_EXIT_OK;
	}
	fprintf(stderr, "tlob: --man: unknown command '%s'\n", name);
	return TLOB_EXIT_USAGE;
}
