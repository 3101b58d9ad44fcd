// SPDX-License-Identifier: GPL-2.0
/* -b SPEC parsing: split, resolve and check each end with elfsym, parse the budget. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsym.h"
#include "monline.h"
#include "section.h"
#include "tlob_parse.h"
#include "units.h"
#include "utils.h"

#define SECTION_HELP "expected PATH:START,STOP,BUDGET[,min=MIN][,tolerance=K/W][,tag=NAME] " \
	"(e.g. /usr/bin/app:frame_begin,frame_end,10ms)"
/* The fields after BUDGET: KEY=VALUE, each key at most once. */
#define SECTION_OPTIONS	3

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
	char *end;

	if (what[0] >= '0' && what[0] <= '9') {
		errno = 0;
		*off = strtoull(what, &end, 0);
		if (errno || *end) {
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
	ret = tlob_elf_check_offset(spec->path, spec->start, elf_flags(flags), err, len);
	if (!ret && !spec->stop_is_ret)
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
	struct stat st;
	int n;

	if (stat(path, &st)) {
		snprintf(err, len, "cannot open %s: %s", TLOB_SHOWN(path), strerror(errno));
		return TLOB_SECTION_LOOKUP;
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

static int parse_friendly(char *s, unsigned int flags, struct tlob_binding_spec *spec,
			  char *err, size_t len)
{
	char *colon = strrchr(s, ':'), *fields[3 + SECTION_OPTIONS] = { 0 }, *save = NULL, *tok;
	const char *min = NULL, *tol = NULL;
	int n = 0, ret;

	if (!colon || colon == s) {
		snprintf(err, len, "section '%s': %s", TLOB_SHOWN(s), SECTION_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	*colon = '\0';
	for (tok = strtok_r(colon + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 3 + SECTION_OPTIONS) {
			snprintf(err, len, "section has too many fields: %s", SECTION_HELP);
			return TLOB_SECTION_SYNTAX;
		}
		fields[n++] = tok;
	}
	if ((flags & TLOB_SECTION_START_ONLY) && n == 1) {
		ret = resolve_path(s, spec, err, len);
		return ret ? ret : resolve_end(spec->path, fields[0], flags, &spec->start, err, len);
	}
	if (n < 3) {
		snprintf(err, len, "section '%s:...' needs START, STOP and BUDGET: %s",
			 TLOB_SHOWN(s), SECTION_HELP);
		return TLOB_SECTION_SYNTAX;
	}
	for (int i = 3; i < n; i++) {
		if (!strncmp(fields[i], "tag=", 4) && !spec->tag[0]) {
			if (tlob_tag_check(fields[i] + 4, err, len))
				return TLOB_SECTION_SYNTAX;
			strcpy(spec->tag, fields[i] + 4);
		} else if (!strncmp(fields[i], "min=", 4) && !min) {
			min = fields[i] + 4;
		} else if (!strncmp(fields[i], "tolerance=", 10) && !tol) {
			tol = fields[i] + 10;
			/* The module's reading of it (kernel/shared/tlob_parse.c). */
			ret = tlob_parse_tolerance(fields[i] + 10, &spec->tol_k, &spec->tol_w);
			if (ret) {
				snprintf(err, len, ret == -ERANGE ?
					 "tolerance=%s is out of range (K/W: 1 <= K <= W <= %d)" :
					 "tolerance=%s: expected K/W, K violations of the last W "
					 "windows (e.g. 3/10)", tol, TLOB_TOLERANCE_MAX);
				return TLOB_SECTION_SYNTAX;
			}
		} else {
			snprintf(err, len, "'%s': after BUDGET come min=MIN, tolerance=K/W and "
				 "tag=NAME (1..%d characters), each once", fields[i],
				 TLOB_TAG_LEN - 1);
			return TLOB_SECTION_SYNTAX;
		}
	}
	if (tlob_parse_budget(fields[2], &spec->budget_ns, err, len))
		return TLOB_SECTION_SYNTAX;
	/* A minimum is a duration like the budget, and below it. */
	if (min && tlob_parse_bound("min", min, &spec->min_ns, err, len))
		return TLOB_SECTION_SYNTAX;
	if (min && spec->min_ns >= spec->budget_ns) {
		snprintf(err, len, "min=%s is not below the budget %s", min, fields[2]);
		return TLOB_SECTION_SYNTAX;
	}

	ret = resolve_path(s, spec, err, len);
	if (ret)
		return ret;
	ret = resolve_end(spec->path, fields[0], flags, &spec->start, err, len);
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

int tlob_section_parse(const char *arg, unsigned int flags, struct tlob_binding_spec *spec,
		       char *err, size_t len)
{
	char *copy;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (!strncmp(arg, "p ", 2)) {
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
