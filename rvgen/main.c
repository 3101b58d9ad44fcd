// SPDX-License-Identifier: GPL-2.0
/*
 * rvgen: one DOT model in the kernel's rvgen dialect, parsed and checked
 * once, then written out by one emitter:
 *
 *   rvgen [-o OUTDIR] [--name NAME] --kind KIND MODEL.dot
 *
 * Without -o the output goes to stdout; with -o to OUTDIR/<file>, written
 * to a temporary file and renamed, so a failed run never leaves half a
 * file behind. Errors are "file:line: message" and exit status 1.
 *
 * Guards: a guard "event;VAR OP VALUE [&& ...]" is a constraint on its
 * edge, checked on the clocks as they were before the transition's reset,
 * and on variables (VAR no edge resets and no invariant bounds: a count
 * the monitor keeps) through a getter the includer defines. When it does
 * not hold, the transition is still taken (the event did happen) and the
 * monitor reports a violation of the guard, the way a broken invariant is
 * a violation, not a model error. So the state tables (header) and the
 * Promela model (pml) are the same with or without guards; only ha
 * evaluates them (ha_guard_holds_NAME(), which callers call before
 * ha_step_NAME()), and it refuses a comparison the C would find constant
 * (VAR < 0, VAR >= 0: model_check_guards()). The documents (md, svg,
 * dump) show guards; check accepts what they accept.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "model.h"

static const struct kind {
	const char *name;
	const char *file_fmt;	/* under -o */
	int (*emit)(const struct model *m, FILE *out);
	/* the output evaluates guards: their variables must be clocks */
	bool eval_guards;
	const char *help;
} kinds[] = {
	{ "header", "%s_model.h", emit_header, false, "shared C tables (kernel, BPF, user)" },
	{ "ha", "%s_model_ha.h", emit_ha, true, "clock/timer/guard glue (kernel, BPF, user)" },
	{ "md", "%s.md", emit_md, false, "Markdown transition table" },
	{ "svg", "%s.svg", emit_svg, false, "drawing laid out by graphviz" },
	{ "pml", "%s.pml", emit_promela, false, "Promela model for spin" },
	{ "dump", "%s.dump", emit_dump, false, "neutral line format (tests)" },
	{ "check", NULL, NULL, false, "validate only, write nothing" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: rvgen [-o OUTDIR] [--name NAME] --kind KIND MODEL.dot\n"
		"\n"
		"  -o, --output DIR  write DIR/<file> instead of stdout\n"
		"  -n, --name NAME   monitor name (default: MODEL's base name)\n"
		"  -k, --kind KIND   what to generate:\n");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		fprintf(out, "      %-10s %s\n", kinds[i].name, kinds[i].help);
}

static int write_file(const struct model *m, const struct kind *k,
		      const char *dir)
{
	char base[512], path[1024], tmp[1100];
	FILE *out;
	int ret;

	snprintf(base, sizeof(base), k->file_fmt, m->name);
	snprintf(path, sizeof(path), "%s/%s", dir, base);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "rvgen: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	ret = k->emit(m, out);
	if (fclose(out))
		ret = -1;
	if (!ret && rename(tmp, path))
		ret = -1;
	if (ret) {
		fprintf(stderr, "rvgen: cannot write %s: %s\n", path,
			strerror(errno));
		unlink(tmp);
	}
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "kind", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *name = NULL, *kind = NULL;
	const struct kind *k = NULL;
	struct rv_error err = { 0 };
	struct model *m;
	size_t i;
	int c, ret;

	while ((c = getopt_long(argc, argv, "o:n:k:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'k':
			kind = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	for (i = 0; kind && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i].name))
			k = &kinds[i];
	if (!k || optind != argc - 1) {
		if (kind && !k)
			fprintf(stderr, "rvgen: unknown kind '%s'\n", kind);
		usage(stderr);
		return 2;
	}

	m = model_load(argv[optind], name, &err);
	if (!m || model_validate(m, &err) ||
	    (k->eval_guards && model_check_guards(m, &err))) {
		rv_error_print(&err, stderr);
		model_free(m);
		return 1;
	}
	if (!k->emit)
		ret = 0;
	else if (dir)
		ret = write_file(m, k, dir);
	else
		ret = k->emit(m, stdout) || fflush(stdout) ? -1 : 0;
	model_free(m);
	return ret ? 1 : 0;
}
