// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's own snapshot=/traceoff= (trace_react.h), through libtracefs.
 * The snapshot buffer is not allocated beforehand: writing "1" allocates
 * it at the first violation (the live buffer keeps recording meanwhile)
 * and only swaps after; allocating it at the start would mean swapping
 * the instance's buffer away then.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "backend/kmod/trigger.h"
#include "lib/utils.h"
#include "react/trace_react.h"

struct tlob_trace_react {
	struct tracefs_instance *inst;
	const char *file;	/* "snapshot" or "tracing_on" */
	const char *value;	/* what is written to it */
	char name[256];		/* the instance's */
	bool said;		/* a failure was reported */
};

static const char *file_of(const char *kind)
{
	return !strcmp(kind, "snapshot") ? "snapshot" : "tracing_on";
}

bool tlob_trace_react_ok(const char *kind, const char *instance, char *err, size_t len)
{
	struct tracefs_instance *inst;
	bool ok;

	if (strcmp(kind, "snapshot") && strcmp(kind, "traceoff")) {
		snprintf(err, len, "--on-violation %s=: not a trace action", kind);
		return false;
	}
	if (!tlob_trigger_instance_ok(kind, instance, err, len))
		return false;
	inst = tracefs_instance_alloc(NULL, instance);
	if (!inst) {
		snprintf(err, len, "--on-violation %s=%s: %s", kind, instance, strerror(errno));
		return false;
	}
	ok = tracefs_file_exists(inst, file_of(kind));
	tracefs_instance_free(inst);
	if (!ok)
		snprintf(err, len, "--on-violation %s=%s: the instance has no %s file%s", kind,
			 instance, file_of(kind), !strcmp(kind, "snapshot") ?
			 " (a kernel without CONFIG_TRACER_SNAPSHOT)" : "");
	return ok;
}

struct tlob_trace_react *tlob_trace_react_new(const char *kind, const char *instance,
					      char *err, size_t len)
{
	struct tlob_trace_react *t;

	if (!tlob_trace_react_ok(kind, instance, err, len))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	snprintf(t->name, sizeof(t->name), "%s", instance);
	t->file = file_of(kind);
	t->value = !strcmp(kind, "snapshot") ? "1" : "0";
	t->inst = tracefs_instance_alloc(NULL, instance);
	if (!t->inst) {
		snprintf(err, len, "--on-violation %s=%s: %s", kind, instance, strerror(errno));
		free(t);
		return NULL;
	}
	return t;
}

int tlob_trace_react_fire(struct tlob_trace_react *t)
{
	int ret;

	errno = 0;
	ret = tracefs_instance_file_write(t->inst, t->file, t->value);
	if (ret > 0) {
		tlob_verbose("instance %s: wrote %s to %s", t->name, t->value, t->file);
		return 0;
	}
	ret = errno ? -errno : -EIO;
	if (!t->said)
		fprintf(stderr, "tlob: instance %s: cannot write %s to %s: %s\n", t->name,
			t->value, t->file, strerror(-ret));
	t->said = true;
	return ret;
}

void tlob_trace_react_free(struct tlob_trace_react *t)
{
	if (!t)
		return;
	tracefs_instance_free(t->inst);
	free(t);
}
