// SPDX-License-Identifier: GPL-2.0
/*
 * On-violation actions run by the tool (actions.h): the per-binding
 * limit and exec=CMD. The reader never waits for a command: it forks,
 * the child execs /bin/sh -c CMD (no parsing of CMD here), and the ended
 * children are reaped at the reader's next wakeup, which mon_loop bounds
 * by tlob_exec_tick()'s answer while children run or a violation waits
 * for its diagnosis.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend/names.h"
#include "lib/units.h"
#include "lib/utils.h"
#include "react/actions.h"
#include "tlob_model.h"

int tlob_action_parse(const char *s, struct tlob_action *a, char *err, size_t len)
{
	static const struct {
		const char *prefix;
		enum tlob_action_kind kind;
	} k[] = {
		{ "exec=", TLOB_ACTION_EXEC },
		{ "snapshot=", TLOB_ACTION_SNAPSHOT },
		{ "traceoff=", TLOB_ACTION_TRACEOFF },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		size_t n = strlen(k[i].prefix);
		const char *arg = s + n;

		if (strncmp(s, k[i].prefix, n))
			continue;
		if (!*arg) {
			snprintf(err, len, "--on-violation %s: %s is empty", s,
				 k[i].kind == TLOB_ACTION_EXEC ? "the command" : "the instance name");
			return -EINVAL;
		}
		/* An instance is a directory of tracefs/instances: one name. */
		if (k[i].kind != TLOB_ACTION_EXEC &&
		    (strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, ".."))) {
			snprintf(err, len, "--on-violation %s: '%s' is no trace instance name",
				 s, arg);
			return -EINVAL;
		}
		if (a) {
			a->kind = k[i].kind;
			a->arg = arg;
		}
		return 0;
	}
	snprintf(err, len, "--on-violation '%s': expected exec=CMD, snapshot=INSTANCE or "
		 "traceoff=INSTANCE", s);
	return -EINVAL;
}

int tlob_action_limit_parse(const char *s, unsigned int *n, uint64_t *period_ns,
			    char *err, size_t len)
{
	const char *slash = strchr(s, '/');
	char num[16], derr[256];
	uint64_t v;

	if ((slash ? (size_t)(slash - s) : strlen(s)) >= sizeof(num))
		goto bad;
	snprintf(num, sizeof(num), "%.*s", (int)(slash ? slash - s : (long)strlen(s)), s);
	if (tlob_parse_u64(num, 1, 1000000, &v))
		goto bad;
	*n = (unsigned int)v;
	*period_ns = 0;
	if (slash && tlob_parse_duration(slash + 1, period_ns, derr, sizeof(derr)))
		goto bad;
	return 0;
bad:
	snprintf(err, len, "invalid --on-violation-limit '%s' (N or N/PERIOD: 1, 5/10s; "
		 "N 1..1000000)", s);
	return -EINVAL;
}

/* One binding's count in the current window of the limit. */
struct limit_slot {
	uint32_t binding;
	unsigned int used;
	uint64_t since;		/* the window's first action */
};

struct tlob_limit {
	unsigned int n;
	uint64_t period_ns;
	struct limit_slot *v;
	size_t nr;
};

struct tlob_limit *tlob_limit_new(unsigned int n, uint64_t period_ns)
{
	struct tlob_limit *l = calloc(1, sizeof(*l));

	if (l) {
		l->n = n;
		l->period_ns = period_ns;
	}
	return l;
}

bool tlob_limit_take(struct tlob_limit *l, uint32_t binding, uint64_t now)
{
	struct limit_slot *s = NULL;

	if (!l->n)
		return true;
	for (size_t i = 0; i < l->nr && !s; i++)
		if (l->v[i].binding == binding)
			s = &l->v[i];
	if (!s) {
		struct limit_slot *v = realloc(l->v, (l->nr + 1) * sizeof(*v));

		/* No memory to count it: no action (the violation is still printed). */
		if (!v)
			return false;
		l->v = v;
		s = &v[l->nr++];
		*s = (struct limit_slot){ .binding = binding, .since = now };
	}
	if (l->period_ns && now - s->since >= l->period_ns) {
		s->used = 0;
		s->since = now;
	}
	if (s->used >= l->n)
		return false;
	if (!s->used)
		s->since = now;
	s->used++;
	return true;
}

void tlob_limit_free(struct tlob_limit *l)
{
	if (l)
		free(l->v);
	free(l);
}

/* A violation whose commands wait for its diagnosis. */
struct pending {
	bool used;
	bool held;		/* its diagnosis came and is being named */
	struct tlob_record r;
	uint64_t since;
};

#define PENDING		32

struct tlob_exec {
	const char *const *cmds;
	size_t nr_cmds;
	struct pending pending[PENDING];
	pid_t children[TLOB_ACTION_CHILDREN];	/* 0: free */
	unsigned long skipped;
};

struct tlob_exec *tlob_exec_new(const char *const *cmds, size_t n)
{
	struct tlob_exec *x;

	if (!n)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (x) {
		x->cmds = cmds;
		x->nr_cmds = n;
	}
	return x;
}

/* The environment: the caller's, then TLOB_*=... (later entries win in getenv). */
struct env {
	char **v;
	size_t n, cap;
};

/* One "KEY=VALUE" (s, malloc'd, owned from here; NULL: no memory, not added). */
static void env_push(struct env *e, char *s)
{
	if (s && e->n + 2 > e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 64;
		char **v = realloc(e->v, cap * sizeof(*v));

		if (v) {
			e->v = v;
			e->cap = cap;
		}
	}
	if (!s || e->n + 2 > e->cap) {
		free(s);
		return;
	}
	e->v[e->n++] = s;
	e->v[e->n] = NULL;
}

static void env_add(struct env *e, const char *key, const char *val)
{
	char *s;

	env_push(e, asprintf(&s, "%s=%s", key, val) < 0 ? NULL : s);
}

static void env_u64(struct env *e, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	env_add(e, key, buf);
}

/* A fixed-size char array of the kernel's, as a C string. */
static void env_chars(struct env *e, const char *key, const char *s, size_t max)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*s", (int)strnlen(s, max < sizeof(buf) ? max : 63), s);
	env_add(e, key, buf);
}

static void env_free(struct env *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
}

extern char **environ;

/*
 * The caller's environment, but for what a record says (no stale
 * TLOB_PID), then what every kind of violation has: its kind ("window",
 * "alive", "logic"), verdict (tlob_verdict_name()), task and binding.
 */
static void env_common(struct env *e, const char *kind, unsigned int verdict, uint32_t pid,
		       uint32_t tgid, const char *comm, uint32_t binding, const char *tag)
{
	for (char **p = environ; *p; p++)
		if (strncmp(*p, "TLOB_", 5) || !strncmp(*p, "TLOB_BACKEND=", 13) ||
		    !strncmp(*p, "TLOB_VERBOSE=", 13))
			env_push(e, strdup(*p));
	env_add(e, "TLOB_KIND", kind);
	env_add(e, "TLOB_VERDICT", tlob_verdict_name(verdict));
	env_u64(e, "TLOB_PID", pid);
	env_u64(e, "TLOB_TGID", tgid);
	env_chars(e, "TLOB_COMM", comm, TLOB_COMM_LEN);
	env_u64(e, "TLOB_BINDING", binding);
	env_chars(e, "TLOB_TAG", tag, TLOB_TAG_LEN);
}

static void env_record(struct env *e, const struct tlob_record *r)
{
	env_common(e, "window", r->verdict, r->pid, r->tgid, r->comm, r->binding_id, r->tag);
	env_u64(e, "TLOB_START_NS", r->start_ns);
	env_u64(e, "TLOB_BUDGET_NS", r->budget_ns);
	env_u64(e, "TLOB_MIN_NS", r->min_ns);
	env_u64(e, "TLOB_ELAPSED_NS", r->elapsed_ns);
	env_add(e, "TLOB_DETECTOR", tlob_detector_name(r->detector));
	/* TLOB_RUNNING_NS, ...: one per state a window is open in, by the model's names. */
	for (unsigned int s = 0; s < state_max_tlob; s++) {
		char key[64];
		size_t k = (size_t)snprintf(key, sizeof(key), "TLOB_%s_NS", tlob_state_name(s));

		if (!tlob_state_timed(s) || k >= sizeof(key))
			continue;
		for (size_t i = 5; i < k; i++)
			if (key[i] >= 'a' && key[i] <= 'z')
				key[i] = (char)(key[i] - 'a' + 'A');
		env_u64(e, key, r->time_ns[s]);
	}
}

static void env_diag(struct env *e, const struct tlob_diag *d, const struct tlob_diag_syms *s)
{
	static char buf[32 * 1024];
	char waker[48];

	env_u64(e, "TLOB_CPU", d->cpu);
	env_u64(e, "TLOB_MIGRATIONS", d->migrations);
	env_add(e, "TLOB_STATE", tlob_state_name(d->state));
	env_add(e, "TLOB_STACK_WHEN", tlob_stack_when_name(d->ustack_when));
	if (d->waker_pid)
		snprintf(waker, sizeof(waker), "%u:%.*s", d->waker_pid,
			 (int)strnlen(d->waker_comm, sizeof(d->waker_comm)), d->waker_comm);
	else
		snprintf(waker, sizeof(waker), "none");
	env_add(e, "TLOB_WAKER", waker);
	if (tlob_frames_text(d->ustack, s ? s->ustack : NULL,
			     d->ustack_when == TLOB_STACK_NONE ? 0 :
			     d->nr_ustack < TLOB_DIAG_USTACK ? d->nr_ustack : TLOB_DIAG_USTACK,
			     buf, sizeof(buf)) >= 0)
		env_add(e, "TLOB_STACK", buf);
	if (tlob_frames_text(d->kstack, s ? s->kstack : NULL,
			     d->nr_kstack < TLOB_DIAG_KSTACK ? d->nr_kstack : TLOB_DIAG_KSTACK,
			     buf, sizeof(buf)) >= 0)
		env_add(e, "TLOB_KSTACK", buf);
	if (tlob_ran_text(d, buf, sizeof(buf)) >= 0)
		env_add(e, "TLOB_RAN", buf);
}

static int free_child(struct tlob_exec *x)
{
	for (int i = 0; i < TLOB_ACTION_CHILDREN; i++)
		if (!x->children[i])
			return i;
	return -1;
}

/*
 * fork + /bin/sh -c CMD. The child gets the signals the reader blocks
 * back, stdin from /dev/null and stdout on tlob's stderr (tlob's stdout
 * is its records: a JSON stream stays JSON), and none of tlob's other
 * files (trace buffers, BPF rings).
 */
static void spawn(struct tlob_exec *x, const char *cmd, char **envp)
{
	int slot = free_child(x), fd;
	sigset_t none;
	pid_t pid;

	if (slot < 0) {
		x->skipped++;
		fprintf(stderr, "tlob: on-violation exec skipped: %d commands still running\n",
			TLOB_ACTION_CHILDREN);
		return;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "tlob: on-violation exec: fork: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
		dup2(2, 1);
		syscall(SYS_close_range, 3U, ~0U, 0U);
		execle("/bin/sh", "sh", "-c", cmd, (char *)NULL, envp);
		_exit(127);
	}
	x->children[slot] = pid;
}

/* Every command once, with e's environment (freed). */
static void run_env(struct tlob_exec *x, struct env *e)
{
	if (e->v)
		for (size_t i = 0; i < x->nr_cmds; i++)
			spawn(x, x->cmds[i], e->v);
	env_free(e);
}

static void run(struct tlob_exec *x, const struct tlob_record *r, const struct tlob_diag *d,
		const struct tlob_diag_syms *s)
{
	struct env e = { 0 };

	env_record(&e, r);
	if (d)
		env_diag(&e, d, s);
	run_env(x, &e);
}

void tlob_exec_alive(struct tlob_exec *x, const struct tlob_alive_record *r)
{
	struct env e = { 0 };

	if (!x)
		return;
	env_common(&e, "alive", r->verdict, r->pid, r->tgid, r->comm, r->binding_id, r->tag);
	env_u64(&e, "TLOB_START_NS", r->start_ns);
	env_u64(&e, "TLOB_END_NS", r->end_ns);
	env_u64(&e, "TLOB_PERIOD_NS", r->period_ns);
	env_u64(&e, "TLOB_CYCLES", r->cycles);
	env_u64(&e, "TLOB_CHECKPOINTS", r->checkpoints);
	env_u64(&e, "TLOB_EXPECT_MIN", r->expect_min);
	env_u64(&e, "TLOB_EXPECT_MAX", r->expect_max);
	env_add(&e, "TLOB_DETECTOR", tlob_detector_name(r->detector));
	run_env(x, &e);
}

void tlob_exec_logic(struct tlob_exec *x, const struct tlob_logic_record *r,
		     const struct tlob_logic_names *n)
{
	struct env e = { 0 };

	if (!x)
		return;
	env_common(&e, "logic", r->verdict, r->pid, r->tgid, r->comm, r->binding_id, r->tag);
	env_u64(&e, "TLOB_START_NS", r->start_ns);
	env_u64(&e, "TLOB_END_NS", r->end_ns);
	env_u64(&e, "TLOB_EVENTS", r->events);
	env_chars(&e, "TLOB_MODEL", n->model, sizeof(n->model));
	env_chars(&e, "TLOB_MODEL_STATE", n->state, sizeof(n->state));
	/*
	 * ORDER, TIMING at an event: the event the model refused; INCOMPLETE
	 * and TIMING past a state's invariant (the module's timer) have none.
	 */
	if (n->event[0])
		env_chars(&e, "TLOB_MODEL_EVENT", n->event, sizeof(n->event));
	/*
	 * TIMING: the model's clock at the event its guard refused, or when
	 * the module found the state held past its invariant.
	 */
	if (r->verdict == TLOB_VERDICT_TIMING)
		env_u64(&e, "TLOB_MODEL_CLOCK_NS", r->clock_ns);
	run_env(x, &e);
}

static bool same_window(const struct tlob_record *r, uint32_t pid, uint32_t binding,
			uint64_t start_ns)
{
	return r->pid == pid && r->binding_id == binding && r->start_ns == start_ns;
}

void tlob_exec_violation(struct tlob_exec *x, const struct tlob_record *r, uint64_t now)
{
	struct pending *p = NULL, *oldest = NULL;

	if (!x)
		return;
	for (int i = 0; i < PENDING && !p; i++) {
		if (!x->pending[i].used)
			p = &x->pending[i];
		else if (!oldest || x->pending[i].since < oldest->since)
			oldest = &x->pending[i];
	}
	/* All waiting: the oldest goes without its diagnosis. */
	if (!p) {
		run(x, &oldest->r, NULL, NULL);
		p = oldest;
	}
	*p = (struct pending){ .used = true, .r = *r, .since = now };
}

void tlob_exec_diag(struct tlob_exec *x, const struct tlob_diag *d,
		    const struct tlob_diag_syms *syms)
{
	for (int i = 0; x && i < PENDING; i++) {
		struct pending *p = &x->pending[i];

		if (p->used && same_window(&p->r, d->pid, d->binding_id, d->start_ns)) {
			p->used = false;
			run(x, &p->r, d, syms);
		}
	}
}

void tlob_exec_hold(struct tlob_exec *x, const struct tlob_diag *d)
{
	for (int i = 0; x && i < PENDING; i++) {
		struct pending *p = &x->pending[i];

		if (p->used && same_window(&p->r, d->pid, d->binding_id, d->start_ns))
			p->held = true;
	}
}

void tlob_exec_window(struct tlob_exec *x, const struct tlob_record *r)
{
	for (int i = 0; x && i < PENDING; i++) {
		struct pending *p = &x->pending[i];

		if (p->used && !p->held && same_window(&p->r, r->pid, r->binding_id, r->start_ns)) {
			p->used = false;
			run(x, &p->r, NULL, NULL);
		}
	}
}

static int reap(struct tlob_exec *x, int options)
{
	int running = 0;

	for (int i = 0; i < TLOB_ACTION_CHILDREN; i++) {
		pid_t pid = x->children[i];

		if (!pid)
			continue;
		if (waitpid(pid, NULL, options) == pid || errno == ECHILD)
			x->children[i] = 0;
		else
			running++;
	}
	return running;
}

int tlob_exec_tick(struct tlob_exec *x, uint64_t now)
{
	uint64_t due = UINT64_MAX;
	int running;

	if (!x)
		return -1;
	running = reap(x, WNOHANG);
	for (int i = 0; i < PENDING; i++) {
		struct pending *p = &x->pending[i];

		if (!p->used || p->held)
			continue;
		if (now - p->since >= TLOB_EXEC_WAIT_NS) {
			p->used = false;
			run(x, &p->r, NULL, NULL);
			running++;
		} else if (p->since + TLOB_EXEC_WAIT_NS < due) {
			due = p->since + TLOB_EXEC_WAIT_NS;
		}
	}
	/* Running children are reaped at least every 100 ms. */
	if (running && due > now + 100 * 1000000ULL)
		due = now + 100 * 1000000ULL;
	return due == UINT64_MAX ? -1 : tlob_ms_until(due, now);
}

void tlob_exec_finish(struct tlob_exec *x, int wait_ms)
{
	uint64_t end = tlob_now_ns() + (uint64_t)wait_ms * 1000000ULL;
	struct timespec ts = { 0, 10 * 1000000L };
	int running;

	if (!x)
		return;
	for (int i = 0; i < PENDING; i++)
		if (x->pending[i].used) {
			x->pending[i].used = false;
			run(x, &x->pending[i].r, NULL, NULL);
		}
	while ((running = reap(x, WNOHANG)) && tlob_now_ns() < end)
		nanosleep(&ts, NULL);
	if (running)
		fprintf(stderr, "tlob: %d on-violation command(s) still running, left to "
			"finish on their own\n", running);
	if (x->skipped)
		fprintf(stderr, "tlob: %lu on-violation command(s) skipped (%d were running)\n",
			x->skipped, TLOB_ACTION_CHILDREN);
}

void tlob_exec_free(struct tlob_exec *x)
{
	free(x);
}
