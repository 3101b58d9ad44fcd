// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the module's monitor-line parser (kernel/shared/tlob_parse.c, the
 * same source the module builds): upstream's vectors and this project's
 * extensions, each with the errno or the fields it must produce. TAP.
 */
#include <stdio.h>

#include "tlob_parse.h"

static int n, failed;

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
	struct tlob_req req;
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
	struct tlob_req r;
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
	struct tlob_req r;
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
	struct tlob_req r;
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
	struct tlob_req r;
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	ret = tlob_parse_line(buf, &r);
	ok(ret == err && r.why == want, "refused for its reason", line);
	if (ret != err || r.why != want)
		printf("# got %d, why %d (want %d)\n", ret, r.why, want);
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
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
