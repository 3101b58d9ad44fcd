// SPDX-License-Identifier: GPL-2.0
/*
 * A backend's refusals worded the same way for every backend and every
 * command: binding errors, reactor names against the backend's list.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "backend/messages.h"
#include "lib/exit.h"
#include "lib/units.h"
#include "lib/utils.h"

void tlob_print_error(const struct tlob_backend *be, int err, const char *what)
{
	if (be && be->err[0])
		fprintf(stderr, "tlob: %s\n", be->err);
	else
		fprintf(stderr, "tlob: %s: %s\n", what, strerror(err < 0 ? -err : err));
}

const char *tlob_binding_errstr(const struct tlob_backend *be, bool unbind,
				const struct tlob_binding_spec *spec, int err, char *buf, size_t len)
{
	const char *why = NULL;

	if (!unbind && err == -EEXIST)
		why = "binding already present: ";
	else if (unbind && err == -ENOENT)
		why = "no binding for ";
	else if (!unbind && err == -ERANGE)
		why = spec->alive ? "period out of range (100us..1h): " :
		      spec->logic ? "the module takes fewer states, events or edges: " :
		      "budget out of range (1us..1h): ";
	else if (!unbind && err == -ENOSPC)
		why = "no room for another binding (the backend's table is full): ";
	if (!why && be && be->err[0])
		snprintf(buf, len, "%s", be->err);
	else if (!why)
		snprintf(buf, len, "%s: %s", unbind ? "removing a binding" : "adding a binding",
			 strerror(err < 0 ? -err : err));
	else
		snprintf(buf, len, "%s%s:0x%" PRIx64 "%s", why, spec->path, spec->start,
			 !unbind && err == -EEXIST ? " (tlob unbind it first)" : "");
	return buf;
}

void tlob_binding_error(const struct tlob_backend *be, bool unbind,
			const struct tlob_binding_spec *spec, int err)
{
	char buf[PATH_MAX + 600];

	fprintf(stderr, "tlob: %s\n", tlob_binding_errstr(be, unbind, spec, err, buf, sizeof(buf)));
}

/*
 * -r NAME against the backend's own list ("[nop] printk panic signal"):
 * a name in it, or signal:N where it has signal.
 */
bool tlob_reactor_known(const char *list, const char *name)
{
	size_t base = strcspn(name, ":");
	const char *p = list;

	if (name[base]) {
		uint64_t sig;

		if (tlob_parse_u64(name + base + 1, 1, 64, &sig) ||
		    strncmp(name, "signal", base) || base != 6)
			return false;
	}
	while (*p) {
		size_t len;

		p += strspn(p, " [");
		len = strcspn(p, " ]");
		if (len && len == base && !strncmp(p, name, base))
			return true;
		p += len;
		p += strspn(p, "]");
	}
	return false;
}

const char *tlob_reactors_shown(const char *list, char *buf, size_t len)
{
	size_t o = 0;

	for (const char *p = list; *p && o + 1 < len; p++)
		if (*p != '[' && *p != ']')
			buf[o++] = *p;
	if (len)
		buf[o] = '\0';
	return buf;
}

int tlob_reactor_check(struct tlob_backend *be, const char *name, char *why, size_t len)
{
	char all[512], shown[512];
	int ret;

	if (!be->ops->set_reactor || !be->ops->get_reactor || !be->ops->list_reactors) {
		snprintf(why, len, "the %s backend has no reactors", be->ops->name);
		return TLOB_EXIT_ERROR;
	}
	ret = be->ops->list_reactors(be, all, sizeof(all));
	if (ret) {
		snprintf(why, len, "listing the reactors: %s",
			 be->err[0] ? be->err : strerror(-ret));
		return TLOB_EXIT_ERROR;
	}
	if (!tlob_reactor_known(all, name)) {
		snprintf(why, len, "unknown reactor '%s' (available: %s; the %s backend)",
			 TLOB_SHOWN(name), tlob_reactors_shown(all, shown, sizeof(shown)),
			 be->ops->name);
		return TLOB_EXIT_USAGE;
	}
	return TLOB_EXIT_OK;
}
