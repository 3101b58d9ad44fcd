// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor line: upstream's parser vectors (accepted and rejected),
 * the module's extensions (ret, tag, pid/tgid), the reasons the tool
 * gives, and print -> parse round trips. The parser is the module's
 * (kernel/shared/tlob_parse.c) behind tlob_monline_parse().
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "backend/monline.h"
#include "tap.h"
#include "tlob_parse.h"

static void accept(const char *line, const char *path, uint64_t start, uint64_t stop,
		   bool ret, uint64_t budget)
{
	struct tlob_binding_spec s;
	char err[256] = "", name[512];
	int rc = tlob_monline_parse(line, &s, err, sizeof(err));

	snprintf(name, sizeof(name), "accepts '%.*s'", (int)strcspn(line, "\n"), line);
	if (!tap_ok(rc == 0, name)) {
		printf("#   %s\n", err);
		return;
	}
	snprintf(name, sizeof(name), "'%.*s': path, start, stop, budget",
		 (int)strcspn(line, "\n"), line);
	tap_ok(!strcmp(s.path, path) && s.start == start && s.stop == stop &&
	       s.stop_is_ret == ret && s.budget_ns == budget, name);
}

static void reject(const char *line, int want)
{
	struct tlob_binding_spec s;
	char err[256] = "", name[512];
	int rc = tlob_monline_parse(line, &s, err, sizeof(err));

	snprintf(name, sizeof(name), "rejects '%s' (%s)", line, err);
	tap_ok(rc == want && err[0], name);
}

static void why(const char *line, const char *want)
{
	struct tlob_binding_spec s;
	char err[256] = "", name[600];

	tlob_monline_parse(line, &s, err, sizeof(err));
	snprintf(name, sizeof(name), "'%s': the reason says '%s'", line, want);
	tap_like(err, want, name);
}

/* An `a` line (alive supervision) and the spec it must give. */
static void accept_alive(const char *line, const char *path, uint64_t start, uint64_t period,
			 uint32_t expect, uint32_t margin, uint8_t per, const char *tag)
{
	struct tlob_binding_spec s;
	char err[256] = "", name[512];
	int rc = tlob_monline_parse(line, &s, err, sizeof(err));

	snprintf(name, sizeof(name), "accepts '%.*s'", (int)strcspn(line, "\n"), line);
	if (!tap_ok(rc == 0, name)) {
		printf("#   %s\n", err);
		return;
	}
	snprintf(name, sizeof(name), "'%.*s': alive, path, checkpoint, period, expect, margin, "
		 "per, tag; no STOP or budget", (int)strcspn(line, "\n"), line);
	tap_ok(s.alive && !strcmp(s.path, path) && s.start == start && s.period_ns == period &&
	       s.expect == expect && s.margin == margin && s.per == per && !strcmp(s.tag, tag) &&
	       !s.stop && !s.stop_is_ret && !s.budget_ns && !s.min_ns, name);
}

/* What tlob_spec_check() says of a spec, and its errno. */
static void check(const struct tlob_binding_spec *s, int want, const char *msg)
{
	char err[256] = "", name[600];
	int rc = tlob_spec_check(s, err, sizeof(err));

	snprintf(name, sizeof(name), "spec refused (%d): '%s'", want, msg);
	if (!tap_ok(rc == want && strstr(err, msg), name))
		printf("#   got %d '%s'\n", rc, err);
}

static void roundtrip(const struct tlob_binding_spec *in, const char *want)
{
	struct tlob_binding_spec out;
	char buf[512], err[256] = "", name[600];

	tlob_monline_format(in, buf, sizeof(buf));
	snprintf(name, sizeof(name), "formats as '%s'", want);
	tap_is_str(buf, want, name);
	snprintf(name, sizeof(name), "'%s' parses back to the same binding", want);
	tap_ok(!tlob_monline_parse(buf, &out, err, sizeof(err)) &&
	       !strcmp(out.path, in->path) && out.start == in->start &&
	       (in->stop_is_ret || out.stop == in->stop) && out.stop_is_ret == in->stop_is_ret && out.budget_ns == in->budget_ns &&
	       !strcmp(out.tag, in->tag) && out.pid == in->pid && out.tgid == in->tgid &&
	       out.alive == in->alive && out.period_ns == in->period_ns &&
	       out.expect == in->expect && out.margin == in->margin && out.per == in->per &&
	       tlob_spec_tol_k(&out) == tlob_spec_tol_k(in) &&
	       tlob_spec_tol_w(&out) == tlob_spec_tol_w(in), name);
}

/* Alive supervision: `a` lines, their reasons, round trips and checks. */
static void test_alive(void)
{
	struct tlob_binding_spec s = { 0 }, a;
	char line[512];

	/* The module's canonical listing (kernel/module/tlob_listing.c) reads back. */
	accept_alive("a /usr/bin/app:0x1234 period=100000000 expect=10", "/usr/bin/app",
		     0x1234, 100000000, 10, 0, TLOB_PER_PROCESS, "");
	accept_alive("a /opt/my:app/bin:0x10 period=100000 expect=5 margin=2 per=task "
		     "tolerance=2/4 tag=hb tgid=9\n", "/opt/my:app/bin", 0x10, 100000, 5, 2,
		     TLOB_PER_TASK, "hb");
	accept_alive("a /a:7 expect=1000000 margin=1000000 period=3600000000000 per=process",
		     "/a", 7, 3600000000000ULL, 1000000, 1000000, TLOB_PER_PROCESS, "");
	reject("a /a:7 period=99999 expect=1", -ERANGE);
	reject("a /a:7 period=100000", -EINVAL);
	reject("a /a:7 period=100000 expect=3 threshold=5000", -EINVAL);

	/* Every reason the module's parser gives for an `a` line, worded. */
	why("x /a:7 period=100000 expect=1", "monitor line must start with 'p ', 'a ' or 'l ': 'x /a:7");
	why("a a:7 period=100000 expect=1",
	    "expected an absolute PATH:CHECKPOINT after 'a ': 'a a:7 period=100000 expect=1'");
	why("a /a:7 expect=1", "missing period=NS: 'a /a:7 expect=1'");
	why("a /a:7 period=100000", "missing expect=N: 'a /a:7 period=100000'");
	why("a /a:7 period=1e6 expect=1", "invalid period '1e6' (nanoseconds)");
	why("a /a:7 period=99999 expect=1", "period 99999ns is out of range (100us..1h)");
	why("a /a:7 period=3600000000001 expect=1",
	    "period 3600000000001ns is out of range (100us..1h)");
	why("a /a:7 period=100000 expect=0",
	    "invalid expect '0' (checkpoints per period, 1..1000000)");
	why("a /a:7 period=100000 expect=1000001", "invalid expect '1000001'");
	why("a /a:7 period=100000 expect=3 margin=4",
	    "invalid margin '4' (checkpoints the count may be off by, 0..expect=)");
	why("a /a:7 period=100000 expect=3 margin=x", "invalid margin 'x'");
	why("a /a:7 period=100000 expect=3 per=thread", "invalid per 'thread' (process or task)");
	/* The hint lists the keys of the verb the line used. */
	why("a /a:7 period=100000 expect=3 threshold=5000",
	    "unexpected 'threshold' in monitor line (period=, expect=, margin=, per=, tolerance=, "
	    "tag=, pid= or tgid=, each once)");
	why("a /a:7 8 period=100000 expect=3", "unexpected '8' in monitor line (period=,");
	why("a /a:7 period=100000 expect=3 expect=3", "unexpected 'expect' in monitor line");
	why("p /a:1 2 threshold=5000 expect=1",
	    "unexpected 'expect' in monitor line (threshold=, min=, tolerance=, tag=, pid= or "
	    "tgid=, each once)");
	why("p /a:1 2 threshold=5000 min=4 min=5", "unexpected 'min' in monitor line (threshold=");
	why("-/bin/app:0x100", "'a PATH:CHECKPOINT period=NS expect=N' or 'l PATH model=NAME ...'");

	/* spec -> the module's canonical `a` line -> the same spec. */
	strcpy(s.path, "/usr/bin/app");
	s.start = 0x1139;
	s.alive = true;
	s.period_ns = 100000000;
	s.expect = 10;
	roundtrip(&s, "a /usr/bin/app:0x1139 period=100000000 expect=10");
	s.margin = 2;
	s.per = TLOB_PER_TASK;
	s.tol_k = 2;
	s.tol_w = 5;
	strcpy(s.tag, "hb");
	s.pid = 78;
	roundtrip(&s, "a /usr/bin/app:0x1139 period=100000000 expect=10 margin=2 per=task "
		  "tolerance=2/5 tag=hb pid=78");
	s.pid = 0;
	s.tgid = 77;
	s.per = TLOB_PER_PROCESS;
	s.margin = 10;
	roundtrip(&s, "a /usr/bin/app:0x1139 period=100000000 expect=10 margin=10 "
		  "tolerance=2/5 tag=hb tgid=77");

	/* What the module would refuse, refused before a line is written. */
	a = s;
	a.period_ns = 99999;
	check(&a, -ERANGE, "period 99999ns is out of range (100us..1h)");
	a.period_ns = 3600000000001ULL;
	check(&a, -ERANGE, "period 3600000000001ns is out of range");
	a = s;
	a.expect = 0;
	a.margin = 0;
	check(&a, -EINVAL, "expect=0 is out of range (1..1000000 checkpoints per period)");
	a.expect = 1000001;
	check(&a, -EINVAL, "expect=1000001 is out of range");
	a = s;
	a.margin = 11;
	check(&a, -EINVAL, "margin=11 is above expect=10");
	a = s;
	a.per = 2;
	check(&a, -EINVAL, "per=2: an alive binding counts per process or per task");
	a = s;
	a.budget_ns = 5000;
	check(&a, -EINVAL, "an alive binding has a checkpoint only: no STOP, budget or minimum");
	a = s;
	a.stop_is_ret = true;
	check(&a, -EINVAL, "no STOP, budget or minimum");
	a = s;
	a.tol_k = 6;
	check(&a, -ERANGE, "tolerance 6/5 is out of range");
	a = s;
	a.pid = 1;
	check(&a, -EINVAL, "pid= and tgid= exclude each other");
	a = s;
	a.alive = false;
	a.budget_ns = 5000;
	a.stop = 0x2000;
	check(&a, -EINVAL, "period, expect, margin and per are an alive binding's terms");
	tap_ok(tlob_monline_format(&a, line, sizeof(line)) == -EINVAL,
	       "a spec the check refuses is not formatted");
}

/* The module's same binding for alive bindings: kind, then every term. */
static void test_alive_same(const char *file)
{
	struct tlob_binding_spec a = { .start = 0x10, .alive = true, .period_ns = 1000000,
				       .expect = 4, .margin = 1 }, b;

	snprintf(a.path, sizeof(a.path), "%s", file);
	b = a;
	tap_ok(tlob_spec_same_binding(&a, &b) == 2, "alive: same terms, same binding");
	b.tol_k = 1;
	b.tol_w = 1;
	tap_ok(tlob_spec_same_binding(&a, &b) == 2, "alive: tolerance 1/1 is none");
	b = a;
	b.period_ns = 2000000;
	tap_ok(!tlob_spec_same_binding(&a, &b), "alive: another period, another binding");
	b = a;
	b.expect = 5;
	tap_ok(!tlob_spec_same_binding(&a, &b), "alive: another expect, another binding");
	b = a;
	b.margin = 0;
	tap_ok(!tlob_spec_same_binding(&a, &b), "alive: another margin, another binding");
	b = a;
	b.per = TLOB_PER_TASK;
	tap_ok(!tlob_spec_same_binding(&a, &b), "alive: per task, another binding");
	b = a;
	b.tol_k = 2;
	b.tol_w = 3;
	tap_ok(!tlob_spec_same_binding(&a, &b), "alive: another tolerance, another binding");
	b = a;
	b.alive = false;
	b.budget_ns = 0;
	tap_ok(!tlob_spec_same_binding(&a, &b),
	       "a section at the checkpoint (budget unknown) is not the alive binding");
}

int main(void)
{
	struct tlob_binding_spec s = { 0 };
	char buf[512];

	/* Upstream's accepted vectors. */
	accept("p /usr/bin/myapp:4768 4848 threshold=5000000", "/usr/bin/myapp", 4768, 4848,
	       false, 5000000);
	accept("p /opt/my:app/bin:0x100 0x200 threshold=1000000", "/opt/my:app/bin", 0x100,
	       0x200, false, 1000000);
	/* The kernel's canonical read-back, with the extensions. */
	accept("p /bin/app:0x1139 ret threshold=1000 tag=frame tgid=42", "/bin/app", 0x1139, 0,
	       true, 1000);
	accept("p /bin/app:0x10 0x20 threshold=3600000000000\n", "/bin/app", 0x10, 0x20, false,
	       3600000000000ULL);

	/* Upstream's rejected vectors. */
	reject("p :0x100 0x200 threshold=5000", -EINVAL);
	reject("p /usr/bin/myapp:0x100 threshold=5000", -EINVAL);
	reject("p /usr/bin/myapp:0x100 0x100 threshold=5000", -EINVAL);
	reject("p /usr/bin/myapp:0x100 0x200 threshold=0", -ERANGE);
	reject("p /usr/bin/myapp:0x100 0x200 threshold=999", -ERANGE);
	reject("p /usr/bin/myapp:0x100 0x200 threshold=3600000000001", -ERANGE);
	/* And the tool's own. */
	reject("p relative/app:0x100 0x200 threshold=5000", -EINVAL);
	reject("q /bin/app:0x100 0x200 threshold=5000", -EINVAL);
	reject("p /bin/app:0x100 0x200", -EINVAL);
	reject("p /bin/app:zz 0x200 threshold=5000", -EINVAL);
	reject("p /bin/app:0x100 0x200 threshold=5000 pid=1 tgid=2", -EINVAL);
	reject("p /bin/app:0x100 0x200 threshold=5000 color=red", -EINVAL);
	reject("p /bin/app:0x100 0x200 threshold=5000 tag=abcdefghijklmnopq", -EINVAL);
	/* The module's parser is the tool's: what it refuses, the tool does. */
	reject("p /bin/app:0x100 0x200 threshold=0x1000", -EINVAL);
	reject("p /bin/app:0x100 0x200 threshold=5000 tag=a tag=b", -EINVAL);
	reject("p /bin/app:0x100 0x200 threshold=5000 pid=0x10", -EINVAL);
	reject("p /bin/app:-1 0x200 threshold=5000", -EINVAL);
	reject("-/bin/app:0x100", -EINVAL);
	reject("", -EINVAL);
	tap_ok(tlob_monline_parse("p /a:1 2 threshold=5000\np /b:1 2 threshold=5000", &s, buf,
				  sizeof(buf)) == -EINVAL, "rejects two lines in one");
	why("p /bin/app:0x100 0x200 threshold=5000 tag=a/b", "invalid tag 'a/b': a tag is");
	why("p /bin/app:0x100", "missing STOP offset (an offset or 'ret'): 'p /bin/app:0x100'");
	why("p /bin/app:0x100 0x200 threshold=99", "threshold 99ns is out of range (1us..1h)");
	why("p /bin/app:zz 0x200 threshold=5000", "invalid START offset 'zz'");
	why("-/bin/app:0x100", "removes a binding");
	/* A tag '-' would read back from a listing as no tag at all. */
	reject("p /bin/app:0x100 0x200 threshold=5000 tag=-", -EINVAL);
	why("p /bin/app:0x100 0x200 threshold=5000 tag=-", "invalid tag '-'");
	tap_ok(tlob_tag_check("-", buf, sizeof(buf)) == -EINVAL, "tag '-' refused by the check");
	tap_like(buf, "a listing shows it for \"no tag\"", "... saying why");
	tap_ok(!tlob_tag_check("-a", buf, sizeof(buf)) && !tlob_tag_check("a-", buf, sizeof(buf)),
	       "a tag with a '-' in it stays valid");
	/* A number is its digits: no trailing newline inside a term, no sign. */
	reject("p /bin/app:0x100 0x200 threshold=5000 tolerance=1/2\n tag=x", -EINVAL);
	reject("p /bin/app:0x100 0x200 threshold=5000\n tag=x", -EINVAL);

	strcpy(s.path, "/usr/bin/app");
	s.start = 0x1139;
	s.stop = 0x1150;
	s.budget_ns = 10000000;
	roundtrip(&s, "p /usr/bin/app:0x1139 0x1150 threshold=10000000");
	s.stop_is_ret = true;
	strcpy(s.tag, "frame");
	s.tgid = 77;
	roundtrip(&s, "p /usr/bin/app:0x1139 ret threshold=10000000 tag=frame tgid=77");
	s.tgid = 0;
	s.pid = 78;
	roundtrip(&s, "p /usr/bin/app:0x1139 ret threshold=10000000 tag=frame pid=78");

	tlob_monline_format_remove(&s, buf, sizeof(buf));
	tap_is_str(buf, "-/usr/bin/app:0x1139", "removal line");
	test_alive();

	/* The same binding (kernel/shared/tlob_abi.h): text, else the file. */
	{
		char dir[] = "/tmp/tlob-same-XXXXXX", file[64], link[64], other[64];
		FILE *f;

		if (!tap_ok(mkdtemp(dir) != NULL, "same binding: a temporary directory"))
			return tap_done();
		snprintf(file, sizeof(file), "%s/app", dir);
		snprintf(link, sizeof(link), "%s/link", dir);
		snprintf(other, sizeof(other), "%s/other", dir);
		f = fopen(file, "w");
		if (f)
			fclose(f);
		f = fopen(other, "w");
		if (f)
			fclose(f);
		tap_ok(!symlink(file, link), "same binding: a symlink to the file");
		tap_ok(tlob_same_binding(file, 0x10, file, 0x10) == 2, "same binding: same path text");
		tap_ok(tlob_same_binding(link, 0x10, file, 0x10) == 1,
		       "same binding: a symlink names the same file");
		tap_ok(!tlob_same_binding(link, 0x10, file, 0x20), "another START: another binding");
		tap_ok(!tlob_same_binding(other, 0x10, file, 0x10), "another file: another binding");
		tap_ok(tlob_same_binding("/nonexistent/x", 0x10, "/nonexistent/x", 0x10) == 2,
		       "a path that names no file: by its text");
		tap_ok(!tlob_same_binding("/nonexistent/x", 0x10, "/nonexistent/y", 0x10),
		       "two paths that name no file: by their text, different");
		/* The module's same binding: the same section and the same terms. */
		{
			struct tlob_binding_spec a = { .start = 0x10, .stop = 0x20,
						       .budget_ns = 5000000 }, b;

			snprintf(a.path, sizeof(a.path), "%s", file);
			b = a;
			snprintf(b.path, sizeof(b.path), "%s", link);
			tap_ok(tlob_spec_same_binding(&a, &b) == 1,
			       "same binding: same section (through a symlink), same terms");
			b.budget_ns = 6000000;
			tap_ok(!tlob_spec_same_binding(&a, &b), "another budget: another binding");
			b.budget_ns = 0;
			tap_ok(tlob_spec_same_binding(&a, &b) == 1,
			       "a budget an older module did not list matches any");
			b = a;
			b.stop = 0x30;
			tap_ok(!tlob_spec_same_binding(&a, &b), "another STOP: another binding");
			b = a;
			b.stop_is_ret = true;
			tap_ok(!tlob_spec_same_binding(&a, &b), "STOP ret: another binding");
			b = a;
			snprintf(b.tag, sizeof(b.tag), "ui");
			tap_ok(!tlob_spec_same_binding(&a, &b), "another tag: another binding");
			b = a;
			b.start = 0x11;
			tap_ok(!tlob_spec_same_binding(&a, &b), "another START: another binding");
		}
		test_alive_same(file);
		unlink(link);
		unlink(file);
		unlink(other);
		rmdir(dir);
	}
	return tap_done();
}
