/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `monitor` control file's line format (contract 6, upstream's
 * syntax): what the tool writes to add/remove a binding, what the kernel
 * reads back, and what a user may pass verbatim with -b "p PATH:...".
 */
#ifndef TLOB_MONLINE_H
#define TLOB_MONLINE_H

#include <stddef.h>

#include "backend.h"

/*
 * "p PATH:START STOP threshold=NS [tag=NAME] [pid=N | tgid=N]" -> spec.
 * START/STOP decimal or 0x; STOP may be "ret". Returns 0 or -EINVAL/-ERANGE
 * with a one-line reason in err.
 */
int tlob_monline_parse(const char *line, struct tlob_binding_spec *spec,
		       char *err, size_t len);

/*
 * What a line can carry (the rule is kernel/tlob_abi.h's, which the
 * module's parser applies too; user/README.md "Sections"): 0, or -EINVAL
 * with one sentence in err (NULL allowed with len 0).
 * tlob_tag_check: 1..TLOB_TAG_LEN-1 characters of A-Z a-z 0-9 _ . -
 * tlob_path_check: absolute, no whitespace, no control byte
 * tlob_spec_check: both, and the budget (-ERANGE), START != STOP, at
 * most one of pid/tgid. Every backend binds only a spec that passes, so
 * what the BPF backend takes is what the module would read.
 */
int tlob_tag_check(const char *tag, char *err, size_t len);
int tlob_path_check(const char *path, char *err, size_t len);
int tlob_spec_check(const struct tlob_binding_spec *spec, char *err, size_t len);

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
