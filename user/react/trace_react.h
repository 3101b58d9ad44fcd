/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --on-violation snapshot=INSTANCE / traceoff=INSTANCE done by the tool,
 * for a backend whose violations are no trace event an ftrace trigger can
 * fire on (BPF): when mon reads the violation, it writes INSTANCE's
 * "snapshot" (1: swap the live buffer into the snapshot) or its
 * "tracing_on" (0). Later than the module's trigger, which acts at the
 * deadline itself: by the reader's wake-up after the violation (the
 * violation ring forces one), so the snapshot also holds what followed.
 */
#ifndef TLOB_TRACE_REACT_H
#define TLOB_TRACE_REACT_H

#include <stdbool.h>
#include <stddef.h>

struct tlob_trace_react;

/*
 * Whether kind ("snapshot" or "traceoff") can be done on INSTANCE: it
 * exists, with the file written (a snapshot file needs
 * CONFIG_TRACER_SNAPSHOT); false with err set otherwise.
 */
bool tlob_trace_react_ok(const char *kind, const char *instance, char *err, size_t len);
/* The same checks, then kind on INSTANCE ready: NULL with err set otherwise. */
struct tlob_trace_react *tlob_trace_react_new(const char *kind, const char *instance,
					      char *err, size_t len);
/* Do it now: 0 or -errno (a failure is said once per reaction). */
int tlob_trace_react_fire(struct tlob_trace_react *t);
void tlob_trace_react_free(struct tlob_trace_react *t);

#endif /* TLOB_TRACE_REACT_H */
