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

#include "monline.h"
#include "tap.h"

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
	       !strcmp(out.tag, in->tag) && out.pid == in->pid && out.tgid == in->tgid, name);
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
		unlink(link);
		unlink(file);
		unlink(other);
		rmdir(dir);
	}
	return tap_done();
}
