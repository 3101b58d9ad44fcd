/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command run under the monitor (tlob mon ... -- CMD [ARGS]), as perf
 * record runs its workload: forked before anything is bound, held before
 * its exec until the bindings are in place (they name its pid), so that
 * its first window is seen; the session ends when it does.
 */
#ifndef TLOB_WORKLOAD_H
#define TLOB_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct tlob_workload {
	pid_t pid;		/* 0: none */
	int go_fd;		/* write end: one byte releases the exec; -1 once released */
	int err_fd;		/* read end: the exec's errno, or end of file once it ran */
	int exec_errno;		/* why the exec failed; 0: it ran (or has not yet) */
	bool reaped;
	int status;		/* waitpid()'s, once reaped */
};

/*
 * Fork the child that runs argv (argv[0] searched in PATH) once released.
 * Call it after tlob_signals_setup(), before any thread or file tlob's own
 * work opens: the child gets the signal mask tlob started with, default
 * SIGINT/SIGTERM, and only the files tlob was started with; with
 * @stdout_to_stderr its stdout is tlob's stderr (tlob's stdout carries a
 * JSON stream). Returns 0, or -errno with nothing left behind.
 */
int tlob_workload_prepare(struct tlob_workload *w, char *const argv[], bool stdout_to_stderr);

/*
 * Release the child to its exec and wait for the exec to happen. Returns
 * 0, or -errno of an exec that failed (the child is then reaped, with
 * exit status 127 for a command not found, else 126, as a shell's).
 */
int tlob_workload_start(struct tlob_workload *w);

/* True once the child has ended; reaps it (never waits). */
bool tlob_workload_done(struct tlob_workload *w);

/*
 * End the child if it has not ended: never released, it exits without
 * running the command; running, it gets SIGTERM, and SIGKILL if it is
 * still there @grace_ms later. Then reaps it.
 */
void tlob_workload_stop(struct tlob_workload *w, unsigned int grace_ms);

/* A shell's exit status for the reaped child: its exit code, or 128 + its signal. */
int tlob_workload_exit_code(const struct tlob_workload *w);

#endif /* TLOB_WORKLOAD_H */
