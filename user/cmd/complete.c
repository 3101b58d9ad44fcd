// SPDX-License-Identifier: GPL-2.0
/*
 * tlob --complete [COMMAND]: the words bash completion offers
 * (user/completion/tlob), from the command table and the option table
 * getopt parses, so a new option or command completes without touching
 * the completion script. tlob --complete-symbols PATH: the functions of
 * an ELF file a section can name, for the argument after PATH: in -b and -e.
 */
#include <stdio.h>
#include <string.h>

#include "options/manpage.h"
#include "section/elfsym.h"

/* More names than a shell offers anyone, and a bound on what a hostile file makes us print. */
#define SYMBOLS_MAX	100000

int tlob_complete(const struct tlob_command *const *cmds, const char *name)
{
	for (int i = 0; cmds[i]; i++) {
		if (!name) {
			printf("%s\n", cmds[i]->name);
			continue;
		}
		if (strcmp(cmds[i]->name, name))
			continue;
		for (size_t j = 0; j < tlob_nr_options; j++) {
			const struct tlob_cli_option *o = &tlob_cli_options[j];
			const char *arg = o->has_arg ? (o->arg ? o->arg : "ARG") : NULL;

			if (!tlob_option_applies(o, cmds[i]->opts))
				continue;
			printf("--%s%s%s\n", o->name, arg ? " " : "", arg ? arg : "");
			if (o->val < 0x100)
				printf("-%c%s%s\n", o->val, arg ? " " : "", arg ? arg : "");
		}
		return TLOB_EXIT_OK;
	}
	if (name) {
		fprintf(stderr, "tlob: --complete: unknown command '%s'\n", name);
		return TLOB_EXIT_USAGE;
	}
	return TLOB_EXIT_OK;
}

static void print_name(const char *name, void *ctx)
{
	(void)ctx;
	puts(name);
}

int tlob_complete_symbols(const char *path)
{
	char err[512];

	if (tlob_elf_functions(path, SYMBOLS_MAX, print_name, NULL, err, sizeof(err))) {
		fprintf(stderr, "tlob: --complete-symbols: %s\n", err);
		return TLOB_EXIT_ERROR;
	}
	return TLOB_EXIT_OK;
}
