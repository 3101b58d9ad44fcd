// SPDX-License-Identifier: GPL-2.0
/*
 * tlob apply: all of a configuration or none of it. The state file records
 * what apply changed before it changes anything, in the configuration's
 * own syntax (conf.c reads it back), so --remove takes away exactly that,
 * also after the configuration was edited or a binary replaced, and a tlob
 * killed half-way leaves a state that --remove can still clean up.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/messages.h"
#include "backend/monline.h"
#include "config/apply.h"
#include "config/atomic.h"
#include "kinds/kind.h"
#include "lib/utils.h"
#include "options/params.h"
#include "output/output.h"

#define LINE_MAX_LEN	(PATH_MAX + 512)

static void print_binding(const struct tlob_apply_opts *opts, const char *what,
			  const struct tlob_binding_spec *spec, const struct tlob_conf_where *at)
{
	char buf[LINE_MAX_LEN];

	if (opts->json) {
		if (tlob_spec_json(spec, buf, sizeof(buf)) > 0)
			puts(buf);
		return;
	}
	if (tlob_monline_format(spec, buf, sizeof(buf)))
		return;
	if (at && at->line)
		printf("%s id=%u %s  (%s:%u)\n", what, spec->id, buf, TLOB_SHOWN(at->file), at->line);
	else
		printf("%s id=%u %s\n", what, spec->id, buf);
}

/* /run/tlob for /run/tlob/apply.state: created when missing (/run is empty at boot). */
static int make_parent(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (!mkdir(dir, 0755) || errno == EEXIST)
		return 0;
	snprintf(err, len, "cannot create %s: %s", TLOB_SHOWN(dir), strerror(errno));
	return -errno;
}

struct state {
	const char *backend;
	const char *reactor;		/* set by apply, "" none */
	const char *restore_reactor;	/* "" none */
	bool restore_enable;
	const char *source;		/* the files it came from */
	bool origins;			/* name each section's FILE:LINE in a comment */
	const struct tlob_conf_section *const *sections;
	size_t n;
};

static int write_state(const char *path, const struct state *st)
{
	char err[PATH_MAX + 128], line[LINE_MAX_LEN];
	struct tlob_atomic a;
	int ret;

	ret = make_parent(path, err, sizeof(err));
	if (!ret)
		ret = tlob_atomic_open(&a, path, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tlob: cannot record what apply changes: %s\n", err);
		return ret;
	}
	fprintf(a.f, "# What 'tlob apply' changed, from %s; 'tlob apply --remove'\n"
		"# undoes exactly this. Written by tlob, in tlob.conf's syntax; do not edit.\n",
		st->source);
	fprintf(a.f, "backend %s\n", st->backend);
	if (st->reactor[0])
		fprintf(a.f, "reactor %s\n", st->reactor);
	if (st->restore_reactor[0])
		fprintf(a.f, "restore-reactor %s\n", st->restore_reactor);
	if (st->restore_enable)
		fprintf(a.f, "restore-enable 0\n");
	for (size_t i = 0; i < st->n; i++) {
		const struct tlob_conf_section *s = st->sections[i];

		if (tlob_monline_format(&s->spec, line, sizeof(line))) {
			tlob_atomic_abort(&a);
			fprintf(stderr, "tlob: cannot record %s\n", TLOB_SHOWN(s->spec.path));
			return -EINVAL;
		}
		/* The kernel's line: what was bound, whatever the file holds now. */
		fprintf(a.f, "section %s", line);
		if (st->origins)
			fprintf(a.f, "  # %s:%u", s->at.file, s->at.line);
		fputc('\n', a.f);
	}
	ret = tlob_atomic_commit(&a, err, sizeof(err));
	if (ret)
		fprintf(stderr, "tlob: cannot record what apply changes: %s\n", err);
	return ret;
}

static const struct tlob_binding_spec *find_bound(const struct tlob_binding_spec *specs, size_t n,
						  const struct tlob_binding_spec *spec)
{
	for (size_t i = 0; i < n; i++)
		if (tlob_same_binding(specs[i].path, specs[i].start, spec->path, spec->start))
			return &specs[i];
	return NULL;
}

/* What a binding is, as the kernel lists it: everything but its id. */
static bool same_binding(const struct tlob_binding_spec *a, const struct tlob_binding_spec *b)
{
	return tlob_same_binding(a->path, a->start, b->path, b->start) &&
	       a->stop_is_ret == b->stop_is_ret && (a->stop_is_ret || a->stop == b->stop) &&
	       a->budget_ns == b->budget_ns && a->min_ns == b->min_ns &&
	       a->alive == b->alive && a->period_ns == b->period_ns &&
	       a->expect == b->expect && a->margin == b->margin && a->per == b->per &&
	       a->logic == b->logic && !memcmp(&a->table, &b->table, sizeof(a->table)) &&
	       tlob_spec_tol_k(a) == tlob_spec_tol_k(b) &&
	       tlob_spec_tol_w(a) == tlob_spec_tol_w(b) && !strcmp(a->tag, b->tag) &&
	       a->pid == b->pid && a->tgid == b->tgid;
}

/* The refusals that need the backend, before anything changes. */
static int precheck(struct tlob_backend *be, const struct tlob_conf *conf)
{
	struct tlob_binding_spec *bound = NULL;
	char why[1024];
	int ret, status = TLOB_EXIT_OK;
	size_t n = 0;

	if (conf->reactor[0]) {
		status = tlob_reactor_check(be, conf->reactor, why, sizeof(why));
		if (status)
			fprintf(stderr, "%s:%u: %s\n", TLOB_SHOWN(conf->reactor_at.file),
				conf->reactor_at.line, why);
		if (status == TLOB_EXIT_ERROR)
			return status;
	}
	ret = be->ops->list(be, &bound, &n);
	if (ret) {
		tlob_print_error(be, ret, "listing bindings");
		return TLOB_EXIT_ERROR;
	}
	for (size_t i = 0; i < conf->nr_sections; i++) {
		const struct tlob_conf_section *s = &conf->sections[i];
		const struct tlob_binding_spec *b = find_bound(bound, n, &s->spec);

		if (!b)
			continue;
		fprintf(stderr, "%s:%u: %s:0x%" PRIx64 " is bound already (id=%u, not by this "
			"configuration): tlob unbind it first\n", TLOB_SHOWN(s->at.file), s->at.line,
			TLOB_SHOWN(s->spec.path), s->spec.start, b->id);
		if (!status)
			status = TLOB_EXIT_ERROR;
	}
	free(bound);
	return status;
}

/* Undo apply's steps in reverse: bindings, then the reactor, then enable. */
static void rollback(struct tlob_backend *be, const struct tlob_conf *conf, size_t bound,
		     const char *old_reactor, bool enabled)
{
	char why[PATH_MAX + 600];
	size_t undone = 0;

	if (enabled && be->ops->set_enable(be, false))
		tlob_print_error(be, -EIO, "rolling back enable");
	if (old_reactor[0] && be->ops->set_reactor(be, old_reactor))
		tlob_print_error(be, -EIO, "rolling back the reactor");
	while (bound--) {
		const struct tlob_conf_section *s = &conf->sections[bound];
		int err = be->ops->unbind(be, &s->spec);

		if (err)
			fprintf(stderr, "tlob: rolling back %s:%u: %s\n", TLOB_SHOWN(s->at.file),
				s->at.line,
				tlob_binding_errstr(be, true, &s->spec, err, why, sizeof(why)));
		else
			undone++;
	}
	fprintf(stderr, "tlob: nothing applied (rolled back %zu binding(s)%s%s)\n", undone,
		old_reactor[0] ? ", the reactor" : "", enabled ? ", enable" : "");
}

/*
 * The state file lists every section before the first is bound, so that a
 * crash midway leaves what --remove needs to undo it.
 */
static int write_apply_state(const char *path, struct state *st, const struct tlob_conf *conf)
{
	const struct tlob_conf_section **list;
	int ret;

	list = calloc(conf->nr_sections + 1, sizeof(*list));
	if (!list)
		return -1;
	for (size_t i = 0; i < conf->nr_sections; i++)
		list[i] = &conf->sections[i];
	st->sections = list;
	st->n = conf->nr_sections;
	ret = write_state(path, st);
	st->sections = NULL;
	free(list);
	return ret;
}

/* Every section bound in order; *BOUND counts those bound before a failure (-1). */
static int bind_sections(struct tlob_backend *be, const struct tlob_conf *conf,
			 const struct tlob_apply_opts *opts, size_t *bound)
{
	char why[PATH_MAX + 600];

	for (; *bound < conf->nr_sections; (*bound)++) {
		const struct tlob_conf_section *s = &conf->sections[*bound];
		struct tlob_binding_spec spec = s->spec;
		int err = be->ops->bind(be, &spec, &spec.id);

		if (err) {
			fprintf(stderr, "%s:%u: %s\n", TLOB_SHOWN(s->at.file), s->at.line,
				tlob_binding_errstr(be, false, &spec, err, why, sizeof(why)));
			return -1;
		}
		print_binding(opts, "bound", &spec, &s->at);
	}
	return 0;
}

/* The configuration's reactor set in place of CUR, which OLD keeps for a rollback. */
static int set_conf_reactor(struct tlob_backend *be, const struct tlob_conf *conf,
			    const struct tlob_apply_opts *opts, const char *cur,
			    char *old, size_t old_len)
{
	if (be->ops->set_reactor(be, conf->reactor)) {
		fprintf(stderr, "%s:%u: ", TLOB_SHOWN(conf->reactor_at.file),
			conf->reactor_at.line);
		tlob_print_error(be, -EIO, "setting the reactor");
		return -1;
	}
	snprintf(old, old_len, "%s", cur);
	if (!opts->json)
		printf("reactor %s (was %s)\n", conf->reactor, cur);
	return 0;
}

int tlob_apply(struct tlob_backend *be, const struct tlob_conf *conf,
	       const struct tlob_apply_opts *opts)
{
	char cur_reactor[64] = "", old_reactor[64] = "", src[PATH_MAX + 64];
	bool enabled = false;
	size_t bound = 0;
	int was_enabled, ret;
	struct state st;

	if (!access(opts->state, F_OK)) {
		fprintf(stderr, "tlob: a configuration is applied already (%s): "
			"tlob apply --remove first\n", TLOB_SHOWN(opts->state));
		return TLOB_EXIT_ERROR;
	}
	ret = precheck(be, conf);
	if (ret)
		return ret;
	was_enabled = be->ops->get_enable(be);
	if (was_enabled < 0) {
		tlob_print_error(be, was_enabled, "reading enable");
		return TLOB_EXIT_ERROR;
	}
	if (conf->reactor[0] && be->ops->get_reactor(be, cur_reactor, sizeof(cur_reactor))) {
		tlob_print_error(be, -EIO, "reading the reactor");
		return TLOB_EXIT_ERROR;
	}
	st = (struct state){
		.backend = be->ops->name,
		.reactor = conf->reactor,
		.restore_reactor = strcmp(cur_reactor, conf->reactor) ? cur_reactor : "",
		.restore_enable = !was_enabled,
		.source = tlob_conf_source(conf, src, sizeof(src)),
		.origins = true,
	};
	if (write_apply_state(opts->state, &st, conf))
		return TLOB_EXIT_ERROR;
	if (bind_sections(be, conf, opts, &bound))
		goto fail;
	if (st.restore_reactor[0] &&
	    set_conf_reactor(be, conf, opts, cur_reactor, old_reactor, sizeof(old_reactor)))
		goto fail;
	if (!was_enabled) {
		if (be->ops->set_enable(be, true)) {
			tlob_print_error(be, -EIO, "enabling");
			goto fail;
		}
		enabled = true;
		if (!opts->json)
			fprintf(stderr, "tlob: monitor enabled\n");
	}
	fprintf(stderr, "tlob: applied %zu section(s) from %s; 'tlob apply --remove' undoes it\n",
		conf->nr_sections, st.source);
	return TLOB_EXIT_OK;
fail:
	rollback(be, conf, bound, old_reactor, enabled);
	if (unlink(opts->state))
		fprintf(stderr, "tlob: cannot remove %s: %s\n", TLOB_SHOWN(opts->state),
			strerror(errno));
	return TLOB_EXIT_ERROR;
}

/* The reactor back to what it was, if it is still the one apply set. */
static int remove_reactor(struct tlob_backend *be, const struct tlob_conf *state)
{
	char cur[64];

	if (!state->restore_reactor[0])
		return TLOB_EXIT_OK;
	if (!be->ops->get_reactor || be->ops->get_reactor(be, cur, sizeof(cur))) {
		tlob_print_error(be, -EIO, "reading the reactor");
		return TLOB_EXIT_ERROR;
	}
	if (strcmp(cur, state->reactor)) {
		fprintf(stderr, "tlob: reactor left at %s: changed since apply set %s\n", cur,
			state->reactor);
		return TLOB_EXIT_OK;
	}
	if (be->ops->set_reactor(be, state->restore_reactor)) {
		tlob_print_error(be, -EIO, "restoring the reactor");
		return TLOB_EXIT_ERROR;
	}
	printf("reactor %s (was %s)\n", state->restore_reactor, cur);
	return TLOB_EXIT_OK;
}

/*
 * Section S unbound if it is still bound as apply bound it: 1 unbound,
 * 0 nothing to do (gone, or someone else's now), -1 the unbind failed.
 */
static int unbind_applied(struct tlob_backend *be, const struct tlob_conf_section *s,
			  const struct tlob_binding_spec *bound, size_t n,
			  const struct tlob_apply_opts *opts)
{
	const struct tlob_binding_spec *b = find_bound(bound, n, &s->spec);
	struct tlob_binding_spec spec = s->spec;
	char why[PATH_MAX + 600];
	int ret;

	if (!b) {
		fprintf(stderr, "tlob: %s:0x%" PRIx64 " is not bound any more (nothing to "
			"remove)\n", TLOB_SHOWN(spec.path), spec.start);
		return 0;
	}
	/* Someone replaced it since: it is theirs now. */
	if (!same_binding(b, &spec)) {
		fprintf(stderr, "tlob: %s:0x%" PRIx64 " left alone: bound again since, not "
			"as tlob apply bound it\n", TLOB_SHOWN(spec.path), spec.start);
		return 0;
	}
	spec.id = b->id;
	ret = be->ops->unbind(be, &spec);
	if (ret) {
		fprintf(stderr, "tlob: %s\n",
			tlob_binding_errstr(be, true, &spec, ret, why, sizeof(why)));
		return -1;
	}
	print_binding(opts, "unbound", &spec, NULL);
	return 1;
}

/*
 * The monitor disabled again if apply enabled it and no binding is left:
 * other tools' bindings keep it on, as it is theirs as much as apply's.
 */
static int remove_enable(struct tlob_backend *be, const struct tlob_conf *state,
			 const struct tlob_apply_opts *opts, size_t left)
{
	if (!state->restore_enable)
		return TLOB_EXIT_OK;
	if (left) {
		fprintf(stderr, "tlob: monitor left enabled: %zu binding(s) remain\n", left);
		return TLOB_EXIT_OK;
	}
	if (be->ops->set_enable(be, false)) {
		tlob_print_error(be, -EIO, "disabling");
		return TLOB_EXIT_ERROR;
	}
	if (!opts->json)
		fprintf(stderr, "tlob: monitor disabled\n");
	return TLOB_EXIT_OK;
}

int tlob_apply_remove(struct tlob_backend *be, const struct tlob_conf *state,
		      const struct tlob_apply_opts *opts)
{
	const struct tlob_conf_section **left;
	struct tlob_binding_spec *bound = NULL;
	size_t n = 0, nleft = 0, removed = 0;
	int ret, status = TLOB_EXIT_OK;
	bool reactor_failed;

	ret = be->ops->list(be, &bound, &n);
	if (ret) {
		tlob_print_error(be, ret, "listing bindings");
		return TLOB_EXIT_ERROR;
	}
	left = calloc(state->nr_sections + 1, sizeof(*left));
	if (!left) {
		free(bound);
		return TLOB_EXIT_ERROR;
	}
	for (size_t i = state->nr_sections; i--;) {
		const struct tlob_conf_section *s = &state->sections[i];

		ret = unbind_applied(be, s, bound, n, opts);
		if (ret < 0) {
			left[nleft++] = s;
			status = TLOB_EXIT_ERROR;
		} else {
			removed += (size_t)ret;
		}
	}
	free(bound);
	reactor_failed = remove_reactor(be, state) != TLOB_EXIT_OK;
	if (reactor_failed)
		status = TLOB_EXIT_ERROR;
	if (remove_enable(be, state, opts, n - removed))
		status = TLOB_EXIT_ERROR;
	if (nleft || reactor_failed) {
		struct state st = {
			.backend = be->ops->name, .reactor = state->reactor,
			.restore_reactor = reactor_failed ? state->restore_reactor : "",
			.restore_enable = state->restore_enable && n != removed,
			.source = "what a tlob apply --remove could not undo",
			.sections = left, .n = nleft,
		};

		/* What is still to remove, so that --remove can be tried again. */
		write_state(opts->state, &st);
	} else if (unlink(opts->state) && errno != ENOENT) {
		fprintf(stderr, "tlob: cannot remove %s: %s\n", TLOB_SHOWN(opts->state),
			strerror(errno));
		status = TLOB_EXIT_ERROR;
	}
	free(left);
	return status;
}
