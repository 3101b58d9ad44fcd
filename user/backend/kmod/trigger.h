/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlob mon --on-violation snapshot=INSTANCE / traceoff=INSTANCE (module
 * backend): an event trigger on INSTANCE's tlob:violation (a window's
 * deadline), tlob:alive_cycle (an alive cycle judged) and tlob:logic (an
 * event the model refused), so that the kernel takes the snapshot, or
 * stops INSTANCE's tracing, when the violation is detected, in the
 * context that emits the event, while what led to it is still in the
 * buffer; by the time the tool reads the violation, later events may
 * have overwritten it.
 *
 *   echo 'snapshot:N if react == 1 && (binding_id == 3 || binding_id == 4)' \
 *        >> instances/INSTANCE/events/tlob/violation/trigger
 *
 * (react is 1 only for a violation that passed its binding's
 * tolerance=.) The kernel allows one trigger of a kind per event file,
 * so one trigger per event serves all of the session's bindings of that
 * kind (the filter names them; none: every violation) and its count N
 * (--on-violation-limit) is theirs together. Removed at exit, exactly the
 * text installed ("!" before it), as rtla restores what it changes.
 */
#ifndef TLOB_TRIGGER_H
#define TLOB_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tlob_trigger;

/* Does trace instance INSTANCE exist? false with a sentence in err. */
bool tlob_trigger_instance_ok(const char *kind, const char *instance, char *err, size_t len);

/*
 * Install kind ("snapshot", "traceoff") on instance's system:event,
 * filtered to ids (n 0: unfiltered), count 0 unlimited. NULL with a
 * sentence in err (no such instance or event, a trigger of that kind
 * already there, the kernel's refusal, too many ids for one filter).
 */
struct tlob_trigger *tlob_trigger_install(const char *system, const char *event,
					  const char *kind, const char *instance,
					  const uint32_t *ids, size_t n, unsigned int count,
					  char *err, size_t len);
/* A fresh count: remove and install the same trigger again; 0 or -errno. */
int tlob_trigger_rearm(struct tlob_trigger *t);
/* Remove what was installed and free t; 0 or -errno (said on stderr). */
int tlob_trigger_remove(struct tlob_trigger *t);

#endif /* TLOB_TRIGGER_H */
