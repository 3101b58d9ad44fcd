// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer entry point over the parse + validate layer and ha's check
 * of the guards (and the text emitters, which walk everything validation
 * built). Built by `make rvgen-fuzz`; how to run it is in tests/README.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct rv_error err = { 0 };
	struct model *m;
	char *text;

	if (!null)
		null = fopen("/dev/null", "w");
	text = malloc(size + 1);
	if (!text || !null)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	m = model_parse(text, "fuzz.dot", "fuzz", &err);
	if (m && !model_validate(m, &err)) {
		if (model_check_guards(m, &err) &&
		    (err.line < 1 || !err.msg[0]))
			abort();
		emit_header(m, null);
		emit_ha(m, null);
		emit_md(m, null);
		emit_promela(m, null);
		emit_dump(m, null);
	} else if (err.line < 1 || !err.msg[0]) {
		abort();	/* every rejection carries a line and a message */
	}
	model_free(m);
	free(text);
	return 0;
}
