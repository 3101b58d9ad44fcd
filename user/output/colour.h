/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Colour in the text output on a terminal: the one table of SGR escapes
 * and the one decision whether to use them (--color=auto|always|never,
 * NO_COLOR, TERM=dumb). Colour marks a line's verdict word only, never
 * anything inside JSON or the metrics formats.
 */
#ifndef TLOB_COLOUR_H
#define TLOB_COLOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum tlob_colour_when {
	TLOB_COLOUR_AUTO,	/* the default: a terminal, TERM not dumb, no NO_COLOR */
	TLOB_COLOUR_ALWAYS,	/* the user's explicit choice, over NO_COLOR */
	TLOB_COLOUR_NEVER,
};

/* What a coloured word says: one colour each, whatever the line. */
enum tlob_colour {
	TLOB_COLOUR_BAD,	/* what went wrong: VIOLATION, window OVER (bold red) */
	TLOB_COLOUR_GOOD,	/* window ok, usable yes (green) */
	TLOB_COLOUR_WARN,	/* DROPPED (yellow) */
	TLOB_COLOUR_QUIET,	/* aborted: nothing judged (dim) */
	TLOB_COLOUR_NOTE,	/* a word to find in a block: the diagnosis' state (bold) */
};

/* "auto", "always", "never" -> *when; -1 for anything else. */
int tlob_colour_parse(const char *s, enum tlob_colour_when *when);

/*
 * Whether text written to f is coloured: always, never, or (auto) when f
 * is a terminal, TERM is set and not "dumb" and NO_COLOR is unset or
 * empty (https://no-color.org).
 */
bool tlob_colour_wanted(enum tlob_colour_when when, FILE *f);

/*
 * The formatters' setting (output.h's text lines), off until a command
 * turns it on for the stream it writes: off, the text is as it always was.
 */
void tlob_colour_use(bool on);
bool tlob_colour_used(void);

/* The escape that starts a span of colour c, and the one that ends it. */
const char *tlob_colour_sgr(enum tlob_colour c);
#define TLOB_COLOUR_RESET	"\033[0m"

/*
 * s into j as text_left() (jbuf.h) writes it, "%-*s": in colour c when
 * tlob_colour_used(), the padding outside the colour. No printf-family
 * call, as for the records it starts.
 */
struct jbuf;
void tlob_colour_left(struct jbuf *j, enum tlob_colour c, const char *s, size_t width);

/*
 * s to f, in colour c when on (its escape, s, the reset), then spaces to
 * width: "%-*s" whose padding stays outside the colour.
 */
void tlob_colour_fputs(FILE *f, bool on, enum tlob_colour c, const char *s, int width);

#endif /* TLOB_COLOUR_H */
