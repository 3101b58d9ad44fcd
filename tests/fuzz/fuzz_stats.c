// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer over the parser of the module's `stats` lines
 * (user/backend/kmod/kmod_stats.c): a line is whatever the control tree (or a
 * --root a user points the tool at) holds. The parser must not crash, and
 * what it accepts must be something the tool can print: a path that fits,
 * a tag tlob_tag_ok() takes, a tolerance in range, histogram buckets in
 * range.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/kmod/kmod_stats.h"
#include "tlob_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond)	do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tlob_binding_stats st;
	char *line = malloc(size + 1);
	int ret;

	check(line);
	memcpy(line, data, size);
	line[size] = '\0';
	ret = tlob_kmod_stats_parse(line, &st);
	check(ret == 0 || ret == -EINVAL || ret == -ENOMEM);
	if (!ret) {
		check(memchr(st.spec.path, '\0', sizeof(st.spec.path)));
		check(!st.spec.tag[0] || tlob_tag_ok(st.spec.tag));
		check(!(st.spec.alive && st.spec.logic));
		check(!st.spec.tol_w || (st.spec.tol_k >= 1 && st.spec.tol_k <= st.spec.tol_w &&
					 st.spec.tol_w <= TLOB_TOLERANCE_MAX));
		check(memchr(st.spec.table.model, '\0', sizeof(st.spec.table.model)));
		check(memchr(st.spec.holders, '\0', sizeof(st.spec.holders)));
	}
	free(line);
	return 0;
}
