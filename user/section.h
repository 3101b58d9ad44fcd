/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A section as users name it, -b SPEC:
 *   /path/app:frame_begin,frame_end,10ms[,tag=NAME]
 *   /path/app:process_frame,ret,5ms
 *   /path/app:0x1139,0x1150,250us        (file offsets)
 *   "p /path/app:0x1139 0x1150 threshold=250000"   (the kernel's own line)
 */
#ifndef TLOB_SECTION_H
#define TLOB_SECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

/* How a section failed: the caller exits 2 for SYNTAX, 1 for the rest. */
enum tlob_section_err {
	TLOB_SECTION_OK = 0,
	TLOB_SECTION_SYNTAX,	/* malformed, or budget out of range */
	TLOB_SECTION_LOOKUP,	/* file/ELF/symbol problem */
};

/*
 * Parse SPEC into spec (symbols resolved, path made absolute). With
 * start_only, "PATH:START" alone is enough (to name a binding to remove).
 * Returns an enum tlob_section_err; err gets a one-line message.
 */
int tlob_section_parse(const char *arg, bool start_only, struct tlob_binding_spec *spec,
		       char *err, size_t len);

#endif /* TLOB_SECTION_H */
