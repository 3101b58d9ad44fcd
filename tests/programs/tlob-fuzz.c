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
 *     of the grammar (tlob_parse.c's rules, kstrtoull/kstrtobool: the
 *     verbs, `p` sections, `a` alive checkpoints and `l` logical
 *     bindings, each with its own keys) and of the table (same inode +
 *     START is a duplicate whatever the verbs, an `l` binding's START
 *     being its event 0's offset; removal by path or inode, a removed
 *     binding re-added with the same terms in the same write kept,
 *     max_bindings) computes from the bytes the kernel consumed;
 *   - the model and the kernel agree on accept/refuse: an accepted write
 *     the model calls malformed, or a refused one it calls valid, is a
 *     failure too.
 * The model is deliberately independent of the kernel's code; a
 * disagreement prints the write (escaped) and both sides.
 *
 * `l` lines (logical supervision): random deterministic
 * automata (a spanning tree from the initial state, every event on an
 * edge, extra edges), sometimes of too many states or events, and
 * mutations of them (an index out of range, a duplicate (FROM,EVENT)
 * pair, an unreachable state, an event on no edge, a name too long or of
 * a bad character, two names or two offsets alike, final=/initial= out
 * of range, a truncated list, a wrong separator, a key missing, repeated
 * or unknown, an offset past the file), in the contract's key order or
 * shuffled, then the byte-level mutations every line gets. The model's
 * own reading of the contract (the `l` line of kernel/shared/README.md,
 * "the monitor line", and docs/guide.md, "Logical supervision";
 * parse_logic_ref()):
 * its own determinism, reachability and every-event checks, not
 * tlob_logic_check(). Where the contract leaves a detail open, it reads:
 * indices and final=/initial= decimal digits (leading zeros taken, as
 * kstrtou32 does; no sign); list elements split at ',' (an empty one is
 * EINVAL); NAME@OFFSET split at the first '@', OFFSET as a `p` line's
 * START; every event's offset inside the file (EINVAL, as START); the
 * listing's edges in (FROM, EVENT) order and final= ascending,
 * tolerance= shown when W > 1 (as `a` lines); keys in any order. A
 * single-line write of a generated `l` line on a regular file, in the
 * contract's key order and with one class of fault (EINVAL or ERANGE),
 * must also fail with the model's errno (logic_errno_wrong).
 *
 * Timed tables (a third of the `l` lines): clock=NAME, and edges
 * F.E.T[.r][.gLO-[HI]] that reset the clock or are guarded by it (LO <=
 * clock < HI; no HI: no upper bound), guards near 0 and near 2^64, with
 * leading zeros, of one ns; mutated into time without a clock, a clock
 * with no time, a malformed timing (a trailing '.', `.r.r`, `.g5`,
 * `.g-5`, `.g0-`, a guard before the reset, an overflow, junk after HI),
 * an empty guard (LO >= HI), a bad clock name, two guarded edges of one
 * (FROM, EVENT) pair. The model reads an edge split at every '.': three
 * indices, then `r` and/or one guard in that order; LO and HI decimal
 * u64 (no sign, no 0x, overflow malformed); a guard that bounds nothing
 * (LO 0, no HI) and an HI of 0 (`.g5-0`) malformed; every fault EINVAL,
 * a list's size (ERANGE) counted with its empty elements. Where the
 * contract leaves a detail open, it reads: LO and HI listed without
 * leading zeros, clock= listed after initial=, the clock's name free to
 * be the model's, a state's or an event's.
 *
 * Invariants (inv=S.HI,..: state S held only while the clock reads less
 * than HI ns) on two fifths of the timed tables, a fifth of those their
 * only time; mutated into invariants with no clock, more elements than
 * states, a malformed element (no '.', no S or HI, a sign, 0x, junk
 * after HI, an HI of 0 or one that overflows), a state out of range or
 * twice, an empty element or value, a wrong separator, the key twice,
 * random bytes of its alphabet. The model reads an element S '.' HI, S
 * an index and HI a decimal u64 as a guard's, not 0 (clock < 0 could
 * never hold); each state once; every fault EINVAL but a list longer
 * than the states, ERANGE whatever its elements hold (the list's size is
 * read first, empty elements counted); an inv= written, well formed or
 * not, times the model for the clock rule. Where the contract leaves a
 * detail open, it reads: inv= listed after clock=, by state index, HI
 * without leading zeros.
 *
 * Events in several files (a third of the `l` lines of two events or
 * more): file1= .. file3= naming t0..t3, link, ./t1, //t2 or data, each
 * event's N: its file (now and then 01:), every file holding one, event
 * 0 in PATH three times in four, offsets inside their own file, now and
 * then one offset in two files (two places); mutated into an N: out of
 * range or malformed (0:, 4:, 99:, :, x:, 1:1:), an event in a file not
 * given, a fileN= no event uses, a gap, a path twice or PATH's, a path
 * relative, empty or with a control byte, data holding an offset past
 * its end, a directory or a device (EINVAL), a file not there (ENOENT,
 * ENOTDIR), an offset past its own file, two events at one offset of one
 * file, a fileN= twice; fileN= on `p`/`a` lines and file4=, file0= are
 * unknown keys. The model reads: N what precedes the first ':' after
 * '@', an index (leading zeros taken) 1..3; fileN= for N 1..K without a
 * gap, each absolute and of a path's bytes, no two the same string and
 * none PATH's (strings only: link beside t0, or //t2 beside t2, is
 * another file to the parser); the files 1 + K, each holding an event;
 * two events at one offset a duplicate only in one file; then, as the
 * module binds, the files opened in order through symlinks (missing:
 * stat()'s errno; not regular, or an inode PATH or an earlier file has:
 * EINVAL, two probes at one place), then every offset inside its own
 * file, PATH's no more for all of them; START still event 0's offset,
 * whatever its file, and a duplicate still PATH's inode + START. Where
 * the contract leaves a detail open, it reads: events listed E@N:0xOFF
 * (nothing for PATH), fileN= after inv= as written; a removed binding
 * written back with its files named otherwise (link for t0) the same
 * terms (files compared by inode), kept with its first names.
 *
 * usage: tlob-fuzz [-M] [-s SEED] [-n LINES] [-m MAX_BINDINGS] [-o FILE] DIR
 *   DIR holds the files bindings point at (made by the test script):
 *   t0..t3 (copies of a binary that is never run), data (a short text
 *   file), link (symlink to t0), dir (a directory).
 * Prints "fuzz: key=value ..." counts (accepted_alive/rejected_alive:
 * `a` lines in accepted writes, refused writes the model blames on an `a`
 * line; accepted_logic/rejected_logic the same for `l` lines,
 * accepted_timed/rejected_timed for timed `l` lines, inv_lines/
 * accepted_inv for `l` lines with an inv=, files_lines/accepted_files/
 * rejected_files for `l` lines with a fileN= or an N:) and exits 0
 * if nothing failed; -o FILE gets the model's final monitor listing (the
 * accepted set).
 * -M: model only, no control file touched: the model plays the kernel
 * (a host simulation of the counts; every check passes by construction).
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
/* `l` lines (tlob_abi.h's TLOB_LOGIC_*) */
#define L_NAME_MAX 23
#define L_STATES_MAX 32
#define L_EVENTS_MAX 16
#define L_ITEMS 2400			/* list elements a line can hold */
#define L_FILES_MAX 4			/* PATH and file1= .. file3= */

enum { F_MONITOR, F_ENABLE, F_REACTORS };

/* What a line asks for besides PATH:START; both verbs' fields. */
struct terms {
	bool alive;			/* an `a` line (else `p`, or `l`) */
	bool logic;			/* an `l` line: its canonical table in ltab */
	const char *ltab;		/* "model=.. states=.. events=.. edges=.. final=.. initial=.." */
	/*
	 * `l`: " file1=P1 file2=P2 .." as written ("": PATH alone), listed
	 * after ltab; the files, PATH counted; the inodes of file1= .. (the
	 * kernel's same terms: by inode, not by name).
	 */
	const char *lfiles;
	int nfiles;
	dev_t fdev[L_FILES_MAX];
	ino_t fino[L_FILES_MAX];
	uint64_t stop;			/* p: STOP, or ret */
	bool ret;
	uint64_t budget, min;		/* p: threshold=, min= (0: none) */
	uint64_t period;		/* a: period=, expect=, margin=; a, l: per=task */
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
/*
 * `l` lines: generated; in accepted writes; refused writes the model
 * blames on one; logical bindings removed; generated with a structured
 * fault; single-line writes whose errno was checked, skipped (the model
 * found faults of both classes), and wrong (a failure).
 */
static unsigned long logic_lines, accepted_logic, rejected_logic, removed_logic, logic_faulty;
static unsigned long logic_errno_checked, logic_errno_unsure, fail_logic_errno, eexist_logic;
/*
 * Timed `l` lines (a clock=, or an edge's reset or guard, as written):
 * the same counts (generated; in accepted writes; refused writes blamed
 * on one; removed; with a structured fault; their errno checked).
 */
static unsigned long timed_lines, accepted_timed, rejected_timed, removed_timed, timed_faulty;
static unsigned long timed_errno_checked;
/* `l` lines with an inv= (as written); in accepted writes */
static unsigned long inv_lines, accepted_inv;
/*
 * `l` lines with events in several files (a fileN= or an N: as written):
 * generated; in accepted writes (two files or more); refused writes
 * blamed on one; removed; with a structured fault; their errno checked.
 */
static unsigned long multi_lines, accepted_multi, rejected_multi, removed_multi, multi_faulty;
static unsigned long multi_errno_checked;
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
 * [min=]; a: period= expect= [margin=] [per=task]; l: PATH, no START, the
 * table (ltab), its fileN= (lfiles) and per=, always), then the common ones
 * ([tolerance=K/W] when W > 1, [tag=], [pid=|tgid=]); defaults not shown.
 */
static void print_bind(char **p, const struct bind *b)
{
	const struct terms *t = &b->t;

	if (t->logic)
		*p += sprintf(*p, "l %s %s%s per=%s", b->path, t->ltab, t->lfiles,
			      t->per_task ? "task" : "process");
	else
		*p += sprintf(*p, "%c %s:0x%" PRIx64, t->alive ? 'a' : 'p', b->path, b->start);
	if (t->logic) {
		/* the table and per= are out already */
	} else if (t->alive) {
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
	/* `l`: every event's offset (the file check); faults of both classes found */
	uint64_t loff[L_EVENTS_MAX];
	int nloff;
	bool lunsure;
	bool ltimed;	/* `l`: a clock=, an edge's timing or an inv= written (well formed or not) */
	bool linv;	/* `l`: an inv= written (well formed or not) */
	/* `l`: a fileN= or an event's N: written (well formed or not) */
	bool lmulti;
	/* `l`: every event's file (0: PATH); file f's path (into the line) */
	unsigned int lfi[L_EVENTS_MAX];
	char *lfile[L_FILES_MAX];
};

/* A file offset: decimal digits, or "0x"/"0X" and hex digits; never octal */
static int offset_ref(const char *s, uint64_t *v)
{
	unsigned int base = 10;
	const char *p = s;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return -EINVAL;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p) &&
		    !(base == 16 && isxdigit((unsigned char)*p)))
			return -EINVAL;
	if (kstrtoull_ref(s, base, v) || *v > (uint64_t)LLONG_MAX)
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
enum { VP = 1, VA = 2, VL = 4 };
enum { K_THRESHOLD, K_MIN, K_PERIOD, K_EXPECT, K_MARGIN, K_PER, K_TOLERANCE, K_TAG,
	K_PID, K_TGID, K_MODEL, K_STATES, K_EVENTS, K_EDGES, K_FINAL, K_INITIAL, K_CLOCK,
	K_INV, K_FILE1, K_FILE2, K_FILE3, NKEYS };
static const struct {
	const char *name;
	unsigned int verbs;
} keys[NKEYS] = {
	[K_THRESHOLD] = { "threshold", VP },
	[K_MIN] = { "min", VP },
	[K_PERIOD] = { "period", VA },
	[K_EXPECT] = { "expect", VA },
	[K_MARGIN] = { "margin", VA },
	[K_PER] = { "per", VA | VL },
	[K_TOLERANCE] = { "tolerance", VP | VA | VL },
	[K_TAG] = { "tag", VP | VA | VL },
	[K_PID] = { "pid", VP | VA | VL },
	[K_TGID] = { "tgid", VP | VA | VL },
	[K_MODEL] = { "model", VL },
	[K_STATES] = { "states", VL },
	[K_EVENTS] = { "events", VL },
	[K_EDGES] = { "edges", VL },
	[K_FINAL] = { "final", VL },
	[K_INITIAL] = { "initial", VL },
	[K_CLOCK] = { "clock", VL },
	[K_INV] = { "inv", VL },
	[K_FILE1] = { "file1", VL },
	[K_FILE2] = { "file2", VL },
	[K_FILE3] = { "file3", VL },
};

/* An `l` line's table keys' values (into the line), set by option_ref() */
static char *lval[NKEYS];

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
	if (k == NKEYS || !(keys[k].verbs & (t->logic ? VL : t->alive ? VA : VP)) ||
	    (*seen & (1u << k)))
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
	case K_MODEL: case K_STATES: case K_EVENTS: case K_EDGES: case K_FINAL:
	case K_INITIAL: case K_CLOCK: case K_INV:	/* read whole by parse_logic_ref() */
	case K_FILE1: case K_FILE2: case K_FILE3:
		lval[k] = v;
		return 0;
	case K_TAG:
		len = strlen(v);
		/* "-" is what the listing shows for no tag */
		if (!len || len >= TAG_LEN || !strcmp(v, "-"))
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

/* --- `l` lines: the table, as the model reads the contract */

/* Canonical tables live as long as the run (bindings point at them). */
static const char *arena_dup(const char *s)
{
	static char *chunk;
	static size_t left;
	size_t n = strlen(s) + 1;
	char *r;

	if (n > left) {
		left = n > (1u << 20) ? n : (1u << 20);
		chunk = malloc(left);
		if (!chunk) {
			perror("malloc");
			exit(2);
		}
	}
	r = chunk;
	memcpy(r, s, n);
	chunk += n;
	left -= n;
	return r;
}

static bool id_first(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool id_char(char c) { return id_first(c) || (c >= '0' && c <= '9'); }

/* model=, a state's or an event's name: [A-Za-z_][A-Za-z0-9_]*, 1..23 */
static bool lname_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > L_NAME_MAX || !id_first(s[0]))
		return false;
	for (i = 1; i < n; i++)
		if (!id_char(s[i]))
			return false;
	return true;
}

/* Split @v at commas, in place: the count, or -1 if empty or with an empty element */
static int lsplit(char *v, char **item)
{
	int n = 0;
	char *c;

	for (;;) {
		if (n == L_ITEMS)
			return -1;
		c = strchr(v, ',');
		if (c)
			*c = '\0';
		if (!*v)
			return -1;
		item[n++] = v;
		if (!c)
			return n;
		v = c + 1;
	}
}

/*
 * The elements of a list for its maxima: one more than its commas, empty
 * ones too. The count is the list's size whatever its elements hold, so
 * too many of them is ERANGE even when one is also empty (EINVAL): a line
 * with both is one whose errno the model does not know.
 */
static uint64_t lcount(const char *v)
{
	uint64_t n = 1;

	while ((v = strchr(v, ','))) {
		v++;
		n++;
	}
	return n;
}

/* An index: decimal digits only (leading zeros as kstrtou32 takes them); huge ones capped */
static bool lindex(const char *s, unsigned int *x)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > 1000000)
			v = 1000000;
	}
	*x = (unsigned int)v;
	return true;
}

/*
 * What parse_logic_ref() found; big enough for any list a line can hold.
 * Edge i: read whole (eok), its reset (er), its guard (eg: elo <= clock <
 * ehi, ehi 0 when it has no upper bound).
 */
static struct {
	bool einval, erange;
	int ns, ne, nedges, nf;
	unsigned int initial;
	char *state[L_ITEMS], *event[L_ITEMS];
	uint64_t off[L_ITEMS];
	unsigned int file[L_ITEMS];	/* event i's file: its N:, 0 (PATH) without */
	unsigned int ef[L_ITEMS], ee[L_ITEMS], et[L_ITEMS];
	bool eok[L_ITEMS], er[L_ITEMS], eg[L_ITEMS];
	uint64_t elo[L_ITEMS], ehi[L_ITEMS];
	bool reach[L_ITEMS], used[L_ITEMS], fin[L_ITEMS];
	uint64_t inv[L_ITEMS];		/* state s's invariant (0: none) */
} lp;

/*
 * A path a line may name (PATH, fileN=): absolute, shorter than
 * PATH_MAX, no control byte, space or DEL.
 */
static bool lpath_ok(const char *s)
{
	if (s[0] != '/' || strlen(s) >= PATH_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/*
 * An event's place, what follows its '@', in place: [N:]OFFSET. With a
 * ':' anywhere, N is what precedes the first one: an index (lindex(),
 * leading zeros taken) of a file beyond PATH, 1..3 (PATH has no N:, so
 * 0: is no file); OFFSET then as a `p` line's START, so a second ':' is
 * no offset. 0 and *@f, *@off; -EINVAL.
 */
static int lplace_ref(char *s, unsigned int *f, uint64_t *off)
{
	char *colon = strchr(s, ':');

	*f = 0;
	if (colon) {
		*colon = '\0';
		if (!lindex(s, f) || !*f || *f >= L_FILES_MAX) {
			*f = 0;
			return -EINVAL;
		}
		s = colon + 1;
	}
	return offset_ref(s, off);
}

/*
 * An edge's timing: @part[0..@n), what follows F.E.T split at its dots.
 * `r` (the edge resets the clock) then one guard `gLO-HI` or `gLO-`, each
 * optional, in that order, nothing else: so a trailing '.' (an empty
 * part), `r.r`, a guard before the reset or two guards are malformed.
 * LO and HI are decimal_ref()'s u64 (digits first: no sign, no 0x; an
 * overflow malformed too, not ERANGE: the number is no number); no HI
 * is no upper bound, an HI of 0 malformed (clock < 0, as written, could
 * never hold), and a guard that bounds nothing (LO 0, no HI) is
 * malformed. An empty guard (LO >= HI) is
 * well formed here; the table's rule refuses it. False when malformed.
 */
static bool ltiming_ref(char **part, int n, int i)
{
	char *dash;

	lp.er[i] = lp.eg[i] = false;
	lp.elo[i] = lp.ehi[i] = 0;
	if (n && !strcmp(part[0], "r")) {
		lp.er[i] = true;
		part++;
		n--;
	}
	if (!n)
		return true;
	if (n > 1 || part[0][0] != 'g')
		return false;
	dash = strchr(part[0] + 1, '-');
	if (!dash)
		return false;
	*dash = '\0';
	if (decimal_ref(part[0] + 1, &lp.elo[i]) ||
	    (dash[1] && (decimal_ref(dash + 1, &lp.ehi[i]) || !lp.ehi[i])))
		return false;
	lp.eg[i] = true;
	return lp.elo[i] || lp.ehi[i];
}

/*
 * inv=S.HI,..'s elements, in place, on a model of lp.ns states (its
 * size already known to be within them): each S '.' HI, S an index
 * (lindex()), HI decimal_ref()'s u64 (an overflow malformed, as a
 * guard's) and not 0 (clock < 0 could never hold); S one of the states,
 * and each state bounded once. Every fault EINVAL; lp.inv[] filled.
 */
static void linv_ref(char *v)
{
	char *c, *dot;
	unsigned int s;
	uint64_t hi;

	for (;;) {
		c = strchr(v, ',');
		if (c)
			*c = '\0';
		dot = strchr(v, '.');
		if (dot)
			*dot = '\0';
		if (!dot || !lindex(v, &s) || decimal_ref(dot + 1, &hi) || !hi ||
		    s >= (unsigned int)lp.ns || lp.inv[s])
			lp.einval = true;
		else
			lp.inv[s] = hi;
		if (!c)
			return;
		v = c + 1;
	}
}

/*
 * An `l` line after its verb: PATH then KEY=VALUE tokens in any order.
 * Every fault is noted (lp.einval: malformed or a table rule broken;
 * lp.erange: more states or events than the maxima, more edges than
 * states * events, tolerance= out of range), not only the first, so that
 * a line with faults of one class only has a known errno whatever order
 * the kernel checks in. 0 and r filled (ltab and lfiles canonical), or
 * the errno.
 */
static int parse_logic_ref(char *rest, struct req *r)
{
	static char *item[L_ITEMS];
	static char canon[3 * PAGE + 1024];
	unsigned int seen = 0, x, f, e, t;
	bool lists_ok = true, states_read = false, changed, timed, fused[L_FILES_MAX];
	char *tok, *q, *at, *d, *part[6];
	int ret, i, j, n, np, eix[L_STATES_MAX][L_EVENTS_MAX];
	size_t len;

	memset(lval, 0, sizeof(lval));
	lp.einval = lp.erange = false;
	lp.ns = lp.ne = lp.nedges = 0;
	lp.initial = 0;
	tok = token(&rest);
	if (!tok || !lpath_ok(tok))
		return -EINVAL;
	r->path = tok;
	while ((tok = token(&rest))) {
		ret = option_ref(tok, &r->t, &seen);
		if (ret == -ERANGE)
			lp.erange = true;
		else if (ret)
			lp.einval = true;
	}
	if (!(seen & (1u << K_TOLERANCE)))
		r->t.tol_k = r->t.tol_w = 1;
	if (!lval[K_MODEL] || !lval[K_STATES] || !lval[K_EVENTS] || !lval[K_EDGES] ||
	    !lval[K_FINAL]) {
		lp.einval = true;
		lists_ok = false;
	}
	/*
	 * file1= .. file3=: given for 1..K, no gap, each a path as PATH is,
	 * none the string of PATH or of another (strings: nothing is opened
	 * yet); lp.nf the files, PATH counted, up to the first fault.
	 */
	lp.nf = 1;
	r->lfile[0] = r->path;
	for (f = 1; f < L_FILES_MAX; f++) {
		q = lval[K_FILE1 + f - 1];
		if (!q)
			continue;
		r->lmulti = true;
		if ((unsigned int)lp.nf != f || !lpath_ok(q)) {
			lp.einval = true;
			continue;
		}
		for (e = 0; e < f; e++)
			if (!strcmp(r->lfile[e], q))
				lp.einval = true;
		r->lfile[f] = q;
		lp.nf = (int)f + 1;
	}
	if (lval[K_MODEL] && !lname_ok(lval[K_MODEL]))
		lp.einval = true;
	if (lval[K_STATES]) {
		if (lcount(lval[K_STATES]) > L_STATES_MAX)
			lp.erange = true;
		n = lsplit(lval[K_STATES], item);
		if (n < 0) {
			lp.einval = true;
			lists_ok = false;
		} else {
			lp.ns = n;
			states_read = true;
			for (i = 0; i < n; i++) {
				lp.state[i] = item[i];
				if (!lname_ok(item[i]))
					lp.einval = true;
				for (j = 0; j < i; j++)
					if (!strcmp(item[j], item[i]))
						lp.einval = true;
			}
		}
	}
	if (lval[K_EVENTS]) {
		if (lcount(lval[K_EVENTS]) > L_EVENTS_MAX)
			lp.erange = true;
		n = lsplit(lval[K_EVENTS], item);
		if (n < 0) {
			lp.einval = true;
			lists_ok = false;
		} else {
			lp.ne = n;
			for (i = 0; i < n; i++) {
				lp.event[i] = item[i];
				lp.off[i] = UINT64_MAX - (uint64_t)i;	/* none alike when unparsed */
				lp.file[i] = 0;
				at = strchr(item[i], '@');
				if (!at) {
					lp.einval = true;
					continue;
				}
				*at = '\0';
				if (strchr(at + 1, ':'))
					r->lmulti = true;
				if (!lname_ok(item[i]) || lplace_ref(at + 1, &lp.file[i], &lp.off[i]))
					lp.einval = true;
				/* one offset is one place only in one file */
				for (j = 0; j < i; j++)
					if (!strcmp(lp.event[j], item[i]) ||
					    (lp.off[j] == lp.off[i] && lp.file[j] == lp.file[i]))
						lp.einval = true;
			}
			/* the files: every event's one given, every one holding an event */
			memset(fused, 0, sizeof(fused));
			for (i = 0; i < n; i++) {
				if (lp.file[i] >= (unsigned int)lp.nf)
					lp.einval = true;
				else
					fused[lp.file[i]] = true;
			}
			for (i = 0; i < lp.nf; i++)
				if (!fused[i])
					lp.einval = true;
		}
	}
	if (lval[K_EDGES]) {
		/* more than states * events (and a duplicate pair: EINVAL too) */
		if (lp.ns && lp.ne && lcount(lval[K_EDGES]) > (uint64_t)lp.ns * lp.ne)
			lp.erange = true;
		n = lsplit(lval[K_EDGES], item);
		if (n < 0) {
			lp.einval = true;
			lists_ok = false;
		} else {
			lp.nedges = n;
			for (i = 0; i < n; i++) {
				/* F.E.T and its timing: the element split at every '.' (6: too many) */
				lp.eok[i] = false;
				for (np = 0, d = item[i]; d && np < 6; np++) {
					part[np] = d;
					d = strchr(d, '.');
					if (d)
						*d++ = '\0';
				}
				if (np > 3)
					r->ltimed = true;
				if (np < 3 || np > 5 || !lindex(part[0], &f) || !lindex(part[1], &e) ||
				    !lindex(part[2], &t) || f >= (unsigned int)lp.ns ||
				    e >= (unsigned int)lp.ne || t >= (unsigned int)lp.ns ||
				    !ltiming_ref(part + 3, np - 3, i)) {
					lp.einval = true;
					lists_ok = false;
					continue;
				}
				lp.ef[i] = f;
				lp.ee[i] = e;
				lp.et[i] = t;
				lp.eok[i] = true;
			}
		}
	}
	memset(lp.fin, 0, sizeof(lp.fin));
	if (lval[K_FINAL]) {
		n = lsplit(lval[K_FINAL], item);
		if (n < 0)
			lp.einval = true;
		for (i = 0; i < n; i++) {
			if (!lindex(item[i], &x) || x >= (unsigned int)lp.ns || lp.fin[x]) {
				lp.einval = true;
				continue;
			}
			lp.fin[x] = true;
		}
	}
	if (lval[K_INITIAL]) {
		if (!lindex(lval[K_INITIAL], &x) || x >= (unsigned int)lp.ns)
			lp.einval = true;
		else
			lp.initial = x;
	}
	/* the table's rules, where its lists could be read */
	if (lists_ok && lp.ns && lp.ne && lp.initial < (unsigned int)lp.ns) {
		for (i = 0; i < lp.nedges; i++)
			for (j = 0; j < i; j++)
				if (lp.ef[i] == lp.ef[j] && lp.ee[i] == lp.ee[j])
					lp.einval = true;	/* nondeterministic */
		memset(lp.reach, 0, sizeof(lp.reach));
		memset(lp.used, 0, sizeof(lp.used));
		lp.reach[lp.initial] = true;
		do {
			changed = false;
			for (i = 0; i < lp.nedges; i++)
				if (lp.reach[lp.ef[i]] && !lp.reach[lp.et[i]])
					lp.reach[lp.et[i]] = changed = true;
		} while (changed);
		for (i = 0; i < lp.nedges; i++)
			lp.used[lp.ee[i]] = true;
		for (i = 0; i < lp.ns; i++)
			if (!lp.reach[i])
				lp.einval = true;	/* unreachable */
		for (i = 0; i < lp.ne; i++)
			if (!lp.used[i])
				lp.einval = true;	/* on no edge */
	}
	/*
	 * The clock, on the edges read whole (an edge that was not has made
	 * the line EINVAL already, so leaving it out adds no fault the module
	 * would not find): every guard met by some clock value (LO < HI, or
	 * no HI), a clock named exactly when an edge resets or guards it, and
	 * its name a name, as model='s.
	 */
	timed = false;
	for (i = 0; i < lp.nedges; i++) {
		if (!lp.eok[i])
			continue;
		if (lp.eg[i] && lp.ehi[i] && lp.elo[i] >= lp.ehi[i])
			lp.einval = true;	/* an empty guard */
		timed |= lp.er[i] || lp.eg[i];
	}
	if (lval[K_CLOCK]) {
		r->ltimed = true;
		if (!lname_ok(lval[K_CLOCK]))
			lp.einval = true;
	}
	/*
	 * inv=: more elements than the model has states (empty ones
	 * counted) is ERANGE whatever they hold; else each read. Where the
	 * states could not be read the line is EINVAL already. Written at
	 * all, it times the model (well formed or not: a malformed one is
	 * EINVAL anyway).
	 */
	for (i = 0; i < lp.ns; i++)
		lp.inv[i] = 0;
	if (lval[K_INV]) {
		r->ltimed = r->linv = true;
		timed = true;
		if (states_read && lcount(lval[K_INV]) > (uint64_t)lp.ns)
			lp.erange = true;
		else if (states_read)
			linv_ref(lval[K_INV]);
	}
	if (timed != !!lval[K_CLOCK])
		lp.einval = true;	/* time with no clock, or a clock with no time */
	r->lunsure = lp.einval && lp.erange;
	if (lp.einval)
		return -EINVAL;
	if (lp.erange)
		return -ERANGE;
	/* accepted: the canonical table */
	memset(eix, 0xff, sizeof(eix));
	for (i = 0; i < lp.nedges; i++)
		eix[lp.ef[i]][lp.ee[i]] = i;
	q = canon;
	q += sprintf(q, "model=%s states=", lval[K_MODEL]);
	for (i = 0; i < lp.ns; i++)
		q += sprintf(q, "%s%s", i ? "," : "", lp.state[i]);
	q += sprintf(q, " events=");
	for (i = 0; i < lp.ne; i++) {
		q += sprintf(q, "%s%s@", i ? "," : "", lp.event[i]);
		if (lp.file[i])
			q += sprintf(q, "%u:", lp.file[i]);
		q += sprintf(q, "0x%" PRIx64, lp.off[i]);
	}
	q += sprintf(q, " edges=");
	len = 0;
	for (i = 0; i < lp.ns; i++)
		for (j = 0; j < lp.ne; j++) {
			n = eix[i][j];
			if (n < 0)
				continue;
			q += sprintf(q, "%s%d.%d.%u", len++ ? "," : "", i, j, lp.et[n]);
			if (lp.er[n])
				q += sprintf(q, ".r");
			if (lp.eg[n])
				q += sprintf(q, ".g%" PRIu64 "-", lp.elo[n]);
			if (lp.eg[n] && lp.ehi[n])
				q += sprintf(q, "%" PRIu64, lp.ehi[n]);
		}
	q += sprintf(q, " final=");
	len = 0;
	for (i = 0; i < lp.ns; i++)
		if (lp.fin[i])
			q += sprintf(q, "%s%d", len++ ? "," : "", i);
	q += sprintf(q, " initial=%u", lp.initial);
	if (lval[K_CLOCK])
		q += sprintf(q, " clock=%s", lval[K_CLOCK]);
	len = 0;
	for (i = 0; i < lp.ns; i++)
		if (lp.inv[i])
			q += sprintf(q, "%s%d.%" PRIu64, len++ ? "," : " inv=", i, lp.inv[i]);
	r->t.ltab = arena_dup(canon);
	q = canon;
	*q = '\0';
	for (i = 1; i < lp.nf; i++)
		q += sprintf(q, " file%d=%s", i, r->lfile[i]);
	r->t.lfiles = arena_dup(canon);
	r->t.nfiles = lp.nf;
	r->start = lp.off[0];
	r->nloff = lp.ne;
	for (i = 0; i < lp.ne; i++) {
		r->loff[i] = lp.off[i];
		r->lfi[i] = lp.file[i];
	}
	return 0;
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
	if (!strcmp(tok, "a")) {
		r->t.alive = true;
	} else if (!strcmp(tok, "l")) {
		r->t.logic = true;
		return parse_logic_ref(rest, r);
	} else if (strcmp(tok, "p")) {
		return -EINVAL;
	}
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

/* An `l` binding's files beyond PATH: the same inodes, whatever their names */
static bool same_files(const struct terms *a, const struct terms *b)
{
	if (a->nfiles != b->nfiles)
		return false;
	for (int f = 1; f < a->nfiles; f++)
		if (a->fdev[f] != b->fdev[f] || a->fino[f] != b->fino[f])
			return false;
	return true;
}

/*
 * The kernel's "same terms": a removed binding re-added with them is
 * kept. An `l` binding's: its table as text, and its files beyond PATH
 * by inode (file1=link for t0 is the same binding, listed as first
 * written).
 */
static bool same_terms(const struct terms *a, const struct terms *b)
{
	return a->alive == b->alive && a->logic == b->logic &&
	       (!a->logic || (!strcmp(a->ltab, b->ltab) && same_files(a, b))) &&
	       a->ret == b->ret && (a->ret || a->stop == b->stop) &&
	       a->budget == b->budget && a->min == b->min && a->period == b->period &&
	       a->expect == b->expect && a->margin == b->margin &&
	       a->per_task == b->per_task && a->tol_k == b->tol_k && a->tol_w == b->tol_w &&
	       !strcmp(a->tag, b->tag) && a->filter == b->filter && a->fid == b->fid;
}

/* What the model saw in the last monitor write it judged. */
static struct {
	bool blame_alive;	/* refused: the first bad line is an `a` line */
	bool blame_logic;	/* refused: ... an `l` line */
	bool lunsure;		/* refused: ... whose faults are of both classes */
	bool blame_timed;	/* refused: ... a timed `l` line (req.ltimed) */
	bool blame_multi;	/* refused: ... an `l` line of several files (req.lmulti) */
	bool cross;		/* refused: a duplicate of a binding of another verb */
	bool cross_logic;	/* refused: a duplicate, one side an `l` line */
	int adds_alive;		/* accepted: `a` lines */
	int removed_alive;	/* accepted: alive bindings removed */
	int adds_logic;		/* accepted: `l` lines */
	int removed_logic;	/* accepted: logical bindings removed */
	int adds_timed;		/* accepted: timed `l` lines */
	int adds_inv;		/* accepted: `l` lines with invariants */
	int adds_multi;		/* accepted: `l` lines with events in several files */
	int removed_multi;	/* accepted: such logical bindings removed */
	int removed_timed;	/* accepted: timed logical bindings removed */
	int kept;		/* accepted: removed and re-added with the same terms */
} judged;

/* p 0, a 1, l 2 */
static int verb_of(const struct terms *t) { return t->logic ? 2 : t->alive; }

/* Whether @line's verb is @v (before parse_ref() cuts it up). */
static bool verb_is(const char *line, char v)
{
	while (blank(*line))
		line++;
	return line[0] == v && (!line[1] || blank(line[1]));
}

static bool alive_verb(const char *line) { return verb_is(line, 'a'); }
static bool logic_verb(const char *line) { return verb_is(line, 'l'); }

/* An accepted `l` binding's table is timed exactly when it has a clock (the rule) */
static bool ltab_timed(const struct terms *t) { return t->logic && strstr(t->ltab, " clock="); }
static bool ltab_inv(const struct terms *t) { return t->logic && strstr(t->ltab, " inv="); }
static bool ltab_multi(const struct terms *t) { return t->logic && t->nfiles > 1; }

/*
 * Whether a binding has a file on procfs (PATH or a fileN=; lfiles is
 * " fileN=P" tokens, and a path holds no blank): uprobes cannot have
 * such a file's pages, so registering its probes fails (-EIO).
 */
static bool on_procfs(const struct bind *b)
{
	const char *s;

	if (!strncmp(b->path, "/proc/", 6))
		return true;
	for (s = b->t.logic ? b->t.lfiles : ""; (s = strstr(s, " file")); ) {
		s = strchr(s, '=') + 1;
		if (!strncmp(s, "/proc/", 6))
			return true;
	}
	return false;
}

/*
 * An `l` line's files once its line is read, as the module opens them:
 * PATH (@st) a regular file already, then file1= .. in order, each
 * followed through symlinks (stat()): absent is its errno, not a regular
 * file -EINVAL; then every event's offset inside its own file (-EINVAL),
 * not PATH's. Notes the inodes of the files beyond PATH in @r.
 */
static int lfiles_ref(struct req *r, const struct stat *st)
{
	uint64_t size[L_FILES_MAX];
	struct stat fs;
	int f, j;

	size[0] = (uint64_t)st->st_size;
	for (f = 1; f < r->t.nfiles; f++) {
		if (stat(r->lfile[f], &fs))
			return -errno;
		if (!S_ISREG(fs.st_mode))
			return -EINVAL;
		/* one inode under two paths (a link): two probes at one place */
		if (fs.st_dev == st->st_dev && fs.st_ino == st->st_ino)
			return -EINVAL;
		for (j = 1; j < f; j++)
			if (fs.st_dev == r->t.fdev[j] && fs.st_ino == r->t.fino[j])
				return -EINVAL;
		size[f] = (uint64_t)fs.st_size;
		r->t.fdev[f] = fs.st_dev;
		r->t.fino[f] = fs.st_ino;
	}
	for (j = 0; j < r->nloff; j++)
		if (r->loff[j] >= size[r->lfi[j]])
			return -EINVAL;
	return 0;
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
 * checked (a regular file holding START, and STOP for `p`; an `l` line's
 * files and offsets: lfiles_ref()); then each line
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
		judged.blame_logic = logic_verb(line);
		ret = parse_ref(line, r);
		judged.blame_timed = r->ltimed;
		judged.blame_multi = r->lmulti;
		if (ret == 1)
			continue;
		if (ret) {
			judged.lunsure = r->lunsure;
			return ret;
		}
		if (!r->remove) {
			struct bind *b = &adds[nreq];

			if (stat(r->path, &st))
				return -errno;
			/* an `l` line's START, event 0's offset, may be another file's */
			if (!S_ISREG(st.st_mode) ||
			    (!r->t.logic && r->start >= (uint64_t)st.st_size) ||
			    (!r->t.alive && !r->t.logic && !r->t.ret &&
			     r->t.stop >= (uint64_t)st.st_size))
				return -EINVAL;
			if (r->t.logic && (ret = lfiles_ref(r, &st)))
				return ret;
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
		judged.blame_logic = !reqs[i].remove && reqs[i].t.logic;
		judged.blame_timed = judged.blame_logic && reqs[i].ltimed;
		judged.blame_multi = judged.blame_logic && reqs[i].lmulti;
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
				judged.cross = verb_of(&model[k].t) != verb_of(&adds[i].t);
				judged.cross_logic = model[k].t.logic || adds[i].t.logic;
				return -EEXIST;
			}
		}
		for (j = 0; j < i; j++)
			if (!reqs[j].remove && same_section(&adds[j], &adds[i])) {
				judged.cross = verb_of(&adds[j].t) != verb_of(&adds[i].t);
				judged.cross_logic = adds[j].t.logic || adds[i].t.logic;
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
		if (!reqs[i].remove && on_procfs(&adds[i]) && model_enabled) {
			judged.blame_alive = reqs[i].t.alive;
			judged.blame_logic = reqs[i].t.logic;
			judged.blame_timed = reqs[i].t.logic && reqs[i].ltimed;
			judged.blame_multi = reqs[i].t.logic && reqs[i].lmulti;
			return -EIO;
		}
	judged.blame_alive = false;
	judged.blame_logic = false;
	judged.blame_timed = false;
	judged.blame_multi = false;
	*nn = 0;
	for (k = 0; k < nmodel; k++) {
		bool gone = false;

		for (i = 0; i < nreq; i++)
			if (del[i] == k)
				gone = true;
		if (!gone)
			nb[(*nn)++] = model[k];
		else {
			judged.removed_alive += model[k].t.alive;
			judged.removed_logic += model[k].t.logic;
			judged.removed_timed += ltab_timed(&model[k].t);
			judged.removed_multi += ltab_multi(&model[k].t);
		}
	}
	for (i = 0; i < nreq; i++)
		if (!reqs[i].remove) {
			nb[(*nn)++] = adds[i];
			judged.adds_alive += adds[i].t.alive;
			judged.adds_logic += adds[i].t.logic;
			judged.adds_timed += ltab_timed(&adds[i].t);
			judged.adds_inv += ltab_inv(&adds[i].t);
			judged.adds_multi += ltab_multi(&adds[i].t);
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
			if (on_procfs(&model[k]))
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
 * A name of the file @path (inode @dev/@ino): @path, or (@other% of the
 * time, if there is one) another that names the same inode; *@t a target
 * of that file.
 */
static const char *alias_path(const char *path, dev_t dev, ino_t ino, int *t, int other)
{
	int cand[12], n = 0, i;

	*t = 0;
	for (i = 0; i < ntargets; i++) {
		if (!target_ino[i] || target_dev[i] != dev || target_ino[i] != ino)
			continue;
		*t = i;
		if (strcmp(targets[i], path))
			cand[n++] = i;
	}
	if (!n || !chance(other))
		return path;
	*t = cand[below(n)];
	return targets[*t];
}

/* A name of @b's file (alias_path()) */
static const char *alias_of(const struct bind *b, int *t, int other)
{
	return alias_path(b->path, b->dev, b->ino, t, other);
}

/*
 * @t's fileN= (an `l` binding's lfiles), each file named half the time
 * by another path of its inode (link for t0, ./t1 for t1): the same
 * terms to the kernel, which compares those files by inode.
 */
static const char *lfiles_alias(const struct terms *t)
{
	static char out[L_FILES_MAX * (PATH_MAX + 8)], path[PATH_MAX];
	const char *s = t->lfiles, *v;
	char *o = out;
	size_t len;
	int f, k;

	*o = '\0';
	for (f = 1; f < t->nfiles && (s = strstr(s, " file")); f++) {
		v = strchr(s, '=') + 1;
		len = strcspn(v, " ");
		snprintf(path, sizeof(path), "%.*s", (int)len, v);
		o += sprintf(o, " file%d=%s", f, alias_path(path, t->fdev[f], t->fino[f], &k, 50));
		s = v + len;
	}
	return arena_dup(out);
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
	const char *key = chance(50) ? "pid" : "tgid";
	uint64_t id;

	if (chance(90)) {
		id = 1 + below(100000);
	} else {
		id = rnd();
		id >>= below(64);
	}
	*p += sprintf(*p, " %s=%" PRIu64, key, id);
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
			" per=task", " per=process", " file1=/bin/sh", " file2=/" };

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
			"ret=1", "file1=/bin/sh", "file3=/" };

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

/* --- generating `l` lines: random automata and mutations of them */

#define G_STATES 48
#define G_EVENTS 24
#define G_EDGES 900
#define G_NAME 48
#define G_SUFFIX 96
#define G_INV 2048
#define G_FTOK 6

/*
 * A table as it will be written: esuf[i] is edge i's timing as text
 * (".r", ".g5-10", ".r.g7-", or a malformed one; "" none), clock its
 * clock= (written when has_clock, an empty name too), inv its inv=
 * (written when has_inv, an empty value too) and inv2 a second inv=
 * (written when not ""). Its files: nf of them, PATH (path, as written)
 * and file1= .., file f a target ft[f] (ft[0] PATH's); event i in file
 * evf[i], written as its N: unless evpre[i] is not "" (a malformed one,
 * written instead); the fileN= tokens as written, fnum[k]= fpath[k].
 */
struct gtab {
	int ns, ne, ned, nfin, initial;
	char model[G_NAME];
	char st[G_STATES][G_NAME], ev[G_EVENTS][G_NAME];
	uint64_t off[G_EVENTS];
	int ef[G_EDGES], ee[G_EDGES], et[G_EDGES];
	int fin[G_STATES + 4];
	bool has_clock, has_inv;
	char clock[G_NAME];
	char esuf[G_EDGES][G_SUFFIX];
	char inv[G_INV], inv2[G_INV];
	const char *path;
	int nf, ft[L_FILES_MAX], evf[G_EVENTS], nfk, fnum[G_FTOK];
	char evpre[G_EVENTS][24];
	char fpath[G_FTOK][PATH_MAX];
};

/* Set by gen_logic(): the line may have its errno checked (see checked_write()). */
static bool lgen_checkable;

static void gen_ident(char *s, int len)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
	int i;

	s[0] = first[below(sizeof(first) - 1)];
	for (i = 1; i < len; i++)
		s[i] = rest[below(sizeof(rest) - 1)];
	s[len] = '\0';
}

/* mostly short; now and then the longest allowed */
static int gen_name_len(void)
{
	if (chance(6))
		return L_NAME_MAX;
	return 1 + (int)below(chance(80) ? 6 : L_NAME_MAX);
}

/* A name of @len (0: any length) not among @names[0..@n) */
static void gen_unique(char names[][G_NAME], int n, char *out, int len)
{
	int i;

	for (;;) {
		gen_ident(out, len ? len : gen_name_len());
		for (i = 0; i < n && strcmp(names[i], out); i++)
			;
		if (i == n)
			return;
		len = 0;
	}
}

/* An offset in target @t's file not among @g's first @n */
static uint64_t gen_free_off(const struct gtab *g, int n, int t)
{
	uint64_t o;
	int i, tries;

	for (tries = 0; tries < 64; tries++) {
		o = below(target_size[t]);
		for (i = 0; i < n && g->off[i] != o; i++)
			;
		if (i == n)
			return o;
	}
	return g->off[0] + 1 + (uint64_t)n;	/* past the end of a tiny file: refused there */
}

static bool g_has(const struct gtab *g, int f, int e)
{
	for (int i = 0; i < g->ned; i++)
		if (g->ef[i] == f && g->ee[i] == e)
			return true;
	return false;
}

static void g_edge(struct gtab *g, int f, int e, int t)
{
	if (g->ned == G_EDGES)
		return;
	g->ef[g->ned] = f;
	g->ee[g->ned] = e;
	g->et[g->ned] = t;
	g->esuf[g->ned][0] = '\0';
	g->ned++;
}

/* @a[0..@n) the indices 0..@n - 1 in a random order */
static void g_perm(int *a, int n)
{
	int i, j, k;

	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (int)below(i + 1);
		k = a[i];
		a[i] = a[j];
		a[j] = k;
	}
}

/* Whether every state of @g is reachable from @from (the generator's own walk) */
static bool g_all_reached(const struct gtab *g, int from)
{
	bool r[G_STATES] = { false }, changed;
	int i;

	r[from] = true;
	do {
		changed = false;
		for (i = 0; i < g->ned; i++)
			if (g->ef[i] < G_STATES && g->et[i] < G_STATES && r[g->ef[i]] && !r[g->et[i]])
				r[g->et[i]] = changed = true;
	} while (changed);
	for (i = 0; i < g->ns; i++)
		if (!r[i])
			return false;
	return true;
}

/* Names, model and offsets of @ns states and @ne events; event 0 at @start */
static void g_names(struct gtab *g, int ns, int ne, int t, uint64_t start)
{
	int i, j;

	memset(g, 0, sizeof(*g));
	g->ns = ns;
	g->ne = ne;
	g->nf = 1;
	g->ft[0] = t;
	gen_ident(g->model, gen_name_len());
	for (i = 0; i < ns; i++)
		gen_unique(g->st, i, g->st[i], 0);
	for (i = 0; i < ne; i++) {
		gen_unique(g->ev, i, g->ev[i], 0);
		/* now and then a state's name: the namespaces are apart */
		if (i < ns && chance(5)) {
			for (j = 0; j < i && strcmp(g->ev[j], g->st[i]); j++)
				;
			if (j == i)
				strcpy(g->ev[i], g->st[i]);
		}
	}
	g->off[0] = start;
	for (i = 1; i < ne; i++)
		g->off[i] = gen_free_off(g, i, t);
}

/*
 * A valid automaton: a spanning tree from the initial state (each state
 * entered by a (parent, event) pair of its own), every event on an edge,
 * a few more edges, 1..3 final states.
 */
static void gtab_valid(struct gtab *g, int t, uint64_t start, int ns, int ne)
{
	int order[G_STATES], i, j, k, par, e, r;

	g_names(g, ns, ne, t, start);
	g->initial = chance(75) ? 0 : (int)below(ns);
	order[0] = g->initial;
	for (i = 0, j = 1; i < ns; i++)
		if (i != g->initial)
			order[j++] = i;
	for (i = ns - 1; i > 1; i--) {
		j = 1 + (int)below(i);
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	for (i = 1; i < ns; i++) {
		e = -1;
		par = order[below(i)];
		r = (int)below(ne);
		for (k = 0; k < ne && e < 0; k++)
			if (!g_has(g, par, (r + k) % ne))
				e = (r + k) % ne;
		if (e < 0) {	/* the last state entered has no edge out yet */
			par = order[i - 1];
			e = (int)below(ne);
		}
		g_edge(g, par, e, order[i]);
	}
	for (e = 0; e < ne; e++) {
		for (k = 0; k < g->ned && g->ee[k] != e; k++)
			;
		if (k == g->ned) {
			int from = (int)below(ns);

			g_edge(g, from, e, (int)below(ns));
		}
	}
	for (k = (int)below(ns + 1); k > 0; k--) {
		i = (int)below(ns);
		e = (int)below(ne);
		if (!g_has(g, i, e))
			g_edge(g, i, e, (int)below(ns));
	}
	g->nfin = 1 + (int)below(ns < 3 ? ns : 3);
	for (i = 0; i < g->nfin; i++) {
		do {
			g->fin[i] = (int)below(ns);
			for (j = 0; j < i && g->fin[j] != g->fin[i]; j++)
				;
		} while (j < i);
	}
}

/* More states than allowed (ERANGE): a chain, the other events loops on state 0 */
static void gtab_many_states(struct gtab *g, int t, uint64_t start)
{
	int ns = L_STATES_MAX + 1 + (int)below(6), ne = 1 + (int)below(3), i;

	g_names(g, ns, ne, t, start);
	for (i = 0; i + 1 < ns; i++)
		g_edge(g, i, 0, i + 1);
	for (i = 1; i < ne; i++)
		g_edge(g, 0, i, 0);
	g->nfin = 1;
	g->fin[0] = ns - 1;
}

/* More events than allowed (ERANGE): each from state 0 to state 1 */
static void gtab_many_events(struct gtab *g, int t, uint64_t start)
{
	int ne = L_EVENTS_MAX + 1 + (int)below(4), i;

	g_names(g, 2, ne, t, start);
	for (i = 0; i < ne; i++)
		g_edge(g, 0, i, 1);
	g->nfin = 1;
	g->fin[0] = 1;
}

/* One structured fault in a valid @g (target @t): every one EINVAL */
static void gtab_fault(struct gtab *g, int t)
{
	static const char bad[] = "-.!$%^&*+:/~@=\x80\xe9\xff";
	int i, j, k;
	char *name;

	switch (below(13)) {
	case 0:		/* an index out of range */
		i = (int)below(g->ned);
		switch (below(3)) {
		case 0: g->ef[i] = g->ns + (int)below(3); break;
		case 1: g->ee[i] = g->ne + (int)below(3); break;
		default: g->et[i] = g->ns + (int)below(3);
		}
		break;
	case 1:		/* a second edge for a (FROM, EVENT) pair, to the same state or another */
		i = (int)below(g->ned);
		g_edge(g, g->ef[i], g->ee[i], chance(50) ? g->et[i] : (int)below(g->ns));
		break;
	case 2:		/* a state no edge enters */
		if (g->ns < L_STATES_MAX) {
			gen_unique(g->st, g->ns, g->st[g->ns], 0);
			if (chance(60)) {
				int ev = (int)below(g->ne);

				g_edge(g, g->ns, ev, (int)below(g->ns));
			}
			g->ns++;
			break;
		}
		/* fall through */
	case 3:		/* an event on no edge */
		if (g->ne < L_EVENTS_MAX) {
			gen_unique(g->ev, g->ne, g->ev[g->ne], 0);
			g->off[g->ne] = gen_free_off(g, g->ne, t);
			g->ne++;
			break;
		}
		/* fall through */
	case 4:		/* a name too long */
		k = (int)below(3);
		name = k == 0 ? g->model : k == 1 ? g->st[below(g->ns)] : g->ev[below(g->ne)];
		gen_ident(name, L_NAME_MAX + 1 + (int)below(7));
		break;
	case 5:		/* a name with a bad character, a digit first, or empty */
		k = (int)below(3);
		name = k == 0 ? g->model : k == 1 ? g->st[below(g->ns)] : g->ev[below(g->ne)];
		switch (below(4)) {
		case 0:
			name[0] = (char)('0' + below(10));
			break;
		case 1:
			name[0] = '\0';
			break;
		default:
			k = (int)below(strlen(name));
			name[k] = bad[below(sizeof(bad) - 1)];
		}
		break;
	case 6:		/* two states, or two events, of one name */
		if (g->ns >= 2) {
			i = (int)below(g->ns);
			j = (i + 1 + (int)below(g->ns - 1)) % g->ns;
			strcpy(g->st[j], g->st[i]);
		} else if (g->ne >= 2) {
			strcpy(g->ev[1], g->ev[0]);
		} else {
			gen_ident(g->model, L_NAME_MAX + 1);
		}
		break;
	case 7:		/* two events at one offset (of one file: elsewhere it is no fault) */
		if (g->ne >= 2) {
			i = (int)below(g->ne);
			j = (i + 1 + (int)below(g->ne - 1)) % g->ne;
			g->off[j] = g->off[i];
			g->evf[j] = g->evf[i];
		} else {
			g->et[0] = g->ns;
		}
		break;
	case 8:		/* final= out of range, or a final state twice */
		i = chance(50) ? g->ns + (int)below(3) : g->fin[below(g->nfin)];
		g->fin[g->nfin++] = i;
		break;
	case 9:		/* initial= out of range, or a state some others cannot be reached from */
		for (k = 0; k < 4; k++) {
			i = (int)below(g->ns);
			if (!g_all_reached(g, i)) {
				g->initial = i;
				return;
			}
		}
		g->initial = g->ns + (int)below(3);
		break;
	case 10:	/* an event past the end of its file */
		if (g->ne >= 2) {
			i = 1 + (int)below(g->ne - 1);
			g->off[i] = target_size[g->ft[g->evf[i]]] + below(64);
			break;
		}
		/* fall through */
	default:	/* an edge out of range at the other end */
		i = (int)below(g->ned);
		g->et[i] = g->ns + (int)below(3);
	}
}

/* --- events in several files: file1= .. file3= and each event's N: */

/* What a fileN= names when valid: t0..t3, link, ./t1, //t2 (regular files) */
static const int gfile_targets[] = { 0, 1, 2, 3, 5, 7, 8 };

/*
 * A target for file @f of @g, now and then data (a short text: its
 * events must lie in its few dozen bytes): its string none of PATH's or
 * the files' before it.
 */
static int g_file_target(const struct gtab *g, int f)
{
	int k, j;

	for (;;) {
		k = chance(90) ? gfile_targets[below(sizeof(gfile_targets) / sizeof(gfile_targets[0]))] : 4;
		for (j = 1; j < f && g->ft[j] != k; j++)
			;
		if (j == f && strcmp(targets[k], g->path))
			return k;
	}
}

/*
 * An offset in file @f of @g apart from those of its events before @n;
 * now and then another file's event's offset (one offset in two files is
 * two places).
 */
static uint64_t g_file_off(const struct gtab *g, int n, int f)
{
	uint64_t size = (uint64_t)target_size[g->ft[f]], o;
	int i, tries;

	for (tries = 0; tries < 64; tries++) {
		o = below(size);
		if (n && chance(15)) {
			i = (int)below(n);
			if (g->off[i] < size)
				o = g->off[i];
		}
		for (i = 0; i < n && (g->evf[i] != f || g->off[i] != o); i++)
			;
		if (i == n)
			return o;
	}
	return size + (uint64_t)n;	/* past the end: refused there */
}

/* @g's fileN= tokens from its files, in order */
static void g_file_tokens(struct gtab *g)
{
	g->nfk = 0;
	for (int f = 1; f < g->nf; f++) {
		g->fnum[g->nfk] = f;
		strcpy(g->fpath[g->nfk++], targets[g->ft[f]]);
	}
}

/*
 * Events of @g (two at least) in 2..4 files: every file holding one,
 * event 0 in PATH three times in four (its offset is START: in another
 * file only where it fits), the others' offsets drawn again inside their
 * own file.
 */
static void gtab_files(struct gtab *g)
{
	int perm[G_EVENTS], max = g->ne < L_FILES_MAX ? g->ne : L_FILES_MAX, i;

	if (max < 2)
		return;
	g->nf = 2 + (int)below(max - 1);
	for (i = 1; i < g->nf; i++)
		g->ft[i] = g_file_target(g, i);
	g_perm(perm, g->ne);
	if (chance(75))
		for (i = 1; i < g->ne; i++)
			if (perm[i] == 0) {
				perm[i] = perm[0];
				perm[0] = 0;
			}
	for (i = 0; i < g->ne; i++)
		g->evf[perm[i]] = i < g->nf ? i : (int)below(g->nf);
	if (g->evf[0] && g->off[0] >= (uint64_t)target_size[g->ft[g->evf[0]]]) {
		g->evf[perm[0]] = g->evf[0];
		g->evf[0] = 0;
	}
	for (i = 1; i < g->ne; i++)
		if (g->evf[i])
			g->off[i] = g_file_off(g, i, g->evf[i]);
	g_file_tokens(g);
}

/* A fileN= token of @g to spoil: one of its own, else file1= for event @i */
static int g_file_tok(struct gtab *g, int i)
{
	if (!g->nfk) {
		g->ft[1] = g_file_target(g, 1);
		g->nf = 2;
		g->evf[i] = 1;
		g_file_tokens(g);
	}
	return (int)below(g->nfk);
}

/*
 * One fault of @g's files (given files first where it has two events):
 * EINVAL but for a file that is not there (ENOENT, ENOTDIR). An N: out
 * of range or malformed; an event in a file not given (its fileN= gone,
 * or an N: past them); a fileN= no event uses; a gap (the last file
 * numbered one past, or file1= gone); a path twice or PATH's; a path not
 * absolute, empty or with a control byte or DEL; data holding an offset
 * past its end; a directory or a device; a file not there; an offset
 * past its own file's end; two events at one offset of one file; a
 * fileN= twice.
 */
static void gtab_files_fault(struct gtab *g)
{
	static const char *const badn[] = { "0:", "00:", "4:", "04:", "99:",
		"4294967297:", ":", "x:", "-1:", "+1:", "0x1:", "1.:", "1:1:", "1::", "a1:" };
	static const char badc[] = "\x01\x1b\x7f";
	int i, j, k, f;
	char *s;

	if (g->nf < 2)
		gtab_files(g);
	i = (int)below(g->ne);
	switch (below(13)) {
	case 0:		/* an N: out of range or malformed */
	case 1:
		strcpy(g->evpre[i], badn[below(sizeof(badn) / sizeof(badn[0]))]);
		break;
	case 2:		/* an event in a file not given */
		if (g->nfk && chance(70))
			g->nfk--;
		else
			g->evf[i] = g->nf + (int)below(L_FILES_MAX + 1 - g->nf);
		break;
	case 3:		/* a fileN= no event uses */
		if (g->nf < L_FILES_MAX) {
			g->ft[g->nf] = g_file_target(g, g->nf);
			g->nf++;
			g_file_tokens(g);
			break;
		}
		for (k = 0; k < g->ne; k++)
			if (g->evf[k] == g->nf - 1)
				g->evf[k] = 0;
		break;
	case 4:		/* a gap */
		if (g->nfk && g->nf < L_FILES_MAX) {
			g->fnum[g->nfk - 1]++;
			for (k = 0; k < g->ne; k++)
				if (g->evf[k] == g->nf - 1)
					g->evf[k]++;
		} else if (g->nfk) {
			g->nfk--;
			memmove(g->fnum, g->fnum + 1, g->nfk * sizeof(g->fnum[0]));
			memmove(g->fpath, g->fpath + 1, g->nfk * sizeof(g->fpath[0]));
		} else {
			g->fnum[0] = 2;
			strcpy(g->fpath[0], targets[g_file_target(g, 1)]);
			g->nfk = 1;
			g->evf[i] = 2;
		}
		break;
	case 5:		/* a path twice, or PATH's */
		k = g_file_tok(g, i);
		j = (int)below(g->nfk);
		if (j != k && chance(60))
			strcpy(g->fpath[k], g->fpath[j]);
		else
			snprintf(g->fpath[k], PATH_MAX, "%s", g->path);
		break;
	case 6:		/* not absolute, empty, a bad byte */
		k = g_file_tok(g, i);
		s = g->fpath[k];
		switch (below(5)) {
		case 0:
			s[0] = '\0';
			break;
		case 1:
			memmove(s, s + 1, strlen(s));
			break;
		case 2:
			memmove(s, strrchr(s, '/') + 1, strlen(strrchr(s, '/')));
			break;
		case 3:
			memmove(s + 1, strrchr(s, '/'), strlen(strrchr(s, '/')) + 1);
			s[0] = '.';
			break;
		default:
			j = 1 + (int)below(strlen(s));
			memmove(s + j + 1, s + j, strlen(s + j) + 1);
			s[j] = badc[below(sizeof(badc) - 1)];
		}
		break;
	case 7:		/* data, holding an offset past its end */
		g_file_tok(g, i);
		f = 1 + (int)below(g->nf - 1);
		g->ft[f] = 4;
		strcpy(g->fpath[f - 1], targets[4]);
		for (k = 0; k < g->ne && g->evf[k] != f; k++)
			;
		if (k < g->ne)
			g->off[k] = target_size[4] + below(chance(50) ? 64 : (uint64_t)target_size[0]);
		break;
	case 8:		/* a directory or a device */
		k = g_file_tok(g, i);
		strcpy(g->fpath[k], targets[chance(70) ? 6 : 10]);
		break;
	case 9:		/* a file not there, or a path through a file */
		k = g_file_tok(g, i);
		j = (int)below(3);
		if (j == 0)
			strcpy(g->fpath[k], targets[9]);
		else
			snprintf(g->fpath[k], PATH_MAX, j == 1 ? "%s/t0/x" : "%s/none/t1", dir);
		break;
	case 10:	/* an offset past its own file's end */
		for (k = 0; k < g->ne && !g->evf[k]; k++)
			;
		k = k < g->ne ? k : i;
		g->off[k] = target_size[g->ft[g->evf[k]]] + below(64);
		break;
	case 11:	/* two events at one offset of one file */
		if (g->ne >= 2) {
			for (k = 0; k < g->ne && !g->evf[k]; k++)
				;
			i = k < g->ne ? k : i;
			j = (i + 1 + (int)below(g->ne - 1)) % g->ne;
			g->evf[j] = g->evf[i];
			g->off[j] = g->off[i];
			break;
		}
		/* fall through */
	default:	/* a fileN= twice, the same path or another */
		k = g_file_tok(g, i);
		if (g->nfk == G_FTOK)
			break;
		g->fnum[g->nfk] = g->fnum[k];
		strcpy(g->fpath[g->nfk], chance(50) ? g->fpath[k] : targets[g_file_target(g, g->nf)]);
		g->nfk++;
	}
}

/* --- timed tables: a clock, edges that reset it or are guarded by it */

/* The clock's name: mostly its own, now and then the model's or a state's (names apart) */
static void g_clock_name(struct gtab *g)
{
	g->has_clock = true;
	if (chance(5))
		strcpy(g->clock, g->model);
	else if (chance(5))
		strcpy(g->clock, g->st[below(g->ns)]);
	else
		gen_ident(g->clock, gen_name_len());
}

/*
 * A guard some clock value meets, at @s: mostly LO < HI in the first
 * second or two; from 0, with no HI, one ns wide, up to 2^64 - 1, with
 * leading zeros (listed without).
 */
static void gen_guard(char *s)
{
	uint64_t lo, hi;

	switch (below(16)) {
	case 0:
		sprintf(s, ".g0-%" PRIu64, 1 + below(1000000000));
		break;
	case 1: case 2:
		sprintf(s, ".g%" PRIu64 "-", 1 + below(2000000000));
		break;
	case 3:
		lo = 1 + below(1000000000);
		sprintf(s, ".g%" PRIu64 "-%" PRIu64, lo, lo + 1);
		break;
	case 4:
		sprintf(s, ".g%" PRIu64 "-18446744073709551615", below(UINT64_MAX));
		break;
	case 5:
		strcpy(s, chance(50) ? ".g18446744073709551615-" : ".g18446744073709551614-18446744073709551615");
		break;
	case 6:
		lo = below(1000);
		sprintf(s, ".g%03" PRIu64 "-%06" PRIu64, lo, lo + 1 + below(1000));
		break;
	case 7:
		sprintf(s, ".g0-%" PRIu64, 1 + below(1000));
		break;
	default:
		lo = below(1000000000);
		hi = lo + 1 + below(2000000000);
		sprintf(s, ".g%" PRIu64 "-%" PRIu64, lo, hi);
	}
}

/*
 * Time on @g: a clock, and resets and guards on some edges (one at
 * least), every guard met by some clock value; still valid if @g was.
 */
static void gtab_time(struct gtab *g)
{
	int i, n = 0;
	char *s;

	g_clock_name(g);
	for (i = 0; i < g->ned; i++) {
		s = g->esuf[i];
		*s = '\0';
		if (chance(30)) {
			s += sprintf(s, ".r");
			n++;
		}
		if (chance(35)) {
			gen_guard(s);
			n++;
		}
	}
	if (!n) {
		s = g->esuf[below(g->ned)];
		if (chance(50))
			strcpy(s, ".r");
		else
			gen_guard(s);
	}
}

/* Whether @g has time: an inv=, or an edge's timing */
static bool g_timed(const struct gtab *g)
{
	if (g->has_inv)
		return true;
	for (int i = 0; i < g->ned; i++)
		if (g->esuf[i][0])
			return true;
	return false;
}

/*
 * One fault of the clock in a valid @g, timed or not (every one EINVAL):
 * time with no clock=, a clock with no time, a malformed timing, an
 * empty guard, a bad clock name, two guarded edges of one (FROM, EVENT)
 * pair (the guards apart: still nondeterministic).
 */
static void gtab_clock_fault(struct gtab *g)
{
	static const char *const badsuf[] = { ".", "..", ".x", ".R", ".rr", ".r5", ".reset",
		".r.", ".r.r", ".g", ".g5", ".g-5", ".g0-", ".g0-0", ".g00-000", ".g5-10x", ".g5-0",
		".g5-10-", ".g5--10", ".g+5-10", ".g0x5-10", ".g5-0x10", ".G5-10", ".g5-10.",
		".g5-10.r", ".g1-2.g3-4", ".g18446744073709551616-", ".g1-18446744073709551616",
		".g99999999999999999999-", ".r.g", ".r.g0-", ".gr", ".g5-10.5", "..r", ".r..g5-",
		"r", "g5-10", ".g5-10g" };
	static const char bad[] = "-.!$%^&*+:/~@=\x80\xe9\xff";
	int i = (int)below(g->ned), k;
	uint64_t lo, hi;
	char *s;

	switch (below(8)) {
	case 0:		/* time and no clock */
		if (g_timed(g)) {
			g->has_clock = false;
		} else if (chance(50)) {
			strcpy(g->esuf[i], ".r");
		} else {
			gen_guard(g->esuf[i]);
		}
		break;
	case 1:		/* a clock and no time */
		for (k = 0; k < g->ned; k++)
			g->esuf[k][0] = '\0';
		g->has_inv = false;
		if (!g->has_clock)
			g_clock_name(g);
		break;
	case 2:		/* a malformed timing, instead of an edge's or after it */
	case 3:
		s = g->esuf[i];
		if (chance(50))
			*s = '\0';
		strcat(s, badsuf[below(sizeof(badsuf) / sizeof(badsuf[0]))]);
		if (!g->has_clock && chance(80))
			g_clock_name(g);
		break;
	case 4:		/* an empty guard: LO == HI or above it (HI not 0) */
	case 5:
		s = g->esuf[i];
		s += sprintf(s, "%s", chance(30) ? ".r" : "");
		lo = 1 + (chance(10) ? UINT64_MAX - 1 - below(3) : below(1000000000));
		hi = chance(30) ? lo : 1 + below(lo);
		sprintf(s, ".g%" PRIu64 "-%" PRIu64, lo, hi);
		if (!g->has_clock)
			g_clock_name(g);
		break;
	case 6:		/* a bad clock name: too long, a digit first, a bad byte, empty */
		if (!g_timed(g))
			strcpy(g->esuf[i], ".r");
		g_clock_name(g);
		switch (below(4)) {
		case 0:
			gen_ident(g->clock, L_NAME_MAX + 1 + (int)below(7));
			break;
		case 1:
			g->clock[0] = (char)('0' + below(10));
			break;
		case 2: {
			size_t at = below(strlen(g->clock));

			g->clock[at] = bad[below(sizeof(bad) - 1)];
			break;
		}
		default:
			g->clock[0] = '\0';
		}
		break;
	default:	/* an edge's pair twice, guarded [0, N) and [N, -) */
		if (g->ned == G_EDGES)
			break;
		lo = 1 + below(1000000000);
		sprintf(g->esuf[i], "%s.g0-%" PRIu64, chance(30) ? ".r" : "", lo);
		g_edge(g, g->ef[i], g->ee[i], (int)below(g->ns));
		sprintf(g->esuf[g->ned - 1], ".g%" PRIu64 "-", lo);
		if (!g->has_clock)
			g_clock_name(g);
	}
}

/* An invariant's HI: mostly under a second or two; 1, 2^64 - 1, with leading zeros */
static void gen_inv_hi(char *s)
{
	switch (below(12)) {
	case 0:
		strcpy(s, "1");
		break;
	case 1:
		strcpy(s, "18446744073709551615");
		break;
	case 2:
		sprintf(s, "%" PRIu64, 1 + below(UINT64_MAX));
		break;
	case 3:
		sprintf(s, "%06" PRIu64, 1 + below(100000));
		break;
	case 4:
		sprintf(s, "%" PRIu64, 1 + below(1000));
		break;
	default:
		sprintf(s, "%" PRIu64, 1 + below(2000000000));
	}
}

/*
 * Invariants on @g's states into @out: one state most often, else any
 * number of them up to all, each once, in any order or by index, now and
 * then an index with a leading zero (listed without).
 */
static void g_inv_list(const struct gtab *g, char *out)
{
	int order[G_STATES], i, j, k, n;
	char hi[32];

	g_perm(order, g->ns);
	n = chance(55) ? 1 : 1 + (int)below(g->ns);
	if (chance(50))		/* by index */
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && order[j - 1] > order[j]; j--) {
				k = order[j];
				order[j] = order[j - 1];
				order[j - 1] = k;
			}
	for (i = 0; i < n; i++) {
		gen_inv_hi(hi);
		out += sprintf(out, "%s%s%d.%s", i ? "," : "", chance(4) ? "0" : "", order[i], hi);
	}
}

/* Valid invariants on @g (a clock too); a fifth of the time its only time */
static void g_inv(struct gtab *g)
{
	int k;

	g->has_inv = true;
	g_inv_list(g, g->inv);
	if (!g->has_clock)
		g_clock_name(g);
	if (chance(20))
		for (k = 0; k < g->ned; k++)
			g->esuf[k][0] = '\0';
}

/*
 * One fault of an inv= on @g (a clock given, but for the first): an
 * invariant and no clock (EINVAL), more elements than states (ERANGE,
 * whatever they hold), or EINVAL: a malformed element (no '.', no S, no
 * HI, a sign, 0x, junk after HI, an HI that overflows or is 0), a state
 * out of range, a state twice, an empty element, a wrong separator, the
 * key twice, random bytes of its alphabet.
 */
static void gtab_inv_fault(struct gtab *g)
{
	static const char *const badel[] = { "", "0", "0.", ".5", "0.0", "0.000", "0.5x", "0.5.",
		"0.5.6", "0..5", "+0.5", "0.+5", "0.-5", "-0.5", "0.0x5", "0x0.5", "a.5", "0.5-",
		"0.5-10", "0.g5", "0.g5-10", "0.r", "0.18446744073709551616",
		"0.99999999999999999999", "0.184467440737095516150", "0:5", "0-5", "0@5", "0.5e3",
		"0.5=", "00", ".", "..", "0.5.r", "r.5", "0.\x80", "0.5\xe9" };
	static const char *const al[] = { "0", "1", "5", "9", ".", ",", "00", "31", "32", "x", "+",
		"-", "g", "18446744073709551615", "18446744073709551616", "0.1", ".5" };
	const char *bad;
	char *s, *c, st[24];
	size_t len;
	int i, n, k;

	if (!g->has_inv)
		g_inv_list(g, g->inv);
	g->has_inv = true;
	if (!g->has_clock)
		g_clock_name(g);
	s = g->inv + strlen(g->inv);
	switch (below(11)) {
	case 0:		/* an invariant and no clock, the only fault half the time */
		g->has_clock = false;
		if (chance(50))
			for (k = 0; k < g->ned; k++)
				g->esuf[k][0] = '\0';
		break;
	case 1:		/* a malformed element: alone, last or first */
	case 2:
		bad = badel[below(sizeof(badel) / sizeof(badel[0]))];
		len = strlen(bad);
		k = (int)below(3);
		if (k == 0) {
			strcpy(g->inv, bad);
		} else if (k == 1) {
			sprintf(s, ",%s", bad);
		} else {
			memmove(g->inv + len + 1, g->inv, strlen(g->inv) + 1);
			memcpy(g->inv, bad, len);
			g->inv[len] = ',';
		}
		break;
	case 3:		/* a state the model does not have: alone or last */
		k = (int)below(5);
		if (k < 3)
			sprintf(st, "%d", g->ns + k);
		else
			strcpy(st, k == 3 ? "4294967296" : "99999999999999999999");
		if (chance(50))
			sprintf(g->inv, "%s.5", st);
		else
			sprintf(s, ",%s.%" PRIu64, st, 1 + below(1000000));
		break;
	case 4:		/* a state twice (too many elements, with one state) */
		k = (int)below(g->ns);
		n = chance(30);
		s = g->inv + sprintf(g->inv, "%d.%" PRIu64, k, 1 + below(1000000));
		sprintf(s, ",%s%d.%" PRIu64, n ? "0" : "", k, 1 + below(1000000));
		break;
	case 5:		/* an HI of 0: alone or last */
		k = (int)below(g->ns);
		n = chance(70);
		if (chance(50))
			sprintf(g->inv, "%d.%s", k, n ? "0" : "000");
		else
			sprintf(s, ",%d.%s", k, n ? "0" : "000");
		break;
	case 6:		/* more elements than states, whatever they hold; all and an empty one */
		n = chance(30) ? g->ns : g->ns + 1 + (int)below(3);
		s = g->inv;
		for (i = 0; i < n; i++) {
			k = chance(80) ? i % g->ns : (int)below(g->ns + 3);
			s += sprintf(s, "%s%d.%" PRIu64, i ? "," : "", k, 1 + below(1000000));
		}
		if (n == g->ns)
			strcpy(s, ",");
		break;
	case 7:		/* an empty value, an empty element */
		k = (int)below(4);
		c = strchr(g->inv, ',');
		if (k == 0) {
			g->inv[0] = '\0';
		} else if (k == 1) {
			strcpy(s, ",");
		} else if (k == 2) {
			memmove(g->inv + 1, g->inv, strlen(g->inv) + 1);
			g->inv[0] = ',';
		} else if (c) {
			memmove(c + 1, c, strlen(c) + 1);
		} else {
			strcpy(s, ",,");
		}
		break;
	case 8:		/* a wrong separator: between elements, or in one */
		c = strchr(g->inv, ',');
		if (c && chance(50))
			*c = ";:| /"[below(5)];
		else if ((c = strchr(g->inv, '.')))
			*c = ",:-/@_"[below(6)];
		break;
	case 9:		/* the key twice */
		g_inv_list(g, g->inv2);
		break;
	default:	/* random bytes of its alphabet */
		s = g->inv;
		for (n = 1 + (int)below(10); n > 0; n--)
			s += sprintf(s, "%s", al[below(sizeof(al) / sizeof(al[0]))]);
	}
}

/* Token faults (EINVAL): a truncated list, a wrong separator, a key missing, twice, unknown */
static int tok_fault(char tk[][8192], int ntk)
{
	static const char *const unknown[] = { "foo=bar", "threshold=1000000", "period=1000000",
		"expect=1", "margin=0", "min=5", "ret", "stop=1", "state=a", "event=a@1",
		"edge=0.0.0", "finals=0", "Model=x", "model", "=", "states", "clocks=c", "Clock=c",
		"timer=t", "clock", "reset=0.0.0", "Inv=0.5", "invariant=0.5", "inv", "invs=0.5",
		"inv 0.5", "file4=/bin/sh", "file0=/", "file=/", "File1=/", "file01=/", "files=/",
		"file1", "file-1=/" };
	int i = 0, k, n, tries;
	char *v, *c;

	switch (below(5)) {
	case 0:		/* truncated: a trailing or leading comma, an empty value, a cut element */
		i = 1 + (int)below(4);		/* states events edges final */
		v = strchr(tk[i], '=') + 1;
		switch (below(4)) {
		case 0:
			strcat(tk[i], ",");
			break;
		case 1:
			memmove(v + 1, v, strlen(v) + 1);
			*v = ',';
			break;
		case 2:
			*v = '\0';
			break;
		default:	/* "F.E." / "F.E" / "F." ; "NAME@" / "NAME" */
			c = strrchr(v, ',');
			c = c ? c + 1 : v;
			if (i == 2) {
				n = chance(50);
				c = strchr(c, '@');
				if (c)
					c[n] = '\0';
				else
					strcat(tk[i], "@");
			} else if (i == 3) {
				c = strrchr(c, '.');
				if (c)
					c[chance(50)] = '\0';
			} else {	/* states, final: the last element gone, its comma left */
				c = strrchr(v, ',');
				if (c)
					c[1] = '\0';
				else
					*v = '\0';
			}
		}
		break;
	case 1:		/* a wrong separator */
		for (tries = 0; tries < 8; tries++) {
			i = 1 + (int)below(4);
			v = strchr(tk[i], '=') + 1;
			k = (int)below(3);
			c = k == 0 ? strchr(v, ',') : k == 1 ? strchr(v, '@') : strchr(v, '.');
			if (!c)
				continue;
			*c = k == 0 ? ";:| "[below(4)] : k == 1 ? ":#="[below(3)] : ",:-/"[below(4)];
			return ntk;
		}
		strcpy(tk[1], "states=a;b");
		break;
	case 2:		/* a required key missing */
		i = (int)below(5);
		memmove(tk[i], tk[ntk - 1], sizeof(tk[0]));
		ntk--;
		break;
	case 3:		/* a key twice */
		memcpy(tk[ntk], tk[below(ntk)], sizeof(tk[0]));
		ntk++;
		break;
	default:	/* an unknown key, a key of another verb, or a bare token */
		strcpy(tk[ntk++], unknown[below(sizeof(unknown) / sizeof(unknown[0]))]);
	}
	return ntk;
}

/*
 * An `l` line: PATH, the table (model= states= events= edges= final=
 * [initial=] [clock=] [inv=] [file1= ..]) and [per=] [tolerance=] [tag=]
 * [pid=|tgid=]; the keys in the contract's order, or (a fifth of the
 * time) any. A valid automaton, one of too many states or events, or a
 * valid one with a fault; a third of each timed (gtab_time()), two
 * fifths of those with invariants (g_inv()); a third of those of two
 * events or more with events in several files (gtab_files()); a fault in
 * a timed one three times in ten of its clock, twice in ten of its
 * invariants, in an untimed one now and then too; in one of several
 * files about a third of the rest of its files, in others now and then.
 */
static void gen_logic(char *p)
{
	static const char *const pers[] = { "thread", "Task", "", "tasks", "process,task" };
	static struct gtab g;
	static char tk[24][8192];
	const char *path;
	uint64_t start;
	int t, i, ntk = 0, kind = (int)below(100), ns, ne, idx[G_EDGES];
	bool shuffle = chance(20), faulty = false, timed = chance(33), multi;
	char v[64], *q;

	logic_lines++;
	path = pick_section(&t, &start);
	if (tame)
		kind = kind < 88 ? 0 : kind < 92 ? 50 : 70;
	ns = chance(tame ? 95 : 70) ? 1 + (int)below(6) : chance(80) ? 1 + (int)below(L_STATES_MAX) :
	     L_STATES_MAX;
	ne = chance(tame ? 95 : 70) ? 1 + (int)below(4) : chance(80) ? 1 + (int)below(L_EVENTS_MAX) :
	     L_EVENTS_MAX;
	if (kind < 45) {
		gtab_valid(&g, t, start, ns, ne);
	} else if (kind < 50) {
		gtab_many_states(&g, t, start);
		faulty = true;
	} else if (kind < 55) {
		gtab_many_events(&g, t, start);
		faulty = true;
	} else {
		gtab_valid(&g, t, start, ns, ne);
		faulty = true;
	}
	g.path = path;
	multi = g.ne >= 2 && chance(33);
	if (multi)
		gtab_files(&g);
	if (timed)
		gtab_time(&g);
	if (timed && chance(40))
		g_inv(&g);
	if (kind >= 55 && kind < 85) {
		i = (int)below(100);
		if (i < (timed ? 30 : 10)) {
			gtab_clock_fault(&g);
		} else if (i < (timed ? 50 : 15)) {
			gtab_inv_fault(&g);
		} else if (i < (timed ? 50 : 15) + (multi ? 35 : 5)) {
			gtab_files_fault(&g);
			multi_faulty++;
		} else {
			gtab_fault(&g, t);
		}
	}
	timed = g.has_clock || g_timed(&g);
	multi = g.nfk > 0;
	for (i = 0; i < g.ne; i++)
		multi |= g.evf[i] || g.evpre[i][0];
	multi_lines += multi;
	inv_lines += g.has_inv;
	logic_faulty += faulty;
	timed_lines += timed;
	timed_faulty += timed && faulty;
	q = tk[ntk++];
	q += sprintf(q, "model=%s", g.model);
	q = tk[ntk++];
	q += sprintf(q, "states=");
	for (i = 0; i < g.ns; i++)
		q += sprintf(q, "%s%s", i ? "," : "", g.st[i]);
	q = tk[ntk++];
	q += sprintf(q, "events=");
	for (i = 0; i < g.ne; i++) {
		q += sprintf(q, "%s%s@", i ? "," : "", g.ev[i]);
		if (g.evpre[i][0])
			q += sprintf(q, "%s", g.evpre[i]);
		else if (g.evf[i])	/* now and then with a leading zero, listed without */
			q += sprintf(q, "%s%d:", chance(5) ? "0" : "", g.evf[i]);
		gen_offset(&q, g.off[i]);
	}
	q = tk[ntk++];
	q += sprintf(q, "edges=");
	for (i = 0; i < g.ned; i++)
		idx[i] = i;
	if (chance(40))
		for (i = g.ned - 1; i > 0; i--) {
			int j = (int)below(i + 1), x = idx[i];

			idx[i] = idx[j];
			idx[j] = x;
		}
	for (i = 0; i < g.ned; i++)
		q += sprintf(q, "%s%d.%d.%d%s", i ? "," : "", g.ef[idx[i]], g.ee[idx[i]], g.et[idx[i]],
			     g.esuf[idx[i]]);
	q = tk[ntk++];
	q += sprintf(q, "final=");
	for (i = 0; i < g.nfin; i++)
		q += sprintf(q, "%s%d", i ? "," : "", g.fin[i]);
	if (g.initial || chance(30))
		sprintf(tk[ntk++], "initial=%d", g.initial);
	if (g.has_clock)
		sprintf(tk[ntk++], "clock=%s", g.clock);
	if (g.has_inv)
		sprintf(tk[ntk++], "inv=%s", g.inv);
	for (i = 0; i < g.nfk; i++)
		sprintf(tk[ntk++], "file%d=%s", g.fnum[i], g.fpath[i]);
	if (chance(40))
		sprintf(tk[ntk++], "per=%s", !hostile(8) ? (chance(50) ? "process" : "task") :
			pers[below(sizeof(pers) / sizeof(pers[0]))]);
	if (chance(12)) {
		gen_tolerance(v);
		sprintf(tk[ntk++], "tolerance=%s", v);
	}
	if (chance(30)) {
		q = tk[ntk];
		gen_tag(&q);
		memmove(tk[ntk], tk[ntk] + 1, strlen(tk[ntk]));	/* no blank */
		ntk++;
	}
	if (chance(15)) {
		q = tk[ntk];
		gen_filter(&q);
		memmove(tk[ntk], tk[ntk] + 1, strlen(tk[ntk]));
		ntk++;
	}
	if (g.inv2[0])
		sprintf(tk[ntk++], "inv=%s", g.inv2);
	if (kind >= 85)
		ntk = tok_fault(tk, ntk);
	if (shuffle)
		for (i = ntk - 1; i > 0; i--) {
			int j = (int)below(i + 1);
			static char tmp[8192];

			memcpy(tmp, tk[i], sizeof(tmp));
			memcpy(tk[i], tk[j], sizeof(tmp));
			memcpy(tk[j], tmp, sizeof(tmp));
		}
	p += sprintf(p, "l %s", path);
	for (i = 0; i < ntk; i++)
		p += sprintf(p, " %s", tk[i]);
	/* a regular file, keys in order, no duplicate: one errno whatever the checks' order */
	lgen_checkable = !shuffle && !want_dup && t != 6 && t < 9;
}

/* An add: a fifth of them `l` lines, about a quarter `a` lines */
static void gen_add(char *p)
{
	lgen_checkable = false;
	if (chance(20))
		gen_logic(p);
	else if (chance(35))
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
		if (len) {
			size_t at = below(len);

			s[at] ^= (char)(1 << below(8));
		}
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
			"l ", " model=", " states=", " events=", " edges=", " final=",
			" initial=", " initial=0", ",", ".", "@", "@0x10", ".0.", " final=0",
			".r", ".g", ".g1-", ".g0-", ".g5-5", ".r.g1-2", " clock=", " clock=c",
			" inv=", " inv=0.1", " inv=0.18446744073709551615", ",1.5", ".0",
			" file1=", " file1=/", " file2=/", " file3=/dev/null", "1:", "2:", "@1:",
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
/* Set by gen_monitor(): one `l` line whose errno may be checked */
static bool gen_checkable;

static size_t gen_monitor(char *buf)
{
	char line[WBUF];
	size_t n = 0, l;
	bool batch = chance(50);
	int k = batch ? 2 + (int)below(11) : 1, i;

	tame = batch;
	gen_checkable = false;
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
			if (ltab_multi(&c.t))
				c.t.lfiles = lfiles_alias(&c.t);
			if (chance(25)) {
				if (c.t.alive || c.t.logic)
					c.t.per_task = !c.t.per_task;
				else
					c.t.budget = c.t.budget < BUDGET_MAX ? c.t.budget + 1 :
						     c.t.budget - 1;
			}
			print_bind(&q, &c);
			*--q = '\0';
			lines++;
			alive_lines += c.t.alive;
			logic_lines += c.t.logic;
			timed_lines += ltab_timed(&c.t);
			inv_lines += ltab_inv(&c.t);
			multi_lines += ltab_multi(&c.t);
		} else if (kind < 35) {
			want_dup = batch && chance(2);
			gen_add(line);
			want_dup = false;
			gen_checkable = !batch && lgen_checkable;
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
		} else {	/* overlong path: PATH's, or an `l` line's file1= */
			int t;
			size_t pl = 200 + below(PATH_MAX + 200);
			bool alive = chance(35), logic = !alive && chance(30);
			bool file1 = logic && chance(40);

			n += snprintf(buf + n, PATH_MAX + 3, "%c %s",
				      logic ? 'l' : alive ? 'a' : 'p', pick_path(&t));
			if (file1) {
				n += sprintf(buf + n, " model=m states=a events=e@16,f@1:16"
					     " edges=0.0.0,0.1.0 final=0 file1=");
				n += snprintf(buf + n, PATH_MAX, "%s", pick_path(&t));
			}
			memset(buf + n, chance(50) ? '/' : 'a', pl);
			n += pl;
			if (!file1)
				n += sprintf(buf + n, logic ? " model=m states=a events=e@16 edges=0.0.0 final=0" :
					     alive ? ":16 period=1000000 expect=1" :
					     ":16 32 threshold=1000000");
			alive_lines += alive;
			logic_lines += logic;
			multi_lines += file1;
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

		gen_checkable = false;
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
		for (int f = 1; b->t.logic && f < b->t.nfiles; f++)
			if (!stat(r.lfile[f], &st)) {
				b->t.fdev[f] = st.st_dev;
				b->t.fino[f] = st.st_ino;
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

/* -M: no control file; the model plays the kernel */
static bool model_only;
/* The write under way is one generated `l` line whose errno is checked */
static bool cur_checkable;

/* -M: what the kernel would do, by the model: the result, and @after as it would read */
static ssize_t sim_write(int file, const char *data, size_t n, int *err)
{
	size_t eff = file == F_MONITOR && n > PAGE ? PAGE : n;
	bool on = model_enabled;
	char reactor[16];
	int r, nn = 0;

	strcpy(reactor, model_reactor);
	after = before;
	if (file == F_MONITOR) {
		r = eff ? model_monitor(data, eff, nb, &nn) : 1;
		if (r == 0)
			model_snap(&after, nb, nn, model_enabled, model_reactor);
	} else if (file == F_ENABLE) {
		r = model_enable(data, n, &on);
		if (r == 0)
			model_snap(&after, model, nmodel, on, model_reactor);
	} else {
		r = model_reactors(data, n, reactor);
		if (r == 0)
			model_snap(&after, model, nmodel, model_enabled, reactor);
	}
	if (r < 0) {
		*err = -r;
		return -1;
	}
	return r == 1 ? 0 : (ssize_t)eff;
}

/* One write(2) of @n bytes of @data to @fd (@file), checked. */
static void checked_write(int fd, int file, const char *data, size_t n)
{
	ssize_t ret;
	int err = 0, mret = 0, nn = 0;
	size_t eff;
	bool on = model_enabled;
	char reactor[16];

	strcpy(reactor, model_reactor);
	writes++;
	if (model_only) {
		ret = sim_write(file, data, n, &err);
	} else {
		ret = write(fd, data, n);
		err = errno;
		/*
		 * The file written is re-read after every write; all three
		 * every 32 writes and after every failure (a write may only
		 * change its own file).
		 */
		after = before;
		snapshot(&after, ret < 0 || writes % 32 == 0 ? -1 : file);
	}
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
			rejected_logic += judged.blame_logic;
			rejected_timed += judged.blame_timed;
			rejected_multi += judged.blame_multi;
			eexist_cross += mret == -EEXIST && judged.cross;
			eexist_logic += mret == -EEXIST && judged.cross_logic;
			/* a generated `l` line on its own: the contract's errno */
			if (cur_checkable && judged.blame_logic && judged.lunsure) {
				logic_errno_unsure++;
			} else if (cur_checkable && judged.blame_logic) {
				logic_errno_checked++;
				timed_errno_checked += judged.blame_timed;
				multi_errno_checked += judged.blame_multi;
				if (err != -mret)
					fail(&fail_logic_errno, "refused an l line with another errno than the model's",
					     file, data, n, ret, err, mret);
			}
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
		accepted_logic += judged.adds_logic;
		removed_logic += judged.removed_logic;
		accepted_timed += judged.adds_timed;
		accepted_inv += judged.adds_inv;
		accepted_multi += judged.adds_multi;
		removed_multi += judged.removed_multi;
		removed_timed += judged.removed_timed;
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
	fd = model_only ? -1 : ctl_open(wfd, file, O_WRONLY);
	cur_checkable = file == F_MONITOR && gen_checkable;
	if (file == F_MONITOR && n > 1 && chance(5)) {
		/* in pieces: each write(2) on its own must hold the contract */
		cur_checkable = false;
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
	int opt, i, n_alive, n_logic, n_timed, n_multi;

	while ((opt = getopt(argc, argv, "s:n:m:o:M")) != -1) {
		switch (opt) {
		case 'M': model_only = true; break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'n': target = strtoul(optarg, NULL, 0); break;
		case 'm': max_bindings = strtoul(optarg, NULL, 0); break;
		case 'o': out = optarg; break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: tlob-fuzz [-M] [-s SEED] [-n LINES] [-m MAX_BINDINGS] [-o FILE] DIR\n");
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

	if (model_only)
		model_snap(&before, model, 0, false, "nop");
	else
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
	printf("fuzz: logic_lines=%lu accepted_logic=%lu rejected_logic=%lu removed_logic=%lu"
	       " logic_faulty=%lu eexist_logic=%lu\n", logic_lines, accepted_logic, rejected_logic,
	       removed_logic, logic_faulty, eexist_logic);
	printf("fuzz: logic_errno_checked=%lu logic_errno_unsure=%lu logic_errno_wrong=%lu\n",
	       logic_errno_checked, logic_errno_unsure, fail_logic_errno);
	printf("fuzz: timed_lines=%lu accepted_timed=%lu rejected_timed=%lu removed_timed=%lu"
	       " timed_faulty=%lu timed_errno_checked=%lu\n", timed_lines, accepted_timed,
	       rejected_timed, removed_timed, timed_faulty, timed_errno_checked);
	printf("fuzz: inv_lines=%lu accepted_inv=%lu\n", inv_lines, accepted_inv);
	printf("fuzz: files_lines=%lu accepted_files=%lu rejected_files=%lu removed_files=%lu"
	       " files_faulty=%lu files_errno_checked=%lu\n", multi_lines, accepted_multi,
	       rejected_multi, removed_multi, multi_faulty, multi_errno_checked);
	printf("fuzz: rejected_by_errno");
	for (i = 0; i < 256; i++)
		if (by_errno[i])
			printf(" %s=%lu", strerrorname_np(i) ?: "?", by_errno[i]);
	for (i = 0, n_alive = 0, n_logic = 0, n_timed = 0, n_multi = 0; i < nmodel; i++) {
		n_alive += model[i].t.alive;
		n_logic += model[i].t.logic;
		n_timed += ltab_timed(&model[i].t);
		n_multi += ltab_multi(&model[i].t);
	}
	printf("\nfuzz: final bindings=%d alive=%d logic=%d timed=%d files=%d enable=%d reactor=%s\n",
	       nmodel, n_alive, n_logic, n_timed, n_multi, model_enabled, model_reactor);
	if (out) {
		FILE *f = fopen(out, "w");

		model_snap(&want, model, nmodel, model_enabled, model_reactor);
		if (!f || fputs(want.monitor, f) < 0 || fclose(f))
			perror(out);
	}
	return fails ? 1 : 0;
}
