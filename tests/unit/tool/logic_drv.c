// SPDX-License-Identifier: GPL-2.0
/*
 * Logical supervision's pieces without a backend (22-logic-model.t,
 * 23-logic-output.t):
 *
 *   logic_drv line MODEL [--per P] [--tolerance K/W] [--tag T] [-p PID] EVENT=PATH:SYMBOL...
 *       the `l` line tlob would write for it, or the refusal as tlob
 *       prints it (stderr) with its exit status (params.c's rule)
 *   logic_drv records    text, then JSON, of fake records of every verdict
 *                        (TIMING at an event and with none: an invariant)
 *   logic_drv stats      stats lines on stdin (the module's kind=logic),
 *                        each printed as tlob stats does, text and JSON,
 *                        or "refused: LINE"
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/kmod/kmod_stats.h"
#include "backend/monline.h"
#include "kinds/kind.h"
#include "kinds/logic.h"
#include "options/params.h"
#include "output/output.h"
#include "section/section.h"

static int line(int argc, char **argv)
{
	struct tlob_logic_args a = { .model = argv[0] };
	struct tlob_binding_spec *spec = calloc(1, sizeof(*spec));
	const char **events = calloc((size_t)argc, sizeof(*events));
	char err[1024], *buf = malloc(TLOB_MONLINE_WRITE_MAX * 2);
	int ret;

	if (!spec || !events || !buf)
		return 1;
	a.events = events;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--per") && i + 1 < argc)
			a.per = argv[++i];
		else if (!strcmp(argv[i], "--tolerance") && i + 1 < argc)
			a.tolerance = argv[++i];
		else if (!strcmp(argv[i], "--tag") && i + 1 < argc)
			a.tag = argv[++i];
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			spec->tgid = atoi(argv[++i]);
		else
			events[a.nr_events++] = argv[i];
	}
	{
		pid_t tgid = spec->tgid;

		ret = tlob_logic_build(&a, 0, spec, err, sizeof(err));
		spec->tgid = tgid;
	}
	if (ret == TLOB_SECTION_MODEL || ret == TLOB_SECTION_MODEL_FILE) {
		fprintf(stderr, "%s\n", err);
		return ret == TLOB_SECTION_MODEL ? TLOB_EXIT_USAGE : TLOB_EXIT_ERROR;
	}
	if (ret) {
		fprintf(stderr, "tlob: %s\n", err);
		return ret == TLOB_SECTION_SYNTAX ? TLOB_EXIT_USAGE : TLOB_EXIT_ERROR;
	}
	ret = tlob_monline_format(spec, buf, TLOB_MONLINE_WRITE_MAX * 2);
	if (ret) {
		fprintf(stderr, "format: %s\n", strerror(-ret));
		return 1;
	}
	printf("%s\n", buf);
	return 0;
}

static void set(char *dst, size_t size, const char *s)
{
	memset(dst, 0, size);
	memcpy(dst, s, strlen(s) < size ? strlen(s) : size);
}

static int records(void)
{
	static const struct {
		unsigned int verdict, state, event, react, abort;
		const char *comm, *tag, *st, *ev;
	} v[] = {
		{ TLOB_VERDICT_ORDER, 1, 1, 1, 0, "camd", "", "ready", "frame_end" },
		{ TLOB_VERDICT_ORDER, 2, 0, 0, 0, "camd", "cam0", "in_frame", "frame_begin" },
		{ TLOB_VERDICT_INCOMPLETE, 2, TLOB_LOGIC_NONE, 1, TLOB_ABORT_EXIT, "camd", "",
		  "in_frame", "" },
		{ TLOB_VERDICT_INCOMPLETE, 1, TLOB_LOGIC_NONE, 1, TLOB_ABORT_EXEC,
		  "0123456789abcdef", "", "ready", "" },
		{ TLOB_VERDICT_OK, 3, TLOB_LOGIC_NONE, 1, TLOB_ABORT_EXIT, "camd", "", "done", "" },
		{ TLOB_VERDICT_ABORTED, 1, TLOB_LOGIC_NONE, 1, TLOB_ABORT_UNBIND, "a\"b\\c", "",
		  "ready", "" },
		{ TLOB_VERDICT_TIMING, 2, 1, 1, 0, "camd", "cam0", "in_frame", "frame_end" },
		/* No event: the module's timer, in_frame held past its invariant. */
		{ TLOB_VERDICT_TIMING, 2, TLOB_LOGIC_NONE, 1, 0, "camd", "", "in_frame", "" },
		{ TLOB_VERDICT_TIMING, 2, TLOB_LOGIC_NONE, 0, 0, "camd", "cam0", "in_frame", "" },
	};
	char buf[1024];

	for (int json = 0; json < 2; json++) {
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			struct tlob_logic_record r = {
				.start_ns = 1000000000ULL, .end_ns = 1000000000ULL + 1000 * i,
				.events = 40 + i, .pid = 812 + (uint32_t)i, .tgid = 812,
				.binding_id = 3, .verdict = (__u8)v[i].verdict,
				.state = (__u8)v[i].state, .event = (__u8)v[i].event,
				.react = (__u8)v[i].react, .abort_reason = (__u8)v[i].abort,
				/*
				 * A model with a clock: its reading at the event, or
				 * when the timer found the invariant (50ms) missed.
				 */
				.clock_ns = v[i].verdict != TLOB_VERDICT_TIMING ? 0 :
					    v[i].event == TLOB_LOGIC_NONE ? 50012345 : 41000000,
			};
			struct tlob_logic_names n;
			int len;

			set(r.comm, sizeof(r.comm), v[i].comm);
			set(r.tag, sizeof(r.tag), v[i].tag);
			set(n.model, sizeof(n.model), "frame_flow");
			set(n.state, sizeof(n.state), v[i].st);
			set(n.event, sizeof(n.event), v[i].ev);
			len = json ? tlob_logic_json(&r, &n, buf, sizeof(buf)) :
			      tlob_logic_text(&r, &n, buf, sizeof(buf));
			if (len < 0)
				return 1;
			if (json)
				puts(buf);
			else
				fputs(buf, stdout);
			/* Every length short of it fails rather than cut the object. */
			for (size_t l = 0; json && l <= (size_t)len; l++)
				if (tlob_logic_json(&r, &n, buf, l) != -ENOSPC)
					return 1;
		}
	}
	return 0;
}

static int stats(void)
{
	char line[8192], buf[8192];
	struct tlob_binding_stats st;

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (tlob_kmod_stats_parse(line, &st)) {
			printf("refused: %s\n", line);
			continue;
		}
		tlob_stats_print(stdout, &st, false);
		if (tlob_stats_json(&st, buf, sizeof(buf)) > 0)
			puts(buf);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "line"))
		return line(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "records"))
		return records();
	if (argc == 2 && !strcmp(argv[1], "stats"))
		return stats();
	fprintf(stderr, "usage: logic_drv line MODEL EVENT=PATH:SYMBOL... | records | stats\n");
	return 2;
}
