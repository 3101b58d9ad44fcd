// SPDX-License-Identifier: GPL-2.0
/* Shared option parsing for all tlob commands. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "section.h"
#include "units.h"

enum { OPT_BACKEND = 0x100, OPT_ROOT, OPT_STOP_VIOL, OPT_BUFFER };

static const struct option long_options[] = {
	{ "bind",		required_argument,	NULL, 'b' },
	{ "duration",		required_argument,	NULL, 'd' },
	{ "stop-on-violation",	no_argument,		NULL, OPT_STOP_VIOL },
	{ "trace",		no_argument,		NULL, 't' },
	{ "reactor",		required_argument,	NULL, 'r' },
	{ "json",		no_argument,		NULL, 'j' },
	{ "pid",		required_argument,	NULL, 'p' },
	{ "all",		no_argument,		NULL, 'a' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "buffer-size",	required_argument,	NULL, OPT_BUFFER },
	{ "backend",		required_argument,	NULL, OPT_BACKEND },
	{ "root",		required_argument,	NULL, OPT_ROOT },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void tlob_usage(const char *const *lines, int code)
{
	for (; *lines; lines++)
		printf("%s\n", *lines);
	exit(code);
}

static void usage_vmsg(const char *fmt, va_list ap)
{
	fputs("tlob: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tlob_usage_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(fmt, ap);
	va_end(ap);
}

void tlob_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(fmt, ap);
	va_end(ap);
	exit(TLOB_EXIT_USAGE);
}

static const char *option_name(int c)
{
	for (const struct option *o = long_options; o->name; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

static unsigned int option_bit(int c)
{
	switch (c) {
	case 'b': return TLOB_OPT_BIND;
	case 'd': return TLOB_OPT_DURATION;
	case OPT_STOP_VIOL: return TLOB_OPT_STOP_VIOL;
	case 't': return TLOB_OPT_TRACE;
	case 'r': return TLOB_OPT_REACTOR;
	case 'j': return TLOB_OPT_JSON;
	case 'p': return TLOB_OPT_PID;
	case 'a': return TLOB_OPT_ALL;
	case 'q': return TLOB_OPT_QUIET;
	case OPT_BUFFER: return TLOB_OPT_BUFFER;
	default: return 0;	/* common to all commands */
	}
}

static void add_section(const struct tlob_command *cmd, struct tlob_params *params,
			const char *arg)
{
	struct tlob_binding_spec *specs;
	char err[1024];
	int ret;

	specs = realloc(params->specs, (params->nr_specs + 1) * sizeof(*specs));
	if (!specs) {
		fprintf(stderr, "tlob: out of memory\n");
		exit(1);
	}
	params->specs = specs;
	ret = tlob_section_parse(arg, cmd->section_start_only, &specs[params->nr_specs], err,
				 sizeof(err));
	if (ret == TLOB_SECTION_SYNTAX)
		tlob_usage_error("%s", err);
	if (ret) {
		fprintf(stderr, "tlob: %s\n", err);
		exit(1);
	}
	params->nr_specs++;
}

static pid_t parse_pid_arg(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || v <= 0 || v > INT32_MAX)
		tlob_usage_error("invalid pid '%s'", arg);
	return (pid_t)v;
}

void tlob_params_parse(const struct tlob_command *cmd, int argc, char **argv,
		       struct tlob_params *params)
{
	char err[256];
	int c;

	memset(params, 0, sizeof(*params));
	params->backend = getenv("TLOB_BACKEND") ? getenv("TLOB_BACKEND") : "auto";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:d:tr:jp:aqh", long_options, NULL)) != -1) {
		unsigned int bit = option_bit(c);

		if (c == '?')
			tlob_usage_error("%s: unknown option '%s' (see tlob %s -h)",
					 cmd->name, argv[optind - 1], cmd->name);
		if (c == ':')
			tlob_usage_error("%s: option '%s' needs an argument",
					 cmd->name, argv[optind - 1]);
		if (bit && !(cmd->opts & bit))
			tlob_usage_error("%s: option --%s does not apply here (see tlob %s -h)",
					 cmd->name, option_name(c), cmd->name);
		switch (c) {
		case 'b':
			add_section(cmd, params, optarg);
			break;
		case 'd':
			if (tlob_parse_duration(optarg, &params->duration_ns, err, sizeof(err)))
				tlob_usage_error("%s", err);
			break;
		case OPT_STOP_VIOL:
			params->stop_on_violation = true;
			break;
		case 't':
			params->trace = true;
			break;
		case 'r':
			params->reactor = optarg;
			break;
		case 'j':
			params->json = true;
			break;
		case 'p':
			params->pid = parse_pid_arg(optarg);
			break;
		case 'a':
			params->all = true;
			break;
		case 'q':
			params->quiet = true;
			break;
		case OPT_BUFFER: {
			char *end;
			unsigned long kb;

			errno = 0;
			kb = strtoul(optarg, &end, 10);
			if (errno || *end || !kb || kb > 1024 * 1024 || optarg[0] == '-')
				tlob_usage_error("invalid buffer size '%s' (KiB per CPU, 1..1048576)",
						 optarg);
			params->buffer_kb = (unsigned int)kb;
			break;
		}
		case OPT_BACKEND:
			params->backend = optarg;
			break;
		case OPT_ROOT:
			params->control_root = optarg;
			break;
		case 'h':
			tlob_usage(cmd->usage, 0);
		}
	}
	if (strcmp(params->backend, "kmod") && strcmp(params->backend, "bpf") &&
	    strcmp(params->backend, "auto"))
		tlob_usage_error("invalid backend '%s' (kmod, bpf or auto)", params->backend);
	if (optind < argc)
		tlob_usage_error("%s: unexpected argument '%s' (see tlob %s -h)",
				 cmd->name, argv[optind], cmd->name);
	/* -p narrows every section given on the command line to one process. */
	for (size_t i = 0; params->pid && i < params->nr_specs; i++) {
		if (!params->specs[i].pid && !params->specs[i].tgid)
			params->specs[i].tgid = params->pid;
	}
}

void tlob_params_free(struct tlob_params *params)
{
	free(params->specs);
	params->specs = NULL;
	params->nr_specs = 0;
}
