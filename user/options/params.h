/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of every tlob command, parsed once (rtla's lesson: one
 * params struct, one getopt_long table). Each command says which options
 * it takes; any other is a usage error (exit 2).
 */
#ifndef TLOB_PARAMS_H
#define TLOB_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/backend.h"
#include "kinds/logic.h"
#include "lib/exit.h"
#include "output/colour.h"

enum tlob_cli_opt {
	TLOB_OPT_BIND		= 1 << 0,	/* -b SPEC */
	TLOB_OPT_DURATION	= 1 << 1,	/* -d DURATION */
	TLOB_OPT_STOP_VIOL	= 1 << 2,	/* --stop-on-violation */
	TLOB_OPT_TRACE		= 1 << 3,	/* -t */
	TLOB_OPT_REACTOR	= 1 << 4,	/* -r REACTOR */
	TLOB_OPT_JSON		= 1 << 5,	/* -j, --json */
	TLOB_OPT_PID		= 1 << 6,	/* -p PID */
	TLOB_OPT_ALL		= 1 << 7,	/* -a, --all */
	TLOB_OPT_QUIET		= 1 << 8,	/* -q: no per-record lines */
	TLOB_OPT_BUFFER		= 1 << 9,	/* --buffer-size KB */
	TLOB_OPT_FORCE_OFFSET	= 1 << 10,	/* --force-offset: offsets tlob cannot check */
	TLOB_OPT_REMOVE		= 1 << 11,	/* --remove (apply) */
	TLOB_OPT_CHECK		= 1 << 12,	/* --check (apply): validate, change nothing */
	TLOB_OPT_DIR		= 1 << 13,	/* --dir DIR (apply): DIR/tlob.conf + .d */
	TLOB_OPT_STATE		= 1 << 14,	/* --state FILE (apply) */
	TLOB_OPT_FORMAT		= 1 << 15,	/* --format FMT (stats) */
	TLOB_OPT_OUTPUT		= 1 << 16,	/* -o, --output FILE (stats, mon) */
	TLOB_OPT_INTERVAL	= 1 << 17,	/* --interval DURATION (stats) */
	TLOB_OPT_BPF_TASKS	= 1 << 18,	/* --bpf-tasks N (mon) */
	TLOB_OPT_FLUSH		= 1 << 19,	/* --flush DURATION (mon) */
	TLOB_OPT_ON_VIOLATION	= 1 << 20,	/* --on-violation ACTION, --on-violation-limit (mon) */
	TLOB_OPT_MODEL		= 1 << 21,	/* --model FILE, -e, --per, --tolerance, --tag */
	TLOB_OPT_WITH_ZEROS	= 1 << 22,	/* --with-zeros (stats, mon): empty buckets too */
	TLOB_OPT_COLOR		= 1 << 23,	/* --color WHEN (mon, list, status) */
	/* --backend, --root, -h, --version: every command */
};

struct tlob_params {
	const char *backend;		/* "kmod" | "bpf" | "auto" */
	const char *control_root;	/* --root DIR, NULL = backend default */
	struct tlob_binding_spec *specs;
	size_t nr_specs;
	uint64_t duration_ns;		/* 0 = until Ctrl-C */
	bool stop_on_violation;
	bool trace;
	const char *reactor;
	bool json;
	pid_t pid;			/* -p: only this process (tgid) */
	bool all;
	bool quiet;
	unsigned int buffer_kb;		/* 0 = default */
	unsigned int bpf_tasks;		/* --bpf-tasks; 0 = default */
	uint64_t flush_ns;		/* --flush; TLOB_FLUSH_DEFAULT_NS unless given */
	bool backend_given;		/* --backend was on the command line */
	bool force_offset;		/* --force-offset */
	const char *operand;		/* the command's one operand (apply FILE), or NULL */
	char *const *command;		/* mon ... -- CMD [ARGS]: NULL-terminated, or NULL */
	bool remove;			/* apply --remove */
	bool check;			/* apply --check */
	const char *dir;		/* apply --dir DIR */
	const char *state;		/* apply --state FILE */
	const char *format;		/* stats --format */
	const char *output;		/* stats, mon --output FILE */
	uint64_t interval_ns;		/* stats --interval; 0 = once */
	bool with_zeros;		/* --with-zeros: a histogram's empty buckets too */
	enum tlob_colour_when colour;	/* --color; auto unless given */
	const char **actions;		/* mon --on-violation ACTION..., checked (actions.h) */
	size_t nr_actions;
	/* --model FILE and its -e, --per, --tolerance, --tag: one logical binding, in specs */
	struct tlob_logic_args logic;
	unsigned int action_limit;	/* --on-violation-limit N; 0 = no limit */
	uint64_t action_period_ns;	/* ... /PERIOD; 0 = N for the whole session */
};

struct tlob_command {
	const char *name;
	const char *const *usage;	/* NULL-terminated lines */
	unsigned int opts;		/* enum tlob_cli_opt */
	bool section_start_only;	/* -b PATH:START names a binding (unbind) */
	const char *operand;		/* takes at most one operand, named so in errors; NULL: none */
	bool runs_command;		/* takes -- CMD [ARGS] after its options */
	int (*run)(struct tlob_params *params);
};

/* One option of the tool (params.c's table, the one getopt parses). */
struct tlob_cli_option {
	const char *name;	/* the long option */
	int has_arg;		/* getopt's no_argument, required_argument */
	int val;		/* the short option, or >= 0x100 for long only */
	unsigned int bit;	/* enum tlob_cli_opt; 0: every command */
	const char *arg;	/* what its argument is, or NULL */
	const char *help;	/* a common option's help line; NULL: the command's usage */
};

/* The table, for -h, the man pages (manpage.c) and completion (complete.c). */
extern const struct tlob_cli_option tlob_cli_options[];
extern const size_t tlob_nr_options;
/* Whether a command taking opts (enum tlob_cli_opt) accepts o. */
bool tlob_option_applies(const struct tlob_cli_option *o, unsigned int opts);
/* The option as -h shows it: "-j, --json", "    --root DIR". */
void tlob_option_left(const struct tlob_cli_option *o, char *buf, size_t len);

/*
 * Parse argv (argv[0] = the command name). On a usage error prints one
 * line to stderr and exits 2; -h prints the usage and exits 0.
 */
void tlob_params_parse(const struct tlob_command *cmd, int argc, char **argv,
		       struct tlob_params *params);
void tlob_params_free(struct tlob_params *params);

/*
 * Print usage lines (stdout), then the help of the options shared by the
 * commands that a command taking opts (enum tlob_cli_opt; 0: the tool's own
 * usage) takes, from params.c's one option table; then exit(code).
 */
void __attribute__((noreturn)) tlob_usage(const char *const *lines, unsigned int opts,
					  int code);
/* "tlob VERSION" on stdout (TLOB_VERSION from the build, user.mk), exit 0. */
void __attribute__((noreturn)) tlob_version(void);

/* The one-line usage error: "tlob: MSG" on stderr, exit 2. */
void __attribute__((noreturn, format(printf, 1, 2))) tlob_usage_error(const char *fmt, ...);
/*
 * The same line without exiting, for a command that has something to put
 * back first; it then returns TLOB_EXIT_USAGE.
 */
void __attribute__((format(printf, 1, 2))) tlob_usage_msg(const char *fmt, ...);

#endif /* TLOB_PARAMS_H */
