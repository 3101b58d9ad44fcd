/* SPDX-License-Identifier: GPL-2.0 */
/* Process-wide bits every command shares: root check, the stop flag. */
#ifndef TLOB_UTILS_H
#define TLOB_UTILS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit 1 with "tlob: <cmd> needs root" unless euid 0. */
void tlob_require_root(const char *cmd);
/*
 * Whether err (an errno, either sign) says the caller lacks the right to
 * what it asked (EACCES, EPERM): a read-only command reports that, as its
 * reason, instead of passing over what it could not read.
 */
bool tlob_err_denied(int err);

/*
 * SIGINT/SIGTERM set the stop flag; SIGCHLD only wakes (a child to reap:
 * an exec= action, the command tlob mon runs). They stay blocked except
 * while a backend sleeps in ppoll()/epoll_pwait() with
 * tlob_wait_sigmask(): a signal that arrives just before the sleep then
 * still ends it at once, instead of after the timeout.
 */
void tlob_signals_setup(void);
bool tlob_should_stop(void);
const sigset_t *tlob_wait_sigmask(void);

/*
 * With TLOB_VERBOSE set in the environment: "tlob: [+S.mmm] what" on
 * stderr, S seconds since the first call, to see where a slow setup or
 * teardown spends its time (the kernel's side of it, mostly).
 */
void tlob_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC now, in ns (the clock of struct tlob_record). */
uint64_t tlob_now_ns(void);
/*
 * Milliseconds from now to at (tlob_now_ns() times) for a poll timeout,
 * rounded up (never wake just before it and spin); 0 when it has passed.
 */
int tlob_ms_until(uint64_t at, uint64_t now);

/*
 * s as a message shows it, in buf (len bytes, NUL included): control bytes
 * as \xNN, and, when that does not fit, the middle cut out as "..." at
 * UTF-8 character boundaries, so a long path never pushes out the reason
 * after it. TLOB_SHOWN_LEN is the size messages use. Returns buf.
 */
#define TLOB_SHOWN_LEN	161
const char *tlob_shown(const char *s, char *buf, size_t len);
/* tlob_shown() into a buffer that lives as long as the enclosing block. */
#define TLOB_SHOWN(s)	tlob_shown((s), (char[TLOB_SHOWN_LEN]){ 0 }, TLOB_SHOWN_LEN)

/* Read a whole (small) file into a malloc'd NUL-terminated string; NULL + errno. */
char *tlob_read_file(const char *path);
/* Write s to path in one write(); 0 or -errno (the kernel's verdict). */
int tlob_write_file(const char *path, const char *s);

/*
 * Open path to write a stream into (tlob mon -o), as root may in a
 * directory others can write to: never through a symbolic link, only a
 * regular file (a FIFO cannot block the open), not another user's file
 * in a sticky directory others can write to (the kernel's
 * protected_regular rule), a new file 0644 less the umask, an existing
 * one truncated only once it passed; close-on-exec. The fd, or -errno
 * with one sentence in err.
 */
int tlob_open_output(const char *path, char *err, size_t len);

#endif /* TLOB_UTILS_H */
