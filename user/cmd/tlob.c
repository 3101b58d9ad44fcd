// SPDX-License-Identifier: GPL-2.0
/*
 * tlob: hold marked code sections to a wall-clock budget and report where
 * the time went. This file dispatches to the commands (tlob_<cmd>.c).
 */
#include <stdio.h>
#include <string.h>

#include "cmd/tlob.h"
#include "options/manpage.h"

static const char *const tlob_usage_lines[] = {
	"usage: tlob COMMAND [OPTIONS]",
	"",
	"commands:",
	"  list      monitors and backends available, with their state",
	"  mon       monitor sections until Ctrl-C, -d DURATION or --stop-on-violation",
	"  bind      add persistent bindings (they outlive tlob)",
	"  unbind    remove persistent bindings",
	"  status    monitor state, reactor and current bindings",
	"  stats     per-binding statistics and latency histograms (also OpenMetrics)",
	"  apply     bind a configuration file's sections, all or nothing (--remove undoes it)",
	"",
	"run 'tlob help COMMAND' (or 'tlob COMMAND -h') for the command's options;",
	"an in-kernel RV tlob's control directory is " TLOB_RV_DIR,
	NULL,
};

static const struct tlob_command *const commands[] = {
	&tlob_cmd_list, &tlob_cmd_mon, &tlob_cmd_bind, &tlob_cmd_unbind,
	&tlob_cmd_status, &tlob_cmd_stats, &tlob_cmd_apply, NULL,
};

static const struct tlob_command *command_named(const char *name)
{
	for (int i = 0; commands[i]; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	return NULL;
}

/* tlob help [COMMAND]: what tlob -h or tlob COMMAND -h prints. */
static void __attribute__((noreturn)) help(int argc, char **argv)
{
	const struct tlob_command *cmd;

	if (argc < 3)
		tlob_usage(tlob_usage_lines, 0, TLOB_EXIT_OK);
	if (argc > 3)
		tlob_usage_error("help: unexpected argument '%s' (see tlob -h)", argv[3]);
	cmd = command_named(argv[2]);
	if (!cmd)
		tlob_usage_error("help: unknown command '%s' (list, mon, bind, unbind, status, "
				 "stats, apply)", argv[2]);
	tlob_usage(cmd->usage, cmd->opts, TLOB_EXIT_OK);
}

int main(int argc, char **argv)
{
	const struct tlob_command *cmd;
	struct tlob_params params;
	int ret;

	if (argc < 2)
		tlob_usage(tlob_usage_lines, 0, TLOB_EXIT_USAGE);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		tlob_usage(tlob_usage_lines, 0, TLOB_EXIT_OK);
	if (!strcmp(argv[1], "help"))
		help(argc, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		tlob_version();
	/* Not in the usage: the build renders the man pages and completion from these. */
	if (!strcmp(argv[1], "--man") && argc <= 3)
		return tlob_manpage(tlob_usage_lines, commands, argv[2]);
	if (!strcmp(argv[1], "--complete") && argc <= 3)
		return tlob_complete(commands, argv[2]);
	if (!strcmp(argv[1], "--complete-symbols") && argc == 3)
		return tlob_complete_symbols(argv[2]);

	cmd = command_named(argv[1]);
	if (cmd) {
		tlob_params_parse(cmd, argc - 1, argv + 1, &params);
		ret = cmd->run(&params);
		tlob_params_free(&params);
		return ret;
	}
	tlob_usage_error("unknown command '%s' (list, mon, bind, unbind, status, stats, apply)",
			 argv[1]);
}
