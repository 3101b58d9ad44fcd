// SPDX-License-Identifier: GPL-2.0
/* Colour in the text output: the SGR table and whether to use it (colour.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/jbuf.h"
#include "output/colour.h"

static const char *const sgr[] = {
	[TLOB_COLOUR_BAD] = "\033[1;31m",
	[TLOB_COLOUR_GOOD] = "\033[32m",
	[TLOB_COLOUR_WARN] = "\033[33m",
	[TLOB_COLOUR_QUIET] = "\033[2m",
	[TLOB_COLOUR_NOTE] = "\033[1m",
};

/* Read by the formatters of every thread; set once, before any of them runs. */
static bool colour_on;

int tlob_colour_parse(const char *s, enum tlob_colour_when *when)
{
	if (!strcmp(s, "auto"))
		*when = TLOB_COLOUR_AUTO;
	else if (!strcmp(s, "always"))
		*when = TLOB_COLOUR_ALWAYS;
	else if (!strcmp(s, "never"))
		*when = TLOB_COLOUR_NEVER;
	else
		return -1;
	return 0;
}

/* Set and not empty: NO_COLOR "present" as no-color.org defines it; TERM known. */
static bool env_set(const char *v)
{
	return v && *v;
}

bool tlob_colour_wanted(enum tlob_colour_when when, FILE *f)
{
	const char *term = getenv("TERM");

	if (when != TLOB_COLOUR_AUTO)
		return when == TLOB_COLOUR_ALWAYS;
	if (env_set(getenv("NO_COLOR")) || !env_set(term) || !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(f)) == 1;
}

void tlob_colour_use(bool on)
{
	colour_on = on;
}

bool tlob_colour_used(void)
{
	return colour_on;
}

const char *tlob_colour_sgr(enum tlob_colour c)
{
	return (size_t)c < sizeof(sgr) / sizeof(sgr[0]) && sgr[c] ? sgr[c] : "";
}

void tlob_colour_fputs(FILE *f, bool on, enum tlob_colour c, const char *s, int width)
{
	int n = (int)strlen(s);

	if (on)
		fputs(tlob_colour_sgr(c), f);
	fputs(s, f);
	if (on)
		fputs(TLOB_COLOUR_RESET, f);
	for (; n < width; n++)
		fputc(' ', f);
}

void tlob_colour_left(struct jbuf *j, enum tlob_colour c, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (!colour_on) {
		text_left(j, s, width);
		return;
	}
	jstr(j, tlob_colour_sgr(c));
	jmem(j, s, n);
	jstr(j, TLOB_COLOUR_RESET);
	text_left(j, "", n < width ? width - n : 0);
}
