// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the module's monitor-line parser (kernel/shared/tlob_parse.c, the
 * same source the module builds): upstream's vectors and this project's
 * extensions, each with the errno or the fields it must produce. TAP.
 */
#include <stdio.h>

#include "tlob_parse.h"
#include "tlob_logic.h"

static int n, failed;

/* An `l` line's table: every request may parse one (the caller's storage). */
static struct tlob_logic_table table;

static void ok(int cond, const char *name, const char *line)
{
	n++;
	printf("%sok %d - %s: '%s'\n", cond ? "" : "not ", n, name, line);
	if (!cond)
		failed++;
}

/* A line that must fail with @err (or be blank: 1). */
static void bad(const char *line, int err)
{
	char buf[8192];
	struct tlob_req req = { .table = &table };
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &req);
	ok(ret == err, err == -ERANGE ? "ERANGE" : err == 1 ? "blank" : "EINVAL",
	   line);
	if (ret != err)
		printf("# got %d\n", ret);
}

/* tolerance=K/W: what the line gives (1/1 when it names none). */
static void good_tolerance(const char *line, unsigned int k, unsigned int w)
{
	char buf[256];
	struct tlob_req r = { .table = &table };
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	ok(!ret && r.tol_k == k && r.tol_w == w, "tolerance", line);
	if (ret || r.tol_k != k || r.tol_w != w)
		printf("# got %d, %u/%u\n", ret, r.tol_k, r.tol_w);
}

struct want {
	const char *line;
	int remove;
	const char *path;
	u64 start, stop;
	int stop_ret;
	u64 budget;
	const char *tag;
	enum tlob_filter filter;
	u32 id;
	u64 min;
};

static void good(const struct want *w)
{
	char buf[8192];
	struct tlob_req r = { .table = &table };
	int ret;

	snprintf(buf, sizeof(buf), "%s", w->line);
	ret = tlob_parse_line(buf, &r);
	ok(!ret && r.remove == w->remove && !strcmp(r.path, w->path) &&
	   r.start == w->start && r.stop == w->stop &&
	   r.stop_ret == w->stop_ret && r.budget_ns == w->budget &&
	   !strcmp(r.tag, w->tag) && r.filter == w->filter &&
	   r.filter_id == w->id && r.min_ns == w->min, "accepted", w->line);
	if (ret)
		printf("# got %d\n", ret);
}

/* An `a` line (alive supervision) and what it must give. */
static void good_alive(const char *line, const char *path, u64 start,
		       u64 period, u32 expect, u32 margin, enum tlob_per per,
		       unsigned int k, unsigned int w)
{
	char buf[256];
	struct tlob_req r = { .table = &table };
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	ok(!ret && r.alive && !r.remove && !strcmp(r.path, path) &&
	   r.start == start && r.period_ns == period && r.expect == expect &&
	   r.margin == margin && r.per == per && r.tol_k == k && r.tol_w == w &&
	   !r.budget_ns && !r.min_ns && !r.stop && !r.stop_ret, "alive", line);
	if (ret)
		printf("# got %d\n", ret);
}

/* A refused line must say why: the tool words the reason. */
static void why(const char *line, int err, enum tlob_parse_why want)
{
	char buf[256];
	struct tlob_req r = { .table = &table };
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	ok(ret == err && r.why == want, "refused for its reason", line);
	if (ret != err || r.why != want)
		printf("# got %d, why %d (want %d)\n", ret, r.why, want);
}

/*
 * An `l` line accepted: its canonical text (tlob_logic_format()) is
 * @canon, and its START, per=, tolerance= and filter are the ones given.
 */
static void good_logic(const char *line, const char *canon, u64 start,
		       enum tlob_per per, unsigned int k, unsigned int w,
		       enum tlob_filter filter, u32 id)
{
	struct tlob_req r = { .table = &table };
	char buf[8192], got[8192];
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	got[0] = '\0';
	if (!ret)
		tlob_logic_format(&table, r.files, got, sizeof(got));
	ok(!ret && r.logic && !r.alive && !r.remove && !strcmp(r.path, "/a") &&
	   r.start == start && r.per == per && r.tol_k == k && r.tol_w == w &&
	   r.filter == filter && r.filter_id == id && !strcmp(got, canon) &&
	   !r.budget_ns && !r.stop && !r.stop_ret, "logic", line);
	if (ret || strcmp(got, canon))
		printf("# got %d, why %d, '%s'\n", ret, r.why, got);
}

/* An `l` line refused: @err, @want and, for a table rule, @rule. */
static void why_logic(const char *line, int err, enum tlob_parse_why want,
		      enum tlob_logic_rule rule)
{
	struct tlob_req r = { .table = &table };
	char buf[8192];
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	ok(ret == err && r.why == want &&
	   (want != TLOB_WHY_LOGIC_TABLE || r.logic_rule == rule),
	   "logic refused for its reason", line);
	if (ret != err || r.why != want ||
	    (want == TLOB_WHY_LOGIC_TABLE && r.logic_rule != rule))
		printf("# got %d, why %d (want %d), rule %d (want %d): %s\n",
		       ret, r.why, want, r.logic_rule, rule,
		       tlob_logic_rule_text(r.logic_rule));
}

/*
 * The monitor file's listing of an `l` binding (tlob_listing.c: the
 * table's canonical text, then per= always, tolerance=/tag=/pid=/tgid=
 * when given) read back: the same table, byte for byte, and the same
 * terms.
 */
static void roundtrip_logic(const char *line)
{
	static struct tlob_logic_table first;
	struct tlob_req a = { .table = &first }, b = { .table = &table };
	char buf[8192], listed[8192], path[256];
	size_t at;
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &a);
	ok(!ret, "logic line for the round trip", line);
	if (ret)
		return;
	snprintf(path, sizeof(path), "%s", a.path);
	at = snprintf(listed, sizeof(listed), "l %s ", a.path);
	at += tlob_logic_format(&first, a.files, listed + at, sizeof(listed) - at);
	at += snprintf(listed + at, sizeof(listed) - at, " per=%s",
		       a.per == TLOB_PER_TASK ? "task" : "process");
	if (a.tol_w > 1)
		at += snprintf(listed + at, sizeof(listed) - at,
			       " tolerance=%u/%u", a.tol_k, a.tol_w);
	if (a.tag[0])
		at += snprintf(listed + at, sizeof(listed) - at, " tag=%s", a.tag);
	if (a.filter != TLOB_FILTER_NONE)
		snprintf(listed + at, sizeof(listed) - at, " %s=%u",
			 a.filter == TLOB_FILTER_PID ? "pid" : "tgid", a.filter_id);
	snprintf(buf, sizeof(buf), "%s", listed);
	ret = tlob_parse_line(buf, &b);
	ok(!ret && !memcmp(&first, &table, sizeof(table)) &&
	   !strcmp(b.path, path) && b.start == a.start && b.per == a.per &&
	   b.tol_k == a.tol_k && b.tol_w == a.tol_w && !strcmp(b.tag, a.tag) &&
	   b.filter == a.filter && b.filter_id == a.filter_id,
	   "the listing reads back as the same binding", listed);
	if (ret)
		printf("# got %d, why %d\n", ret, b.why);
}

/*
 * An `l` line's files: files[0] is PATH, files[f] its fileN=, numbered as
 * written whatever the order of the keys; the table's file[] says which
 * file each event is in.
 */
static void files_tests(void)
{
	struct tlob_req r = { .table = &table };
	char buf[512];
	int ret;

	snprintf(buf, sizeof(buf), "l /app file3=/l3 file1=/l1 model=m states=s,t "
		 "events=a@1,b@1:1,c@2:1,d@3:5 edges=0.0.1,1.1.0,1.2.0,1.3.0 final=0 "
		 "file2=/l2");
	ret = tlob_parse_line(buf, &r);
	ok(!ret && table.nfiles == 4 && !strcmp(r.files[0], "/app") &&
	   !strcmp(r.files[1], "/l1") && !strcmp(r.files[2], "/l2") &&
	   !strcmp(r.files[3], "/l3") && table.file[0] == 0 && table.file[1] == 1 &&
	   table.file[2] == 2 && table.file[3] == 3 && table.offset[3] == 5 &&
	   r.start == 1, "logic: four files, each event in its own", "/app /l1 /l2 /l3");
	if (ret)
		printf("# got %d, why %d\n", ret, r.why);
	snprintf(buf, sizeof(buf), "l /app model=m states=s events=a@1 edges=0.0.0 final=0");
	ret = tlob_parse_line(buf, &r);
	ok(!ret && table.nfiles == 1 && !strcmp(r.files[0], "/app") && !r.files[1] &&
	   !table.file[0], "logic: one file, PATH", "/app");
}

/* Logical supervision: `l PATH model= states= events= edges= final= ...` */
static void logic_tests(void)
{
	static const char *const roundtrips[] = {
		"l /a model=m states=s events=e@1 edges=0.0.0 final=0",
		"l /usr/bin/app model=flow states=idle,running events=begin@0x1139,end@0x1150 edges=0.0.1,1.1.0 final=0 per=task tolerance=2/5 tag=fl pid=4",
		"l /opt/my:app/bin model=M_1 states=b,a,c events=y@7,x@9 edges=2.1.0,0.0.1,1.1.2,1.0.1 final=2,0 initial=0 tgid=12",
		"l /a model=m states=s0,s1 events=e@1 edges=1.0.0,0.0.1 final=1 initial=1 per=process",
		/* a clock: resets and guards on edges */
		"l /a model=t states=r,f events=b@1,e@2 edges=0.0.1.r,1.1.0.g1000000-33000000 final=0 clock=clk",
		"l /a model=t states=r,f events=b@1,e@2 edges=0.0.1.r.g5-,1.1.0.g0-18446744073709551615 final=0 clock=c per=task",
		/* invariants on states */
		"l /a model=t states=r,f events=b@1,e@2 edges=0.0.1.r,1.1.0 final=0 clock=clk inv=1.33000000",
		"l /a model=t states=r,f,g events=b@1,e@2 edges=0.0.1,1.1.2,2.0.1.r final=0 clock=c inv=2.1,0.18446744073709551615,1.5",
		/* events in several files */
		"l /usr/bin/app model=flow states=idle,running events=begin@0x1139,end@1:0x1150 edges=0.0.1,1.1.0 final=0 file1=/usr/lib/libapp.so.1 per=task",
		"l /a model=m states=s,t,u,v events=a@1,b@3:1,c@2:1,d@1:1 edges=0.0.1,1.1.2,2.2.3,3.3.0 final=0 file3=/d file1=/b file2=/c:x,y@z=1",
	};
	struct tlob_req r = { .table = NULL };
	char buf[512], big[8192];
	size_t i, at;

	good_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0",
		   "model=m states=s events=e@0x1 edges=0.0.0 final=0 initial=0",
		   1, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	/* keys in any order, edges in any order: one canonical text */
	good_logic("l /a final=1 tag=t per=task edges=1.1.0,0.0.1 events=begin@0x10,end@32 states=idle,busy model=flow tolerance=3/8 initial=0 tgid=9",
		   "model=flow states=idle,busy events=begin@0x10,end@0x20 edges=0.0.1,1.1.0 final=1 initial=0",
		   0x10, TLOB_PER_TASK, 3, 8, TLOB_FILTER_TGID, 9);
	good_logic("\tl  /a model=_x9 states=A,B events=go@0x0,back@4 edges=1.1.0,0.0.1 final=0,1 initial=1 pid=3 ",
		   "model=_x9 states=A,B events=go@0x0,back@0x4 edges=0.0.1,1.1.0 final=0,1 initial=1",
		   0, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_PID, 3);
	/* a name of 23 characters, a state with no way out, a self loop */
	good_logic("l /a model=abcdefghijklmnopqrstuvw states=s,t events=e@1,f@2 edges=0.0.1,0.1.0 final=1",
		   "model=abcdefghijklmnopqrstuvw states=s,t events=e@0x1,f@0x2 edges=0.0.1,0.1.0 final=1 initial=0",
		   1, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	/* the clock: reset, guard LO-HI, LO- (no upper bound), clock= anywhere */
	good_logic("l /a clock=clk model=t states=r,f events=b@1,e@2 edges=1.1.0.g1000000-33000000,0.0.1.r final=0",
		   "model=t states=r,f events=b@0x1,e@0x2 edges=0.0.1.r,1.1.0.g1000000-33000000 final=0 initial=0 clock=clk",
		   1, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	good_logic("l /a model=t states=r,f events=b@1,e@2 edges=0.0.1.r.g5-,1.1.0.g0-7 final=0 clock=c",
		   "model=t states=r,f events=b@0x1,e@0x2 edges=0.0.1.r.g5-,1.1.0.g0-7 final=0 initial=0 clock=c",
		   1, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	/* invariants: in any order, listed by state; one alone makes a model timed */
	good_logic("l /a inv=1.7,0.9 model=t states=r,f events=b@1,e@2 edges=0.0.1,1.1.0 final=0 clock=c",
		   "model=t states=r,f events=b@0x1,e@0x2 edges=0.0.1,1.1.0 final=0 initial=0 clock=c inv=0.9,1.7",
		   1, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	/* events in several files: N: names fileN=, listed after the rest */
	good_logic("l /a model=m states=s,t events=b@1,e@1:2 edges=0.0.1,1.1.0 final=0 file1=/lib/x.so",
		   "model=m states=s,t events=b@0x1,e@1:0x2 edges=0.0.1,1.1.0 final=0 initial=0 file1=/lib/x.so",
		   1, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	/* one offset in two files is two places; event 0 may be in any file */
	good_logic("l /a file2=/c events=b@2:0x10,e@1,f@1:0x10 file1=/b model=m states=s,t edges=0.0.1,1.1.0,1.2.1 final=0",
		   "model=m states=s,t events=b@2:0x10,e@0x1,f@1:0x10 edges=0.0.1,1.1.0,1.2.1 final=0 initial=0 file1=/b file2=/c",
		   0x10, TLOB_PER_PROCESS, 1, 1, TLOB_FILTER_NONE, 0);
	files_tests();
	for (i = 0; i < sizeof(roundtrips) / sizeof(roundtrips[0]); i++)
		roundtrip_logic(roundtrips[i]);

	/* the largest table: 32 states in a ring of 16 events */
	at = snprintf(big, sizeof(big), "l /a model=big states=");
	for (i = 0; i < TLOB_LOGIC_STATES_MAX; i++)
		at += snprintf(big + at, sizeof(big) - at, "%sstate_%zu", i ? "," : "", i);
	at += snprintf(big + at, sizeof(big) - at, " events=");
	for (i = 0; i < TLOB_LOGIC_EVENTS_MAX; i++)
		at += snprintf(big + at, sizeof(big) - at, "%sev%zu@%zu", i ? "," : "", i, 100 + i);
	at += snprintf(big + at, sizeof(big) - at, " edges=");
	for (i = 0; i < TLOB_LOGIC_STATES_MAX; i++)
		at += snprintf(big + at, sizeof(big) - at, "%s%zu.%zu.%zu", i ? "," : "",
			       i, i % TLOB_LOGIC_EVENTS_MAX, (i + 1) % TLOB_LOGIC_STATES_MAX);
	snprintf(big + at, sizeof(big) - at, " final=31");
	roundtrip_logic(big);
	/* 33 states, 17 events: -ERANGE */
	strcpy(strstr(big, " events="), ",s32 events=e@1 edges=0.0.0 final=0");
	why_logic(big, -ERANGE, TLOB_WHY_LOGIC_RANGE, 0);
	why_logic("l /a model=m states=s events=a@1,b@2,c@3,d@4,e@5,f@6,g@7,h@8,i@9,j@10,k@11,l@12,m@13,n@14,o@15,p@16,q@17 edges=0.0.0 final=0",
		  -ERANGE, TLOB_WHY_LOGIC_RANGE, 0);
	/* more edges than states x events */
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0,0.0.0 final=0",
		  -ERANGE, TLOB_WHY_LOGIC_RANGE, 0);

	/* a caller with no table takes no `l` line */
	snprintf(buf, sizeof(buf), "l /a model=m states=s events=e@1 edges=0.0.0 final=0");
	ok(tlob_parse_line(buf, &r) == -EINVAL && r.why == TLOB_WHY_VERB,
	   "no table: refused as a verb", buf);
	/* a line of another verb leaves the table alone */
	memset(&table, 0x5a, sizeof(table));
	r.table = &table;
	snprintf(buf, sizeof(buf), "p /a:1 2 threshold=5000");
	ok(!tlob_parse_line(buf, &r) && !r.logic && r.table == &table &&
	   ((unsigned char *)&table)[sizeof(table) - 1] == 0x5a &&
	   table.nstates == 0x5a, "a `p` line leaves the table alone", buf);

	/* missing keys, malformed lists and names */
	why_logic("l /a states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_MISSING, 0);
	why_logic("l /a model=m events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_MISSING, 0);
	why_logic("l /a model=m states=s edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_MISSING, 0);
	why_logic("l /a model=m states=s events=e@1 final=0", -EINVAL, TLOB_WHY_LOGIC_MISSING, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0", -EINVAL, TLOB_WHY_LOGIC_MISSING, 0);
	why_logic("l /a", -EINVAL, TLOB_WHY_LOGIC_MISSING, 0);
	why_logic("l", -EINVAL, TLOB_WHY_PATH, 0);
	why_logic("l a model=m states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_PATH, 0);
	why_logic("l model=m states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_PATH, 0);
	why_logic("l /a\x01 model=m states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_PATH_CHAR, 0);
	why_logic("l /a model= states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=9m states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=m-1 states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=abcdefghijklmnopqrstuvwx states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=m states=s,t.u events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=m states= events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s,,t events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s, events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=m states=s events=e@ edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@-1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@0x8000000000000000 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1@2 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.x.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges= final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=-0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=a", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 initial=", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 initial=x", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	/* each key once, and only the `l` verb's */
	why_logic("l /a model=m model=m states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 final=0", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 per=task per=task", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 threshold=5000", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 period=100000", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 color=red", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 junk", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a 0x10 model=m states=s events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("p /a:1 2 threshold=5000 model=m", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("a /a:1 period=100000 expect=1 states=s", -EINVAL, TLOB_WHY_OPTION, 0);
	/* the terms it shares with the other verbs, checked as theirs */
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 per=thread", -EINVAL, TLOB_WHY_PER, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 tolerance=3/2", -ERANGE, TLOB_WHY_TOLERANCE_RANGE, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 tag=a/b", -EINVAL, TLOB_WHY_TAG, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 pid=1 tgid=1", -EINVAL, TLOB_WHY_FILTER, 0);
	/* the table's rules */
	why_logic("l /a model=m states=s events=e@1 edges=0.1.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_EDGE);
	why_logic("l /a model=m states=s events=e@1 edges=1.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_EDGE);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.1 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_EDGE);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.99999999999 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_EDGE);
	why_logic("l /a model=m states=s,t events=e@1 edges=0.0.1,0.0.1 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_NONDET);
	why_logic("l /a model=m states=s,t events=e@1 edges=0.0.1,0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_NONDET);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=1", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FINAL);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0,0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FINAL);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=40", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FINAL);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 initial=1", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_INITIAL);
	why_logic("l /a model=m states=s,t events=e@1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_UNREACHABLE);
	why_logic("l /a model=m states=s,t events=e@1 edges=1.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_UNREACHABLE);
	why_logic("l /a model=m states=s,t events=e@1 edges=0.0.1 final=0 initial=1", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_UNREACHABLE);
	why_logic("l /a model=m states=s events=e@1,f@2 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_UNUSED_EVENT);
	why_logic("l /a model=m states=s,s events=e@1 edges=0.0.1,1.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_STATE_DUP);
	why_logic("l /a model=m states=s events=e@1,e@2 edges=0.0.0,0.1.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_EVENT_DUP);
	why_logic("l /a model=m states=s events=e@1,f@0x1 edges=0.0.0,0.1.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_OFFSET_DUP);
	why_logic("l /a model=m states=s events=g@1,e@1:1,f@1:0x1 edges=0.0.0,0.1.0,0.2.0 final=0 file1=/b", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_OFFSET_DUP);
	/* files: an event in a file not given, a file with no event, N out of range */
	why_logic("l /a model=m states=s events=e@1,f@1:2 edges=0.0.0,0.1.0 final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FILES);
	why_logic("l /a model=m states=s events=e@1,f@2:2 edges=0.0.0,0.1.0 final=0 file1=/b", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FILES);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 file1=/b", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FILES);
	why_logic("l /a model=m states=s events=e@1:1 edges=0.0.0 final=0 file1=/b", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_FILES);
	why_logic("l /a model=m states=s events=e@4:1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@0:1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@:1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1: edges=0.0.0 final=0 file1=/b", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@x:1 edges=0.0.0 final=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1:1:1 edges=0.0.0 final=0 file1=/b", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	/* fileN=: relative, empty, a control byte, PATH again, twice, a gap, N past 3, repeated */
	why_logic("l /a model=m states=s events=e@1,f@1:1 edges=0.0.0,0.1.0 final=0 file1=b", -EINVAL, TLOB_WHY_LOGIC_FILE, 0);
	why_logic("l /a model=m states=s events=e@1,f@1:1 edges=0.0.0,0.1.0 final=0 file1=", -EINVAL, TLOB_WHY_LOGIC_FILE, 0);
	why_logic("l /a model=m states=s events=e@1,f@1:1 edges=0.0.0,0.1.0 final=0 file1=/b\x01", -EINVAL, TLOB_WHY_LOGIC_FILE, 0);
	why_logic("l /a model=m states=s events=e@1,f@1:1 edges=0.0.0,0.1.0 final=0 file1=/a", -EINVAL, TLOB_WHY_LOGIC_FILE, 0);
	why_logic("l /a model=m states=s events=e@1,f@1:1,g@2:1 edges=0.0.0,0.1.0,0.2.0 final=0 file1=/b file2=/b", -EINVAL, TLOB_WHY_LOGIC_FILE, 0);
	why_logic("l /a model=m states=s events=e@1,f@2:1 edges=0.0.0,0.1.0 final=0 file2=/b", -EINVAL, TLOB_WHY_LOGIC_FILE, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 file4=/b", -EINVAL, TLOB_WHY_OPTION, 0);
	why_logic("l /a model=m states=s events=e@1,f@1:1 edges=0.0.0,0.1.0 final=0 file1=/b file1=/c", -EINVAL, TLOB_WHY_OPTION, 0);
	why("p /a:0x10 0x20 threshold=5000 file1=/b", -EINVAL, TLOB_WHY_OPTION);
	why("a /a:0x10 period=1000000 expect=5 file1=/b", -EINVAL, TLOB_WHY_OPTION);
	/* the clock: each edge's timing malformed */
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0. final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.x final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.r.r final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.r. final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g5-3.r final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g5 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g-5 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g0- final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g0-0 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g5-0 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g18446744073709551616- final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g1-x final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.r final=0 clock=9c", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.r final=0 clock=", -EINVAL, TLOB_WHY_LOGIC_NAME, 0);
	/* ... and the table's rules for it */
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g5-5 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_GUARD);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g7-5 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_GUARD);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.r final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_CLOCK);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.g1- final=0", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_CLOCK);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_CLOCK);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0.r final=0 clock=c clock=c", -EINVAL, TLOB_WHY_OPTION, 0);
	/* invariants: malformed, repeated, on no state, with no clock */
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0.", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0.0", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0.5x", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0.18446744073709551616", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s,t events=e@1 edges=0.0.1,1.0.0 final=0 clock=c inv=0.5,0.6", -EINVAL, TLOB_WHY_LOGIC_LIST, 0);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0.5,0.6", -ERANGE, TLOB_WHY_LOGIC_RANGE, 0);
	why_logic("l /a model=m states=s,t events=e@1 edges=0.0.1,1.0.0 final=0 clock=c inv=2.5", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_INVARIANT);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 inv=0.5", -EINVAL, TLOB_WHY_LOGIC_TABLE, TLOB_LOGIC_RULE_CLOCK);
	why_logic("l /a model=m states=s events=e@1 edges=0.0.0 final=0 clock=c inv=0.5 inv=0.5", -EINVAL, TLOB_WHY_OPTION, 0);
}

/* tlob_logic_check() on tables no line can make: what it must refuse. */
static void check_tests(void)
{
	struct tlob_logic_table t;
	enum tlob_logic_rule rule;
	unsigned int at;
	int ret;

	memset(&t, 0, sizeof(t));
	memset(t.next, TLOB_LOGIC_NONE, sizeof(t.next));
	strcpy(t.model, "m");
	strcpy(t.state[0], "s");
	strcpy(t.state[1], "t");
	strcpy(t.event[0], "e");
	t.offset[0] = 1;
	t.nfiles = 1;
	t.nstates = 2;
	t.nevents = 1;
	t.nedges = 2;
	t.final = 1;
	t.next[0][0] = 1;
	t.next[1][0] = 0;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(!ret && rule == TLOB_LOGIC_RULE_NONE, "check: a good table", "s -e-> t -e-> s");
	/* its files: none, more than the maximum, an event in a file past them */
	t.nfiles = 0;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_FILES, "check: no file", "nfiles 0");
	t.nfiles = TLOB_LOGIC_FILES_MAX + 1;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_FILES, "check: too many files", "nfiles 5");
	t.nfiles = 1;
	t.file[0] = 1;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_FILES && at == 0,
	   "check: an event in a file past nfiles", "file[0] 1");
	t.nfiles = 2;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_FILES && at == 0,
	   "check: a file with no event", "file 0 empty");
	t.file[0] = 0;
	t.nfiles = 1;
	t.next[1][0] = 2;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_EDGE && at == 1, "check: next beyond the states", "t -e-> 2");
	t.next[1][0] = 0;
	t.nedges = 3;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_NEDGES, "check: nedges wrong", "3");
	t.nedges = 2;
	t.nstates = 0;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_NSTATES, "check: no state", "0");
	t.nstates = 33;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -ERANGE && rule == TLOB_LOGIC_RULE_NSTATES, "check: 33 states", "33");
	t.nstates = 2;
	t.nevents = 17;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -ERANGE && rule == TLOB_LOGIC_RULE_NEVENTS, "check: 17 events", "17");
	t.nevents = 0;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_NEVENTS, "check: no event", "0");
	t.nevents = 1;
	t.final = 0;
	ret = tlob_logic_check(&t, &rule, NULL);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_FINAL, "check: no final state", "0");
	t.final = 4;
	ret = tlob_logic_check(&t, NULL, NULL);
	ok(ret == -EINVAL, "check: a final state beyond the states", "4");
	t.final = 1;
	t.initial = 2;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_INITIAL, "check: initial beyond the states", "2");
	t.initial = 0;
	memset(t.model, 'x', sizeof(t.model));
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_NAME, "check: a name not NUL-terminated", "model");
	strcpy(t.model, "m");
	/* the clock's parts where the table has no edge, a clock not NUL-terminated */
	strcpy(t.clock, "c");
	t.reset[0] = 1;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(!ret && rule == TLOB_LOGIC_RULE_NONE, "check: a clock reset on an edge", "s -e;reset-> t");
	t.reset[0] = 2;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_GUARD && at == 0, "check: a reset on no edge", "event 1");
	t.reset[0] = 1;
	t.hi[5][0] = 10;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_GUARD && at == 5, "check: a guard beyond the states", "state 5");
	t.hi[5][0] = 0;
	t.lo[1][15] = 1;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_GUARD && at == 1, "check: a guard beyond the events", "event 15");
	t.lo[1][15] = 0;
	t.reset[0] = 0;
	t.inv[1] = 5;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(!ret && rule == TLOB_LOGIC_RULE_NONE, "check: an invariant alone times the model", "t: c < 5");
	t.inv[31] = 5;
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_INVARIANT && at == 31, "check: an invariant beyond the states", "state 31");
	t.inv[31] = 0;
	t.clock[0] = '\0';
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_CLOCK, "check: an invariant and no clock", "t: < 5");
	t.inv[1] = 0;
	t.reset[0] = 1;
	memset(t.clock, 'c', sizeof(t.clock));
	ret = tlob_logic_check(&t, &rule, &at);
	ok(ret == -EINVAL && rule == TLOB_LOGIC_RULE_NAME, "check: a clock not NUL-terminated", "clock");
}

int main(void)
{
	static const struct want goods[] = {
		/* upstream */
		{ "p /usr/bin/myapp:4768 4848 threshold=5000000", 0,
		  "/usr/bin/myapp", 4768, 4848, 0, 5000000, "", TLOB_FILTER_NONE, 0, 0 },
		{ "p /opt/my:app/bin:0x100 0x200 threshold=1000000", 0,
		  "/opt/my:app/bin", 0x100, 0x200, 0, 1000000, "", TLOB_FILTER_NONE, 0, 0 },
		{ "-/usr/bin/myapp:4768", 1, "/usr/bin/myapp", 4768, 0, 0, 0, "",
		  TLOB_FILTER_NONE, 0, 0 },
		{ "-/opt/my:app/bin:0x100", 1, "/opt/my:app/bin", 0x100, 0, 0, 0, "",
		  TLOB_FILTER_NONE, 0, 0 },
		/* bounds are inclusive */
		{ "p /a:1 2 threshold=1000", 0, "/a", 1, 2, 0, 1000, "",
		  TLOB_FILTER_NONE, 0, 0 },
		{ "p /a:1 2 threshold=3600000000000", 0, "/a", 1, 2, 0,
		  3600000000000ULL, "", TLOB_FILTER_NONE, 0, 0 },
		/* extensions, whitespace */
		{ "p /a:0x10 ret threshold=5000 tag=frame_1.x-y pid=42", 0, "/a",
		  0x10, 0, 1, 5000, "frame_1.x-y", TLOB_FILTER_PID, 42, 0 },
		{ "\tp  /a:0x10   0x20 tgid=7 threshold=5000 tag=t \r", 0, "/a",
		  0x10, 0x20, 0, 5000, "t", TLOB_FILTER_TGID, 7, 0 },
		{ "p /a:0 1 threshold=5000", 0, "/a", 0, 1, 0, 5000, "",
		  TLOB_FILTER_NONE, 0, 0 },
		/* min=: below the threshold, before or after it */
		{ "p /a:1 2 threshold=5000 min=4999", 0, "/a", 1, 2, 0, 5000, "",
		  TLOB_FILTER_NONE, 0, 4999 },
		{ "p /a:1 2 min=1 tag=m threshold=5000", 0, "/a", 1, 2, 0, 5000, "m",
		  TLOB_FILTER_NONE, 0, 1 },
		/* a path may hold any byte but blanks and control bytes */
		{ "p /opt/\xc3\xbc=#,/app:1 2 threshold=5000", 0,
		  "/opt/\xc3\xbc=#,/app", 1, 2, 0, 5000, "", TLOB_FILTER_NONE, 0, 0 },
	};
	static const char * const einval[] = {
		/* upstream */
		"p :0x100 0x200 threshold=5000",
		"p /usr/bin/myapp:0x100 threshold=5000000",
		"p /usr/bin/myapp:0x100 0x100 threshold=5000000",
		"-usr/bin/myapp:0x100",
		"-/usr/bin/myapp",
		"-/usr/bin/myapp:-1",
		"-/usr/bin/myapp:abc",
		/* this project's bad input */
		"p usr/bin/myapp:0x100 0x200 threshold=5000",
		"p /a 0x200 threshold=5000",
		"p /a: 0x200 threshold=5000",
		"p /a:0x 0x200 threshold=5000",
		"p /a:0xzz 0x200 threshold=5000",
		"p /a:+1 0x200 threshold=5000",
		"p /a:1 12ab threshold=5000",
		"p /a:1 -2 threshold=5000",
		"p /a:1 2",
		"p /a:1 2 threshold=",
		"p /a:1 2 threshold=abc",
		"p /a:1 2 threshold=1e6",
		"p /a:1 2 threshold=-5",
		"p /a:1 2 threshold=0x1000",
		"p /a:1 2 threshold=5000 threshold=6000",
		"p /a:1 2 threshold=5000 junk",
		"p /a:1 2 threshold=5000 color=red",
		"p /a:1 2 threshold=5000 tag=",
		"p /a:1 2 threshold=5000 tag=0123456789abcdef",
		"p /a:1 2 threshold=5000 tag=a/b",
		"p /a:1 2 threshold=5000 tag=a tag=b",
		"p /a:1 2 threshold=5000 pid=0",
		"p /a:1 2 threshold=5000 pid=12x",
		"p /a:1 2 threshold=5000 pid=-1",
		"p /a:1 2 threshold=5000 pid=4294967296",
		"p /a:1 2 threshold=5000 pid=1 tgid=1",
		"p /a:1 2 threshold=5000 pid=1 pid=2",
		"p /a:1 2 threshold=5000 min=",
		"p /a:1 2 threshold=5000 min=abc",
		"p /a:1 2 threshold=5000 min=-1",
		"p /a:1 2 threshold=5000 min=0x10",
		"p /a:1 2 threshold=5000 min=10 min=20",
		"p /a:1 2 min=10",
		"p /a:1 2 threshold=5000 tolerance=",
		"p /a:1 2 threshold=5000 tolerance=3",
		"p /a:1 2 threshold=5000 tolerance=/5",
		"p /a:1 2 threshold=5000 tolerance=3/",
		"p /a:1 2 threshold=5000 tolerance=a/5",
		"p /a:1 2 threshold=5000 tolerance=3/b",
		"p /a:1 2 threshold=5000 tolerance=3/5/7",
		"p /a:1 2 threshold=5000 tolerance=-1/5",
		"p /a:1 2 threshold=5000 tolerance=0x3/5",
		"p /a:1 2 threshold=5000 tolerance=3/5 tolerance=3/5",
		"p /a:1 2 tolerance=3/5",
		"p /a:99999999999999999999 2 threshold=5000",
		"p /a:0x8000000000000000 2 threshold=5000",
		"-/a:0x100 junk",
		"x /a:1 2 threshold=5000",
		"p",
		"p/a:1 2 threshold=5000",
		"P /a:1 2 threshold=5000",
		/* what a line cannot carry: control bytes in a path or tag */
		"p /a\x01" "b:1 2 threshold=5000",
		"p /a\vb:1 2 threshold=5000",
		"p /a\fb:1 2 threshold=5000",
		"p /a\x7f:1 2 threshold=5000",
		"p /a\x1b[2J:1 2 threshold=5000",
		"-/a\x01" "b:1",
		"p /a:1 2 threshold=5000 tag=a\vb",
		"p /a:1 2 threshold=5000 tag=\xc3\xbc",
		/* the listing's "no tag" */
		"p /a:1 2 threshold=5000 tag=-",
		"a /a:7 period=100000 expect=1 tag=-",
		/* a number is its digits: kstrto*() would take a newline, a sign, 0x twice */
		"p /a:1 2 threshold=5000 tolerance=1/2\n",
		"p /a:1 2 threshold=5000 tolerance=1\n/2",
		"p /a:1 2 threshold=5000 tolerance=+1/2",
		"p /a:1 2 threshold=5000 tolerance=1/+2",
		"p /a:1 2 threshold=5000\n",
		"p /a:1 2 threshold=+5000",
		"p /a:1 2 threshold=5000 min=10\n",
		"p /a:1 2 threshold=5000 pid=7\n",
		"p /a:1 2 threshold=5000 pid=+7",
		"p /a:1\n 2 threshold=5000",
		"p /a:1 2\n threshold=5000",
		"p /a:0x0x10 2 threshold=5000",
		"p /a:0x+10 2 threshold=5000",
		"p /a:0x 2 threshold=5000",
		"p /a:0x-1 2 threshold=5000",
		"-/a:1\n",
		"a /a:7 period=100000\n expect=1",
		"a /a:7 period=100000 expect=1\n",
		"a /a:7 period=100000 expect=+1",
		"a /a:7 period=100000 expect=2 margin=1\n",
		"a /a:7 period=+100000 expect=1",
		/* empty fields of a list */
		"l /a model=m states=a,,b events=e@1 edges=0.0.1 final=0",
		"l /a model=m states=a,b, events=e@1 edges=0.0.1 final=0",
		"l /a model=m states=a,b events=e@1,,f@2 edges=0.0.1,1.1.0 final=0",
		"l /a model=m states=a,b events=e@1 edges=0.0.1, final=0",
		"l /a model=m states=a,b events=e@1 edges=,0.0.1 final=0",
		"l /a model=m states=a,b events=e@1 edges=0.0.1 final=0,",
		"l /a model=m states=a,b events=e@1\n edges=0.0.1 final=0",
		"l /a model=m states=a,b events=e@+1 edges=0.0.1 final=0",
	};
	static const char * const erange[] = {
		"p /usr/bin/myapp:0x100 0x200 threshold=0",
		"p /usr/bin/myapp:0x100 0x200 threshold=999",
		"p /usr/bin/myapp:0x100 0x200 threshold=3600000000001",
		"p /a:1 2 threshold=99999999999999999999999",
		"p /a:1 2 threshold=5000 min=0",
		"p /a:1 2 threshold=5000 min=5000",
		"p /a:1 2 min=6000 threshold=5000",
		"p /a:1 2 threshold=5000 min=99999999999999999999999",
		"p /a:1 2 threshold=5000 tolerance=0/5",
		"p /a:1 2 threshold=5000 tolerance=6/5",
		"p /a:1 2 threshold=5000 tolerance=3/65",
		"p /a:1 2 threshold=5000 tolerance=1/99999999999",
	};
	char longline[TLOB_LINE_MAX + 64];
	size_t i;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++)
		good(&goods[i]);
	for (i = 0; i < sizeof(einval) / sizeof(einval[0]); i++)
		bad(einval[i], -EINVAL);
	for (i = 0; i < sizeof(erange) / sizeof(erange[0]); i++)
		bad(erange[i], -ERANGE);
	/* decimal offsets are decimal: a leading 0 is no octal */
	good(&(struct want){ "p /a:010 0X1F threshold=5000", 0, "/a", 10, 0x1f, 0, 5000, "",
			     TLOB_FILTER_NONE, 0, 0 });
	/* hex digits after the 0x, a letter first too (found by fuzz-monline) */
	good(&(struct want){ "p /a:0xa 0xFf threshold=5000", 0, "/a", 0xa, 0xff, 0, 5000, "",
			     TLOB_FILTER_NONE, 0, 0 });
	bad("", 1);
	bad(" \t ", 1);
	good_tolerance("p /a:1 2 threshold=5000", 1, 1);
	good_tolerance("p /a:1 2 threshold=5000 tolerance=3/10", 3, 10);
	good_tolerance("p /a:1 2 tolerance=2/5 threshold=5000 tag=t", 2, 5);
	good_tolerance("p /a:1 2 threshold=5000 tolerance=64/64", 64, 64);
	good_tolerance("p /a:1 2 threshold=5000 tolerance=1/1", 1, 1);
	/* alive supervision: `a PATH:CHECKPOINT period= expect= ...` */
	good_alive("a /usr/bin/app:0x1234 period=10000000 expect=10",
		   "/usr/bin/app", 0x1234, 10000000, 10, 0, TLOB_PER_PROCESS, 1, 1);
	good_alive("a /a:7 expect=5 margin=2 period=100000 per=task tolerance=2/4",
		   "/a", 7, 100000, 5, 2, TLOB_PER_TASK, 2, 4);
	good_alive("a /a:7 period=3600000000000 expect=1000000 margin=1000000 per=process",
		   "/a", 7, 3600000000000ULL, 1000000, 1000000, TLOB_PER_PROCESS, 1, 1);
	good_alive("\ta  /a:7 period=100000 expect=1 tag=hb tgid=9 ", "/a", 7, 100000,
		   1, 0, TLOB_PER_PROCESS, 1, 1);
	why("a /a:7 expect=1", -EINVAL, TLOB_WHY_NO_PERIOD);
	why("a /a:7 period=100000", -EINVAL, TLOB_WHY_NO_EXPECT);
	why("a /a:7 period=99999 expect=1", -ERANGE, TLOB_WHY_PERIOD_RANGE);
	why("a /a:7 period=3600000000001 expect=1", -ERANGE, TLOB_WHY_PERIOD_RANGE);
	why("a /a:7 period=1e6 expect=1", -EINVAL, TLOB_WHY_PERIOD);
	why("a /a:7 period=100000 expect=0", -EINVAL, TLOB_WHY_EXPECT);
	why("a /a:7 period=100000 expect=1000001", -EINVAL, TLOB_WHY_EXPECT);
	why("a /a:7 period=100000 expect=-1", -EINVAL, TLOB_WHY_EXPECT);
	why("a /a:7 period=100000 expect=3 margin=4", -EINVAL, TLOB_WHY_MARGIN);
	why("a /a:7 period=100000 expect=3 margin=x", -EINVAL, TLOB_WHY_MARGIN);
	why("a /a:7 period=100000 expect=3 per=thread", -EINVAL, TLOB_WHY_PER);
	why("a /a:7 period=100000 expect=3 per=task per=task", -EINVAL, TLOB_WHY_OPTION);
	why("a /a:7 period=100000 expect=3 expect=3", -EINVAL, TLOB_WHY_OPTION);
	/* each verb takes its own terms only */
	why("a /a:7 8 period=100000 expect=3", -EINVAL, TLOB_WHY_OPTION);
	why("a /a:7 period=100000 expect=3 threshold=5000", -EINVAL, TLOB_WHY_OPTION);
	why("a /a:7 period=100000 expect=3 min=5", -EINVAL, TLOB_WHY_OPTION);
	why("p /a:1 2 threshold=5000 period=100000", -EINVAL, TLOB_WHY_OPTION);
	why("p /a:1 2 threshold=5000 expect=1", -EINVAL, TLOB_WHY_OPTION);
	why("a /a period=100000 expect=3", -EINVAL, TLOB_WHY_PATH);
	why("a", -EINVAL, TLOB_WHY_PATH);
	why("a a:1 period=100000 expect=3", -EINVAL, TLOB_WHY_PATH);
	/* the section verb's reasons, unchanged by the table of options */
	why("p /a:1 2 threshold=5000 pid=1 tgid=1", -EINVAL, TLOB_WHY_FILTER);
	why("p /a:1 2 threshold=5000 tag=a tag=b", -EINVAL, TLOB_WHY_OPTION);
	why("p /a:1 2", -EINVAL, TLOB_WHY_NO_THRESHOLD);
	/* a path of PATH_MAX bytes, and a line over TLOB_LINE_MAX */
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "p /", 3);
	snprintf(longline + 2 + PATH_MAX, 40, ":1 2 threshold=5000");
	bad(longline, -EINVAL);
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "p /", 3);
	longline[sizeof(longline) - 1] = '\0';
	bad(longline, -EINVAL);
	logic_tests();
	check_tests();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
