// SPDX-License-Identifier: GPL-2.0
/* Shared option parsing for all tlob commands. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/utils.h"
#include "options/params.h"
#include "react/actions.h"
#include "section/section.h"
#include "tlob_bpf.h"
#include "version.h"

enum { OPT_BACKEND = 0x100, OPT_ROOT, OPT_STOP_VIOL, OPT_BUFFER, OPT_FORCE_OFFSET,
       OPT_BPF_TASKS, OPT_REMOVE, OPT_CHECK, OPT_DIR, OPT_STATE, OPT_FORMAT,
       OPT_INTERVAL, OPT_FLUSH, OPT_ON_VIOLATION, OPT_ON_VIOLATION_LIMIT, OPT_MODEL, OPT_PER,
       OPT_TOLERANCE, OPT_TAG, OPT_WITH_ZEROS, OPT_COLOR };

/*
 * Every option of every command, once: getopt's tables, which command
 * takes which (bit; 0: every command) and, for the options the commands
 * share, the help line -h prints (so it cannot drift from what parses).
 * Options with no help here are described by each command's own usage;
 * their arg names what they take, for shell completion (complete.c).
 */
const struct tlob_cli_option tlob_cli_options[] = {
	{ "bind",		required_argument, 'b', TLOB_OPT_BIND, "SECTION", NULL },
	{ "duration",		required_argument, 'd', TLOB_OPT_DURATION, "DURATION", NULL },
	{ "stop-on-violation",	no_argument, OPT_STOP_VIOL, TLOB_OPT_STOP_VIOL, NULL, NULL },
	{ "trace",		no_argument, 't', TLOB_OPT_TRACE, NULL, NULL },
	{ "reactor",		required_argument, 'r', TLOB_OPT_REACTOR, "REACTOR", NULL },
	{ "pid",		required_argument, 'p', TLOB_OPT_PID, "PID", NULL },
	{ "all",		no_argument, 'a', TLOB_OPT_ALL, NULL, NULL },
	{ "quiet",		no_argument, 'q', TLOB_OPT_QUIET, NULL, NULL },
	{ "buffer-size",	required_argument, OPT_BUFFER, TLOB_OPT_BUFFER, "KB", NULL },
	{ "force-offset",	no_argument, OPT_FORCE_OFFSET, TLOB_OPT_FORCE_OFFSET, NULL, NULL },
	{ "bpf-tasks",		required_argument, OPT_BPF_TASKS, TLOB_OPT_BPF_TASKS, "N", NULL },
	{ "flush",		required_argument, OPT_FLUSH, TLOB_OPT_FLUSH, "DURATION", NULL },
	{ "on-violation",	required_argument, OPT_ON_VIOLATION, TLOB_OPT_ON_VIOLATION,
	  "ACTION", NULL },
	{ "on-violation-limit",	required_argument, OPT_ON_VIOLATION_LIMIT, TLOB_OPT_ON_VIOLATION,
	  "N[/PERIOD]", NULL },
	{ "model",		required_argument, OPT_MODEL, TLOB_OPT_MODEL, "FILE", NULL },
	{ "event",		required_argument, 'e', TLOB_OPT_MODEL, "EVENT=PATH:SYMBOL", NULL },
	{ "per",		required_argument, OPT_PER, TLOB_OPT_MODEL, "process|task", NULL },
	{ "tolerance",		required_argument, OPT_TOLERANCE, TLOB_OPT_MODEL, "K/W", NULL },
	{ "tag",		required_argument, OPT_TAG, TLOB_OPT_MODEL, "NAME", NULL },
	{ "remove",		no_argument, OPT_REMOVE, TLOB_OPT_REMOVE, NULL, NULL },
	{ "check",		no_argument, OPT_CHECK, TLOB_OPT_CHECK, NULL, NULL },
	{ "dir",		required_argument, OPT_DIR, TLOB_OPT_DIR, "DIR", NULL },
	{ "state",		required_argument, OPT_STATE, TLOB_OPT_STATE, "FILE", NULL },
	{ "format",		required_argument, OPT_FORMAT, TLOB_OPT_FORMAT,
	  "text|json|openmetrics|prometheus", NULL },
	{ "output",		required_argument, 'o', TLOB_OPT_OUTPUT, "FILE", NULL },
	{ "interval",		required_argument, OPT_INTERVAL, TLOB_OPT_INTERVAL, "DURATION", NULL },
	{ "with-zeros",		no_argument, OPT_WITH_ZEROS, TLOB_OPT_WITH_ZEROS, NULL, NULL },
	{ "json",		no_argument, 'j', TLOB_OPT_JSON, NULL,
	  "JSON output, one object per line" },
	{ "color",		required_argument, OPT_COLOR, TLOB_OPT_COLOR, "auto|always|never",
	  "colour: auto (a terminal, no NO_COLOR, TERM not dumb), always, never" },
	{ "backend",		required_argument, OPT_BACKEND, 0, "kmod|bpf|auto",
	  "which backend (default: auto, or $TLOB_BACKEND)" },
	{ "root",		required_argument, OPT_ROOT, 0, "DIR",
	  "control directory (default " TLOB_SYSFS_DIR ", else RV's)" },
	{ "help",		no_argument, 'h', 0, NULL, "this help" },
	{ "version",		no_argument, 'V', 0, NULL, "print the version of tlob" },
};

#define NR_OPTIONS	(sizeof(tlob_cli_options) / sizeof(tlob_cli_options[0]))
const size_t tlob_nr_options = NR_OPTIONS;

bool tlob_option_applies(const struct tlob_cli_option *o, unsigned int opts)
{
	return !o->bit || (o->bit & opts);
}

void tlob_option_left(const struct tlob_cli_option *o, char *buf, size_t len)
{
	bool s = o->val < 0x100;

	snprintf(buf, len, "%c%c%c --%s%s%s", s ? '-' : ' ', s ? o->val : ' ', s ? ',' : ' ',
		 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void tlob_usage(const char *const *lines, unsigned int opts, int code)
{
	for (; *lines; lines++)
		printf("%s\n", *lines);
	printf("\n%s:\n", opts ? "common options" : "every command takes");
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		char left[64];

		/* A command's own options are in its usage lines. */
		if (!tlob_cli_options[i].help || !tlob_option_applies(&tlob_cli_options[i], opts))
			continue;
		tlob_option_left(&tlob_cli_options[i], left, sizeof(left));
		printf("  %-28s %s\n", left, tlob_cli_options[i].help);
	}
	exit(code);
}

void tlob_version(void)
{
	printf("tlob %s\n", TLOB_VERSION);
	exit(0);
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
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (tlob_cli_options[i].val == c)
			return tlob_cli_options[i].name;
	return "?";
}

static unsigned int option_bit(int c)
{
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (tlob_cli_options[i].val == c)
			return tlob_cli_options[i].bit;
	return 0;
}

/* getopt_long()'s two views of the table. */
static void getopt_tables(struct option *lo, char *shorts, bool in_order)
{
	/* A command's own arguments after -- are not tlob's options to pick out. */
	if (in_order)
		*shorts++ = '+';
	*shorts++ = ':';	/* a missing argument is ':', not '?' */
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct tlob_cli_option *o = &tlob_cli_options[i];

		lo[i] = (struct option){ o->name, o->has_arg, NULL, o->val };
		if (o->val >= 0x100)
			continue;
		*shorts++ = (char)o->val;
		if (o->has_arg == required_argument)
			*shorts++ = ':';
	}
	*shorts = '\0';
	lo[NR_OPTIONS] = (struct option){ NULL, 0, NULL, 0 };
}

/* The exit a failed binding argument takes: its message, then 2 or 1 (section.h). */
static void __attribute__((noreturn)) binding_fail(int ret, const char *err)
{
	if (ret == TLOB_SECTION_SYNTAX)
		tlob_usage_error("%s", err);
	/* A model's "FILE:LINE: message", as rvgen prints it. */
	if (ret == TLOB_SECTION_MODEL || ret == TLOB_SECTION_MODEL_FILE)
		fprintf(stderr, "%s\n", err);
	else
		fprintf(stderr, "tlob: %s\n", err);
	exit(ret == TLOB_SECTION_MODEL ? TLOB_EXIT_USAGE : TLOB_EXIT_ERROR);
}

static void add_section(const struct tlob_command *cmd, struct tlob_params *params,
			const char *arg, bool force_offset)
{
	struct tlob_binding_spec *specs;
	unsigned int flags = 0;
	char err[1024];
	int ret;

	specs = realloc(params->specs, (params->nr_specs + 1) * sizeof(*specs));
	if (!specs) {
		fprintf(stderr, "tlob: out of memory\n");
		exit(1);
	}
	params->specs = specs;
	if (cmd->section_start_only)
		flags |= TLOB_SECTION_START_ONLY;
	if (force_offset)
		flags |= TLOB_SECTION_FORCE;
	ret = tlob_section_parse(arg, flags, &specs[params->nr_specs], err, sizeof(err));
	if (ret)
		binding_fail(ret, err);
	params->nr_specs++;
}

/* --model and its terms: one logical binding more (logic.h). */
static void add_logic(const struct tlob_command *cmd, struct tlob_params *params,
		      bool force_offset)
{
	struct tlob_logic_args *a = &params->logic;
	struct tlob_binding_spec *specs;
	char err[1024];
	int ret;

	if (!a->model) {
		if (a->nr_events || a->per || a->tolerance || a->tag)
			tlob_usage_error("%s: -e, --per, --tolerance and --tag are terms of "
					 "--model FILE", cmd->name);
		return;
	}
	if (!a->nr_events)
		tlob_usage_error("%s: --model %s needs its events mapped: -e EVENT=PATH:SYMBOL",
				 cmd->name, a->model);
	specs = realloc(params->specs, (params->nr_specs + 1) * sizeof(*specs));
	if (!specs) {
		fprintf(stderr, "tlob: out of memory\n");
		exit(1);
	}
	params->specs = specs;
	ret = tlob_logic_build(a, force_offset ? TLOB_SECTION_FORCE : 0,
			       &specs[params->nr_specs], err, sizeof(err));
	if (ret)
		binding_fail(ret, err);
	params->nr_specs++;
}

/* --per, --tolerance, --tag: each once. */
static void model_term(const struct tlob_command *cmd, const char **term, int c)
{
	if (*term)
		tlob_usage_error("%s: --%s given twice", cmd->name, option_name(c));
	*term = optarg;
}

/* The counts and durations the options take (units.h): each range checked there, once. */
#define STR_(x)	#x
#define STR(x)	STR_(x)
static const struct tlob_num pid_num = {
	"pid", TLOB_NUM_COUNT, 1, INT32_MAX, "a process id, 1..2147483647"
};
static const struct tlob_num buffer_num = {
	"buffer size", TLOB_NUM_COUNT, 1, 1024 * 1024, "KiB per CPU, 1..1048576"
};
static const struct tlob_num bpf_tasks_num = {
	"--bpf-tasks", TLOB_NUM_COUNT, 1, TLOB_BPF_TASKS_MAX, "1.." STR(TLOB_BPF_TASKS_MAX)
};
static const struct tlob_num flush_num = {
	"--flush", TLOB_NUM_S, 0, TLOB_FLUSH_MAX_NS, "0..10s: 0 sends each record at once"
};

/* A number an option takes, or the usage error that names it. */
static uint64_t option_num(const struct tlob_num *num, const char *arg)
{
	char err[256];
	uint64_t v;

	if (tlob_parse_num(num, arg, &v, err, sizeof(err)))
		tlob_usage_error("%s", err);
	return v;
}

/*
 * -p narrows every binding given on the command line to one process; a
 * binding that names another filter (a kernel line's pid= or tgid=) is a
 * contradiction, not something to pick a winner in.
 */
static void narrow_to_pid(struct tlob_params *params)
{
	for (size_t i = 0; params->pid && i < params->nr_specs; i++) {
		struct tlob_binding_spec *spec = &params->specs[i];

		if (!spec->pid && (!spec->tgid || spec->tgid == params->pid)) {
			spec->tgid = params->pid;
			continue;
		}
		tlob_usage_error("-p %d contradicts the %s=%d of %s:0x%" PRIx64, (int)params->pid,
				 spec->pid ? "pid" : "tgid", (int)(spec->pid ? spec->pid : spec->tgid),
				 TLOB_SHOWN(spec->path), spec->start);
	}
}

/*
 * mon ... -- CMD [ARGS]: what follows the "--" that ended the options
 * (not a "--" given as an option's argument) is the command to run.
 */
static void take_command(const struct tlob_command *cmd, int argc, char **argv,
			 const char *last_arg, struct tlob_params *params)
{
	if (!cmd->runs_command || optind < 2 || strcmp(argv[optind - 1], "--") ||
	    argv[optind - 1] == last_arg)
		return;
	if (optind == argc)
		tlob_usage_error("%s: -- needs a command to run after it", cmd->name);
	params->command = &argv[optind];
	optind = argc;
}

/* ARG at the end of a list an option repeats (-e, --on-violation). */
static void append_arg(const char ***list, size_t *n, const char *arg)
{
	const char **v = realloc(*list, (*n + 1) * sizeof(*v));

	if (!v) {
		fprintf(stderr, "tlob: out of memory\n");
		exit(1);
	}
	*list = v;
	v[(*n)++] = arg;
}

/* getopt's verdict on option C, and whether the command takes it at all. */
static void option_allowed(const struct tlob_command *cmd, int c, char **argv)
{
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
}

/* The options that describe a logical binding (--model and its terms); false: another. */
static bool logic_option(const struct tlob_command *cmd, int c, struct tlob_params *params)
{
	switch (c) {
	case OPT_PER:
		model_term(cmd, &params->logic.per, c);
		break;
	case OPT_TOLERANCE:
		model_term(cmd, &params->logic.tolerance, c);
		break;
	case OPT_TAG:
		model_term(cmd, &params->logic.tag, c);
		break;
	case OPT_MODEL:
		if (params->logic.model)
			tlob_usage_error("%s: one --model per command (a second binding: "
					 "another tlob bind)", cmd->name);
		params->logic.model = optarg;
		break;
	case 'e':
		append_arg(&params->logic.events, &params->logic.nr_events, optarg);
		break;
	default:
		return false;
	}
	return true;
}

/* The options that say what tlob mon does on a violation and when it ends; false: another. */
static bool mon_option(int c, struct tlob_params *params)
{
	char err[256];

	switch (c) {
	case OPT_ON_VIOLATION:
		if (tlob_action_parse(optarg, NULL, err, sizeof(err)))
			tlob_usage_error("%s", err);
		append_arg(&params->actions, &params->nr_actions, optarg);
		break;
	case OPT_ON_VIOLATION_LIMIT:
		if (tlob_action_limit_parse(optarg, &params->action_limit,
					    &params->action_period_ns, err, sizeof(err)))
			tlob_usage_error("%s", err);
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
	default:
		return false;
	}
	return true;
}

/* The options that say where and how a command writes what it reads; false: another. */
static bool output_option(int c, struct tlob_params *params)
{
	char err[256];

	switch (c) {
	case OPT_DIR:
		params->dir = optarg;
		break;
	case OPT_STATE:
		params->state = optarg;
		break;
	case OPT_FORMAT:
		params->format = optarg;
		break;
	case 'o':
		params->output = optarg;
		break;
	case OPT_INTERVAL:
		if (tlob_parse_duration(optarg, &params->interval_ns, err, sizeof(err)))
			tlob_usage_error("%s", err);
		break;
	case OPT_WITH_ZEROS:
		params->with_zeros = true;
		break;
	case OPT_FLUSH:
		/* 0: no batching */
		params->flush_ns = option_num(&flush_num, optarg);
		break;
	case 'j':
		params->json = true;
		break;
	case 'q':
		params->quiet = true;
		break;
	default:
		return false;
	}
	return true;
}

/* The options left: what to bind, the backend and its sizes, help and version. */
static void other_option(const struct tlob_command *cmd, int c, struct tlob_params *params)
{
	switch (c) {
	case OPT_FORCE_OFFSET:
		params->force_offset = true;
		break;
	case OPT_REMOVE:
		params->remove = true;
		break;
	case OPT_CHECK:
		params->check = true;
		break;
	case 'p':
		params->pid = (pid_t)option_num(&pid_num, optarg);
		break;
	case 'a':
		params->all = true;
		break;
	case OPT_BUFFER:
		params->buffer_kb = (unsigned int)option_num(&buffer_num, optarg);
		break;
	case OPT_BPF_TASKS:
		params->bpf_tasks = (unsigned int)option_num(&bpf_tasks_num, optarg);
		break;
	case OPT_BACKEND:
		params->backend = optarg;
		params->backend_given = true;
		break;
	case OPT_ROOT:
		params->control_root = optarg;
		break;
	case OPT_COLOR:
		if (tlob_colour_parse(optarg, &params->colour))
			tlob_usage_error("%s: invalid --color '%s' (auto, always or never)",
					 cmd->name, TLOB_SHOWN(optarg));
		break;
	case 'h':
		tlob_usage(cmd->usage, cmd->opts, 0);
	case 'V':
		tlob_version();
	}
}

/*
 * What follows the options: the backend named, the operand, the command
 * mon runs, and the bindings, which --force-offset may have changed.
 */
static void params_finish(const struct tlob_command *cmd, int argc, char **argv,
			  const char *last_arg, const char **sections, size_t nr_sections,
			  struct tlob_params *params)
{
	if (strcmp(params->backend, "kmod") && strcmp(params->backend, "bpf") &&
	    strcmp(params->backend, "auto"))
		tlob_usage_error("invalid backend '%s' (kmod, bpf or auto)", params->backend);
	if (cmd->operand && optind < argc)
		params->operand = argv[optind++];
	take_command(cmd, argc, argv, last_arg, params);
	if (optind < argc)
		tlob_usage_error("%s: unexpected argument '%s' (see tlob %s -h)",
				 cmd->name, argv[optind], cmd->name);
	for (size_t i = 0; i < nr_sections; i++)
		add_section(cmd, params, sections[i], params->force_offset);
	add_logic(cmd, params, params->force_offset);
	narrow_to_pid(params);
}

void tlob_params_parse(const struct tlob_command *cmd, int argc, char **argv,
		       struct tlob_params *params)
{
	/* Sections are parsed after the options, which may say how (--force-offset). */
	const char **sections = calloc((size_t)argc, sizeof(*sections));
	size_t nr_sections = 0;
	struct option long_options[NR_OPTIONS + 1];
	char shorts[2 * NR_OPTIONS + 3];
	const char *last_arg = NULL;
	int c;

	if (!sections) {
		fprintf(stderr, "tlob: out of memory\n");
		exit(1);
	}
	memset(params, 0, sizeof(*params));
	params->backend = getenv("TLOB_BACKEND") ? getenv("TLOB_BACKEND") : "auto";
	params->flush_ns = TLOB_FLUSH_DEFAULT_NS;
	getopt_tables(long_options, shorts, cmd->runs_command);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, long_options, NULL)) != -1) {
		last_arg = optarg;
		option_allowed(cmd, c, argv);
		if (c == 'b')
			sections[nr_sections++] = optarg;
		else if (!logic_option(cmd, c, params) && !mon_option(c, params) &&
			 !output_option(c, params))
			other_option(cmd, c, params);
	}
	params_finish(cmd, argc, argv, last_arg, sections, nr_sections, params);
	free(sections);
}

void tlob_params_free(struct tlob_params *params)
{
	free(params->specs);
	params->specs = NULL;
	params->nr_specs = 0;
	free(params->actions);
	params->actions = NULL;
	params->nr_actions = 0;
	free(params->logic.events);
	params->logic.events = NULL;
	params->logic.nr_events = 0;
}
