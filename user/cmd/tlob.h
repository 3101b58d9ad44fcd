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
 * --stop-on-violation stopped on one). @work: the command to release once
 * the sections are bound, whose end ends the session, or NULL. Apart from
 * opening the backend so that tests/unit/tool/ can drive it with a fake one.
 */
struct tlob_workload;
int tlob_mon_session(struct tlob_backend *be, const struct tlob_params *params, FILE *out,
		     struct tlob_workload *work, struct tlob_mon_stop *stop);

/*
 * tlob mon -- CMD: fork the command, held before its exec, before tlob
 * opens the backend (it inherits none of its files or threads), and narrow
 * every section to its process. @stream_on_stdout: with -j, the command's
 * stdout goes to stderr so that the stream stays JSON. Returns an enum
 * tlob_exit.
 */
int tlob_mon_prepare_command(struct tlob_params *params, struct tlob_workload *work,
			     bool stream_on_stdout);

/*
 * After the session: stop the command if it still runs (SIGTERM, then
 * SIGKILL) and reap it. Returns tlob's exit: the command's status unless
 * tlob failed (@ret) or a violation stopped the session, a shell's 127 or
 * 126 for a command that could not run.
 */
int tlob_mon_end_command(const struct tlob_params *params, struct tlob_workload *work, int ret);

/*
 * Where tlob mon writes its stream: stdout (no -o, or -o -), else the file
 * -o names (tlob_open_output()), fully buffered like stdout. NULL when it
 * is refused, said on stderr.
 */
FILE *tlob_mon_output(const char *path);
/* The stream written out and closed: TLOB_EXIT_OK, or TLOB_EXIT_ERROR said on stderr. */
int tlob_mon_output_close(FILE *out, const char *path);

#endif /* TLOB_TLOB_H */
