// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer over the monitor-line parser the module and the tool share
 * (kernel/shared/tlob_parse.c): a line is whatever a writer of the
 * `monitor` file sends. The parser must not crash, must refuse with a
 * reason, and what it accepts must hold the contract (kernel/shared/
 * tlob_parse.h, DESIGN.md): budgets 1us..1h, a period 100us..1h, counts in
 * range, an absolute path a line can carry, a tag tlob_tag_ok() takes. The
 * tool's reading of the same line (user/backend/monline.c) must print a canonical
 * line that reads back as the same binding.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/monline.h"
#include "tlob_logic.h"
#include "tlob_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond)	do { if (!(cond)) abort(); } while (0)

static void check_path(const char *path)
{
	check(path && path[0] == '/');
	for (const char *p = path; *p; p++)
		check(tlob_path_char_ok(*p));
}

/* What an accepted line holds, whatever its verb. */
static void check_accepted(const struct tlob_req *r)
{
	check_path(r->path);
	if (r->remove)
		return;
	check(r->tol_k >= 1 && r->tol_k <= r->tol_w && r->tol_w <= TLOB_TOLERANCE_MAX);
	check(!r->tag[0] || tlob_tag_ok(r->tag));
	check(r->filter == TLOB_FILTER_NONE ||
	      (r->filter_id >= 1 && r->filter_id <= (u32)INT32_MAX));
	check(!(r->alive && r->logic));
	if (r->alive) {
		check(r->period_ns >= TLOB_PERIOD_MIN_NS && r->period_ns <= TLOB_BUDGET_MAX_NS);
		check(r->expect >= 1 && r->expect <= TLOB_EXPECT_MAX && r->margin <= r->expect);
		check(!r->budget_ns && !r->min_ns && !r->stop && !r->stop_ret);
	} else if (!r->logic) {
		check(r->budget_ns >= TLOB_BUDGET_MIN_NS && r->budget_ns <= TLOB_BUDGET_MAX_NS);
		check(r->min_ns < r->budget_ns);
		check(r->stop_ret || r->stop != r->start);
	}
}

/* The module's parser on its own. */
static void kernel_parser(const char *line, size_t size)
{
	static struct tlob_logic_table table;
	struct tlob_req req = { .table = &table };
	char *copy = malloc(size + 1);
	int ret;

	check(copy);
	memcpy(copy, line, size + 1);
	ret = tlob_parse_line(copy, &req);
	check(ret == 0 || ret == 1 || ret == -EINVAL || ret == -ERANGE);
	if (ret < 0)
		check(req.why != TLOB_WHY_NONE);
	else if (!ret)
		check_accepted(&req);
	free(copy);
}

static void same_spec(const struct tlob_binding_spec *a, const struct tlob_binding_spec *b)
{
	check(!strcmp(a->path, b->path) && a->start == b->start && a->stop == b->stop &&
	      a->stop_is_ret == b->stop_is_ret && a->budget_ns == b->budget_ns &&
	      a->min_ns == b->min_ns && tlob_spec_tol_k(a) == tlob_spec_tol_k(b) &&
	      tlob_spec_tol_w(a) == tlob_spec_tol_w(b) && !strcmp(a->tag, b->tag) &&
	      a->alive == b->alive && a->period_ns == b->period_ns && a->expect == b->expect &&
	      a->margin == b->margin && a->per == b->per && a->logic == b->logic &&
	      a->pid == b->pid && a->tgid == b->tgid);
	check(!a->logic || !memcmp(&a->table, &b->table, sizeof(a->table)));
	for (unsigned int f = 1; a->logic && f < a->table.nfiles; f++)
		check(!strcmp(tlob_spec_file(a, f), tlob_spec_file(b, f)));
}

/* The tool's reading: accepted, it prints a line that reads back the same. */
static void tool_roundtrip(const char *line)
{
	static struct tlob_binding_spec spec, again;
	static char canon[3 * TLOB_LINE_MAX], err[512];

	if (tlob_monline_parse(line, &spec, err, sizeof(err))) {
		check(err[0]);
		return;
	}
	check(!tlob_spec_check(&spec, err, sizeof(err)));
	check(!tlob_monline_format(&spec, canon, sizeof(canon)));
	check(!tlob_monline_parse(canon, &again, err, sizeof(err)));
	same_spec(&spec, &again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);

	check(line);
	memcpy(line, data, size);
	line[size] = '\0';
	kernel_parser(line, strlen(line));
	tool_roundtrip(line);
	free(line);
	return 0;
}
