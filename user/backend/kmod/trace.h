/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracefs reader: private trace instances ("tlob_<pid>" for windows,
 * "tlob_<pid>_now" for violations) with only tlob's events enabled, read
 * as raw ring-buffer pages (trace_pipe_raw), decoded by field, delivered
 * to a struct tlob_sink. Sleeps in ppoll() while nothing is due: a
 * violation at once, windows in batches at most flush_ns apart (trace.c);
 * poll(0) drains what is buffered.
 */
#ifndef TLOB_TRACE_H
#define TLOB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

struct tlob_trace;

/*
 * system: "tlob" (module) or "rv" (in-kernel RV). transitions: also
 * enable event_tlob/error_tlob. flush_ns: how long a window may wait to
 * be read (0: none, every event wakes the reader). Returns NULL with err
 * set.
 */
struct tlob_trace *tlob_trace_open(const char *system, bool transitions,
				   unsigned int buffer_kb, uint64_t flush_ns,
				   char *err, size_t len);
/* See tlob_backend_ops.poll. */
int tlob_trace_poll(struct tlob_trace *t, int timeout_ms, const struct tlob_sink *sink);
/* Events the kernel dropped: ring-buffer overruns + dropped, and pages flagged as missed. */
uint64_t tlob_trace_lost(struct tlob_trace *t);
/* Stop tracing, remove the instance. */
void tlob_trace_close(struct tlob_trace *t);

/*
 * Remove the trace instances of tools that are gone (a SIGKILLed tlob
 * mon leaves its tlob_PID, whose enabled events hold the module).
 */
void tlob_trace_sweep(void);

#endif /* TLOB_TRACE_H */
