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
 *     of the grammar (tlob_parse.c's rules, kstrtoull/kstrtobool) and of
 *     the table (same inode + START is a duplicate, removal by path or
 *     inode, max_bindings) computes from the bytes the kernel consumed;
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
 * Prints "fuzz: key=value ..." counts and exits 0 if nothing failed;
 * -o FILE gets the model's final monitor listing (the accepted set).
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
#define LINE_MAX_K (PATH_MAX + 128)
#define MAXB 4096
#define WBUF (6 * PAGE)

enum { F_MONITOR, F_ENABLE, F_REACTORS };

struct bind {
	char path[PATH_MAX + 1];
	uint64_t start, stop;
	bool ret;
	uint64_t budget;
	char tag[TAG_LEN];
	int filter;			/* 0 none, 1 pid, 2 tgid */
	uint32_t fid;
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

static void print_bind(char **p, const struct bind *b)
{
	*p += sprintf(*p, "p %s:0x%" PRIx64 " ", b->path, b->start);
	if (b->ret)
		*p += sprintf(*p, "ret");
	else
		*p += sprintf(*p, "0x%" PRIx64, b->stop);
	*p += sprintf(*p, " threshold=%" PRIu64, b->budget);
	if (b->tag[0])
		*p += sprintf(*p, " tag=%s", b->tag);
	if (b->filter)
		*p += sprintf(*p, " %s=%u", b->filter == 1 ? "pid" : "tgid", b->fid);
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
	uint64_t start, stop;
	bool ret;
	uint64_t budget;
	char tag[TAG_LEN];
	int filter;
	uint32_t fid;
};

static int offset_ref(const char *s, uint64_t *v)
{
	if (*s < '0' || *s > '9')
		return -EINVAL;
	if (kstrtoull_ref(s, 0, v) || *v > (uint64_t)LLONG_MAX)
		return -EINVAL;
	return 0;
}

static int path_offset_ref(char *tok, struct req *r)
{
	char *colon = strrchr(tok, ':');

	if (!colon || tok[0] != '/' || colon - tok >= PATH_MAX)
		return -EINVAL;
	*colon = '\0';
	r->path = tok;
	return offset_ref(colon + 1, &r->start);
}

static int option_ref(char *tok, struct req *r, bool *have_tag)
{
	char *v = strchr(tok, '=');
	uint64_t x;
	int ret;
	size_t i, len;

	if (!v)
		return -EINVAL;
	*v++ = '\0';
	if (!strcmp(tok, "threshold")) {
		if (r->budget || *v < '0' || *v > '9')
			return -EINVAL;
		ret = kstrtoull_ref(v, 10, &x);
		if (ret)
			return ret;
		r->budget = x;
		if (x < BUDGET_MIN || x > BUDGET_MAX)
			return -ERANGE;
		return 0;
	}
	if (!strcmp(tok, "tag") && !*have_tag) {
		*have_tag = true;
		len = strlen(v);
		if (!len || len >= TAG_LEN)
			return -EINVAL;
		for (i = 0; i < len; i++)
			if (!isalnum((unsigned char)v[i]) && v[i] != '_' &&
			    v[i] != '-' && v[i] != '.')
				return -EINVAL;
		memcpy(r->tag, v, len + 1);
		return 0;
	}
	if (!strcmp(tok, "pid") || !strcmp(tok, "tgid")) {
		if (r->filter || *v < '0' || *v > '9' ||
		    kstrtoull_ref(v, 10, &x) || x > UINT32_MAX || !x || x > INT_MAX)
			return -EINVAL;
		r->filter = tok[0] == 'p' ? 1 : 2;
		r->fid = (uint32_t)x;
		return 0;
	}
	return -EINVAL;
}

/* 1: blank line; 0: parsed into @r; <0: malformed */
static int parse_ref(char *line, struct req *r)
{
	char *rest = line, *tok;
	bool have_tag = false;
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
	if (strcmp(tok, "p"))
		return -EINVAL;
	tok = token(&rest);
	if (!tok || path_offset_ref(tok, r))
		return -EINVAL;
	tok = token(&rest);
	if (!tok)
		return -EINVAL;
	if (!strcmp(tok, "ret"))
		r->ret = true;
	else if (offset_ref(tok, &r->stop) || r->stop == r->start)
		return -EINVAL;
	while ((tok = token(&rest)))
		if ((ret = option_ref(tok, r, &have_tag)))
			return ret;
	return r->budget ? 0 : -EINVAL;
}

/*
 * The model's verdict on a monitor write of the @n bytes the kernel got:
 * 0 and the new table in @nb/@nn, or the errno it expects.
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
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = parse_ref(line, &reqs[nreq]);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		if (!reqs[nreq].remove) {
			struct bind *b = &adds[nreq];

			if (stat(reqs[nreq].path, &st))
				return -errno;
			if (!S_ISREG(st.st_mode) || reqs[nreq].start >= (uint64_t)st.st_size ||
			    (!reqs[nreq].ret && reqs[nreq].stop >= (uint64_t)st.st_size))
				return -EINVAL;
			memset(b, 0, sizeof(*b));
			snprintf(b->path, sizeof(b->path), "%s", reqs[nreq].path);
			b->start = reqs[nreq].start;
			b->stop = reqs[nreq].stop;
			b->ret = reqs[nreq].ret;
			b->budget = reqs[nreq].budget;
			memcpy(b->tag, reqs[nreq].tag, TAG_LEN);
			b->filter = reqs[nreq].filter;
			b->fid = reqs[nreq].fid;
			b->dev = st.st_dev;
			b->ino = st.st_ino;
		}
		nreq++;
	}
	/* the table checks, in order (tlob_check) */
	count = nmodel;
	for (i = 0; i < nreq; i++) {
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
			if (!taken && model[k].dev == adds[i].dev &&
			    model[k].ino == adds[i].ino && model[k].start == adds[i].start)
				return -EEXIST;
		}
		for (j = 0; j < i; j++)
			if (!reqs[j].remove && adds[j].dev == adds[i].dev &&
			    adds[j].ino == adds[i].ino && adds[j].start == adds[i].start)
				return -EEXIST;
		if ((unsigned int)count >= max_bindings)
			return -ENOSPC;
		count++;
	}
	/* procfs cannot give uprobes its pages: registering fails (enabled) */
	for (i = 0; i < nreq; i++)
		if (!reqs[i].remove && !strncmp(adds[i].path, "/proc/", 6) && model_enabled)
			return -EIO;
	*nn = 0;
	for (k = 0; k < nmodel; k++) {
		bool gone = false;

		for (i = 0; i < nreq; i++)
			if (del[i] == k)
				gone = true;
		if (!gone)
			nb[(*nn)++] = model[k];
	}
	for (i = 0; i < nreq; i++)
		if (!reqs[i].remove)
			nb[(*nn)++] = adds[i];
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

static void gen_add(char *p)
{
	int t;
	const char *path = pick_path(&t);
	uint64_t start = gen_in(t);

	p += sprintf(p, "p %s:", path);
	gen_offset(&p, start);
	p += sprintf(p, " ");
	if (chance(15))
		p += sprintf(p, "ret");
	else
		gen_offset(&p, chance(3) ? start : gen_in(t));
	p += sprintf(p, " threshold=%" PRIu64, (uint64_t)(
		     chance(90) ? BUDGET_MIN + below(BUDGET_MAX - BUDGET_MIN + 1) :
		     (chance(50) ? below(BUDGET_MIN + 1) : BUDGET_MAX + below(100))));
	if (chance(40)) {
		static const char cs[] = "abcXYZ019_-.";
		int n = 1 + (int)below(chance(90) ? 15 : 20), i;

		p += sprintf(p, " tag=");
		for (i = 0; i < n; i++)
			*p++ = cs[below(sizeof(cs) - 1)];
		*p = '\0';
	}
	if (chance(20))
		p += sprintf(p, " %s=%" PRIu64, chance(50) ? "pid" : "tgid",
			     chance(90) ? 1 + below(100000) : rnd() >> below(64));
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

	for (i = 0; i < k; i++) {
		unsigned int kind = below(100);

		line[0] = '\0';
		if (batch)
			kind = kind < 90 ? (kind < 60 ? 0 : 40) : 60;
		if (kind < 35) {
			gen_add(line);
		} else if (kind < 55) {
			gen_remove(line);
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
		} else {	/* overlong path or tag */
			int t;
			size_t pl = 200 + below(PATH_MAX + 200);

			n += snprintf(buf + n, PATH_MAX + 3, "p %s", pick_path(&t));
			memset(buf + n, chance(50) ? '/' : 'a', pl);
			n += pl;
			n += sprintf(buf + n, ":16 32 threshold=1000000");
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
		b->stop = r.stop;
		b->ret = r.ret;
		b->budget = r.budget;
		memcpy(b->tag, r.tag, TAG_LEN);
		b->filter = r.filter;
		b->fid = r.fid;
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
	int opt, i;

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
	printf("fuzz: rejected_by_errno");
	for (i = 0; i < 256; i++)
		if (by_errno[i])
			printf(" %s=%lu", strerrorname_np(i) ?: "?", by_errno[i]);
	printf("\nfuzz: final bindings=%d enable=%d reactor=%s\n", nmodel, model_enabled, model_reactor);
	if (out) {
		FILE *f = fopen(out, "w");

		model_snap(&want, model, nmodel, model_enabled, model_reactor);
		if (!f || fputs(want.monitor, f) < 0 || fclose(f))
			perror(out);
	}
	return fails ? 1 : 0;
}
