/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `monitor` control file's line format (upstream's syntax, and the
 * module's extensions: kernel/shared/tlob_parse.h): what the tool writes to
 * add/remove a binding, what the kernel reads back, and what a user may
 * pass verbatim with -b "p PATH:...".
 */
#ifndef TLOB_MONLINE_H
#define TLOB_MONLINE_H

#include <stddef.h>

#include "backend/backend.h"

/*
 * "p PATH:START STOP threshold=NS [min=NS] [tolerance=K/W] [tag=NAME]
 * [pid=N | tgid=N]" or "a PATH:CHECKPOINT period=NS expect=N [margin=M]
 * [per=process|task] [tolerance=K/W] [tag=NAME] [pid=N | tgid=N]" (an
 * alive binding: spec->alive) or "l PATH model=NAME states=.. events=..
 * edges=.. final=.. [initial=I] [per=..] [tolerance=K/W] [tag=NAME]
 * [pid=N | tgid=N]" (a logical binding: spec->logic, its table in
 * spec->table, once the module's parser reads `l` lines) -> spec, read by the module's own parser
 * (kernel/shared/tlob_parse.c): offsets decimal or 0x, STOP may be "ret",
 * NS and N decimal; one trailing newline allowed. Returns 0 or
 * -EINVAL/-ERANGE with a one-line reason in err.
 */
int tlob_monline_parse(const char *line, struct tlob_binding_spec *spec,
		       char *err, size_t len);

/*
 * The longest line the tool writes, its newline included: the monitor
 * file takes a write a page at a time (kernel/module/tlob_sysfs.c), and
 * an `l` line (a user's model, spec->logic) can be longer than
 * TLOB_LINE_MAX or a page; the tool refuses it first (logic.c).
 */
#define TLOB_MONLINE_WRITE_MAX	4096

/*
 * What a line can carry (the rule is kernel/shared/tlob_abi.h's, which the
 * module's parser applies too; user/README.md "Sections"): 0, or -EINVAL
 * with one sentence in err (NULL allowed with len 0).
 * tlob_tag_check: tlob_tag_ok() (kernel/shared/tlob_parse.h): 1..TLOB_TAG_LEN-1
 * characters of A-Z a-z 0-9 _ . -, not TLOB_TAG_NONE
 * tlob_path_check: absolute, no whitespace, no control byte
 * tlob_spec_check: both, and the budget (-ERANGE), START != STOP, at
 * most one of pid/tgid; for an alive spec instead of the budget and STOP
 * its period (-ERANGE), expect, margin and per, in the module parser's
 * ranges; for a logical spec its table's sizes and names and no term of
 * the others. Every backend binds only a spec that passes, so what the BPF
 * backend takes is what the module would read.
 */
int tlob_tag_check(const char *tag, char *err, size_t len);
int tlob_path_check(const char *path, char *err, size_t len);
int tlob_spec_check(const struct tlob_binding_spec *spec, char *err, size_t len);

/*
 * The same section (kernel/shared/tlob_abi.h): 2 when the sections have the same
 * START and path text, 1 the same START and paths that name the same file
 * now (device and inode, symlinks followed), 0 other sections. A lookup
 * takes the best match, so the binding written with a path wins. A
 * holder holds one binding per section, and the BPF backend one binding
 * per section at all, so for them this is also "the same binding".
 */
int tlob_same_binding(const char *a, uint64_t a_start, const char *b, uint64_t b_start);

/*
 * A logical spec's file @f (its table's file[e]): 0 is spec->path, 1..
 * table.nfiles - 1 the files beyond it; NULL for any other @f.
 */
const char *tlob_spec_file(const struct tlob_binding_spec *spec, unsigned int f);

/*
 * Set a logical spec's files beyond path to @files[1..@nfiles - 1] and
 * table.nfiles to @nfiles (1..TLOB_LOGIC_FILES_MAX): 0, or -ENAMETOOLONG
 * when they do not fit in spec->files, -EINVAL for another @nfiles.
 */
int tlob_spec_set_files(struct tlob_binding_spec *spec, const char *const *files,
			unsigned int nfiles);

/*
 * The module's "same binding" (tlob_abi.h), as far as its stats lines
 * show it: the same section (tlob_same_binding()'s 2 or 1, returned) and
 * the same STOP, budget and tag; 0 otherwise. A budget of 0 (a listing of
 * an older module, which did not show it) matches any. Alive bindings
 * match alive bindings only, by period, expect, margin, per, tolerance
 * and tag (their stats lines show every term); logical bindings logical
 * ones, by the model's name, per, tolerance and tag. The pid/tgid filter is
 * not in a stats line: a holder's one binding per section needs no more
 * to be found.
 */
int tlob_spec_same_binding(const struct tlob_binding_spec *a,
			   const struct tlob_binding_spec *b);

/*
 * spec -> canonical add line (no newline): one the module's parser reads
 * back as exactly spec. -EINVAL if tlob_spec_check() refuses spec,
 * -ENAMETOOLONG if it does not fit.
 */
int tlob_monline_format(const struct tlob_binding_spec *spec, char *buf, size_t len);

/* spec -> "-PATH:0xSTART"; -EINVAL / -ENAMETOOLONG as above. */
int tlob_monline_format_remove(const struct tlob_binding_spec *spec,
			       char *buf, size_t len);

#endif /* TLOB_MONLINE_H */
