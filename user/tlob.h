/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of the tlob tool, one file each (tlob_<command>.c). */
#ifndef TLOB_TLOB_H
#define TLOB_TLOB_H

#include "backend.h"
#include "params.h"

extern const struct tlob_command tlob_cmd_list;
extern const struct tlob_command tlob_cmd_mon;
extern const struct tlob_command tlob_cmd_bind;
extern const struct tlob_command tlob_cmd_unbind;
extern const struct tlob_command tlob_cmd_status;
extern const struct tlob_command tlob_cmd_stats;
extern const struct tlob_command tlob_cmd_apply;

/*
 * Open the backend params asks for; on failure print why and return -1.
 * With --backend auto, say on stderr which one was taken.
 */
int tlob_open_backend(const struct tlob_params *params, struct tlob_backend *be,
		      bool reader, bool transitions, bool persist);


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

/* When tlob mon stopped on a violation: its detection and when tlob read it. */
struct tlob_mon_stop {
	uint64_t seen_ns;	/* 0: it did not stop on one */
	uint64_t read_ns;
};

/*
 * tlob mon on an open backend: refuses an unknown -r reactor and having
 * nothing to watch (usage errors, before anything is changed), then binds,
 * enables, prints records until a stop condition and puts back every
 * setting it changed. Returns an enum tlob_exit (TLOB_EXIT_VIOLATION:
 * --stop-on-violation stopped on one). Apart from opening the backend so
 * that tests/unit/tool/ can drive it with a fake one.
 */
int tlob_mon_session(struct tlob_backend *be, const struct tlob_params *params,
		     struct tlob_mon_stop *stop);

/* "tlob: <be->err or strerror(-err)>" on stderr. */
void tlob_print_error(const struct tlob_backend *be, int err, const char *what);

#endif /* TLOB_TLOB_H */
