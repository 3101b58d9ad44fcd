// SPDX-License-Identifier: GPL-2.0
/*
 * Event triggers on tlob's violation events (trigger.h), written through
 * libtracefs: appended (tracefs_event_file_append(): opening the trigger
 * file with O_TRUNC would clear every trigger of the event, also other
 * tools'), and removed by the same text after a "!".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>

#include "backend/kmod/trigger.h"
#include "lib/utils.h"

struct tlob_trigger {
	struct tracefs_instance *inst;
	char system[32];
	char event[32];
	char text[2048];	/* "snapshot:N if react == 1 && (binding_id == 1 || ...)" */
	char name[256];		/* the instance's */
};

static int write_trigger(struct tlob_trigger *t, bool remove)
{
	char line[sizeof(t->text) + 2];

	snprintf(line, sizeof(line), "%s%s\n", remove ? "!" : "", t->text);
	errno = 0;
	if (tracefs_event_file_append(t->inst, t->system, t->event, "trigger", line) < 0)
		return errno ? -errno : -EIO;
	tlob_verbose("instance %s: %s %s:%s trigger '%s'", t->name,
		     remove ? "removed" : "installed", t->system, t->event, t->text);
	return 0;
}

bool tlob_trigger_instance_ok(const char *kind, const char *instance, char *err, size_t len)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, instance);
	char *dir = inst ? tracefs_instance_get_dir(inst) : NULL;
	struct stat st;
	bool ok;

	/*
	 * Not tracefs_instance_exists(): it ignores a tracing directory set
	 * with tracefs_set_tracing_dir() (libtracefs 1.6), which the unit
	 * tests use; the instance's own directory does not.
	 */
	ok = dir && !stat(dir, &st) && S_ISDIR(st.st_mode);
	tracefs_put_tracing_file(dir);
	tracefs_instance_free(inst);
	if (ok)
		return true;
	snprintf(err, len, "--on-violation %s=%s: no trace instance '%s' (create it first: "
		 "mkdir /sys/kernel/tracing/instances/%s)", kind, instance, instance, instance);
	return false;
}

struct tlob_trigger *tlob_trigger_install(const char *system, const char *event,
					  const char *kind, const char *instance,
					  const uint32_t *ids, size_t n, unsigned int count,
					  char *err, size_t len)
{
	struct tlob_trigger *t = calloc(1, sizeof(*t));
	size_t used;
	int ret;

	if (!t) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	snprintf(t->system, sizeof(t->system), "%s", system);
	snprintf(t->event, sizeof(t->event), "%s", event);
	snprintf(t->name, sizeof(t->name), "%s", instance);
	if (!tlob_trigger_instance_ok(kind, instance, err, len))
		goto fail;
	t->inst = tracefs_instance_alloc(NULL, instance);
	if (!t->inst || !tracefs_event_file_exists(t->inst, system, event, "trigger")) {
		snprintf(err, len, "--on-violation %s=%s: the instance has no %s:%s event "
			 "(is tlob.ko loaded?)", kind, instance, system, event);
		goto fail;
	}
	used = (size_t)snprintf(t->text, sizeof(t->text), "%s", kind);
	if (count)
		used += (size_t)snprintf(t->text + used, sizeof(t->text) - used, ":%u", count);
	/* A violation its binding's tolerance= held back is no reaction's. */
	used += (size_t)snprintf(t->text + used, sizeof(t->text) - used, " if react == 1");
	for (size_t i = 0; i < n && used < sizeof(t->text); i++)
		used += (size_t)snprintf(t->text + used, sizeof(t->text) - used,
					 "%sbinding_id == %u%s", i ? " || " : " && (", ids[i],
					 i + 1 == n ? ")" : "");
	if (used >= sizeof(t->text)) {
		snprintf(err, len, "--on-violation %s=%s: too many bindings for one filter",
			 kind, instance);
		goto fail;
	}
	ret = write_trigger(t, false);
	if (ret) {
		snprintf(err, len, "--on-violation %s=%s: the kernel refused the trigger '%s': %s",
			 kind, instance, t->text, ret == -EEXIST ?
			 "the event has a trigger of this kind already (one per event)" :
			 strerror(-ret));
		goto fail;
	}
	return t;
fail:
	tracefs_instance_free(t->inst);
	free(t);
	return NULL;
}

int tlob_trigger_rearm(struct tlob_trigger *t)
{
	int ret = write_trigger(t, true);

	return ret ? ret : write_trigger(t, false);
}

int tlob_trigger_remove(struct tlob_trigger *t)
{
	int ret;

	if (!t)
		return 0;
	ret = write_trigger(t, true);
	if (ret)
		fprintf(stderr, "tlob: cannot remove the trigger '%s' of instance %s: %s\n",
			t->text, t->name, strerror(-ret));
	tracefs_instance_free(t->inst);
	free(t);
	return ret;
}
