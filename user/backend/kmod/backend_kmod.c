// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel backend: tlob.ko's control tree /sys/kernel/tlob/ (the
 * control-tree contract, kernel/shared/README.md), or an in-kernel RV tlob under /sys/kernel/tracing/rv/monitors/tlob/,
 * which has the same file names (minus stats). Records come from the
 * trace events through trace.c: system "tlob" for the module, "rv" for
 * in-kernel RV; the module's diagnosis of each violation
 * (tlob:violation_detail) goes to the sink's diag callback, if it has one.
 *
 * A reader (tlob mon) on the module's own tree is a session when the
 * module has TLOB_SESSION_DEV: it binds through its open file, sharing
 * the bindings of every holder that asked for the same ones, and closing
 * the file (whatever ends the process) drops its references. A module
 * without it (an older one), in-kernel RV and a control root given on
 * the command line keep the monitor file: bindings of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/kmod/kmod_stats.h"
#include "backend/kmod/trace.h"
#include "backend/monline.h"
#include "lib/units.h"
#include "lib/utils.h"

struct kmod {
	char root[PATH_MAX];
	const char *system;	/* "tlob" or "rv" */
	struct tlob_trace *trace;
	int session;		/* TLOB_SESSION_DEV open, or -1 */
};

static bool has_monitor_file(const char *root)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/monitor", root);
	return !stat(path, &st);
}

/* The module's tree, else an in-kernel RV tlob; NULL if neither. */
static const char *default_root(void)
{
	if (has_monitor_file(TLOB_SYSFS_DIR))
		return TLOB_SYSFS_DIR;
	if (has_monitor_file(TLOB_RV_DIR))
		return TLOB_RV_DIR;
	return NULL;
}

static int kmod_probe(const char *root, char *why, size_t len)
{
	if (root) {
		if (has_monitor_file(root))
			return 0;
		snprintf(why, len, "%s/monitor does not exist", TLOB_SHOWN(root));
		return -ENOENT;
	}
	if (default_root())
		return 0;
	snprintf(why, len, "tlob.ko is not loaded (no %s) and the kernel has no RV tlob (no %s)",
		 TLOB_SYSFS_DIR, TLOB_RV_DIR);
	return -ENODEV;
}

static struct kmod *K(struct tlob_backend *be)
{
	return be->priv;
}

static void ctl_path(struct tlob_backend *be, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", K(be)->root, file);
}

static char *ctl_read(struct tlob_backend *be, const char *file, int *err)
{
	char path[PATH_MAX + 32];
	char *s;

	ctl_path(be, file, path, sizeof(path));
	s = tlob_read_file(path);
	/* Denied, what the reader lacks is a right, which the message names. */
	if (!s && tlob_err_denied(errno))
		*err = tlob_backend_err(be, errno, "reading %s needs root or membership of "
					"the group that can read it", TLOB_SHOWN(path));
	else if (!s)
		*err = tlob_backend_err(be, errno, "cannot read %s: %s", TLOB_SHOWN(path),
				       strerror(errno));
	return s;
}

/* TLOB_VERBOSE shows every write: what the tool asked of the kernel, and its answer. */
static int ctl_write(struct tlob_backend *be, const char *file, const char *s)
{
	char path[PATH_MAX + 32];
	int ret;

	ctl_path(be, file, path, sizeof(path));
	ret = tlob_write_file(path, s);
	tlob_verbose("write %s: %.*s: %s", file, (int)strcspn(s, "\n"), s,
		     ret ? strerror(-ret) : "ok");
	return ret;
}

static int kmod_open(struct tlob_backend *be, const struct tlob_backend_opts *opts)
{
	const char *root = opts->control_root;
	char why[256];
	struct kmod *k;
	int ret;

	ret = kmod_probe(root, why, sizeof(why));
	if (ret)
		return tlob_backend_err(be, -ret, "%s", why);
	if (!root)
		root = default_root();
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	snprintf(k->root, sizeof(k->root), "%s", root);
	/* In-kernel RV monitors live in tracefs and trace under the rv system. */
	k->system = strstr(root, "/rv/monitors/") ? "rv" : "tlob";
	k->session = -1;
	be->priv = k;
	if (!opts->control_root)
		tlob_trace_sweep();
	if (opts->reader && !opts->control_root && !strcmp(root, TLOB_SYSFS_DIR)) {
		k->session = open(TLOB_SESSION_DEV, O_RDWR | O_CLOEXEC);
		if (k->session < 0 && errno != ENOENT)
			tlob_verbose("%s: %s; bindings through the monitor file",
				     TLOB_SESSION_DEV, strerror(errno));
		tlob_verbose("session: %s", k->session >= 0 ? TLOB_SESSION_DEV : "none");
	}

	if (opts->reader) {
		k->trace = tlob_trace_open(k->system, opts->transitions, opts->buffer_kb,
					   opts->flush_ns, be->err, sizeof(be->err));
		if (!k->trace) {
			if (k->session >= 0)
				close(k->session);
			free(k);
			be->priv = NULL;
			return -EIO;
		}
	}
	return 0;
}

static void kmod_close(struct tlob_backend *be)
{
	if (K(be)->session >= 0)
		close(K(be)->session);
	tlob_trace_close(K(be)->trace);
	free(be->priv);
	be->priv = NULL;
}

static int kmod_get_enable(struct tlob_backend *be)
{
	int ret = 0;
	char *s = ctl_read(be, "enable", &ret);

	uint64_t on;

	if (!s)
		return ret;
	/* The module writes "0\n" or "1\n"; anything else is not its answer. */
	s[strcspn(s, "\n")] = '\0';
	if (tlob_parse_u64(s, 0, 1, &on))
		ret = tlob_backend_err(be, EIO, "%s/enable: '%s' is neither 0 nor 1",
				       TLOB_SHOWN(K(be)->root), TLOB_SHOWN(s));
	else
		ret = (int)on;
	free(s);
	return ret;
}

static int kmod_set_enable(struct tlob_backend *be, bool on)
{
	int ret = ctl_write(be, "enable", on ? "1\n" : "0\n");

	if (ret)
		return tlob_backend_err(be, -ret, "cannot %s tlob (%s/enable): %s",
					on ? "enable" : "disable", TLOB_SHOWN(K(be)->root),
					strerror(-ret));
	return 0;
}

static int kmod_list_reactors(struct tlob_backend *be, char *buf, size_t len)
{
	int ret = 0;
	char *s = ctl_read(be, "reactors", &ret);

	if (!s)
		return ret;
	s[strcspn(s, "\n")] = '\0';
	snprintf(buf, len, "%s", s);
	free(s);
	return 0;
}

static int kmod_get_reactor(struct tlob_backend *be, char *buf, size_t len)
{
	char all[512], *open, *close;
	int ret = kmod_list_reactors(be, all, sizeof(all));

	if (ret)
		return ret;
	open = strchr(all, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return tlob_backend_err(be, EINVAL, "no current reactor in '%s'", all);
	*close = '\0';
	snprintf(buf, len, "%s", open + 1);
	return 0;
}

static int kmod_set_reactor(struct tlob_backend *be, const char *name)
{
	char line[128];
	int ret;

	snprintf(line, sizeof(line), "%s\n", name);
	ret = ctl_write(be, "reactors", line);
	if (ret == -EINVAL) {
		char all[512] = "";

		kmod_list_reactors(be, all, sizeof(all));
		return tlob_backend_err(be, EINVAL, "unknown reactor '%s' (available: %s)",
					name, all);
	}
	if (ret)
		return tlob_backend_err(be, -ret, "cannot set reactor '%s': %s", name,
					strerror(-ret));
	return 0;
}

static int kmod_stats(struct tlob_backend *be, struct tlob_binding_stats **out, size_t *n);

/* The id of @spec's binding in the module's stats (the best match), or 0. */
static uint32_t stats_id(const struct tlob_binding_stats *st, size_t n,
			 const struct tlob_binding_spec *spec)
{
	uint32_t id = 0;
	int best = 0, m;

	for (size_t i = 0; i < n; i++) {
		m = tlob_spec_same_binding(&st[i].spec, spec);
		if (m > best) {
			best = m;
			id = st[i].spec.id;
		}
	}
	return id;
}

/* A line for the bindings: the session's file, else the monitor file. */
static int monitor_write(struct tlob_backend *be, const char *line)
{
	ssize_t n;
	int ret;

	if (K(be)->session < 0)
		return ctl_write(be, "monitor", line);
	n = write(K(be)->session, line, strlen(line));
	ret = n < 0 ? -errno : (size_t)n == strlen(line) ? 0 : -EIO;
	tlob_verbose("write %s: %.*s: %s", TLOB_SESSION_DEV, (int)strcspn(line, "\n"), line,
		     ret ? strerror(-ret) : "ok");
	return ret;
}

static int kmod_bind(struct tlob_backend *be, const struct tlob_binding_spec *spec,
		     uint32_t *id)
{
	struct tlob_binding_stats *st = NULL;
	char line[PATH_MAX + 256];
	size_t nr = 0;
	int ret;

	*id = 0;
	/* Upstream's RV tlob has no `a` line: say so rather than "malformed". */
	if (spec->alive && !strcmp(K(be)->system, "rv"))
		return tlob_backend_err(be, EOPNOTSUPP, "alive supervision needs the module "
					"backend (tlob.ko); the kernel's RV tlob does not run it");
	/* Nor an `l` line (logical supervision). */
	if (spec->logic && !strcmp(K(be)->system, "rv"))
		return tlob_backend_err(be, EOPNOTSUPP, "logical supervision (--model) needs "
					"the module backend (tlob.ko); the kernel's RV tlob does "
					"not run it");
	/* Only what the module reads back as asked (the BPF backend's rule too). */
	ret = tlob_spec_check(spec, be->err, sizeof(be->err));
	if (ret)
		return ret;
	ret = tlob_monline_format(spec, line, sizeof(line) - 1);
	if (ret)
		return tlob_backend_err(be, -ret, "path too long: %s", TLOB_SHOWN(spec->path));
	strcat(line, "\n");
	ret = monitor_write(be, line);
	switch (ret) {
	case 0:
		break;
	case -EEXIST:
	case -ERANGE:
	case -ENOSPC:
		return ret;	/* the tool words these the same for every backend */
	case -ENOENT:
		return tlob_backend_err(be, ENOENT, "the kernel cannot find %s",
					TLOB_SHOWN(spec->path));
	case -EINVAL:
		line[strcspn(line, "\n")] = '\0';
		return tlob_backend_err(be, EINVAL,
			"the kernel rejected '%s' (offset not in the file's text, or malformed%s)",
			TLOB_SHOWN(line), spec->alive ?
			"; a module without alive supervision refuses every 'a' line" :
			spec->logic ? "; a module without logical supervision refuses every "
			"'l' line" : "");
	default:
		return tlob_backend_err(be, -ret, "cannot add binding: %s", strerror(-ret));
	}
	/* The id is only in stats; in-kernel RV has none (id stays 0). */
	if (!kmod_stats(be, &st, &nr)) {
		*id = stats_id(st, nr, spec);
		free(st);
	}
	be->err[0] = '\0';
	return 0;
}

static int kmod_unbind(struct tlob_backend *be, const struct tlob_binding_spec *spec)
{
	char line[PATH_MAX + 64];
	int ret;

	ret = tlob_path_check(spec->path, be->err, sizeof(be->err));
	if (ret)
		return ret;
	ret = tlob_monline_format_remove(spec, line, sizeof(line) - 1);
	if (ret)
		return tlob_backend_err(be, -ret, "path too long: %s", TLOB_SHOWN(spec->path));
	strcat(line, "\n");
	ret = monitor_write(be, line);
	if (ret == -ENOENT)
		return ret;	/* worded by the tool */
	if (ret)
		return tlob_backend_err(be, -ret, "cannot remove binding %s:0x%" PRIx64 ": %s",
					TLOB_SHOWN(spec->path), spec->start, strerror(-ret));
	return 0;
}

/* The session's listing (stats lines of its bindings), malloc'd. */
static char *session_read(struct tlob_backend *be, int *err)
{
	size_t len = 0, size = 4096;
	char *s = malloc(size), *t;
	ssize_t n;

	while (s) {
		n = pread(K(be)->session, s + len, size - len - 1, (off_t)len);
		if (n < 0) {
			*err = tlob_backend_err(be, errno, "cannot read %s: %s", TLOB_SESSION_DEV,
					       strerror(errno));
			free(s);
			return NULL;
		}
		if (!n)
			break;
		len += (size_t)n;
		if (size - len > 1)
			continue;
		t = realloc(s, size *= 2);
		if (!t)
			free(s);
		s = t;
	}
	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	s[len] = '\0';
	return s;
}

/* Calls fn for each non-empty line of a control file (NULL: the session's listing). */
static int for_each_line(struct tlob_backend *be, const char *file,
			 int (*fn)(struct tlob_backend *, const char *, void *), void *ctx)
{
	char *text, *line, *save = NULL;
	int ret = 0;

	text = file ? ctl_read(be, file, &ret) : session_read(be, &ret);
	if (!text)
		return ret;
	for (line = strtok_r(text, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save))
		ret = fn(be, line, ctx);
	free(text);
	return ret;
}

struct vec {
	void *items;
	size_t n;
	size_t size;
};

static void *vec_push(struct vec *v)
{
	char *items = realloc(v->items, (v->n + 1) * v->size);

	if (!items)
		return NULL;
	v->items = items;
	return items + v->size * v->n++;
}

static int stats_line(struct tlob_backend *be, const char *line, void *ctx)
{
	struct tlob_binding_stats *st = vec_push(ctx);

	if (!st)
		return -ENOMEM;
	if (tlob_kmod_stats_parse(line, st))
		return tlob_backend_err(be, EPROTO, "cannot parse stats line: %s",
					TLOB_SHOWN(line));
	return 0;
}

/* Every binding's statistics (@own: a session's own only). */
static int stats_of(struct tlob_backend *be, bool own, struct tlob_binding_stats **out,
		    size_t *n)
{
	struct vec v = { .size = sizeof(**out) };
	char path[PATH_MAX + 32];
	struct stat sb;
	int ret;

	ctl_path(be, "stats", path, sizeof(path));
	if (own && K(be)->session >= 0) {
		/* A session's statistics: its own bindings only. */
		ret = for_each_line(be, NULL, stats_line, &v);
		goto out;
	}
	if (stat(path, &sb))
		return tlob_backend_err(be, EOPNOTSUPP,
			"%s has no statistics (%s missing)", TLOB_SHOWN(K(be)->root),
			TLOB_SHOWN(path));
	ret = for_each_line(be, "stats", stats_line, &v);
out:
	if (ret) {
		free(v.items);
		return ret;
	}
	*out = v.items;
	*n = v.n;
	return 0;
}

static int kmod_stats(struct tlob_backend *be, struct tlob_binding_stats **out, size_t *n)
{
	return stats_of(be, true, out, n);
}

static int monitor_line(struct tlob_backend *be, const char *line, void *ctx)
{
	struct tlob_binding_spec *spec = vec_push(ctx);
	char err[256];

	if (!spec)
		return -ENOMEM;
	if (tlob_monline_parse(line, spec, err, sizeof(err)))
		return tlob_backend_err(be, EPROTO, "cannot parse monitor line '%s': %s",
					TLOB_SHOWN(line), err);
	return 0;
}

static int kmod_list(struct tlob_backend *be, struct tlob_binding_spec **out, size_t *n)
{
	struct vec v = { .size = sizeof(**out) };
	struct tlob_binding_stats *st = NULL;
	size_t nr = 0;
	int ret;

	ret = for_each_line(be, "monitor", monitor_line, &v);
	if (ret) {
		free(v.items);
		return ret;
	}
	*out = v.items;
	*n = v.n;
	/* Ids come from stats (the monitor file has upstream's format, no id). */
	if (stats_of(be, false, &st, &nr)) {
		be->err[0] = '\0';
		return 0;
	}
	for (size_t i = 0; i < *n; i++) {
		(*out)[i].id = stats_id(st, nr, &(*out)[i]);
		for (size_t j = 0; j < nr; j++)
			if (st[j].spec.id == (*out)[i].id)
				memcpy((*out)[i].holders, st[j].spec.holders,
				       sizeof((*out)[i].holders));
	}
	free(st);
	return 0;
}

static bool kmod_session(struct tlob_backend *be)
{
	return K(be)->session >= 0;
}


static int kmod_poll(struct tlob_backend *be, int timeout_ms, const struct tlob_sink *sink)
{
	if (!K(be)->trace)
		return tlob_backend_err(be, EINVAL, "backend opened without a reader");
	return tlob_trace_poll(K(be)->trace, timeout_ms, sink);
}

static int kmod_lost(struct tlob_backend *be, uint64_t *lost)
{
	*lost = K(be)->trace ? tlob_trace_lost(K(be)->trace) : 0;
	return 0;
}

static int kmod_detector(struct tlob_backend *be, char *name, size_t nlen,
			 char *detail, size_t dlen)
{
	(void)be;
	snprintf(name, nlen, "hrtimer");
	snprintf(detail, dlen, "overruns detected by a hard hrtimer (HRTIMER_MODE_ABS_HARD, "
		 "armed once at START), at scheduler events and at STOP");
	return 0;
}

const struct tlob_backend_ops tlob_backend_kmod = {
	.name = "kmod",
	.desc = "kernel module tlob.ko (or in-kernel RV tlob): hrtimer, trace events",
	.caps = TLOB_CAP_TRANSITIONS,
	.probe = kmod_probe,
	.detector = kmod_detector,
	.open = kmod_open,
	.close = kmod_close,
	.get_enable = kmod_get_enable,
	.set_enable = kmod_set_enable,
	.get_reactor = kmod_get_reactor,
	.set_reactor = kmod_set_reactor,
	.list_reactors = kmod_list_reactors,
	.bind = kmod_bind,
	.unbind = kmod_unbind,
	.list = kmod_list,
	.stats = kmod_stats,
	.poll = kmod_poll,
	.lost = kmod_lost,
	.session = kmod_session,
};
