// SPDX-License-Identifier: GPL-2.0
/*
 * Prints what the tool writes for a set of tricky records and transitions
 * (quotes, backslashes, every control byte, DEL, valid and ill-formed
 * UTF-8, a comm and tag that fill their arrays without a NUL, every kind,
 * verdict and time range), one per line: JSON, then the text line, so
 * 15-output.t can compare them byte for byte with the lines the tool must
 * write (tests/unit/tool/output.golden).
 *
 *   output_drv            the lines
 *   output_drv -n N       formats N records (JSON and text) for a cost count
 *   output_drv -c         the printf-family calls the formatter made for
 *                         each kind of line: it makes none (user.mk links
 *                         this driver with --wrap for each of them)
 *   output_drv -d         violations' diagnoses (tlob_diag), JSON then text:
 *                         running with a symbolized user stack, sleeping with
 *                         a kernel stack and a waker, waiting behind tasks
 *                         that ran instead (every policy), a process gone,
 *                         a file changed on disk, no stack at all, tricky
 *                         comms and symbol names (16-diag-output.t)
 *   output_drv -dc        the printf-family calls of the diagnoses' lines
 *   output_drv -a         alive cycles (tlob_alive_record), JSON then text:
 *                         every verdict and detector, several cycles in one
 *                         record, tolerated violations, one count and a
 *                         range expected, tricky comms and tags; then alive
 *                         bindings' statistics, JSON then text, and their
 *                         binding objects (18-alive-output.t)
 *   output_drv -ac        the printf-family calls of the cycles' lines
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/names.h"
#include "kinds/alive.h"
#include "kinds/kind.h"
#include "output/output.h"
#include "tlob_model.h"
#include "tlob_parse.h"

/* Calls of the printf family while counting is on (-c). */
static bool counting;
static unsigned long calls;

int __real_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);
int __real_vfprintf(FILE *f, const char *fmt, va_list ap);
int __real_fputc(int c, FILE *f);
int __wrap_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);
int __wrap_snprintf(char *buf, size_t len, const char *fmt, ...);
int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap);
int __wrap_fprintf(FILE *f, const char *fmt, ...);
int __wrap_fputc(int c, FILE *f);

int __wrap_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	calls += counting;
	return __real_vsnprintf(buf, len, fmt, ap);
}

int __wrap_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	calls += counting;
	va_start(ap, fmt);
	n = __real_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	calls += counting;
	return __real_vfprintf(f, fmt, ap);
}

int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	calls += counting;
	va_start(ap, fmt);
	n = __real_vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap_fputc(int c, FILE *f)
{
	calls += counting;
	return __real_fputc(c, f);
}

static const char *const comms[] = {
	"worker",
	"a\"b\\c/d",
	"\x01\x02\x1f\x7f\t\n\r ",
	"caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80",
	"abcdefghijklmn\xc3",		/* cut inside a character */
	"\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80",	/* overlong, surrogate, > U+10FFFF */
	"0123456789abcdef",		/* fills comm: no NUL */
	"",
};

static const uint64_t times[] = {
	0, 1, 999, 1000, 1001, 999999, 1000000, 1234500, 1234501, 999999499, 999999500,
	999999999, 1000000000, 12345678901ULL, UINT64_MAX,
};

static void fill(struct tlob_record *r, unsigned int i)
{
	size_t nt = sizeof(times) / sizeof(times[0]);
	const char *c = comms[i % (sizeof(comms) / sizeof(comms[0]))];

	memset(r, 0, sizeof(*r));
	r->start_ns = times[i % nt];
	r->end_ns = times[(i + 3) % nt];
	r->budget_ns = (i % 3) ? 10000000 : 250000;
	r->elapsed_ns = times[(i + 5) % nt];
	for (unsigned int s = 0; s < state_max_tlob; s++)
		r->time_ns[s] = times[(i + s * 7) % nt];
	r->detect_latency_ns = (i % 4 == 1) ? -5 : (int64_t)(times[(i + 2) % nt] >> 1);
	r->pid = 4242 + i;
	r->tgid = 4241;
	r->binding_id = i % 5;
	for (unsigned int e = 0; e < event_max_tlob; e++)
		r->count[e] = (i * 31 + e * 7) % (i % 7 == 6 ? 0xffffffffu : 100);
	r->kind = (uint8_t)(1 + i % 3);
	/*
	 * Early (min=) instead of aborted in a violation (i % 12 == 3) and a
	 * window (7) record of every twelve; a minimum in those and others.
	 */
	r->verdict = (uint8_t)(i % 12 == 3 || i % 12 == 7 ? TLOB_VERDICT_EARLY : i % 4);
	r->min_ns = r->verdict == TLOB_VERDICT_EARLY || i % 6 == 2 ? r->budget_ns / 5 : 0;
	/* Held back by a tolerance= in one record of eight (i % 8 == 3: violations). */
	r->react = (uint8_t)(i % 8 != 3);
	r->abort_reason = (uint8_t)(i % 5);
	r->detector = (uint8_t)(i % 4);
	r->state = (uint8_t)(i % state_max_tlob);
	r->event = (uint8_t)(i % event_max_tlob);
	memcpy(r->comm, c, strnlen(c, sizeof(r->comm)));
	if (i % 2)
		memcpy(r->tag, comms[(i / 2) % (sizeof(comms) / sizeof(comms[0]))],
		       strnlen(comms[(i / 2) % (sizeof(comms) / sizeof(comms[0]))],
			       sizeof(r->tag)));
}

/* Diagnosis i of the set -d prints, its symbols in syms (NULL: raw). */
static const struct tlob_diag_syms *diag_fill(struct tlob_diag *d, unsigned int i,
					      struct tlob_diag_syms *syms)
{
	static const char *const files[] = {
		"/opt/tlob/bin/tlob-diag", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/opt/a \"q\"\\b\x01/app",
	};
	static const char *const names[] = {
		"diag_spin_leaf", "diag_spin_caller", "main", "__libc_start_call_main",
		"_ZN3foo3barEv\"x", "caf\xc3\xa9\xff",
	};
	static const char *const knames[] = {
		"pipe_read", "vfs_read", "ksys_read", "do_syscall_64",
		"entry_SYSCALL_64_after_hwframe",
	};
	const char *c = comms[i % (sizeof(comms) / sizeof(comms[0]))];
	unsigned int k;

	memset(d, 0, sizeof(*d));
	memset(syms, 0, sizeof(*syms));
	d->start_ns = times[i % (sizeof(times) / sizeof(times[0]))];
	d->capture_ns = d->start_ns + 10000000;
	d->pid = 812 + i;
	d->tgid = 812;
	d->binding_id = 1 + i % 3;
	d->cpu = i % 4;
	d->migrations = i * 3 % 5;
	d->state = (uint8_t)(1 + i % 3);	/* running, sleeping, waiting */
	d->ustack_when = (uint8_t)(i % 3);
	if (i % 3) {
		d->waker_pid = 900 + i;
		memcpy(d->waker_comm, c, strnlen(c, sizeof(d->waker_comm)));
	}
	d->nr_ustack = (uint8_t)(i == 7 ? TLOB_DIAG_USTACK : i % 5);
	for (k = 0; k < d->nr_ustack; k++) {
		struct tlob_frame *f = &syms->ustack[k];

		d->ustack[k] = 0x55d4c3a1b000ULL + i * 0x1000 + k * 0x123;
		f->ip = d->ustack[k];
		if (i % 6 == 4)
			continue;		/* the process was gone: raw */
		f->file = files[(i + k) % 3];
		f->build_id = (i + k) % 3 == 1 ? NULL : "4f3a0c9e1d2b5a6e7f8091a2b3c4d5e6f7081920";
		if (i % 6 == 5 && (i + k) % 3 == 0) {
			f->note = "not the file the process mapped (build-id differs)";
			continue;
		}
		f->name = names[(i + k) % 6];
		f->off = k * 0x11 + i;
	}
	if (i % 6 == 4)
		syms->unote = "process gone: raw addresses";
	if (i == 10)
		syms->knote = "addresses hidden by kptr_restrict: raw addresses";
	d->nr_kstack = (uint8_t)(d->state == running_tlob ? 0 : i == 8 ? TLOB_DIAG_KSTACK : 1 + i % 5);
	for (k = 0; k < d->nr_kstack; k++) {
		d->kstack[k] = 0xffffffff81000000ULL + i * 0x10000 + k * 0x4321;
		syms->kstack[k].ip = d->kstack[k];
		if ((k == 3 && i % 2) || syms->knote)
			continue;		/* no kernel symbol there */
		syms->kstack[k].name = knames[k % 5];
		syms->kstack[k].off = 0x2a3 + k;
	}
	d->nr_ran = (uint8_t)(i % (TLOB_DIAG_RAN + 1));
	for (k = 0; k < d->nr_ran; k++) {
		struct tlob_ran *r = &d->ran[k];
		const char *rc = comms[(i + k) % (sizeof(comms) / sizeof(comms[0]))];

		r->pid = 1000 + k;
		r->prio = k ? 120 : 49;
		r->policy = (uint8_t)((i + k) % 8);	/* 4 and 7 are no policy */
		r->ns = times[(i + k) % (sizeof(times) / sizeof(times[0]))];
		memcpy(r->comm, rc, strnlen(rc, sizeof(r->comm)));
	}
	return i % 7 == 6 ? NULL : syms;
}

/* Alive cycle i of the set -a prints. */
static void alive_fill(struct tlob_alive_record *a, unsigned int i)
{
	static const uint8_t verdicts[] = {
		TLOB_VERDICT_OK, TLOB_VERDICT_TOO_FEW, TLOB_VERDICT_TOO_MANY,
		TLOB_VERDICT_ABORTED,
	};
	size_t nt = sizeof(times) / sizeof(times[0]);
	const char *c = comms[i % (sizeof(comms) / sizeof(comms[0]))];
	const char *t = comms[(i / 2) % (sizeof(comms) / sizeof(comms[0]))];

	memset(a, 0, sizeof(*a));
	a->start_ns = times[i % nt];
	a->end_ns = times[(i + 4) % nt];
	a->period_ns = i % 3 == 0 ? 100000000 : i % 3 == 1 ? 100000 : 3600000000000ULL;
	a->detect_latency_ns = i % 5 == 2 ? -3 : (int64_t)(times[(i + 6) % nt] >> 2);
	a->pid = 812 + i;
	a->tgid = 812;
	a->binding_id = 1 + i % 4;
	a->verdict = verdicts[i % 4];
	a->checkpoints = a->verdict == TLOB_VERDICT_TOO_FEW ? i % 3 :
			 a->verdict == TLOB_VERDICT_TOO_MANY ? 13 + i : 10;
	a->expect_min = i % 6 == 5 ? 10 : 8;
	a->expect_max = i % 6 == 5 ? 10 : i == 22 ? 0xffffffffu : 12;
	/* Unjudged cycles without a checkpoint come as one record (too few). */
	a->cycles = a->verdict == TLOB_VERDICT_TOO_FEW && i % 3 == 0 ? 1 + i : 1;
	a->detector = i % 2 ? TLOB_DETECT_CHECKPOINT : TLOB_DETECT_HRTIMER;
	/* Held back by a tolerance= in one violation of three. */
	a->react = (uint8_t)(i % 3 != 2);
	a->abort_reason = a->verdict == TLOB_VERDICT_ABORTED ? (uint8_t)(1 + (i / 4) % 4) : 0;
	memcpy(a->comm, c, strnlen(c, sizeof(a->comm)));
	if (i % 2)
		memcpy(a->tag, t, strnlen(t, sizeof(a->tag)));
}

/* -a / -ac: the cycles' lines, the alive bindings' statistics and objects. */
static int alive_main(bool count)
{
	struct tlob_binding_stats st;
	struct tlob_alive_record a;
	unsigned long c[2] = { 0 };
	char buf[2048];

	for (unsigned int i = 0; i < 24; i++) {
		alive_fill(&a, i);
		counting = count;
		calls = 0;
		if (tlob_alive_json(&a, buf, sizeof(buf)) < 0)
			return 1;
		c[0] += calls;
		counting = false;
		if (!count)
			printf("%s\n", buf);
		counting = count;
		calls = 0;
		if (tlob_alive_text(&a, buf, sizeof(buf)) < 0)
			return 1;
		c[1] += calls;
		counting = false;
		if (!count)
			fputs(buf, stdout);
	}
	if (count) {
		printf("alive json %lu\nalive text %lu\n", c[0], c[1]);
		return 0;
	}
	/* Too small a buffer fails, at every length short of the whole. */
	alive_fill(&a, 5);
	{
		int whole = tlob_alive_json(&a, buf, sizeof(buf)), fails = 0;
		int twhole = tlob_alive_text(&a, buf, sizeof(buf)), tfails = 0;

		for (int len = 0; len <= whole; len++)
			fails += tlob_alive_json(&a, buf, (size_t)len) < 0;
		for (int len = 0; len <= twhole; len++)
			tfails += tlob_alive_text(&a, buf, (size_t)len) < 0;
		printf("short buffers: json %d of %d fail, text %d of %d fail\n", fails, whole + 1,
		       tfails, twhole + 1);
	}
	/* Statistics: none yet; every count, a margin, per task, a tolerance. */
	for (unsigned int i = 0; i < 3; i++) {
		memset(&st, 0, sizeof(st));
		st.spec.alive = true;
		st.spec.id = 3 + i;
		snprintf(st.spec.path, sizeof(st.spec.path), "%s",
			 i == 2 ? "/opt/a \"q\"/app" : "/usr/bin/app");
		st.spec.start = 0x1139 + i;
		st.spec.period_ns = i == 1 ? 250000 : 100000000;
		st.spec.expect = i ? 10 : 1;
		st.spec.margin = i == 1 ? 2 : 0;
		st.spec.per = i == 1 ? TLOB_PER_TASK : TLOB_PER_PROCESS;
		if (i == 1) {
			st.spec.tol_k = 2;
			st.spec.tol_w = 5;
			snprintf(st.spec.tag, sizeof(st.spec.tag), "hb");
			snprintf(st.spec.holders, sizeof(st.spec.holders), "monitor,812:tlob");
		}
		if (i) {
			st.alive = (struct tlob_alive_stats){
				.cycles = 120, .too_few = 3, .too_many = 1, .tolerated = i == 1 ? 2 : 0,
				.aborted = 4, .errors = 0, .dropped = 5, .instances = 6,
				.min_checkpoints = 7, .max_checkpoints = 13,
				.sum_checkpoints = i == 1 ? 1199 : 1200,
			};
		}
		if (tlob_stats_json(&st, buf, sizeof(buf)) < 0 ||
		    tlob_spec_json(&st.spec, buf + 1024, 1024) < 0)
			return 1;
		printf("%s\n%s\n", buf, buf + 1024);
		tlob_stats_print(stdout, &st, false);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char buf[4096];
	struct tlob_record r;
	struct tlob_transition tr;
	unsigned int n = 48;

	if (argc == 2 && !strcmp(argv[1], "-c")) {
		FILE *null = fopen("/dev/null", "w");
		unsigned long c[4] = { 0 };

		if (!null)
			return 1;
		/* The field names are made once, at the first record. */
		fill(&r, 0);
		tlob_record_json(&r, buf, sizeof(buf));
		for (unsigned int i = 0; i < n; i++) {
			fill(&r, i);
			memset(&tr, 0, sizeof(tr));
			tr.error = i % 2;
			counting = true;
			calls = 0;
			tlob_record_json(&r, buf, sizeof(buf));
			c[0] += calls;
			calls = 0;
			tlob_record_print(null, &r);
			c[1] += calls;
			calls = 0;
			tlob_transition_json(&tr, buf, sizeof(buf));
			c[2] += calls;
			calls = 0;
			tlob_transition_print(null, &tr);
			c[3] += calls;
			counting = false;
		}
		fclose(null);
		printf("record json %lu\nrecord text %lu\ntransition json %lu\n"
		       "transition text %lu\n", c[0], c[1], c[2], c[3]);
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "-d") || !strcmp(argv[1], "-dc"))) {
		static char dbuf[65536];
		struct tlob_diag_syms syms;
		const struct tlob_diag_syms *sp;
		struct tlob_diag d;
		unsigned long c[2] = { 0 };

		for (unsigned int i = 0; i < 14; i++) {
			sp = diag_fill(&d, i, &syms);
			counting = argv[1][2] == 'c';
			calls = 0;
			if (tlob_diag_json(&d, sp, dbuf, sizeof(dbuf)) < 0)
				return 1;
			c[0] += calls;
			counting = false;
			if (!argv[1][2])
				printf("%s\n", dbuf);
			counting = argv[1][2] == 'c';
			calls = 0;
			if (tlob_diag_text(&d, sp, dbuf, sizeof(dbuf)) < 0)
				return 1;
			c[1] += calls;
			counting = false;
			if (!argv[1][2])
				fputs(dbuf, stdout);
		}
		/* Too small a buffer fails, at every length short of the whole. */
		diag_fill(&d, 8, &syms);
		{
			int whole = tlob_diag_json(&d, &syms, dbuf, sizeof(dbuf)), fails = 0;
			int twhole = tlob_diag_text(&d, &syms, dbuf, sizeof(dbuf)), tfails = 0;

			for (int len = 0; len <= whole; len++)
				fails += tlob_diag_json(&d, &syms, dbuf, (size_t)len) < 0;
			for (int len = 0; len <= twhole; len++)
				tfails += tlob_diag_text(&d, &syms, dbuf, (size_t)len) < 0;
			if (!argv[1][2])
				printf("short buffers: json %d of %d fail, text %d of %d fail\n",
				       fails, whole + 1, tfails, twhole + 1);
		}
		if (argv[1][2])
			printf("diag json %lu\ndiag text %lu\n", c[0], c[1]);
		return 0;
	}
	/* -C COMM: one "window ok" record of that comm, as text. */
	if (argc == 3 && !strcmp(argv[1], "-C")) {
		fill(&r, 0);
		r.kind = TLOB_REC_WINDOW;
		r.verdict = TLOB_VERDICT_OK;
		memset(r.comm, 0, sizeof(r.comm));
		memcpy(r.comm, argv[2], strnlen(argv[2], sizeof(r.comm)));
		tlob_record_print(stdout, &r);
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "-a") || !strcmp(argv[1], "-ac")))
		return alive_main(argv[1][2] == 'c');
	if (argc == 3 && !strcmp(argv[1], "-n")) {
		unsigned long k = strtoul(argv[2], NULL, 10);
		FILE *null = fopen("/dev/null", "w");
		size_t sum = 0;

		if (!null)
			return 1;
		for (unsigned long i = 0; i < k; i++) {
			fill(&r, (unsigned int)i);
			sum += (size_t)tlob_record_json(&r, buf, sizeof(buf));
			tlob_record_print(null, &r);
		}
		fclose(null);
		printf("%lu records, %zu bytes of JSON\n", k, sum);
		return 0;
	}
	for (unsigned int i = 0; i < n; i++) {
		fill(&r, i);
		if (tlob_record_json(&r, buf, sizeof(buf)) < 0)
			return 1;
		printf("%s\n", buf);
		tlob_record_print(stdout, &r);
	}
	for (unsigned int i = 0; i < 16; i++) {
		const char *c = comms[i % (sizeof(comms) / sizeof(comms[0]))];

		memset(&tr, 0, sizeof(tr));
		tr.ts_ns = times[i % (sizeof(times) / sizeof(times[0]))];
		tr.id = (int32_t)(i * 1000) - 3;
		tr.cpu = (int32_t)i - 1;
		tr.state = (uint8_t)(i % state_max_tlob);
		tr.event = (uint8_t)(i % event_max_tlob);
		tr.next_state = (uint8_t)((i + 1) % state_max_tlob);
		tr.final = i % 3 == 0;
		tr.error = i % 4 == 1;
		memcpy(tr.comm, c, strnlen(c, sizeof(tr.comm)));
		if (tlob_transition_json(&tr, buf, sizeof(buf)) < 0)
			return 1;
		printf("%s\n", buf);
		tlob_transition_print(stdout, &tr);
	}
	/* Escaping into a short buffer: cut after the last whole character or escape. */
	for (size_t len = 1; len <= 24; len += 1) {
		char out[32];

		tlob_json_escape("a\"\xc3\xa9\x01\xe2\x82\xac\\z\xff", out, len);
		printf("escape %zu: %s\n", len, out);
		tlob_json_escape("abc\xc3\xa9\xe2\x82\xac" "def\xc3", out, len);
		printf("escape run %zu: %s\n", len, out);
	}
	/* Too small a buffer fails, at every length short of the whole object. */
	fill(&r, 3);
	{
		int whole = tlob_record_json(&r, buf, sizeof(buf)), fails = 0;

		for (int len = 0; len <= whole; len++)
			fails += tlob_record_json(&r, buf, (size_t)len) < 0;
		printf("short buffers: %d of %d fail\n", fails, whole + 1);
	}
	return 0;
}
