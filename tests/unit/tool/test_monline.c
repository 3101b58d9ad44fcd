// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor line: upstream's parser vectors (accepted and rejected),
 * the contract-6 extensions (ret, tag, pid/tgid), and print -> parse
 * round trips.
 */
#include <errno.h>

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
	return tap_done();
}
