// SPDX-License-Identifier: GPL-2.0
/*
 * tlob-fuzz: hostile input for tlob.ko's control files.
 *
 * Writes generated lines (valid ones, mutations of valid ones, random
 * bytes, overlong fields, embedded NULs, writes in pieces, writes beyond
 * a page) to /sys/kernel/tlob/{monitor,enable,reactors}, from a fixed
 * seed, and holds the module to the control-tree contract
 * (kernel/shared/README.md) after EVERY write(2):
 *   - a write that fails changed nothing (all three files read back the
 *     same as before);
 *   - a write that succeeds changed exactly what it said: the monitor
 *     listing, enable and the current reactor are what a reference model
 *     of the grammar (tlob_parse.c's rules, kstrtoull/kstrtobool: both
 *     verbs, `p` sections and `a` alive checkpoints, each with its own
 *     keys) and of the table (same inode + START is a duplicate whatever
 *     the verbs, removal by path or inode, a removed binding re-added with
 *     the same terms in the same write kept, max_bindings) computes from
 *     the bytes the kernel consumed;
 *   - the model and the kernel agree on accept/refuse: an accepted write
 *     the model calls malformed, or a refused one it calls valid, is a
 *     failure too.
 * The model is deliberately independent of the kernel's code; a
 * disagreement prints the write (escaped) and both sides.
 *
 * usage: tlob-fuzz [-s SEED] [-n LINES] [-m MAX_BINDINGS] [-o FILE] DIR
 *   DIR holds the files bindings point at (made by the test script):
 *   t0..t3 (copies of a binary that is never run), data (a short text
 *   file), link (symlink to t0), dir (a directory).
 * Prints "fuzz: key=value ..." counts (accepted_alive/rejected_alive:
 * `a` lines in accepted writes, refused writes the model blames on an `a`
 * line) and exits 0 if nothing failed; -o FILE gets the model's final
 * monitor listing (the accepted set).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the control directory; TLOB_FUZZ_CTL overrides it (a dry run elsewhere) */
static const char *ctl = "/sys/kernel/tlob/";
#define PAGE 4096
#define TAG_LEN 16
#define BUDGET_MIN 1000ULL
#define BUDGET_MAX 3600000000000ULL
#define PERIOD_MIN 100000ULL		/* an `a` line's period=; its max is BUDGET_MAX */
#define EXPECT_MAX 1000000U		/* expect= and margin= */
#define TOL_MAX 64			/* tolerance=K/W: W at most */
#define LINE_MAX_K (PATH_MAX + 128)
#define MAXB 4096
#define WBUF (6 * PAGE)

enum { F_MONITOR, F_ENABLE, F_REACTORS };

/* What a line asks for besides PATH:START; both verbs' fields. */
struct terms {
	bool alive;			/* an `a` line (else `p`) */
	uint64_t stop;			/* p: STOP, or ret */
	bool ret;
	uint64_t budget, min;		/* p: threshold=, min= (0: none) */
	uint64_t period;		/* a: period=, expect=, margin=, per=task */
	uint32_t expect, margin;
	bool per_task;
	unsigned int tol_k, tol_w;	/* tolerance=K/W, 1/1 when not given */
	char tag[TAG_LEN];
	int filter;			/* 0 none, 1 pid, 2 tgid */
	uint32_t fid;
};

struct bind {
	char path[PATH_MAX + 1];
	uint64_t start;
	struct terms t;
	dev_t dev;
	ino_t ino;
};

/* The state the model believes the kernel is in. */
static struct bind model[MAXB];
static int nmodel;
static bool model_enabled;
static char model_reactor[16] = "nop";

static unsigned int max_bindings = 16;
static const char *dir;
static uint64_t rng;

/* counts */
static unsigned long lines, writes, accepted, rejected, fails;
/*
 * `a` lines: generated; in accepted writes (bindings made or kept); refused
 * writes whose first bad line (the model's) is an `a` line; alive bindings
 * removed by accepted writes. Refused writes the model blames on a duplicate
 * of a binding of the other verb; removed bindings re-added with the same
 * terms in the same write (the kernel keeps them).
 */
static unsigned long alive_lines, accepted_alive, rejected_alive, removed_alive;
static unsigned long eexist_cross, kept;
static unsigned long by_errno[256];
static unsigned long fail_changed, fail_accepted_bad, fail_refused_good, fail_state;
/* of fail_accepted_bad: writes with a NUL followed by more than blanks */
static unsigned long accepted_nul;
static unsigned long examples;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static bool chance(int percent) { return below(100) < (uint64_t)percent; }

/*
 * Set while a batch is generated: its lines are mostly valid (the table
 * must grow to max_bindings now and then: all or nothing), so the hostile
 * variants of the newer terms (bad min=/tolerance=, a key of the other
 * verb, an `a` line's bad, missing or repeated terms) come about a quarter
 * as often there.
 */
static bool tame;

/* chance(@percent), or a quarter of it in a batch */
static bool hostile(int percent) { return chance(tame ? (percent + 3) / 4 : percent); }

/* --- reading the kernel's state */

/* One descriptor per control file, kept open: pread() at 0 re-reads. */
static int rfd[3] = { -1, -1, -1 };
static int wfd[3] = { -1, -1, -1 };

static int ctl_open(int *fds, int file, int flags)
{
	static const char *const names[] = { "monitor", "enable", "reactors" };
	char path[PATH_MAX];

	if (fds[file] < 0) {
		snprintf(path, sizeof(path), "%s%s", ctl, names[file]);
		fds[file] = open(path, flags);
		if (fds[file] < 0) {
			perror(path);
			exit(2);
		}
	}
	return fds[file];
}

static int read_file(int file, char *buf, size_t size)
{
	int fd = ctl_open(rfd, file, O_RDONLY);
	size_t n = 0;
	ssize_t r;

	while (n < size - 1 && (r = pread(fd, buf + n, size - 1 - n, n)) > 0)
		n += r;
	buf[n] = '\0';
	return (int)n;
}

struct snap {
	char monitor[MAXB * 160];
	char enable[16];
	char reactors[128];
};

static struct snap before, after, want;

/* Re-read @file's state, or all three when @file < 0. */
static void snapshot(struct snap *s, int file)
{
	if (file < 0 || file == F_MONITOR)
		read_file(F_MONITOR, s->monitor, sizeof(s->monitor));
	if (file < 0 || file == F_ENABLE)
		read_file(F_ENABLE, s->enable, sizeof(s->enable));
	if (file < 0 || file == F_REACTORS)
		read_file(F_REACTORS, s->reactors, sizeof(s->reactors));
}

/* --- the model's view as the kernel would print it */

/*
 * The canonical line: the verb's own terms first (p: STOP threshold=
 * [min=]; a: period= expect= [margin=] [per=task]), then the common ones
 * ([tolerance=K/W] when W > 1, [tag=], [pid=|tgid=]); defaults not shown.
 */
static void print_bind(char **p, const struct bind *b)
{
	const struct terms *t = &b->t;

	*p += sprintf(*p, "%c %s:0x%" PRIx64, t->alive ? 'a' : 'p', b->path, b->start);
	if (t->alive) {
		*p += sprintf(*p, " period=%" PRIu64 " expect=%u", t->period, t->expect);
		if (t->margin)
			*p += sprintf(*p, " margin=%u", t->margin);
		if (t->per_task)
			*p += sprintf(*p, " per=task");
	} else {
		if (t->ret)
			*p += sprintf(*p, " ret");
		else
			*p += sprintf(*p, " 0x%" PRIx64, t->stop);
		*p += sprintf(*p, " threshold=%" PRIu64, t->budget);
		if (t->min)
			*p += sprintf(*p, " min=%" PRIu64, t->min);
	}
	if (t->tol_w > 1)
		*p += sprintf(*p, " tolerance=%u/%u", t->tol_k, t->tol_w);
	if (t->tag[0])
		*p += sprintf(*p, " tag=%s", t->tag);
	if (t->filter)
		*p += sprintf(*p, " %s=%u", t->filter == 1 ? "pid" : "tgid", t->fid);
	*p += sprintf(*p, "\n");
}

static const char *const reactor_names[] = { "nop", "printk", "panic", "signal" };

static void model_snap(struct snap *s, const struct bind *b, int n, bool en,
		       const char *reactor)
{
	char *p = s->monitor;
	unsigned int i;
	int k;

	*p = '\0';
	for (k = 0; k < n; k++)
		print_bind(&p, &b[k]);
	sprintf(s->enable, "%d\n", en);
	p = s->reactors;
	for (i = 0; i < 4; i++)
		p += sprintf(p, i == 0 ? "%s%s%s" : " %s%s%s",
			     strcmp(reactor, reactor_names[i]) ? "" : "[",
			     reactor_names[i],
			     strcmp(reactor, reactor_names[i]) ? "" : "]");
	sprintf(p, "\n");
}

static bool snap_eq(const struct snap *a, const struct snap *b)
{
	return !strcmp(a->monitor, b->monitor) && !strcmp(a->enable, b->enable) &&
	       !strcmp(a->reactors, b->reactors);
}

/* --- the reference grammar (kstrto* and tlob_parse.c's rules) */

static int digit_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

/* kstrtoull(): optional '+', base 0 = 0x/0/decimal, one trailing '\n' */
static int kstrtoull_ref(const char *s, unsigned int base, uint64_t *res)
{
	uint64_t v = 0;
	bool over = false;
	int n = 0, d;

	if (*s == '+')
		s++;
	if (base == 0 || base == 16) {
		if (s[0] == '0' && tolower(s[1]) == 'x' && isxdigit((unsigned char)s[2])) {
			s += 2;
			base = 16;
		} else if (base == 0) {
			base = s[0] == '0' ? 8 : 10;
		}
	}
	while ((d = digit_val((unsigned char)*s)) < (int)base) {
		if (v > (UINT64_MAX - d) / base)
			over = true;
		v = v * base + d;
		s++;
		n++;
	}
	if (!n)
		return -EINVAL;
	if (over)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static char *token(char **s)
{
	char *p = *s, *tok;

	while (blank(*p))
		p++;
	if (!*p) {
		*s = p;
		return NULL;
	}
	tok = p;
	while (*p && !blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return tok;
}

struct req {
	bool remove;
	char *path;
	uint64_t start;
	struct terms t;
};

static int offset_ref(const char *s, uint64_t *v)
{
	if (*s < '0' || *s > '9')
		return -EINVAL;
	if (kstrtoull_ref(s, 0, v) || *v > (uint64_t)LLONG_MAX)
		return -EINVAL;
	return 0;
}

/* PATH (absolute, no control byte, space or DEL) ':' an offset */
static int path_offset_ref(char *tok, struct req *r)
{
	char *colon = strrchr(tok, ':');

	if (!colon || tok[0] != '/' || colon - tok >= PATH_MAX)
		return -EINVAL;
	for (const char *c = tok; c < colon; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return -EINVAL;
	*colon = '\0';
	r->path = tok;
	return offset_ref(colon + 1, &r->start);
}

/*
 * A decimal u64, digits only (kstrtoull's one trailing newline cannot be
 * inside a line): -EINVAL unless it is one, -ERANGE when it overflows.
 */
static int decimal_ref(const char *v, uint64_t *x)
{
	if (*v < '0' || *v > '9')
		return -EINVAL;
	return kstrtoull_ref(v, 10, x);
}

/* kstrtou32(v, 10) as expect=/margin= use it: any failure is -EINVAL */
static int count_ref(const char *v, uint32_t *x)
{
	uint64_t u;

	if (decimal_ref(v, &u) || u > UINT32_MAX || u > EXPECT_MAX)
		return -EINVAL;
	*x = (uint32_t)u;
	return 0;
}

/* tolerance=K/W: two decimals, 1 <= K <= W <= 64 */
static int tolerance_ref(const char *v, struct terms *t)
{
	const char *slash = strchr(v, '/');
	static char k[LINE_MAX_K + 1];
	uint64_t kv, wv;
	int rk, rw;

	if (!slash || *v < '0' || *v > '9' || slash[1] < '0' || slash[1] > '9')
		return -EINVAL;
	memcpy(k, v, slash - v);
	k[slash - v] = '\0';
	rk = kstrtoull_ref(k, 10, &kv);
	rw = kstrtoull_ref(slash + 1, 10, &wv);
	if (rk == -EINVAL || rw == -EINVAL)
		return -EINVAL;
	if (rk || rw || kv > UINT32_MAX || wv > UINT32_MAX || !kv || kv > wv || wv > TOL_MAX)
		return -ERANGE;
	t->tol_k = (unsigned int)kv;
	t->tol_w = (unsigned int)wv;
	return 0;
}

/* The keys, and the verbs that take each: any other key, or one twice, is -EINVAL. */
enum { VP = 1, VA = 2 };
enum { K_THRESHOLD, K_MIN, K_PERIOD, K_EXPECT, K_MARGIN, K_PER, K_TOLERANCE, K_TAG,
	K_PID, K_TGID, NKEYS };
static const struct {
	const char *name;
	unsigned int verbs;
} keys[NKEYS] = {
	[K_THRESHOLD] = { "threshold", VP },
	[K_MIN] = { "min", VP },
	[K_PERIOD] = { "period", VA },
	[K_EXPECT] = { "expect", VA },
	[K_MARGIN] = { "margin", VA },
	[K_PER] = { "per", VA },
	[K_TOLERANCE] = { "tolerance", VP | VA },
	[K_TAG] = { "tag", VP | VA },
	[K_PID] = { "pid", VP | VA },
	[K_TGID] = { "tgid", VP | VA },
};

static int option_ref(char *tok, struct terms *t, unsigned int *seen)
{
	char *v = strchr(tok, '=');
	unsigned int k;
	uint64_t x;
	size_t i, len;
	int ret;

	if (!v)
		return -EINVAL;		/* a bare token: no STOP on an `a` line either */
	*v++ = '\0';
	for (k = 0; k < NKEYS; k++)
		if (!strcmp(tok, keys[k].name))
			break;
	if (k == NKEYS || !(keys[k].verbs & (t->alive ? VA : VP)) || (*seen & (1u << k)))
		return -EINVAL;
	*seen |= 1u << k;
	switch (k) {
	case K_THRESHOLD:
		if ((ret = decimal_ref(v, &x)))
			return ret;
		if (x < BUDGET_MIN || x > BUDGET_MAX)
			return -ERANGE;
		t->budget = x;
		return 0;
	case K_MIN:
		if ((ret = decimal_ref(v, &x)))
			return ret;
		if (!x)
			return -ERANGE;
		t->min = x;
		return 0;
	case K_PERIOD:
		if ((ret = decimal_ref(v, &x)))
			return ret;
		if (x < PERIOD_MIN || x > BUDGET_MAX)
			return -ERANGE;
		t->period = x;
		return 0;
	case K_EXPECT:
		if (count_ref(v, &t->expect) || !t->expect)
			return -EINVAL;
		return 0;
	case K_MARGIN:
		return count_ref(v, &t->margin);
	case K_PER:
		if (!strcmp(v, "task"))
			t->per_task = true;
		else if (strcmp(v, "process"))
			return -EINVAL;
		return 0;
	case K_TOLERANCE:
		return tolerance_ref(v, t);
	case K_TAG:
		len = strlen(v);
		if (!len || len >= TAG_LEN)
			return -EINVAL;
		for (i = 0; i < len; i++)
			if (!isalnum((unsigned char)v[i]) && v[i] != '_' &&
			    v[i] != '-' && v[i] != '.')
				return -EINVAL;
		memcpy(t->tag, v, len + 1);
		return 0;
	default:		/* pid=, tgid=: one filter, 1..INT_MAX */
		if (t->filter || *v < '0' || *v > '9' ||
		    kstrtoull_ref(v, 10, &x) || !x || x > INT_MAX)
			return -EINVAL;
		t->filter = k == K_PID ? 1 : 2;
		t->fid = (uint32_t)x;
		return 0;
	}
}

/* 1: blank line; 0: parsed into @r; <0: malformed */
static int parse_ref(char *line, struct req *r)
{
	char *rest = line, *tok;
	unsigned int seen = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	if (strlen(line) > LINE_MAX_K)
		return -EINVAL;
	tok = token(&rest);
	if (!tok)
		return 1;
	if (tok[0] == '-') {
		r->remove = true;
		if (path_offset_ref(tok + 1, r) || token(&rest))
			return -EINVAL;
		return 0;
	}
	if (!strcmp(tok, "a"))
		r->t.alive = true;
	else if (strcmp(tok, "p"))
		return -EINVAL;
	tok = token(&rest);
	if (!tok || path_offset_ref(tok, r))
		return -EINVAL;
	if (!r->t.alive) {
		/* STOP: an offset other than START, or ret; never KEY=VALUE */
		tok = token(&rest);
		if (!tok || strchr(tok, '='))
			return -EINVAL;
		if (!strcmp(tok, "ret"))
			r->t.ret = true;
		else if (offset_ref(tok, &r->t.stop) || r->t.stop == r->start)
			return -EINVAL;
	}
	while ((tok = token(&rest)))
		if ((ret = option_ref(tok, &r->t, &seen)))
			return ret;
	if (!(seen & (1u << K_TOLERANCE)))
		r->t.tol_k = r->t.tol_w = 1;
	if (r->t.alive) {
		if (!(seen & (1u << K_PERIOD)) || !(seen & (1u << K_EXPECT)) ||
		    r->t.margin > r->t.expect)
			return -EINVAL;
		return 0;
	}
	if (!(seen & (1u << K_THRESHOLD)))
		return -EINVAL;
	if (r->t.min >= r->t.budget)
		return -ERANGE;
	return 0;
}

/* The kernel's "same terms": a removed binding re-added with them is kept. */
static bool same_terms(const struct terms *a, const struct terms *b)
{
	return a->alive == b->alive && a->ret == b->ret && (a->ret || a->stop == b->stop) &&
	       a->budget == b->budget && a->min == b->min && a->period == b->period &&
	       a->expect == b->expect && a->margin == b->margin &&
	       a->per_task == b->per_task && a->tol_k == b->tol_k && a->tol_w == b->tol_w &&
	       !strcmp(a->tag, b->tag) && a->filter == b->filter && a->fid == b->fid;
}

/* What the model saw in the last monitor write it judged. */
static struct {
	bool blame_alive;	/* refused: the first bad line is an `a` line */
	bool cross;		/* refused: a duplicate of a binding of the other verb */
	int adds_alive;		/* accepted: `a` lines */
	int removed_alive;	/* accepted: alive bindings removed */
	int kept;		/* accepted: removed and re-added with the same terms */
} judged;

/* Whether @line's verb is `a` (before parse_ref() cuts it up). */
static bool alive_verb(const char *line)
{
	while (blank(*line))
		line++;
	return line[0] == 'a' && (!line[1] || blank(line[1]));
}

/* Two bindings on the same section: the same file (inode) and START. */
static bool same_section(const struct bind *a, const struct bind *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->start == b->start;
}

/*
 * The model's verdict on a monitor write of the @n bytes the kernel got:
 * 0 and the new table in @nb/@nn, or the errno it expects.
 *
 * All or nothing, in the kernel's order: every line parsed and its file
 * checked (a regular file holding START, and STOP for `p`); then each line
 * against the table and the lines before it: a removal takes the binding
 * it names (by path or by inode, at START, whatever its verb), -ENOENT if
 * none is left; an add on a section the table still holds or an earlier
 * line adds is -EEXIST whatever the verbs; an add with the same terms as
 * a binding removed earlier in the write keeps that binding (its path as
 * first written), listed last; max_bindings (-ENOSPC); last, the uprobes
 * of new bindings are registered when enabled (procfs: -EIO).
 */
static int model_monitor(const char *data, size_t n, struct bind *nb, int *nn)
{
	static char copy[PAGE + 1];
	static struct req reqs[WBUF];
	static struct bind adds[WBUF];
	static int del[WBUF];
	char *line, *next;
	const char *nul;
	int nreq = 0, i, j, k, count, ret;
	struct stat st;

	memset(&judged, 0, sizeof(judged));
	if (n == PAGE && data[n - 1] != '\n')
		return -EINVAL;
	/*
	 * Trailing NULs are ignored (a C string written with its
	 * terminator); any other NUL makes the whole write -EINVAL, since
	 * what follows it would otherwise be dropped silently.
	 */
	while (n && !data[n - 1])
		n--;
	nul = memchr(data, '\0', n);
	if (nul)
		return -EINVAL;
	memcpy(copy, data, n);
	copy[n] = '\0';
	for (line = copy; line; line = next) {
		struct req *r = &reqs[nreq];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		judged.blame_alive = alive_verb(line);
		ret = parse_ref(line, r);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		if (!r->remove) {
			struct bind *b = &adds[nreq];

			if (stat(r->path, &st))
				return -errno;
			if (!S_ISREG(st.st_mode) || r->start >= (uint64_t)st.st_size ||
			    (!r->t.alive && !r->t.ret && r->t.stop >= (uint64_t)st.st_size))
				return -EINVAL;
			memset(b, 0, sizeof(*b));
			snprintf(b->path, sizeof(b->path), "%s", r->path);
			b->start = r->start;
			b->t = r->t;
			b->dev = st.st_dev;
			b->ino = st.st_ino;
		}
		nreq++;
	}
	/* the table checks, in order (tlob_check) */
	count = nmodel;
	for (i = 0; i < nreq; i++) {
		judged.blame_alive = !reqs[i].remove && reqs[i].t.alive;
		del[i] = -1;
		if (reqs[i].remove) {
			bool have = !stat(reqs[i].path, &st);

			for (k = 0; k < nmodel; k++) {
				bool taken = false;

				if (model[k].start != reqs[i].start ||
				    !((have && model[k].dev == st.st_dev && model[k].ino == st.st_ino) ||
				      !strcmp(model[k].path, reqs[i].path)))
					continue;
				for (j = 0; j < i; j++)
					if (del[j] == k)
						taken = true;
				if (!taken)
					break;
			}
			if (k == nmodel)
				return -ENOENT;
			del[i] = k;
			count--;
			continue;
		}
		for (k = 0; k < nmodel; k++) {
			bool taken = false;

			for (j = 0; j < i; j++)
				if (del[j] == k)
					taken = true;
			if (!taken && same_section(&model[k], &adds[i])) {
				judged.cross = model[k].t.alive != adds[i].t.alive;
				return -EEXIST;
			}
		}
		for (j = 0; j < i; j++)
			if (!reqs[j].remove && same_section(&adds[j], &adds[i])) {
				judged.cross = adds[j].t.alive != adds[i].t.alive;
				return -EEXIST;
			}
		if ((unsigned int)count >= max_bindings)
			return -ENOSPC;
		count++;
		/* removed above with the same terms: the kernel keeps that one */
		for (j = 0; j < i; j++)
			if (del[j] >= 0 && same_section(&model[del[j]], &adds[i]) &&
			    same_terms(&model[del[j]].t, &adds[i].t)) {
				adds[i] = model[del[j]];
				judged.kept++;
				break;
			}
	}
	/* procfs cannot give uprobes its pages: registering fails (enabled) */
	for (i = 0; i < nreq; i++)
		if (!reqs[i].remove && !strncmp(adds[i].path, "/proc/", 6) && model_enabled) {
			judged.blame_alive = reqs[i].t.alive;
			return -EIO;
		}
	judged.blame_alive = false;
	*nn = 0;
	for (k = 0; k < nmodel; k++) {
		bool gone = false;

		for (i = 0; i < nreq; i++)
			if (del[i] == k)
				gone = true;
		if (!gone)
			nb[(*nn)++] = model[k];
		else
			judged.removed_alive += model[k].t.alive;
	}
	for (i = 0; i < nreq; i++)
		if (!reqs[i].remove) {
			nb[(*nn)++] = adds[i];
			judged.adds_alive += adds[i].t.alive;
		}
	return 0;
}

static int model_enable(const char *data, size_t n, bool *on)
{
	if (n > PAGE)
		return -E2BIG;
	if (!n)
		return 1;
	switch (data[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*on = true;
		break;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*on = false;
		break;
	case 'o': case 'O':
		if (n > 1 && (data[1] == 'n' || data[1] == 'N'))
			*on = true;
		else if (n > 1 && (data[1] == 'f' || data[1] == 'F'))
			*on = false;
		else
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	/* enabling registers every binding's uprobes: procfs ones fail */
	if (*on && !model_enabled)
		for (int k = 0; k < nmodel; k++)
			if (!strncmp(model[k].path, "/proc/", 6))
				return -EIO;
	return 0;
}

/* the kernel's isspace(): its ctype table counts 0xa0 (NBSP) too */
static bool kspace(char c)
{
	return isspace((unsigned char)c) || (unsigned char)c == 0xa0;
}

static int model_reactors(const char *data, size_t n, char *name)
{
	char buf[32], *s, *e;
	size_t len;
	uint64_t v;
	int i;

	if (n > PAGE)
		return -E2BIG;
	if (n >= 16)
		return -EINVAL;
	if (!n)
		return 1;
	memcpy(buf, data, n);
	buf[n] = '\0';
	s = buf;
	while (kspace(*s))
		s++;
	e = s + strlen(s);
	while (e > s && kspace(e[-1]))
		*--e = '\0';
	len = strcspn(s, ":");
	for (i = 0; i < 4; i++)
		if (len == strlen(reactor_names[i]) && !strncmp(s, reactor_names[i], len))
			break;
	if (i == 4)
		return -EINVAL;
	if (s[len]) {
		const char *num = s + len + 1;
		bool neg = *num == '-';

		if (i != 3)
			return -EINVAL;
		/* kstrtoint(): '-' is a negative, never a signal */
		if (neg)
			return -EINVAL;
		/* valid_signal(): 1.._NSIG (64 on x86, SIGRTMAX) */
		if (kstrtoull_ref(num, 10, &v) || v == 0 || v > 64)
			return -EINVAL;
	}
	strcpy(name, reactor_names[i]);
	return 0;
}

/* --- generating input */

static char targets[12][PATH_MAX];
static off_t target_size[12];
static dev_t target_dev[12];
static ino_t target_ino[12];
static int ntargets;

static void add_target(const char *fmt, ...)
{
	va_list ap;
	struct stat st;

	va_start(ap, fmt);
	vsnprintf(targets[ntargets], PATH_MAX, fmt, ap);
	va_end(ap);
	target_size[ntargets] = stat(targets[ntargets], &st) ? 4096 : st.st_size;
	if (target_size[ntargets] <= 0)
		target_size[ntargets] = 4096;
	if (!stat(targets[ntargets], &st)) {
		target_dev[ntargets] = st.st_dev;
		target_ino[ntargets] = st.st_ino;
	}
	ntargets++;
}

static const char *pick_path(int *t)
{
	*t = (int)below(ntargets);
	return targets[*t];
}

static void gen_offset(char **p, uint64_t v)
{
	switch (below(8)) {
	case 0:
		*p += sprintf(*p, "%" PRIu64, v);
		break;
	case 1:
		*p += sprintf(*p, "0%" PRIo64, v);
		break;
	case 2:
		*p += sprintf(*p, "0X%" PRIX64, v);
		break;
	default:
		*p += sprintf(*p, "0x%" PRIx64, v);
	}
}

static uint64_t gen_in(int t)
{
	switch (below(10)) {
	case 0:
		return target_size[t] + below(64);	/* at or past the end */
	case 1:
		return rnd();				/* anything */
	default:
		return below(target_size[t]);
	}
}

/*
 * A name of @b's file: its own path, or (@other% of the time, if there is
 * one) another that names the same inode; *@t a target of that file.
 */
static const char *alias_of(const struct bind *b, int *t, int other)
{
	int cand[12], n = 0, i;

	*t = 0;
	for (i = 0; i < ntargets; i++) {
		if (!target_ino[i] || target_dev[i] != b->dev || target_ino[i] != b->ino)
			continue;
		*t = i;
		if (strcmp(targets[i], b->path))
			cand[n++] = i;
	}
	if (!n || !chance(other))
		return b->path;
	*t = cand[below(n)];
	return targets[*t];
}

/*
 * Set for a duplicate: the next add names a section the table holds (by
 * its path or another name of its file), so that -EEXIST is met within a
 * verb and across `p` and `a`.
 */
static bool want_dup;

/* PATH and START of an add: a target and an offset in (or past) it, or a duplicate */
static const char *pick_section(int *t, uint64_t *start)
{
	const char *path;

	if (nmodel && want_dup) {
		const struct bind *b = &model[below(nmodel)];

		path = alias_of(b, t, 50);
		*start = b->start;
		return path;
	}
	path = pick_path(t);
	*start = gen_in(*t);
	return path;
}

static void gen_tag(char **p)
{
	static const char cs[] = "abcXYZ019_-.";
	int n = 1 + (int)below(chance(90) ? 15 : 20), i;

	*p += sprintf(*p, " tag=");
	for (i = 0; i < n; i++)
		*(*p)++ = cs[below(sizeof(cs) - 1)];
	**p = '\0';
}

static void gen_filter(char **p)
{
	*p += sprintf(*p, " %s=%" PRIu64, chance(50) ? "pid" : "tgid",
		      chance(90) ? 1 + below(100000) : rnd() >> below(64));
}

/* tolerance=K/W's value: mostly 1 <= K <= W <= 64 */
static void gen_tolerance(char *v)
{
	static const char *const bad[] = { "0/1", "2/1", "1/65", "65/65", "1", "/2", "1/",
		"a/b", "1/2/3", "1/0x2", "+1/2", "4294967297/5", "1/18446744073709551616", "" };
	unsigned int w;

	if (hostile(15)) {
		strcpy(v, bad[below(sizeof(bad) / sizeof(bad[0]))]);
		return;
	}
	w = 1 + (unsigned int)below(TOL_MAX);
	sprintf(v, "%u/%u", 1 + (unsigned int)below(w), w);
}

/* A `p` line: PATH:START STOP threshold= [min=] [tolerance=] [tag=] [pid=|tgid=] */
static void gen_section(char *p)
{
	int t;
	uint64_t start, budget;
	const char *path = pick_section(&t, &start);
	char v[64];

	p += sprintf(p, "p %s:", path);
	gen_offset(&p, start);
	p += sprintf(p, " ");
	if (chance(15))
		p += sprintf(p, "ret");
	else
		gen_offset(&p, chance(3) ? start : gen_in(t));
	budget = chance(90) ? BUDGET_MIN + below(BUDGET_MAX - BUDGET_MIN + 1) :
		 (chance(50) ? below(BUDGET_MIN + 1) : BUDGET_MAX + below(100));
	p += sprintf(p, " threshold=%" PRIu64, budget);
	if (chance(8))		/* min=: mostly below the threshold, not 0 */
		p += sprintf(p, " min=%" PRIu64, !hostile(15) && budget > 1 ? 1 + below(budget - 1) :
			     chance(50) ? 0 : budget + below(2));
	if (chance(8)) {
		gen_tolerance(v);
		p += sprintf(p, " tolerance=%s", v);
	}
	if (chance(40))
		gen_tag(&p);
	if (chance(20))
		gen_filter(&p);
	if (hostile(2)) {	/* a key of the other verb */
		static const char *const k[] = { " period=1000000", " expect=1", " margin=0",
			" per=task", " per=process" };

		p += sprintf(p, "%s", k[below(sizeof(k) / sizeof(k[0]))]);
	}
}

/* period=: mostly 100 us .. 1 h; edges; hostile */
static void gen_period(char *v)
{
	static const char *const bad[] = { "0", "99999", "3600000000001", "18446744073709551615",
		"18446744073709551616", "99999999999999999999999", "1e6", "0x186a0", "+100000",
		"", "-1", "100000x", "100000.0", "1000000 " };

	if (hostile(5)) {
		strcpy(v, bad[below(sizeof(bad) / sizeof(bad[0]))]);
		return;
	}
	switch (below(20)) {
	case 0: case 1:		/* the edges, and a step past them */
		if (hostile(25))
			strcpy(v, chance(50) ? "99999" : "3600000000001");
		else
			strcpy(v, chance(50) ? "100000" : "3600000000000");
		break;
	case 2: case 3: case 4: case 5: case 6: case 7:
		sprintf(v, "%" PRIu64, (uint64_t)(PERIOD_MIN + below(BUDGET_MAX - PERIOD_MIN + 1)));
		break;
	default:
		sprintf(v, "%" PRIu64, (uint64_t)(PERIOD_MIN + below(1000000000ULL)));
	}
}

/* expect=: mostly 1..100, up to 1000000; edges; hostile. Returns the count, 0 if none. */
static uint32_t gen_expect(char *v)
{
	static const char *const bad[] = { "0", "1000001", "4294967295", "4294967296",
		"18446744073709551616", "x", "", "-1", "0x10", "+1", "1.5", "00" };
	uint32_t e;

	if (hostile(5)) {
		strcpy(v, bad[below(sizeof(bad) / sizeof(bad[0]))]);
		return 0;
	}
	switch (below(20)) {
	case 0: case 1:		/* the edges, and a step past them */
		if (hostile(25)) {
			strcpy(v, chance(50) ? "0" : "1000001");
			return 0;
		}
		e = chance(50) ? 1 : EXPECT_MAX;
		break;
	case 2:
		strcpy(v, "007");	/* decimal, leading zeros: listed as 7 */
		return 7;
	case 3: case 4:
		e = 1 + (uint32_t)below(EXPECT_MAX);
		break;
	default:
		e = 1 + (uint32_t)below(100);
	}
	sprintf(v, "%u", e);
	return e;
}

/* margin=: mostly 0..expect; above it; hostile */
static void gen_margin(char *v, uint32_t expect)
{
	static const char *const bad[] = { "1000001", "x", "", "-1", "4294967296", "0x1", "+0" };

	if (hostile(10)) {
		if (chance(50))
			strcpy(v, bad[below(sizeof(bad) / sizeof(bad[0]))]);
		else
			sprintf(v, "%u", expect + 1);
		return;
	}
	switch (below(20)) {
	case 0: case 1:
		sprintf(v, "%" PRIu64, below(expect < 10 ? (uint64_t)expect + 1 : 10));
		break;
	case 2:
		strcpy(v, "0");
		break;
	case 3:
		sprintf(v, "%u", expect);
		break;
	default:
		sprintf(v, "%" PRIu64, below((uint64_t)expect + 1));
	}
}

/*
 * An `a` line: PATH:CHECKPOINT period= expect= [margin=] [per=] [tolerance=]
 * [tag=] [pid=|tgid=], in that order or shuffled; now and then without
 * period= or expect=, with a STOP, with a `p` key, or with a key twice.
 */
static void gen_alive(char *p)
{
	static const char *const pers[] = { "thread", "Task", "", "tasks", "process,task",
		"PROCESS", "task\v" };
	char opt[12][96], v[64], *o;
	int nopt = 0, t, i;
	uint64_t start;
	uint32_t expect = 0;
	const char *path = pick_section(&t, &start);

	alive_lines++;
	p += sprintf(p, "a %s:", path);
	gen_offset(&p, start);
	if (hostile(4)) {	/* a STOP: `a` lines have none */
		p += sprintf(p, " ");
		if (chance(50))
			p += sprintf(p, "ret");
		else
			gen_offset(&p, gen_in(t));
	}
	if (!hostile(4)) {
		gen_period(v);
		sprintf(opt[nopt++], "period=%s", v);
	}
	if (!hostile(4)) {
		expect = gen_expect(v);
		sprintf(opt[nopt++], "expect=%s", v);
	}
	if (chance(45)) {
		gen_margin(v, expect ? expect : (uint32_t)below(10));
		sprintf(opt[nopt++], "margin=%s", v);
	}
	if (chance(40))
		sprintf(opt[nopt++], "per=%s", !hostile(10) ? (chance(50) ? "process" : "task") :
			pers[below(sizeof(pers) / sizeof(pers[0]))]);
	if (chance(12)) {
		gen_tolerance(v);
		sprintf(opt[nopt++], "tolerance=%s", v);
	}
	if (chance(30)) {
		o = opt[nopt];
		gen_tag(&o);
		memmove(opt[nopt], opt[nopt] + 1, strlen(opt[nopt]));	/* no blank */
		nopt++;
	}
	if (chance(15)) {
		o = opt[nopt];
		gen_filter(&o);
		memmove(opt[nopt], opt[nopt] + 1, strlen(opt[nopt]));
		nopt++;
	}
	if (hostile(4)) {	/* a key of the other verb, or none at all */
		static const char *const k[] = { "threshold=1000000", "min=1000", "stop=0x10",
			"ret=1" };

		strcpy(opt[nopt++], k[below(sizeof(k) / sizeof(k[0]))]);
	}
	if (nopt && hostile(3)) {	/* a key twice */
		strcpy(opt[nopt], opt[below(nopt)]);
		nopt++;
	}
	if (chance(30))		/* any order */
		for (i = nopt - 1; i > 0; i--) {
			int j = (int)below(i + 1);
			char tmp[96];

			memcpy(tmp, opt[i], sizeof(tmp));
			memcpy(opt[i], opt[j], sizeof(tmp));
			memcpy(opt[j], tmp, sizeof(tmp));
		}
	for (i = 0; i < nopt; i++)
		p += sprintf(p, " %s", opt[i]);
}

/* An add: about a third of them `a` lines */
static void gen_add(char *p)
{
	if (chance(35))
		gen_alive(p);
	else
		gen_section(p);
}

static void gen_remove(char *p)
{
	if (nmodel && chance(75)) {
		const struct bind *b = &model[below(nmodel)];

		p += sprintf(p, "-%s:", b->path);
		gen_offset(&p, b->start);
		return;
	}
	int t;
	const char *path = pick_path(&t);

	p += sprintf(p, "-%s:", path);
	gen_offset(&p, gen_in(t));
}

/* Mutate the string in @s (NUL-terminated, room for WBUF). */
static void mutate(char *s)
{
	size_t len = strlen(s), at = below(len + 1);
	int n;

	switch (below(12)) {
	case 0:		/* flip a byte */
		if (len)
			s[below(len)] ^= (char)(1 << below(8));
		break;
	case 1:		/* insert a random byte */
		memmove(s + at + 1, s + at, len - at + 1);
		s[at] = (char)(1 + below(255));
		break;
	case 2:		/* delete a byte */
		if (at < len)
			memmove(s + at, s + at + 1, len - at);
		break;
	case 3:		/* truncate */
		s[at] = '\0';
		break;
	case 4:		/* a long run of digits */
		n = 1 + (int)below(40);
		memmove(s + at + n, s + at, len - at + 1);
		memset(s + at, "09f"[below(3)], n);
		break;
	case 5:		/* duplicate a token */
	case 6: {
		char *sp = strchr(s, ' ');

		if (sp && len + (sp - s) + 2 < WBUF / 2) {
			char tmp[WBUF];

			snprintf(tmp, sizeof(tmp), "%s %.*s", s, (int)(sp - s), s);
			strcpy(s, tmp);
		}
		break;
	}
	case 7:		/* a blank becomes a tab, CR or two spaces */
		for (size_t i = 0; i < len; i++)
			if (s[i] == ' ' && chance(50)) {
				s[i] = "\t\r "[below(3)];
				break;
			}
		break;
	case 8:		/* a known key or value */
	case 9: {
		static const char *const bits[] = {
			" threshold=", " tag=", " pid=", " tgid=", "=", ":", "ret",
			" threshold=1000", " pid=0", " pid=2147483648", " tgid=-1",
			"18446744073709551616", "9223372036854775808", "0x", "-", "p ",
			"/", "//", "/../", " foo=bar", "+1",
			" period=", " expect=", " margin=", " per=", " per=task", " min=",
			" tolerance=", " tolerance=2/3", "a ", " expect=0", " period=99999",
			" margin=1000001", " period=100000 expect=1",
		};
		const char *b = bits[below(sizeof(bits) / sizeof(bits[0]))];
		size_t bl = strlen(b);

		memmove(s + at + bl, s + at, len - at + 1);
		memcpy(s + at, b, bl);
		break;
	}
	case 10:	/* case change */
		if (len)
			s[below(len)] ^= 0x20;
		break;
	default:	/* swap two bytes */
		if (len > 1) {
			size_t a = below(len), b = below(len);
			char c = s[a];

			s[a] = s[b];
			s[b] = c;
		}
	}
}

static size_t gen_random(char *p)
{
	size_t n = 1 + below(chance(90) ? 80 : 600), i;

	for (i = 0; i < n; i++) {
		p[i] = (char)below(256);
		if (p[i] == '\n')
			p[i] = ' ';
	}
	return n;
}

/*
 * One monitor write into @buf; returns its length. Half are one line of
 * any kind; half are batches of 2..12 lines, mostly valid (so that
 * all-or-nothing batches are accepted often enough to grow and shrink
 * the table), with a mutation here and there.
 */
static size_t gen_monitor(char *buf)
{
	char line[WBUF];
	size_t n = 0, l;
	bool batch = chance(50);
	int k = batch ? 2 + (int)below(11) : 1, i;

	tame = batch;
	for (i = 0; i < k; i++) {
		unsigned int kind = below(100);

		line[0] = '\0';
		if (batch)
			kind = kind < 90 ? (kind < 60 ? 0 : 40) : 60;
		if (kind < 35 && batch && nmodel && chance(5)) {
			/*
			 * A binding removed and its canonical line written
			 * back (by another name of its file half the time):
			 * the kernel keeps the binding, with its first path;
			 * with one term changed it is a new one, with the
			 * path written.
			 */
			int m = (int)below(nmodel), t;
			struct bind c = model[m];
			char *q = line;

			q += sprintf(q, "-%s:", c.path);
			gen_offset(&q, c.start);
			*q++ = '\n';
			snprintf(c.path, sizeof(c.path), "%s", alias_of(&model[m], &t, 50));
			if (chance(25)) {
				if (c.t.alive)
					c.t.per_task = !c.t.per_task;
				else
					c.t.budget = c.t.budget < BUDGET_MAX ? c.t.budget + 1 :
						     c.t.budget - 1;
			}
			print_bind(&q, &c);
			*--q = '\0';
			lines++;
			alive_lines += c.t.alive;
		} else if (kind < 35) {
			want_dup = batch && chance(2);
			gen_add(line);
			want_dup = false;
		} else if (kind < 55) {
			gen_remove(line);
		} else if (kind < 60 && !batch) {	/* a section bound already */
			want_dup = true;
			gen_add(line);
			want_dup = false;
		} else if (kind < 90) {
			if (chance(70))
				gen_add(line);
			else
				gen_remove(line);
			mutate(line);
			if (chance(30))
				mutate(line);
		} else if (kind < 95) {
			l = gen_random(line);
			line[l] = '\0';
			memcpy(buf + n, line, l);
			n += l;
			goto sep;
		} else {	/* overlong path */
			int t;
			size_t pl = 200 + below(PATH_MAX + 200);
			bool alive = chance(35);

			n += snprintf(buf + n, PATH_MAX + 3, "%c %s", alive ? 'a' : 'p',
				      pick_path(&t));
			memset(buf + n, chance(50) ? '/' : 'a', pl);
			n += pl;
			n += sprintf(buf + n, alive ? ":16 period=1000000 expect=1" :
				     ":16 32 threshold=1000000");
			alive_lines += alive;
			goto sep;
		}
		l = strlen(line);
		memcpy(buf + n, line, l);
		n += l;
sep:
		lines++;
		if (n > 2 * PAGE)
			break;
		if (i < k - 1 || chance(90)) {
			if (chance(3))
				buf[n++] = '\r';
			buf[n++] = '\n';
			if (chance(3))
				buf[n++] = '\n';
		}
	}
	tame = false;
	if (chance(3) && n) {	/* embedded NUL */
		size_t at = below(n);

		memmove(buf + at + 1, buf + at, n - at);
		buf[at] = '\0';
		n++;
	}
	return n;
}

static size_t gen_enable(char *buf)
{
	static const char *const v[] = { "0\n", "1\n", "0", "1", "y", "n", "on", "off",
		"Yes", "true", "FALSE", "2", "-1", "", " 1", "o", "1\0garbage", "onx" };
	unsigned int i = below(sizeof(v) / sizeof(v[0]));
	size_t n = i == 16 ? 9 : strlen(v[i]);

	lines++;
	memcpy(buf, v[i], n);
	if (chance(20)) {
		buf[n] = '\0';
		mutate(buf);
		n = strlen(buf);
	}
	return n;
}

static size_t gen_reactors(char *buf)
{
	/* no "panic": it would be harmless without windows, but why risk it */
	static const char *const v[] = { "nop", "printk", "signal", "signal:9", "signal:0",
		"signal:65", "signal:64", "signal:-1", "signal:+5", "nop\n", " printk ",
		"signal:", "nopx", "print", "", "signal:99999999999", "nop:1" };
	size_t n;

	lines++;
	strcpy(buf, v[below(sizeof(v) / sizeof(v[0]))]);
	if (chance(25))
		mutate(buf);
	n = strlen(buf);
	if (strstr(buf, "panic"))	/* a mutation may not make it either */
		buf[0] = 'x';
	return n;
}

/* --- writing and checking */

static void escape(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && i < 300; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
	if (n > 300)
		fprintf(f, "...(%zu bytes)", n);
}

static void fail(unsigned long *cls, const char *what, int file, const char *data,
		 size_t n, ssize_t ret, int err, int mret)
{
	static const char *const fname[] = { "monitor", "enable", "reactors" };

	(*cls)++;
	fails++;
	if (examples++ >= 12)
		return;
	printf("# FAIL %s: write to %s of %zu bytes returned %zd (%s), model %d\n#   data: \"",
	       what, fname[file], n, ret, ret < 0 ? strerror(err) : "ok", mret);
	escape(stdout, data, n);
	printf("\"\n#   kernel monitor: \"");
	escape(stdout, after.monitor, strlen(after.monitor));
	printf("\"\n#   model  monitor: \"");
	escape(stdout, want.monitor, strlen(want.monitor));
	printf("\"\n#   enable/reactors kernel: \"");
	escape(stdout, after.enable, strlen(after.enable));
	escape(stdout, after.reactors, strlen(after.reactors));
	printf("\" model: \"");
	escape(stdout, want.enable, strlen(want.enable));
	escape(stdout, want.reactors, strlen(want.reactors));
	printf("\"\n");
}

/* Re-read the model from the kernel (after a disagreement). */
static void resync(void)
{
	char *line, *save = NULL;
	char buf[sizeof(after.monitor)];
	struct req r;
	struct stat st;

	strcpy(buf, after.monitor);
	nmodel = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct bind *b = &model[nmodel];

		if (parse_ref(line, &r))
			continue;
		memset(b, 0, sizeof(*b));
		snprintf(b->path, sizeof(b->path), "%s", r.path);
		b->start = r.start;
		b->t = r.t;
		if (!stat(b->path, &st)) {
			b->dev = st.st_dev;
			b->ino = st.st_ino;
		}
		nmodel++;
	}
	model_enabled = after.enable[0] == '1';
	{
		char *o = strchr(after.reactors, '['), *c = o ? strchr(o, ']') : NULL;

		if (o && c && c - o - 1 < 16) {
			memcpy(model_reactor, o + 1, c - o - 1);
			model_reactor[c - o - 1] = '\0';
		}
	}
}

static struct bind nb[MAXB];

/* One write(2) of @n bytes of @data to @fd (@file), checked. */
static void checked_write(int fd, int file, const char *data, size_t n)
{
	ssize_t ret;
	int err, mret = 0, nn = 0;
	size_t eff;
	bool on = model_enabled;
	char reactor[16];

	strcpy(reactor, model_reactor);
	writes++;
	ret = write(fd, data, n);
	err = errno;
	/*
	 * The file written is re-read after every write; all three every
	 * 32 writes and after every failure (a write may only change its
	 * own file).
	 */
	after = before;
	snapshot(&after, ret < 0 || writes % 32 == 0 ? -1 : file);
	if (ret < 0) {
		rejected++;
		by_errno[err & 255]++;
		if (!snap_eq(&after, &before)) {
			want = before;
			fail(&fail_changed, "a failed write changed the state", file, data, n, ret, err, 0);
			resync();
		}
		/* did the model expect it to pass? */
		eff = file == F_MONITOR && n > PAGE ? PAGE : n;
		if (file == F_MONITOR)
			mret = model_monitor(data, eff, nb, &nn);
		else if (file == F_ENABLE)
			mret = model_enable(data, n, &on);
		else
			mret = model_reactors(data, n, reactor);
		if (mret == 0) {
			model_snap(&want, model, nmodel, model_enabled, model_reactor);
			fail(&fail_refused_good, "refused a write the model accepts", file, data, n, ret, err, 0);
		} else if (file == F_MONITOR) {
			rejected_alive += judged.blame_alive;
			eexist_cross += mret == -EEXIST && judged.cross;
		}
		before = after;
		return;
	}
	accepted++;
	eff = (size_t)ret;
	if (file == F_MONITOR) {
		mret = eff ? model_monitor(data, eff, nb, &nn) : 1;
		if (mret == 1) {
			memcpy(nb, model, sizeof(*nb) * nmodel);
			nn = nmodel;
		}
	} else if (file == F_ENABLE) {
		mret = model_enable(data, eff, &on);
	} else {
		mret = model_reactors(data, eff, reactor);
	}
	if (mret < 0) {
		if (memchr(data, '\0', eff))
			accepted_nul++;
		want = before;
		fail(&fail_accepted_bad, "accepted a write the model refuses", file, data, n, ret, 0, mret);
		resync();
		before = after;
		return;
	}
	if (file == F_MONITOR && mret == 0) {
		memcpy(model, nb, sizeof(*nb) * nn);
		nmodel = nn;
		accepted_alive += judged.adds_alive;
		removed_alive += judged.removed_alive;
		kept += judged.kept;
	} else if (file == F_ENABLE && mret == 0) {
		model_enabled = on;
	} else if (file == F_REACTORS && mret == 0) {
		strcpy(model_reactor, reactor);
	}
	model_snap(&want, model, nmodel, model_enabled, model_reactor);
	if (!snap_eq(&after, &want)) {
		fail(&fail_state, "an accepted write left another state than the model's", file, data, n, ret, 0, mret);
		resync();
	}
	before = after;
}

static void one_write(void)
{
	static char buf[2 * WBUF];
	unsigned int k = below(100);
	int file = k < 94 ? F_MONITOR : k < 97 ? F_ENABLE : F_REACTORS;
	size_t n, done = 0;
	int fd;

	n = file == F_MONITOR ? gen_monitor(buf) : file == F_ENABLE ? gen_enable(buf) :
		gen_reactors(buf);
	fd = ctl_open(wfd, file, O_WRONLY);
	if (file == F_MONITOR && n > 1 && chance(5)) {
		/* in pieces: each write(2) on its own must hold the contract */
		while (done < n) {
			size_t piece = 1 + below(n - done);

			checked_write(fd, file, buf + done, piece);
			done += piece;
		}
	} else {
		checked_write(fd, file, buf, n);
	}
}

int main(int argc, char **argv)
{
	unsigned long target = 100000, seed = 1, progress = 0;
	const char *out = NULL;
	int opt, i, n_alive;

	while ((opt = getopt(argc, argv, "s:n:m:o:")) != -1) {
		switch (opt) {
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'n': target = strtoul(optarg, NULL, 0); break;
		case 'm': max_bindings = strtoul(optarg, NULL, 0); break;
		case 'o': out = optarg; break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: tlob-fuzz [-s SEED] [-n LINES] [-m MAX_BINDINGS] [-o FILE] DIR\n");
		return 2;
	}
	dir = argv[optind];
	if (getenv("TLOB_FUZZ_CTL"))
		ctl = getenv("TLOB_FUZZ_CTL");
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	for (i = 0; i < 4; i++)
		add_target("%s/t%d", dir, i);
	add_target("%s/data", dir);
	add_target("%s/link", dir);
	add_target("%s/dir", dir);
	add_target("%s/./t1", dir);
	add_target("%s//t2", dir);
	add_target("%s/missing", dir);
	add_target("/dev/null");
	add_target("/proc/kcore");

	snapshot(&before, -1);
	after = before;
	resync();
	while (lines < target) {
		one_write();
		if (writes / 2000 != progress) {
			progress = writes / 2000;
			fprintf(stderr, "# tlob-fuzz: %lu lines, %lu writes, %lu failures\n",
				lines, writes, fails);
		}
	}
	printf("fuzz: seed=%lu lines=%lu writes=%lu accepted=%lu rejected=%lu failures=%lu\n",
	       seed, lines, writes, accepted, rejected, fails);
	printf("fuzz: failed_changed=%lu accepted_bad=%lu refused_good=%lu wrong_state=%lu\n",
	       fail_changed, fail_accepted_bad, fail_refused_good, fail_state);
	printf("fuzz: accepted_bad_with_nul=%lu\n", accepted_nul);
	printf("fuzz: alive_lines=%lu accepted_alive=%lu rejected_alive=%lu removed_alive=%lu\n",
	       alive_lines, accepted_alive, rejected_alive, removed_alive);
	printf("fuzz: eexist_cross=%lu kept=%lu\n", eexist_cross, kept);
	printf("fuzz: rejected_by_errno");
	for (i = 0; i < 256; i++)
		if (by_errno[i])
			printf(" %s=%lu", strerrorname_np(i) ?: "?", by_errno[i]);
	for (i = 0, n_alive = 0; i < nmodel; i++)
		n_alive += model[i].t.alive;
	printf("\nfuzz: final bindings=%d alive=%d enable=%d reactor=%s\n", nmodel, n_alive,
	       model_enabled, model_reactor);
	if (out) {
		FILE *f = fopen(out, "w");

		model_snap(&want, model, nmodel, model_enabled, model_reactor);
		if (!f || fputs(want.monitor, f) < 0 || fclose(f))
			perror(out);
	}
	return fails ? 1 : 0;
}
