// SPDX-License-Identifier: GPL-2.0
/*
 * An alive binding from the command line to the backends: the friendly
 * form PATH:CHECKPOINT,alive=PERIOD,expect=N[,...] and the module's `a`
 * line (section.c) give the same spec, the checkpoint resolved and
 * checked like a section's START, and the errors the tool words for
 * every backend name an alive binding's period, not a budget. (Both
 * backends run it: the guests' 19-kmod-alive.t, 39-tool-alive.t and
 * 39-bpf-alive.t.)
 *
 *   test_alive_bind APP    APP: the fixture executable (frame_begin)
 */
#include <errno.h>
#include <inttypes.h>

#include "cmd/tlob.h"
#include "section/elfsym.h"
#include "section/section.h"
#include "tap.h"
#include "tlob_parse.h"

static void parses(const char *arg, struct tlob_binding_spec *s)
{
	char err[1024] = "", name[1200];
	int ret = tlob_section_parse(arg, 0, s, err, sizeof(err));

	snprintf(name, sizeof(name), "parses '%s'", arg);
	if (!tap_ok(ret == TLOB_SECTION_OK, name))
		printf("#   %d: %s\n", ret, err);
}

int main(int argc, char **argv)
{
	struct tlob_binding_spec s, raw;
	char arg[PATH_MAX + 256], err[1024];
	uint64_t fb = 0;

	if (argc != 2)
		return 2;
	if (!tap_ok(!tlob_elf_resolve(argv[1], "frame_begin", 0, &fb, err, sizeof(err)),
		    "the fixture's frame_begin"))
		return tap_done();

	snprintf(arg, sizeof(arg), "%s:frame_begin,alive=100ms,expect=10", argv[1]);
	parses(arg, &s);
	tap_ok(s.alive && !strcmp(s.path, argv[1]) && s.start == fb &&
	       s.period_ns == 100000000 && s.expect == 10 && !s.margin &&
	       s.per == TLOB_PER_PROCESS && tlob_spec_tol_w(&s) == 1 && !s.tag[0] &&
	       !s.stop && !s.stop_is_ret && !s.budget_ns && !s.min_ns,
	       "friendly: the checkpoint's offset, the period in ns, expect; per process, no "
	       "margin, no tolerance, no STOP or budget");

	snprintf(arg, sizeof(arg), "%s:frame_begin,tag=hb,per=task,expect=7,tolerance=2/5,"
		 "margin=3,alive=1.5ms", argv[1]);
	parses(arg, &s);
	tap_ok(s.alive && s.start == fb && s.period_ns == 1500000 && s.expect == 7 &&
	       s.margin == 3 && s.per == TLOB_PER_TASK && s.tol_k == 2 && s.tol_w == 5 &&
	       !strcmp(s.tag, "hb"), "friendly: every term, in any order");

	snprintf(arg, sizeof(arg), "%s:frame_begin+0,alive=250000,expect=1,per=process",
		 argv[1]);
	parses(arg, &s);
	tap_ok(s.alive && s.start == fb && s.period_ns == 250000 && s.per == TLOB_PER_PROCESS,
	       "friendly: NAME+OFF, a bare period in ns, per=process");

	snprintf(arg, sizeof(arg), "%s:frame_begin,tag=hb,per=task,expect=7,tolerance=2/5,"
		 "margin=3,alive=1.5ms", argv[1]);
	parses(arg, &s);
	snprintf(arg, sizeof(arg), "a %s:0x%" PRIx64 " period=1500000 expect=7 margin=3 "
		 "per=task tolerance=2/5 tag=hb", argv[1], fb);
	parses(arg, &raw);
	tap_ok(!memcmp(&s, &raw, sizeof(s)), "the friendly form and the module's line: one spec");

	/* PATH:START alone names a binding to remove, whatever its kind. */
	snprintf(arg, sizeof(arg), "%s:frame_begin", argv[1]);
	tap_ok(tlob_section_parse(arg, TLOB_SECTION_START_ONLY, &s, err, sizeof(err)) ==
	       TLOB_SECTION_OK && s.start == fb, "unbind: PATH:CHECKPOINT names it");

	snprintf(arg, sizeof(arg), "%s:frame_begin,alive=100ms,expect=10", argv[1]);
	parses(arg, &s);
	/* The words the tool gives every backend's -ERANGE. */
	tap_like(tlob_binding_errstr(NULL, false, &s, -ERANGE, err, sizeof(err)),
		 "period out of range (100us..1h): ", "-ERANGE of an alive binding: its period");
	s.alive = false;
	tap_like(tlob_binding_errstr(NULL, false, &s, -ERANGE, err, sizeof(err)),
		 "budget out of range (1us..1h): ", "-ERANGE of a section: its budget");
	return tap_done();
}
