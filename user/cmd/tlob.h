/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of the tlob tool, one file each (tlob_<command>.c). */
#ifndef TLOB_TLOB_H
#define TLOB_TLOB_H

#include "backend/backend.h"
#include "backend/messages.h"
#include "options/params.h"

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

/* When tlob mon stopped on a violation: its detection and when tlob read it. */
struct tlob_mon_stop {
	uint64_t seen_ns;	/* 0: it did not stop on one */
	uint64_t read_ns;
};

/*
 * tlob mon on an open backend: refuses an unknown -r reactor and having
 * nothing to watch (usage errors, before anything is changed), then binds,
 * enables, writes records to out until a stop condition and puts back
 * every setting it changed. Returns an enum tlob_exit (TLOB_EXIT_VIOLATION:
 * --stop-on-violation stopped on one). Apart from opening the backend so
 * that tests/unit/tool/ can drive it with a fake one.
 */
int tlob_mon_session(struct tlob_backend *be, const struct tlob_params *params, FILE *out,
		     struct tlob_mon_stop *stop);
/*
 * Where tlob mon writes its stream: stdout (no -o, or -o -), else the file
 * -o names (tlob_open_output()), fully buffered like stdout. NULL when it
 * is refused, said on stderr.
 */
FILE *tlob_mon_output(const char *path);
/* The stream written out and closed: TLOB_EXIT_OK, or TLOB_EXIT_ERROR said on stderr. */
int tlob_mon_output_close(FILE *out, const char *path);

#endif /* TLOB_TLOB_H */
