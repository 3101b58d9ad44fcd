// SPDX-License-Identifier: GPL-2.0
/*
 * For each argument (bytes in hex): the JSON the tool writes with those
 * bytes as a record's comm and tag (fixed 16-byte arrays: cut, no NUL when
 * full), as a binding's path, and through tlob_json_escape(); one line
 * each, for 21-json-utf8.t to decode strictly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/kind.h"
#include "output/output.h"

int main(int argc, char **argv)
{
	static struct tlob_binding_spec spec;
	char buf[4 * PATH_MAX], esc[64];

	for (int a = 1; a < argc; a++) {
		struct tlob_record r = { .kind = TLOB_REC_WINDOW };
		char bytes[PATH_MAX] = "";
		size_t n = strlen(argv[a]) / 2;

		for (size_t i = 0; i < n && i < sizeof(bytes) - 1; i++) {
			unsigned int b;

			sscanf(argv[a] + 2 * i, "%2x", &b);
			bytes[i] = (char)b;
		}
		memcpy(r.comm, bytes, sizeof(r.comm));
		memcpy(r.tag, bytes, sizeof(r.tag));
		if (tlob_record_json(&r, buf, sizeof(buf)) < 0)
			return 1;
		puts(buf);
		memset(&spec, 0, sizeof(spec));
		snprintf(spec.path, sizeof(spec.path), "%s", bytes);
		if (tlob_spec_json(&spec, buf, sizeof(buf)) < 0)
			return 1;
		puts(buf);
		/* a small buffer: cut after a whole character, still valid */
		printf("{\"s\":\"%s\"}\n", tlob_json_escape(bytes, esc, sizeof(esc)));
	}
	return 0;
}
