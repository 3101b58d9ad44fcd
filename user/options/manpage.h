/* SPDX-License-Identifier: GPL-2.0 */
/* The generated part of the man pages (tlob --man [COMMAND]). */
#ifndef TLOB_MANPAGE_H
#define TLOB_MANPAGE_H

#include "options/params.h"

/*
 * Print tlob(8) (name NULL) or tlob-NAME(8) as roff on stdout, from the
 * tool's usage lines (its "commands:" table gives each page's NAME line),
 * the command's usage lines and the option table. Returns an enum
 * tlob_exit (TLOB_EXIT_USAGE for an unknown command).
 */
int tlob_manpage(const char *const *tool_usage, const struct tlob_command *const *cmds,
		 const char *name);

/*
 * Shell completion's words on stdout (tlob --complete [COMMAND]): without
 * a command the commands, one a line; with one, every option it takes,
 * "--long ARG" or "-s ARG" (ARG only when it takes one), one a line.
 */
int tlob_complete(const struct tlob_command *const *cmds, const char *name);

/*
 * The function symbols of the ELF file path a section can name, one a
 * line (tlob --complete-symbols PATH). Returns an enum tlob_exit:
 * TLOB_EXIT_ERROR, with nothing on stdout, for a path that is no regular
 * ELF file or names no such function.
 */
int tlob_complete_symbols(const char *path);

#endif /* TLOB_MANPAGE_H */
