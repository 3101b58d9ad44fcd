// SPDX-License-Identifier: GPL-2.0
/*
 * -b SPEC parsing: split, resolve and check each end with elfsym, parse the
 * budget; or, for an alive binding, the checkpoint and its terms.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/monline.h"
#include "lib/units.h"
#include "lib/utils.h"
#include "section/elfsym.h"
#include "section/section.h"
#include "tlob_parse.h"

#define SECTION_HELP "expected PATH:START,STOP,BUDGET[,min=MIN][,tolerance=K/W][,tag=NAME] " \
	"(e.g. /usr/bin/app:frame_begin,frame_end,10ms)"
/* The fields after BUDGET: KEY=VALUE, each key at most once. */
#define SECTION_OPTIONS	3
#define ALIVE_HELP "expected PATH:CHECKPOINT,alive=PERIOD,expect=N[,margin=M]" \
	"[,per=process|task][,tolerance=K/W][,tag=NAME] " \
	"(e.g. /usr/bin/app:heartbeat,alive=100ms,expect=10,margin=2)"
/* An alive binding's fields after CHECKPOINT (alive=, expect=, ...), each once. */
#define ALIVE_OPTIONS	6
/* The most fields either form has. */
#define MAX_FIELDS	(3 + SECTION_OPTIONS > 1 + ALIVE_OPTIONS ? 3 + SECTION_OPTIONS : \
			 1 + ALIVE_OPTIONS)

/* elfsym's verdict: a malformed NAME+OFF is a usage error, the rest is about the file. */
static int elf_verdict(int ret)
{
	if (!ret)
		return TLOB_SECTION_OK;
	return ret == -EINVAL ? TLOB_SECTION_SYNTAX : TLOB_SECTION_LOOKUP;
}

static unsigned int elf_flags(unsigned int flags)
{
	return flags & TLOB_SECTION_FORCE ? TLOB_ELF_FORCE : 0;
}

/*
 * A number is a file offset; anything else is a symbol. Either is checked
 * (executable code, instruction boundary) unless it only names a binding.
 */
static int resolve_end(const char *path, const char *what, unsigned int flags, uint64_t *off,
		       char *err, size_t len)
{
	if (what[0] >= '0' && what[0] <= '9') {
		/* The module's reading of an offset (kernel/shared/tlob_parse.c). */
		if (tlob_parse_offset(what, off)) {
			snprintf(err, len, "invalid offset '%s' (decimal or 0x)", what);
			return TLOB_SECTION_SYNTAX;
		}
		if (flags & TLOB_SECTION_START_ONLY)
			return TLOB_SECTION_OK;
		return elf_verdict(tlob_elf_check_offset(path, *off, elf_flags(flags), err, len));
	}
	return elf_verdict(tlob_elf_resolve(path, what, elf_flags(flags), off, err, len));
}

/* The kernel's own line names offsets: the same checks as PATH:0xOFF. */
static int check_monline(const struct tlob_binding_spec *spec, unsigned int flags,
			 char *err, size_t len)
{
	int ret;

	if (flags & TLOB_SECTION_START_ONLY)
		return TLOB_SECTION_OK;
	/* A logical binding's offsets are its events', each in its file (event 0's is START). */
	if (spec->logic) {
		ret = 0;
		for (unsigned int e = 0; !ret && e < spec->table.nevents; e++)
			ret = tlob_elf_check_offset(tlob_spec_file(spec, spec->table.file[e]),
						    spec->table.offset[e], elf_flags(flags), err, len);
		return elf_verdict(ret);
	}
	ret = tlob_elf_check_offset(spec->path, spec->start, elf_flags(flags), err, len);
	/* An alive binding's checkpoint is its only offset. */
	if (!ret && !spec->alive && !spec->stop_is_ret)
		ret = tlob_elf_check_offset(spec->path, spec->stop, elf_flags(flags), err, len);
	return elf_verdict(ret);
}

/*
 * The kernel takes an absolute path: a relative one is made absolute here
 * (not resolved: a symlink stays a symlink, so a user can name a binary
 * whose real path has whitespace through a link that has none).
 */
static int resolve_path(const char *path, struct tlob_binding_spec *spec, char *err, size_t len)
{
	char cwd[PATH_MAX];
	struct stat st, self;
	int n;

	if (stat(path, &st)) {
		snprintf(err, len, "cannot open %s: %s", TLOB_SHOWN(path), strerror(errno));
		return TLOB_SECTION_LOOKUP;
	}
	/* Probes in the tool would fire in the reader of their own records. */
	if (!stat("/proc/self/exe", &self) && self.st_dev == st.st_dev && self.st_ino == st.st_ino) {
		snprintf(err, len, "%s is tlob itself: tlob does not bind its own binary",
			 TLOB_SHOWN(path));
		return TLOB_SECTION_SYNTAX;
	}
	if (path[0] == '/')
		n = snprintf(spec->path, sizeof(spec->path), "%s", path);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(spec->path, sizeof(spec->path), "%s/%s", cwd, path);
	else
		n = -1;
	if (n < 0 || (size_t)n >= sizeof(spec->path)) {
		snprintf(err, len, "path too long (PATH_MAX is %d): %s", PATH_MAX,
			 TLOB_SHOWN(path));
		return TLOB_SECTION_SYNTAX;
	}
	/* What a monitor line cannot carry, no backend binds (monline.h). */
	if (tlob_path_check(spec->path, err, len))
		return TLOB_SECTION_LOOKUP;
	return TLOB_SECTION_OK;
}

int tlob_section_place(const char *path, const char *place, unsigned int flags,
		       struct tlob_binding_spec *spec, uint64_t *off, char *err, size_t len)
{
	int ret = resolve_path(path, spec, err, len);

	return ret ? ret : resolve_end(spec->path, place, flags, off, err, len);
}

/*
 * The friendly form's keys after CHECKPOINT and the `a` line's names for
 * them (kernel/shared/tlob_parse.h). alive= is a duration, converted
 * here; the others pass as they are.
 */
enum { ALIVE_PERIOD, ALIVE_EXPECT, ALIVE_MARGIN, ALIVE_PER, ALIVE_TOLERANCE, ALIVE_TAG };

static const struct {
	const char *key;
	const char *line_key;
} alive_keys[ALIVE_OPTIONS] = {
	[ALIVE_PERIOD] = { "alive", "period" }, [ALIVE_EXPECT] = { "expect", "expect" },
	[ALIVE_MARGIN] = { "margin", "margin" }, [ALIVE_PER] = { "per", "per" },
	[ALIVE_TOLERANCE] = { "tolerance", "tolerance" }, [ALIVE_TAG] = { "tag", "tag" },
};

/* Each "KEY=VALUE" of an alive binding's fields, appended to line as " KEY=VALUE". */
static int alive_terms(char **fields, int n, char *line, size_t size, char *err, size_t len)
{
	bool seen[ALIVE_OPTIONS] = { false };
	size_t used = strlen(line);
	uint64_t ns;
	int k, w;

	for (int i = 1; i < n; i++) {
		char *v = strchr(fields[i], '='), buf[32];
		const char *val;

		for (k = 0; v && k < ALIVE_OPTIONS; k++)
			if ((size_t)(v - fields[i]) == strlen(alive_keys[k].key) &&
			    !strncmp(fields[i], alive_keys[k].key, (size_t)(v - fields[i])))
				break;
		if (!v || k == ALIVE_OPTIONS || seen[k]) {
			snprintf(err, len, "'%s': after CHECKPOINT come alive=PERIOD, expect=N, "
				 "margin=M, per=process|task, tolerance=K/W and tag=NAME "
				 "(1..%d characters), each once", TLOB_SHOWN(fields[i]),
				 TLOB_TAG_LEN - 1);
			return -EINVAL;
		}
		seen[k] = true;
		val = ++v;
		if (k == ALIVE_PERIOD) {
			if (tlob_parse_period(val, &ns, err, len))
				return -EINVAL;
			snprintf(buf, sizeof(buf), "%" PRIu64, ns);
			val = buf;
		} else if (k == ALIVE_TAG && tlob_tag_check(val, err, len)) {
			return -EINVAL;
		}
		/* A blank would end the value in the line and start another term. */
		for (const char *c = val; *c; c++) {
			if ((unsigned char)*c > ' ' && *c != 0x7f)
				continue;
			snprintf(err, len, "invalid %s '%s' (no whitespace or control characters)",
				 alive_keys[k].key, TLOB_SHOWN(val));
			return -EINVAL;
		}
		w = snprintf(line + used, size - used, " %s=%s", alive_keys[k].line_key, val);
		if (w < 0 || (size_t)w >= size - used) {
			snprintf(err, len, "'%s': too long", TLOB_SHOWN(fields[i]));
			return -EINVAL;
		}
		used += (size_t)w;
	}
	if (!seen[ALIVE_EXPECT]) {
		snprintf(err, len, "an alive binding needs expect=N: %s", ALIVE_HELP);
		return -EINVAL;
	}
	return 0;
}

/*
 * PATH:CHECKPOINT,alive=PERIOD,expect=N[,...]: the terms are read by the
 * module's own parser (monline.c), written as the `a` line they stand
 * for, so the friendly form takes what the module takes and refuses the
 * rest with its reasons. They are read before the file is looked at (a
 * malformed -b is a usage error, as a section's budget), so that line
 * names a stand-in, /:0; the path and checkpoint are resolved after.
 */
static int parse_alive(const char *path, char **fields, int n, unsigned int flags,
		       struct tlob_binding_spec *spec, char *err, size_t len)
{
	char line[512] = "a /:0";

	/* The terms straight into @spec; its path and checkpoint come next. */
	if (alive_terms(fields, n, line, sizeof(line), err, len) ||
	    tlob_monline_parse(line, spec, err, len))
		return TLOB_SECTION_SYNTAX;
	return tlob_section_place(path, fields[0], flags, spec, &spec->start, err, len);
}

/* A field after the first that starts with alive=: an alive binding. */
static bool is_alive(char **fields, int n)
{
	for (int i = 1; i < n; i++)
		if (!strncmp(fields[i], "alive=", 6))
			return true;
	return false;
}

/*
 * The options after BUDGET (min=, tolerance=, tag=), each once: the tag and
 * tolerance into @spec, the minimum left in *MIN to read with the budget.
 */
static int section_options(char **fields, int n, struct tlob_binding_spec *spec,
			   const char **min, char *err, size_t len)
{
	const char *tol = NULL;
	int ret;

	for (int i = 3; i < n; i++) {
		if (!strncmp(fields[i], "tag=", 4) && !spec->tag[0]) {
			if (tlob_tag_check(fields[i] + 4, err, len))
				return -1;
			strcpy(spec->tag, fields[i] + 4);
		} else if (!strncmp(fields[i], "min=", 4) && !*min) {
			*min = fields[i] + 4;
		} else if (!strncmp(fields[i], "tolerance=", 10) && !tol) {
			tol = fields[i] + 10;
			/* The module's reading of it (kernel/shared/tlob_parse.c). */
			ret = tlob_parse_tolerance(fields[i] + 10, &spec->tol_k, &spec->tol_w);
			if (ret) {
				snprintf(err, len, ret == -ERANGE ?
					 "tolerance=%s is out of range (K/W: 1 <= K <= W <= %d)" :
					 "tolerance=%s: expected K/W, K violations of the last W "
					 "windows (e.g. 3/10)", TLOB_SHOWN(tol), TLOB_TOLERANCE_MAX);
				return -1;
			}
		} else {
			snprintf(err, len, "'%s': after BUDGET come min=MIN, tolerance=K/W and "
				 "tag=NAME (1..%d characters), each once", fields[i],
				 TLOB_TAG_LEN - 1);
			return -1;
		}
	}
	return 0;
}

/* START and STOP placed in PATH's file; STOP may be ret, the function's return. */
static int place_section(const char *path, char **fields, unsigned int flags,
			 struct tlob_binding_spec *spec, char *err, size_t len)
{
	int ret;

	ret = tlob_section_place(path, fields[0], flags, spec, &spec->start, err, len);
	if (ret)
		return ret;
	if (!strcmp(fields[1], "ret")) {
		spec->stop_is_ret = true;
	} else {
		ret = resolve_end(spec->path, fields[1], flags, &spec->stop, err, len);
		if (ret)
			return ret;
		if (spec->stop == spec->start) {
			snprintf(err, len,
				 "START and STOP are the same place (use 'ret' for the function's return)");
			return TLOB_SECTION_SYNTAX;
		}
	}
	return TLOB_SECTION_OK;
}

static int parse_friendly(char *s, unsigned int flags, struct tlob_binding_spec *spec,
			  char *err, size_t len)
{
	char *colon = strrchr(s, ':'), *fields[MAX_FIELDS + 1] = { 0 }, *save = NULL, *tok;
	const char *min = NULL;
	int n = 0;

	if (!colon || colon == s) {
		snprintf(err, len, "section '%s': %s", TLOB_SHOWN(s), SECTION_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	/* strtok_r() below would merge an empty field into the next one. */
	if (colon[1] && (colon[1] == ',' || strstr(colon, ",,") || s[strlen(s) - 1] == ',')) {
		snprintf(err, len, "section '%s' has an empty field: %s", TLOB_SHOWN(s),
			 SECTION_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	*colon = '\0';
	/* One more than either form takes: "too many" below. */
	for (tok = strtok_r(colon + 1, ",", &save); tok && n <= MAX_FIELDS;
	     tok = strtok_r(NULL, ",", &save))
		fields[n++] = tok;
	if ((flags & TLOB_SECTION_START_ONLY) && n == 1)
		return tlob_section_place(s, fields[0], flags, spec, &spec->start, err, len);
	if (is_alive(fields, n)) {
		if (n > 1 + ALIVE_OPTIONS) {
			snprintf(err, len, "alive binding has too many fields: %s", ALIVE_HELP);
			return TLOB_SECTION_SYNTAX;
		}
		return parse_alive(s, fields, n, flags, spec, err, len);
	}
	if (n > 3 + SECTION_OPTIONS) {
		snprintf(err, len, "section has too many fields: %s", SECTION_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	if (n < 3) {
		snprintf(err, len, "section '%s:...' needs START, STOP and BUDGET: %s",
			 TLOB_SHOWN(s), SECTION_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	if (section_options(fields, n, spec, &min, err, len))
		return TLOB_SECTION_SYNTAX;
	if (tlob_parse_budget(fields[2], &spec->budget_ns, err, len))
		return TLOB_SECTION_SYNTAX;
	/* A minimum is a duration like the budget, and below it. */
	if (min && tlob_parse_bound("min", min, &spec->min_ns, err, len))
		return TLOB_SECTION_SYNTAX;
	if (min && spec->min_ns >= spec->budget_ns) {
		snprintf(err, len, "min=%s is not below the budget %s", min, fields[2]);
		return TLOB_SECTION_SYNTAX;
	}

	return place_section(s, fields, flags, spec, err, len);
}

int tlob_section_parse(const char *arg, unsigned int flags, struct tlob_binding_spec *spec,
		       char *err, size_t len)
{
	char *copy;
	int ret;

	memset(spec, 0, sizeof(*spec));
	/* The module's own line, a section's, an alive or a logical binding's. */
	if (!strncmp(arg, "p ", 2) || !strncmp(arg, "a ", 2) || !strncmp(arg, "l ", 2)) {
		if (tlob_monline_parse(arg, spec, err, len))
			return TLOB_SECTION_SYNTAX;
		return check_monline(spec, flags, err, len);
	}
	copy = strdup(arg);
	if (!copy) {
		snprintf(err, len, "out of memory");
		return TLOB_SECTION_LOOKUP;
	}
	ret = parse_friendly(copy, flags, spec, err, len);
	free(copy);
	return ret;
}

int tlob_sections_distinct(const struct tlob_binding_spec *specs, size_t n, char *err,
			   size_t len)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++) {
			/* A section, an alive and a logical binding may share a START. */
			if (specs[k].alive != specs[i].alive || specs[k].logic != specs[i].logic ||
			    !tlob_same_binding(specs[k].path, specs[k].start, specs[i].path,
					       specs[i].start))
				continue;
			snprintf(err, len, "%s:0x%" PRIx64 " is given twice (as %s): one file's "
				 "START is one section", TLOB_SHOWN(specs[k].path), specs[k].start,
				 TLOB_SHOWN(specs[i].path));
			return TLOB_SECTION_SYNTAX;
		}
	return TLOB_SECTION_OK;
}
