// SPDX-License-Identifier: GPL-2.0
/*
 * Every line the tool writes to the module (user/backend/monline.c) reads back,
 * through the module's own parser (kernel/shared/tlob_parse.c, built for the
 * host), as exactly the binding the tool was asked for; a binding a line
 * cannot carry (kernel/shared/tlob_abi.h: tlob_tag_char_ok, tlob_path_char_ok)
 * the tool refuses to format, with a reason. TAP.
 */
#include <stdio.h>

#include "backend/monline.h"
#include "tlob_parse.h"

static int n, failed;

/* Control bytes shown as \xNN, never printed (TAP is line based). */
static void show(const char *s)
{
	for (; *s; s++)
		printf((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ?
		       "\\x%02x" : "%c", (unsigned char)*s);
}

static void ok(int cond, const char *what, const char *name)
{
	n++;
	printf("%sok %d - ", cond ? "" : "not ", n);
	show(what);
	printf(": ");
	show(name);
	printf("\n");
	if (!cond)
		failed++;
}

static struct tlob_binding_spec spec(const char *path, const char *tag, bool ret,
				     pid_t pid, pid_t tgid)
{
	struct tlob_binding_spec s = { .start = 0x1139, .stop = 0x1150,
				       .stop_is_ret = ret, .budget_ns = 10000000,
				       .pid = pid, .tgid = tgid };

	snprintf(s.path, sizeof(s.path), "%s", path);
	snprintf(s.tag, sizeof(s.tag), "%s", tag);
	return s;
}

/* An alive binding (an `a` line): a checkpoint, its cycle and its count. */
static struct tlob_binding_spec alive(const char *path, const char *tag, u64 period,
				      u32 expect, u32 margin, enum tlob_per per,
				      unsigned int k, unsigned int w, pid_t pid, pid_t tgid)
{
	struct tlob_binding_spec s = { .start = 0x1139, .alive = true, .period_ns = period,
				       .expect = expect, .margin = margin, .per = (u8)per,
				       .tol_k = (u8)k, .tol_w = (u8)w, .pid = pid, .tgid = tgid };

	snprintf(s.path, sizeof(s.path), "%s", path);
	snprintf(s.tag, sizeof(s.tag), "%s", tag);
	return s;
}

static bool same(const struct tlob_binding_spec *s, const struct tlob_req *r)
{
	enum tlob_filter f = s->pid ? TLOB_FILTER_PID :
			     s->tgid ? TLOB_FILTER_TGID : TLOB_FILTER_NONE;

	/* No tolerance is 1/1 to the module (a spec may say 0/0). */
	if (r->tol_k != (s->tol_w > 1 ? s->tol_k : 1) || r->tol_w != (s->tol_w > 1 ? s->tol_w : 1))
		return false;
	if (r->alive != s->alive || (s->alive &&
	    (r->period_ns != s->period_ns || r->expect != s->expect ||
	     r->margin != s->margin || r->per != (enum tlob_per)s->per)))
		return false;
	return !r->remove && !strcmp(r->path, s->path) && r->start == s->start &&
	       r->stop_ret == s->stop_is_ret && (s->stop_is_ret || r->stop == s->stop) &&
	       r->budget_ns == s->budget_ns && r->min_ns == s->min_ns && !strcmp(r->tag, s->tag) &&
	       r->filter == f && r->filter_id == (u32)(s->pid ? s->pid : s->tgid);
}

/* What the tool formats, the module reads back field for field. */
static void carried(struct tlob_binding_spec s)
{
	char line[TLOB_LINE_MAX + 64], what[64];
	struct tlob_req r;
	int ret;

	ret = tlob_monline_format(&s, line, sizeof(line));
	ok(!ret, "the tool formats", s.path);
	if (ret)
		return;
	ret = tlob_parse_line(line, &r);
	snprintf(what, sizeof(what), "the module reads back (%s, tag '%s')",
		 s.alive ? "alive" : "section", s.tag);
	ok(!ret && same(&s, &r), what, s.path);
	if (ret)
		printf("# tlob_parse_line: %d\n", ret);

	ret = tlob_monline_format_remove(&s, line, sizeof(line));
	ok(!ret && !tlob_parse_line(line, &r) && r.remove && !strcmp(r.path, s.path) &&
	   r.start == s.start, "the removal line reads back", s.path);
}

/* What a line cannot carry: the tool refuses it, saying why. */
static void refused(struct tlob_binding_spec s, const char *why)
{
	char line[TLOB_LINE_MAX + 64] = "", err[512] = "", what[128];
	struct tlob_req r;
	int ret;

	ret = tlob_spec_check(&s, err, sizeof(err));
	snprintf(what, sizeof(what), "refused, %s (tag '%s')", why, s.tag);
	ok(ret == -EINVAL && strstr(err, why), what, s.path);
	if (ret != -EINVAL || !strstr(err, why))
		printf("# %d '%s'\n", ret, err);
	ret = tlob_monline_format(&s, line, sizeof(line));
	ok(ret == -EINVAL, "the tool does not format it", s.path);
	if (!ret) {
		printf("# the tool writes '");
		show(line);
		ret = tlob_parse_line(line, &r);
		printf("': the module %s", ret ? "refuses it" : "reads");
		if (!ret) {
			printf(" tag '");
			show(r.tag);
			printf("', filter %d=%u", r.filter, r.filter_id);
		}
		printf("\n");
	}
}

int main(void)
{
	static const char *const paths[] = {
		"/usr/bin/app", "/opt/my:app/bin", "/opt/\xc3\xbcml\xc3\xa4ut/app",
		"/a=b/#c,d/[e]/app", "/x:1 2",
	};
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]) - 1; i++) {
		carried(spec(paths[i], "", false, 0, 0));
		carried(spec(paths[i], "ui", true, 0, 42));
	}
	carried(spec("/bin/app", "aZ09_.-", false, 7, 0));
	carried(spec("/bin/app", "0123456789abcde", true, 0, 0));

	refused(spec("/bin/app", "x tgid=1", false, 0, 0), "tag");
	refused(spec("/bin/app", "x\ttgid=1", false, 0, 0), "tag");
	refused(spec("/bin/app", "a/b", false, 0, 0), "tag");
	refused(spec("/bin/app", "a=b", false, 0, 0), "tag");
	refused(spec("/bin/app", "\xc3\xbc", false, 0, 0), "tag");
	refused(spec("/bin/app", "a\nb", false, 0, 0), "tag");
	refused(spec(paths[4], "", false, 0, 0), "whitespace");
	refused(spec("/a b/app", "", false, 0, 0), "whitespace");
	refused(spec("/a\nb/app", "", false, 0, 0), "whitespace");
	refused(spec("/a\rb/app", "", false, 0, 0), "whitespace");
	refused(spec("/a\x01" "b/app", "", false, 0, 0), "whitespace");
	refused(spec("/a\x7f" "b/app", "", false, 0, 0), "whitespace");
	refused(spec("bin/app", "", false, 0, 0), "absolute");

	/* Alive bindings: every term, at the edges of its range, each filter. */
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]) - 1; i++) {
		carried(alive(paths[i], "", 100000000, 10, 0, TLOB_PER_PROCESS, 0, 0, 0, 0));
		carried(alive(paths[i], "hb", 100000, 1, 1, TLOB_PER_TASK, 2, 5, 0, 42));
	}
	carried(alive("/bin/app", "aZ09_.-", 3600000000000ULL, 1000000, 1000000, TLOB_PER_TASK,
		      64, 64, 7, 0));
	carried(alive("/bin/app", "", 100000, 1000000, 0, TLOB_PER_PROCESS, 1, 1, 0, 0));
	carried(alive("/bin/app", "0123456789abcde", 123456789, 3, 2, TLOB_PER_PROCESS, 1, 64,
		      0, 0));
	refused(alive("/bin/app", "x tgid=1", 100000, 1, 0, TLOB_PER_PROCESS, 0, 0, 0, 0), "tag");
	refused(alive("/bin/app", "a=b", 100000, 1, 0, TLOB_PER_PROCESS, 0, 0, 0, 0), "tag");
	refused(alive("/a b/app", "", 100000, 1, 0, TLOB_PER_PROCESS, 0, 0, 0, 0), "whitespace");
	refused(alive("bin/app", "", 100000, 1, 0, TLOB_PER_PROCESS, 0, 0, 0, 0), "absolute");
	refused(alive("/bin/app", "", 100000, 2, 3, TLOB_PER_PROCESS, 0, 0, 0, 0), "margin");
	refused(alive("/bin/app", "", 100000, 0, 0, TLOB_PER_PROCESS, 0, 0, 0, 0), "expect");
	refused(alive("/bin/app", "", 100000, 1, 0, (enum tlob_per)2, 0, 0, 0, 0), "per=");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
