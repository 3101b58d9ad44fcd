/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A section as users name it, -b SPEC:
 *   /path/app:frame_begin,frame_end,10ms[,tag=NAME]
 *   /path/app:process_frame,ret,5ms
 *   /path/app:0x1139,0x1150,250us        (file offsets)
 *   /usr/lib/x86_64-linux-gnu/libc.so.6:sched_setaffinity@GLIBC_2.3.3,ret,1ms
 *   "p /path/app:0x1139 0x1150 threshold=250000"   (the kernel's own line)
 * or a checkpoint under alive supervision:
 *   /path/app:heartbeat,alive=100ms,expect=10[,margin=2][,per=task]
 *       [,tolerance=K/W][,tag=NAME]
 *   "a /path/app:0x1139 period=100000000 expect=10 margin=2"
 * or a logical binding's own line (its friendly form is --model, logic.h):
 *   "l /path/app model=flow states=idle,busy events=begin@0x1139,end@0x1150 ..."
 */
#ifndef TLOB_SECTION_H
#define TLOB_SECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

/*
 * How a section failed: the caller exits 2 for SYNTAX, 1 for the rest.
 * A logical binding's model (logic.h) fails as MODEL when err is rvgen's
 * "FILE:LINE: message", printed as it is, exit 2; MODEL_FILE when the
 * model could not be read ("FILE:0: cannot open: ..."), exit 1.
 */
enum tlob_section_err {
	TLOB_SECTION_OK = 0,
	TLOB_SECTION_SYNTAX,	/* malformed, or budget out of range */
	TLOB_SECTION_LOOKUP,	/* file/ELF/symbol problem */
	TLOB_SECTION_MODEL,	/* the model: rvgen's or logical supervision's FILE:LINE: */
	TLOB_SECTION_MODEL_FILE, /* the model's file unreadable */
};

enum tlob_section_flags {
	/*
	 * "PATH:START" alone is enough: it names a binding to remove, so its
	 * offsets are not checked (a binding of a replaced file stays removable).
	 */
	TLOB_SECTION_START_ONLY	= 1 << 0,
	/* --force-offset: accept offsets whose instruction boundary cannot be checked */
	TLOB_SECTION_FORCE	= 1 << 1,
};

/*
 * Parse SPEC into spec (symbols resolved, path made absolute, every
 * offset checked by elfsym: executable code, inside its function, on an
 * instruction boundary), flags from enum tlob_section_flags. Returns an
 * enum tlob_section_err; err gets a one-line message.
 */
int tlob_section_parse(const char *arg, unsigned int flags, struct tlob_binding_spec *spec,
		       char *err, size_t len);

/*
 * One place in a file, as a section's START: PATH made absolute into
 * spec->path (checked as a line can carry it), PLACE (a symbol, NAME+OFF,
 * NAME@VERSION or an offset) resolved and checked into *off. Returns an
 * enum tlob_section_err; err gets a one-line message.
 */
int tlob_section_place(const char *path, const char *place, unsigned int flags,
		       struct tlob_binding_spec *spec, uint64_t *off, char *err, size_t len);

/*
 * 0 when no two of specs[0..n) are one binding: of one kind (section,
 * alive, logical), at the same START of one file, by device and inode
 * however the paths name it (a link, "/./"),
 * as the module and the BPF backend tell bindings apart
 * (tlob_same_binding()). Else TLOB_SECTION_SYNTAX, err naming both.
 */
int tlob_sections_distinct(const struct tlob_binding_spec *specs, size_t n, char *err,
			   size_t len);

#endif /* TLOB_SECTION_H */
