/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlob apply on an open backend: a whole configuration or nothing of it,
 * and --remove: exactly what it added. Apart from the command (tlob_apply.c)
 * so that the host tests can run it on a fake backend.
 */
#ifndef TLOB_APPLY_H
#define TLOB_APPLY_H

#include <stdbool.h>

#include "backend/backend.h"
#include "config/conf.h"

struct tlob_apply_opts {
	const char *state;	/* the state file (TLOB_APPLY_STATE) */
	bool json;		/* one JSON object per binding on stdout */
};

/*
 * Check everything the backend can refuse before changing anything (the
 * reactor is one it has, no section is bound already, the state file can
 * be written), record the state, then bind every section, set the reactor
 * and enable the monitor. When the kernel refuses any step, undo the
 * steps before it (bindings in reverse order, reactor, enable) and remove
 * the state: the system is as before. Returns an enum tlob_exit.
 */
int tlob_apply(struct tlob_backend *be, const struct tlob_conf *conf,
	       const struct tlob_apply_opts *opts);

/*
 * Undo what the state records: remove each binding that is still as apply
 * added it (one changed or gone since is left alone, and said so), put the
 * reactor back if it is still apply's, disable the monitor if apply enabled
 * it and no other binding is left. The state file is removed when every
 * binding could be handled, else rewritten with those still to remove.
 * Returns an enum tlob_exit.
 */
int tlob_apply_remove(struct tlob_backend *be, const struct tlob_conf *state,
		      const struct tlob_apply_opts *opts);

#endif /* TLOB_APPLY_H */
