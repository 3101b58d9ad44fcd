// SPDX-License-Identifier: GPL-2.0
/*
 * The error every model reader reports through, and the small rules of
 * the dialect's words (grammar.h).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "grammar.h"

void rv_error_set(struct rv_error *err, int line, const char *fmt, ...)
{
	va_list ap;

	err->line = line > 0 ? line : 1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void rv_error_print(const struct rv_error *err, FILE *out)
{
	fprintf(out, "%s:%d: %s\n", err->file ? err->file : "<input>",
		err->line, err->msg);
}

bool rv_is_identifier(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_') ||
	    strlen(s) > RV_MAX_NAME)
		return false;
	for (s++; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

const char *rv_op_str(enum rv_op op)
{
	static const char * const s[] = { "<", "<=", ">", ">=", "==", "!=" };

	return s[op];
}
