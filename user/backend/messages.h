/* SPDX-License-Identifier: GPL-2.0 */
/* A backend's refusals in the same words for every backend and command. */
#ifndef TLOB_BACKEND_MESSAGES_H
#define TLOB_BACKEND_MESSAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

/* "tlob: <be->err or strerror(-err)>" on stderr. */
void tlob_print_error(const struct tlob_backend *be, int err, const char *what);
/*
 * A failed bind (unbind = false) or unbind of spec, in the same words
 * whichever backend failed: the errnos of the control-tree contract
 * (kernel/shared/README.md: EEXIST, ERANGE, ENOSPC, ENOENT on unbind)
 * get the tool's sentence, anything else the backend's own.
 */
void tlob_binding_error(const struct tlob_backend *be, bool unbind,
			const struct tlob_binding_spec *spec, int err);
/* The same sentence, without "tlob: ", into buf (for "FILE:LINE: reason"); returns buf. */
const char *tlob_binding_errstr(const struct tlob_backend *be, bool unbind,
				const struct tlob_binding_spec *spec, int err, char *buf, size_t len);

/*
 * A reactor NAME against a backend's list ("[nop] printk panic signal"):
 * a name in it, or signal:N (1..64) where it has signal.
 */
bool tlob_reactor_known(const char *list, const char *name);
/* The list as people read it: without the brackets around the current one. */
const char *tlob_reactors_shown(const char *list, char *buf, size_t len);
/*
 * Can be->ops set reactor NAME? TLOB_EXIT_OK; TLOB_EXIT_USAGE (a name it
 * does not list) or TLOB_EXIT_ERROR (no reactors, cannot list them) with
 * one sentence in why, which the caller prefixes (mon: / FILE:LINE:).
 */
int tlob_reactor_check(struct tlob_backend *be, const char *name, char *why, size_t len);

#endif /* TLOB_BACKEND_MESSAGES_H */
