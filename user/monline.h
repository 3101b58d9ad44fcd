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

/* spec -> canonical add line (no newline). -ENAMETOOLONG if it does not fit. */
int tlob_monline_format(const struct tlob_binding_spec *spec, char *buf, size_t len);

/* spec -> "-PATH:0xSTART" */
int tlob_monline_format_remove(const struct tlob_binding_spec *spec,
			       char *buf, size_t len);

#endif /* TLOB_MONLINE_H */
