// SPDX-License-Identifier: GPL-2.0
/*
 * The record decoder against libtraceevent: synthetic event formats in
 * the kernel's format-file syntax (the layout tlob_trace.h produces), raw
 * event bytes laid out from the same field table, decoded by field name.
 */
#include <errno.h>
#include <stdlib.h>

#include <event-parse.h>

#include "backend/kmod/decode.h"
#include "backend/names.h"
#include "tap.h"
#include "tlob_model.h"

struct field {
	const char *type;	/* as the format file prints it */
	const char *name;
	int size;
	int is_signed;
	unsigned long long value;	/* numbers */
	const char *str;	/* char arrays and __data_loc strings */
	int offset;		/* computed */
};

#define DATA_SIZE 512

/* A format file's head: the event's name and id, the common fields. */
static int format_head(char *fmt, size_t size, const char *name, int id)
{
	return snprintf(fmt, size,
			"name: %s\nID: %d\nformat:\n"
			"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n", name, id);
}

/* Lay fields out like the kernel (natural alignment after the 8-byte common header). */
static int build(struct tep_handle *tep, const char *sys, const char *name, int id,
		 struct field *f, int n, unsigned char *data)
{
	struct tep_event *ev = NULL;
	char fmt[8192];
	int off = 8, len, dyn;

	memset(data, 0, DATA_SIZE);
	len = format_head(fmt, sizeof(fmt), name, id);
	for (int i = 0; i < n; i++) {
		int align = f[i].size >= 8 ? 8 : f[i].size;

		if (strstr(f[i].type, "[") && !strstr(f[i].type, "__data_loc"))
			align = 1;
		off = (off + align - 1) / align * align;
		f[i].offset = off;
		off += f[i].size;
		len += snprintf(fmt + len, sizeof(fmt) - (size_t)len,
				"\tfield:%s %s%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
				f[i].type, f[i].name,
				strstr(f[i].type, "char") && !strstr(f[i].type, "__data_loc") &&
				f[i].size > 1 ? "[16]" : "",
				f[i].offset, f[i].size, f[i].is_signed);
	}
	len += snprintf(fmt + len, sizeof(fmt) - (size_t)len, "\nprint fmt: \"x\"\n");

	*(unsigned short *)data = (unsigned short)id;
	dyn = off;
	for (int i = 0; i < n; i++) {
		unsigned char *p = data + f[i].offset;

		if (strstr(f[i].type, "__data_loc")) {
			int l = (int)strlen(f[i].str) + 1;

			memcpy(data + dyn, f[i].str, (size_t)l);
			*(unsigned int *)p = ((unsigned int)l << 16) | (unsigned int)dyn;
			dyn += l;
		} else if (f[i].str) {
			memcpy(p, f[i].str, strnlen(f[i].str, (size_t)f[i].size));
		} else {
			memcpy(p, &f[i].value, (size_t)f[i].size);	/* little endian host */
		}
	}
	if (tep_parse_format(tep, &ev, fmt, (unsigned long)len, sys)) {
		printf("# cannot parse format of %s\n", name);
		return -1;
	}
	return dyn;
}

/*
 * Lookups by name while counting is on: decoding a record makes none
 * (user.mk links this test with --wrap for each of them).
 */
static int counting;
static unsigned long lookups;

struct tep_format_field *__real_tep_find_field(struct tep_event *ev, const char *name);
struct tep_format_field *__wrap_tep_find_field(struct tep_event *ev, const char *name);
struct tep_format_field *__real_tep_find_any_field(struct tep_event *ev, const char *name);
struct tep_format_field *__wrap_tep_find_any_field(struct tep_event *ev, const char *name);
void *__real_tep_get_field_raw(struct trace_seq *s, struct tep_event *ev, const char *name,
			       struct tep_record *rec, int *len, int err);
void *__wrap_tep_get_field_raw(struct trace_seq *s, struct tep_event *ev, const char *name,
			       struct tep_record *rec, int *len, int err);

struct tep_format_field *__wrap_tep_find_field(struct tep_event *ev, const char *name)
{
	lookups += counting;
	return __real_tep_find_field(ev, name);
}

struct tep_format_field *__wrap_tep_find_any_field(struct tep_event *ev, const char *name)
{
	lookups += counting;
	return __real_tep_find_any_field(ev, name);
}

void *__wrap_tep_get_field_raw(struct trace_seq *s, struct tep_event *ev, const char *name,
			       struct tep_record *rec, int *len, int err)
{
	lookups += counting;
	return __real_tep_get_field_raw(s, ev, name, rec, len, err);
}

/* The fields of ev looked up once, then the record decoded with them. */
static void decode(enum tlob_decoder dec, struct tep_event *ev, struct tep_record *rec,
		   struct tlob_record *r)
{
	struct tlob_decode d;

	tlob_decode_init(&d, dec, ev);
	counting = 1;
	tlob_decode_record(&d, rec, r);
	counting = 0;
}

static int transition(enum tlob_decoder dec, struct tep_event *ev, struct tep_record *rec,
		      struct tlob_transition *tr)
{
	struct tlob_decode d;
	int ret;

	tlob_decode_init(&d, dec, ev);
	counting = 1;
	ret = tlob_decode_transition(&d, rec, tr);
	counting = 0;
	return ret;
}

static struct tep_event *event_of(struct tep_handle *tep, struct tep_record *rec,
				  unsigned char *data, int size)
{
	memset(rec, 0, sizeof(*rec));
	rec->data = data;
	rec->size = size;
	rec->cpu = 1;
	rec->ts = 123456789;
	return tep_find_event_by_record(tep, rec);
}

static void test_window(struct tep_handle *tep)
{
	struct field f[] = {
		{ "u64", "start_ns", 8, 0, 1000000001, NULL, 0 },
		{ "u64", "end_ns", 8, 0, 1012000002, NULL, 0 },
		{ "u64", "budget_ns", 8, 0, 10000000, NULL, 0 },
		{ "u64", "elapsed_ns", 8, 0, 12000001, NULL, 0 },
		{ "u64", "running_ns", 8, 0, 5000003, NULL, 0 },
		{ "u64", "waiting_ns", 8, 0, 4000004, NULL, 0 },
		{ "u64", "sleeping_ns", 8, 0, 3000005, NULL, 0 },
		{ "s64", "detect_latency_ns", 8, 1, (unsigned long long)-250, NULL, 0 },
		{ "u32", "pid", 4, 0, 4242, NULL, 0 },
		{ "u32", "tgid", 4, 0, 4241, NULL, 0 },
		{ "u32", "binding_id", 4, 0, 7, NULL, 0 },
		{ "u32", "preemptions", 4, 0, 8, NULL, 0 },
		{ "u32", "sleeps", 4, 0, 9, NULL, 0 },
		{ "u32", "wakeups", 4, 0, 10, NULL, 0 },
		{ "u32", "switch_ins", 4, 0, 11, NULL, 0 },
		{ "u8", "kind", 1, 0, TLOB_REC_WINDOW, NULL, 0 },
		{ "u8", "verdict", 1, 0, TLOB_VERDICT_OVER_BUDGET, NULL, 0 },
		{ "u8", "abort_reason", 1, 0, 0, NULL, 0 },
		{ "u8", "detector", 1, 0, TLOB_DETECT_HRTIMER, NULL, 0 },
		{ "u8", "state", 1, 0, 1, NULL, 0 },
		{ "u8", "event", 1, 0, 4, NULL, 0 },
		{ "char", "comm", 16, 0, 0, "worker-thread-01", 0 },
		{ "char", "tag", 16, 0, 0, "frame", 0 },
	};
	unsigned char data[DATA_SIZE];
	struct tlob_record r;
	struct tep_record rec;
	struct tep_event *ev;
	int size = build(tep, "tlob", "window", 501, f, sizeof(f) / sizeof(f[0]), data);

	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev && tlob_decoder_for(ev->name) == TLOB_DEC_WINDOW, "window: event found, window decoder"))
		return;
	decode(TLOB_DEC_WINDOW, ev, &rec, &r);
	tap_is_u64(r.start_ns, 1000000001, "window: start_ns");
	tap_is_u64(r.end_ns, 1012000002, "window: end_ns");
	tap_is_u64(r.budget_ns, 10000000, "window: budget_ns");
	tap_is_u64(r.elapsed_ns, 12000001, "window: elapsed_ns");
	tap_is_u64(r.time_ns[running_tlob], 5000003, "window: running_ns");
	tap_is_u64(r.time_ns[waiting_tlob], 4000004, "window: waiting_ns");
	tap_is_u64(r.time_ns[sleeping_tlob], 3000005, "window: sleeping_ns");
	tap_is_u64(r.time_ns[stopped_tlob], 0, "window: no time in the final state");
	tap_ok(r.detect_latency_ns == -250, "window: detect_latency_ns keeps its sign");
	tap_is_u64(r.pid, 4242, "window: pid");
	tap_is_u64(r.tgid, 4241, "window: tgid");
	tap_is_u64(r.binding_id, 7, "window: binding_id");
	tap_is_u64(r.count[preempt_tlob], 8, "window: preemptions");
	tap_is_u64(r.count[sleep_tlob], 9, "window: sleeps");
	tap_is_u64(r.count[wakeup_tlob], 10, "window: wakeups");
	tap_is_u64(r.count[switch_in_tlob], 11, "window: switch_ins");
	tap_is_u64(r.count[start_tlob] + r.count[stop_tlob] + r.count[abort_tlob], 0,
		   "window: no count of events that open or end a window (not in the event)");
	tap_is_u64(r.kind, TLOB_REC_WINDOW, "window: kind");
	tap_is_u64(r.verdict, TLOB_VERDICT_OVER_BUDGET, "window: verdict");
	tap_is_u64(r.detector, TLOB_DETECT_HRTIMER, "window: detector");
	tap_is_u64(r.state, 1, "window: state");
	tap_is_u64(r.event, 4, "window: event");
	tap_ok(!memcmp(r.comm, "worker-thread-01", 16), "window: 16-byte comm without NUL kept whole");
	tap_is_str(r.tag, "frame", "window: tag");
}

static void test_violation_without_kind(struct tep_handle *tep)
{
	/* An older/smaller layout: no kind field, fields in another order. */
	struct field f[] = {
		{ "u32", "pid", 4, 0, 99, NULL, 0 },
		{ "u64", "budget_ns", 8, 0, 5000, NULL, 0 },
	};
	unsigned char data[DATA_SIZE];
	struct tlob_record r;
	struct tep_record rec;
	struct tep_event *ev;
	int size = build(tep, "tlob", "violation", 502, f, 2, data);

	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev != NULL, "violation: event found"))
		return;
	decode(tlob_decoder_for(ev->name), ev, &rec, &r);
	tap_is_u64(r.kind, TLOB_REC_VIOLATION, "violation: kind from the event name");
	tap_is_u64(r.pid, 99, "violation: pid at another offset");
	tap_is_u64(r.budget_ns, 5000, "violation: budget_ns");
	tap_is_u64(r.elapsed_ns, 0, "violation: missing fields stay 0");
}

/* tlob:dropped: a START that opened no window, a record of its own kind. */
static void test_dropped(struct tep_handle *tep)
{
	struct field f[] = {
		{ "u64", "start_ns", 8, 0, 77, NULL, 0 },
		{ "u32", "pid", 4, 0, 123, NULL, 0 },
		{ "u32", "binding_id", 4, 0, 5, NULL, 0 },
	};
	unsigned char data[DATA_SIZE];
	struct tlob_record r;
	struct tep_record rec;
	struct tep_event *ev;
	int size = build(tep, "tlob", "dropped", 505, f, 3, data);

	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev && tlob_decoder_for(ev->name) == TLOB_DEC_DROPPED,
		    "dropped: event found, dropped decoder"))
		return;
	decode(TLOB_DEC_DROPPED, ev, &rec, &r);
	tap_is_u64(r.kind, TLOB_REC_DROPPED, "dropped: kind dropped, not a violation");
	tap_is_u64(r.pid, 123, "dropped: pid");
	tap_is_u64(r.binding_id, 5, "dropped: binding_id");
}

static void test_detail_env(struct tep_handle *tep)
{
	struct field f[] = {
		{ "int", "id", 4, 1, 321, NULL, 0 },
		{ "u64", "threshold_ns", 8, 0, 1000000, NULL, 0 },
		{ "u64", "running_ns", 8, 0, 600000, NULL, 0 },
		{ "u64", "waiting_ns", 8, 0, 300000, NULL, 0 },
		{ "u64", "sleeping_ns", 8, 0, 200000, NULL, 0 },
	};
	unsigned char data[DATA_SIZE];
	struct tlob_record r;
	struct tep_record rec;
	struct tep_event *ev;
	int size = build(tep, "rv", "detail_env_tlob", 503, f, 5, data);

	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev && tlob_decoder_for(ev->name) == TLOB_DEC_DETAIL_ENV,
		    "detail_env_tlob: detail decoder"))
		return;
	decode(TLOB_DEC_DETAIL_ENV, ev, &rec, &r);
	tap_is_u64(r.pid, 321, "detail_env_tlob: id -> pid");
	tap_is_u64(r.budget_ns, 1000000, "detail_env_tlob: threshold_ns -> budget_ns");
	tap_is_u64(r.elapsed_ns, 1100000, "detail_env_tlob: elapsed = running+waiting+sleeping");
	tap_is_u64(r.kind, TLOB_REC_VIOLATION, "detail_env_tlob: a violation");
	tap_is_u64(r.verdict, TLOB_VERDICT_OVER_BUDGET, "detail_env_tlob: over budget");
}

static void test_transitions(struct tep_handle *tep)
{
	struct field ev_f[] = {
		{ "int", "id", 4, 1, 555, NULL, 0 },
		{ "__data_loc char[]", "state", 4, 0, 0, "running", 0 },
		{ "__data_loc char[]", "event", 4, 0, 0, "preempt", 0 },
		{ "__data_loc char[]", "next_state", 4, 0, 0, "waiting", 0 },
		{ "bool", "final_state", 1, 0, 0, NULL, 0 },
	};
	struct field err_f[] = {
		{ "int", "id", 4, 1, 556, NULL, 0 },
		{ "__data_loc char[]", "state", 4, 0, 0, "stopped", 0 },
		{ "__data_loc char[]", "event", 4, 0, 0, "stop", 0 },
	};
	struct field bad_f[] = {
		{ "int", "id", 4, 1, 557, NULL, 0 },
		{ "__data_loc char[]", "state", 4, 0, 0, "flying", 0 },
		{ "__data_loc char[]", "event", 4, 0, 0, "stop", 0 },
	};
	unsigned char data[DATA_SIZE];
	struct tlob_transition tr;
	struct tep_record rec;
	struct tep_event *ev;
	int size;

	size = build(tep, "tlob", "event_tlob", 504, ev_f, 5, data);
	ev = event_of(tep, &rec, data, size);
	tap_ok(ev && !transition(TLOB_DEC_TRANSITION, ev, &rec, &tr),
	       "event_tlob decodes");
	tap_is_u64((uint64_t)tr.id, 555, "event_tlob: id");
	tap_is_str(tlob_state_name(tr.state), "running", "event_tlob: state by name");
	tap_is_str(tlob_event_name(tr.event), "preempt", "event_tlob: event by name");
	tap_is_str(tlob_state_name(tr.next_state), "waiting", "event_tlob: next_state by name");
	tap_ok(!tr.final && !tr.error && tr.cpu == 1 && tr.ts_ns == 123456789,
	       "event_tlob: final, error, cpu, ts");

	size = build(tep, "tlob", "error_tlob", 505, err_f, 3, data);
	ev = event_of(tep, &rec, data, size);
	tap_ok(ev && !transition(TLOB_DEC_ERROR, ev, &rec, &tr) && tr.error &&
	       tr.state == tlob_state_by_name("stopped") && tr.event == tlob_event_by_name("stop"),
	       "error_tlob decodes as an error");

	size = build(tep, "tlob", "error_tlob_bad", 506, bad_f, 3, data);
	ev = event_of(tep, &rec, data, size);
	tap_ok(ev && transition(TLOB_DEC_ERROR, ev, &rec, &tr) == -EINVAL,
	       "a state name the model does not have is refused");
}

/*
 * tlob:violation_detail as kernel/module/tlob_trace.h lays it out: the
 * format written out whole (fixed arrays of numbers and chars, __data_loc
 * arrays of u64), the bytes placed at its offsets.
 */
static void put(unsigned char *data, int off, const void *v, size_t n)
{
	memcpy(data + off, v, n);
}

static int diag_event(struct tep_handle *tep, int id, const char *name, unsigned int nu,
		      unsigned char *data)
{
	static const char fields[] =
		"\tfield:u64 start_ns;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 capture_ns;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 pid;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 tgid;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 binding_id;\toffset:32;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 cpu;\toffset:36;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 migrations;\toffset:40;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 waker_pid;\toffset:44;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 state;\toffset:48;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 ustack_when;\toffset:49;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 nr_ran;\toffset:50;\tsize:1;\tsigned:0;\n"
		"\tfield:char waker_comm[16];\toffset:51;\tsize:16;\tsigned:0;\n"
		"\tfield:__data_loc u64[] ustack;\toffset:68;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u64[] kstack;\toffset:72;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 ran_pid[4];\toffset:76;\tsize:16;\tsigned:0;\n"
		"\tfield:u32 ran_prio[4];\toffset:92;\tsize:16;\tsigned:0;\n"
		"\tfield:u8 ran_policy[4];\toffset:108;\tsize:4;\tsigned:0;\n"
		"\tfield:u64 ran_ns[4];\toffset:112;\tsize:32;\tsigned:0;\n"
		"\tfield:char ran_comm[64];\toffset:144;\tsize:64;\tsigned:0;\n";
	struct tep_event *ev = NULL;
	uint64_t v64;
	uint32_t v32, loc;
	char fmt[4096];
	int len, dyn = 208;

	memset(data, 0, DATA_SIZE);
	len = format_head(fmt, sizeof(fmt), name, id);
	len += snprintf(fmt + len, sizeof(fmt) - (size_t)len, "%s\nprint fmt: \"x\"\n", fields);
	*(unsigned short *)data = (unsigned short)id;
	v64 = 5000000001ULL; put(data, 8, &v64, 8);
	v64 = 5020000002ULL; put(data, 16, &v64, 8);
	v32 = 4242; put(data, 24, &v32, 4);
	v32 = 4240; put(data, 28, &v32, 4);
	v32 = 9; put(data, 32, &v32, 4);
	v32 = 1; put(data, 36, &v32, 4);
	v32 = 3; put(data, 40, &v32, 4);
	v32 = 77; put(data, 44, &v32, 4);
	data[48] = waiting_tlob;
	data[49] = TLOB_STACK_DEFERRED;
	data[50] = 2;
	put(data, 51, "diag-writer", 11);
	/* nu user frames, then 2 kernel frames */
	loc = (nu * 8) << 16 | (uint32_t)dyn;
	put(data, 68, &loc, 4);
	for (unsigned int i = 0; i < nu; i++) {
		v64 = 0x401000 + i;
		put(data, dyn, &v64, 8);
		dyn += 8;
	}
	loc = 16u << 16 | (uint32_t)dyn;
	put(data, 72, &loc, 4);
	v64 = 0xffffffff81000010ULL; put(data, dyn, &v64, 8);
	v64 = 0xffffffff81000020ULL; put(data, dyn + 8, &v64, 8);
	dyn += 16;
	v32 = 100; put(data, 76, &v32, 4);
	v32 = 101; put(data, 80, &v32, 4);
	v32 = 49; put(data, 92, &v32, 4);
	v32 = 120; put(data, 96, &v32, 4);
	data[108] = 1;
	data[109] = 0;
	v64 = 30000000; put(data, 112, &v64, 8);
	v64 = 2000; put(data, 120, &v64, 8);
	put(data, 144, "diag-hog", 8);
	put(data, 160, "kworker/0:1-events", 16);	/* 16 bytes, no NUL */
	if (tep_parse_format(tep, &ev, fmt, (unsigned long)len, "tlob")) {
		printf("# cannot parse format of %s\n", name);
		return -1;
	}
	return dyn;
}

static void test_diag(struct tep_handle *tep)
{
	unsigned char data[DATA_SIZE];
	struct tlob_decode d;
	struct tlob_diag g;
	struct tep_record rec;
	struct tep_event *ev;
	int size = diag_event(tep, 510, "violation_detail", 3, data);

	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev && tlob_decoder_for(ev->name) == TLOB_DEC_DIAG,
		    "violation_detail: event found, diag decoder"))
		return;
	tlob_decode_init(&d, TLOB_DEC_DIAG, ev);
	memset(&g, 0xa5, sizeof(g));
	counting = 1;
	tlob_decode_diag(&d, &rec, &g);
	counting = 0;
	tap_is_u64(g.start_ns, 5000000001ULL, "diag: start_ns");
	tap_is_u64(g.capture_ns, 5020000002ULL, "diag: capture_ns");
	tap_is_u64(g.pid, 4242, "diag: pid");
	tap_is_u64(g.tgid, 4240, "diag: tgid");
	tap_is_u64(g.binding_id, 9, "diag: binding_id");
	tap_is_u64(g.cpu, 1, "diag: cpu");
	tap_is_u64(g.migrations, 3, "diag: migrations");
	tap_is_u64(g.waker_pid, 77, "diag: waker_pid");
	tap_is_str(g.waker_comm, "diag-writer", "diag: waker_comm");
	tap_is_u64(g.state, waiting_tlob, "diag: state");
	tap_is_u64(g.ustack_when, TLOB_STACK_DEFERRED, "diag: ustack_when");
	tap_is_u64(g.nr_ustack, 3, "diag: nr_ustack from the dynamic array's length");
	tap_ok(g.ustack[0] == 0x401000 && g.ustack[1] == 0x401001 && g.ustack[2] == 0x401002,
	       "diag: ustack, innermost first");
	tap_is_u64(g.nr_kstack, 2, "diag: nr_kstack");
	tap_ok(g.kstack[0] == 0xffffffff81000010ULL && g.kstack[1] == 0xffffffff81000020ULL,
	       "diag: kstack");
	tap_is_u64(g.nr_ran, 2, "diag: nr_ran");
	tap_ok(g.ran[0].pid == 100 && g.ran[0].prio == 49 && g.ran[0].policy == 1 &&
	       g.ran[0].ns == 30000000 && !strcmp(g.ran[0].comm, "diag-hog"),
	       "diag: ran[0] pid, prio, policy, ns, comm");
	tap_ok(g.ran[1].pid == 101 && g.ran[1].prio == 120 && g.ran[1].policy == 0 &&
	       g.ran[1].ns == 2000 && !strcmp(g.ran[1].comm, "kworker/0:1-eve"),
	       "diag: ran[1], a 16-byte comm cut to 15 and a NUL");
	tap_ok(g.ran[2].pid == 0 && g.ran[3].ns == 0 && !g.ran[3].comm[0] && !g.pad[0],
	       "diag: nothing left of what out held before");

	/* More user frames than a diag holds: the first TLOB_DIAG_USTACK. */
	size = diag_event(tep, 511, "violation_detail_long", 20, data);
	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev != NULL, "diag: a 20-frame user stack"))
		return;
	tlob_decode_init(&d, TLOB_DEC_DIAG, ev);
	tlob_decode_diag(&d, &rec, &g);
	tap_ok(g.nr_ustack == TLOB_DIAG_USTACK && g.ustack[TLOB_DIAG_USTACK - 1] ==
	       0x401000 + TLOB_DIAG_USTACK - 1 && g.nr_kstack == 2,
	       "diag: ... kept to TLOB_DIAG_USTACK frames, the kernel stack unharmed");
}

/* tlob:alive_cycle, field for field struct tlob_alive_record (tlob_trace.h's layout). */
static void test_alive(struct tep_handle *tep)
{
	struct field f[] = {
		{ "u64", "start_ns", 8, 0, 7000000001ULL, NULL, 0 },
		{ "u64", "end_ns", 8, 0, 7300000001ULL, NULL, 0 },
		{ "u64", "period_ns", 8, 0, 100000000, NULL, 0 },
		{ "s64", "detect_latency_ns", 8, 1, (unsigned long long)-7, NULL, 0 },
		{ "u32", "pid", 4, 0, 812, NULL, 0 },
		{ "u32", "tgid", 4, 0, 810, NULL, 0 },
		{ "u32", "binding_id", 4, 0, 3, NULL, 0 },
		{ "u32", "checkpoints", 4, 0, 2, NULL, 0 },
		{ "u32", "expect_min", 4, 0, 8, NULL, 0 },
		{ "u32", "expect_max", 4, 0, 12, NULL, 0 },
		{ "u32", "cycles", 4, 0, 3, NULL, 0 },
		{ "u8", "verdict", 1, 0, TLOB_VERDICT_TOO_FEW, NULL, 0 },
		{ "u8", "detector", 1, 0, TLOB_DETECT_CHECKPOINT, NULL, 0 },
		{ "u8", "react", 1, 0, 0, NULL, 0 },
		{ "u8", "abort_reason", 1, 0, TLOB_ABORT_EXEC, NULL, 0 },
		{ "char", "comm", 16, 0, 0, "heartbeat-loop01", 0 },
		{ "char", "tag", 16, 0, 0, "hb", 0 },
	};
	struct field old_f[] = {	/* a layout without react, fields reordered */
		{ "u32", "checkpoints", 4, 0, 11, NULL, 0 },
		{ "u32", "binding_id", 4, 0, 4, NULL, 0 },
	};
	unsigned char data[DATA_SIZE];
	struct tlob_alive_record a;
	struct tlob_decode d;
	struct tep_record rec;
	struct tep_event *ev;
	int size = build(tep, "tlob", "alive_cycle", 520, f, sizeof(f) / sizeof(f[0]), data);

	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev && tlob_decoder_for(ev->name) == TLOB_DEC_ALIVE,
		    "alive_cycle: event found, alive decoder"))
		return;
	tlob_decode_init(&d, TLOB_DEC_ALIVE, ev);
	memset(&a, 0xa5, sizeof(a));
	counting = 1;
	tlob_decode_alive(&d, &rec, &a);
	counting = 0;
	tap_is_u64(a.start_ns, 7000000001ULL, "alive_cycle: start_ns");
	tap_is_u64(a.end_ns, 7300000001ULL, "alive_cycle: end_ns");
	tap_is_u64(a.period_ns, 100000000, "alive_cycle: period_ns");
	tap_ok(a.detect_latency_ns == -7, "alive_cycle: detect_latency_ns keeps its sign");
	tap_is_u64(a.pid, 812, "alive_cycle: pid");
	tap_is_u64(a.tgid, 810, "alive_cycle: tgid");
	tap_is_u64(a.binding_id, 3, "alive_cycle: binding_id");
	tap_is_u64(a.checkpoints, 2, "alive_cycle: checkpoints");
	tap_is_u64(a.expect_min, 8, "alive_cycle: expect_min");
	tap_is_u64(a.expect_max, 12, "alive_cycle: expect_max");
	tap_is_u64(a.cycles, 3, "alive_cycle: cycles");
	tap_is_u64(a.verdict, TLOB_VERDICT_TOO_FEW, "alive_cycle: verdict");
	tap_is_u64(a.detector, TLOB_DETECT_CHECKPOINT, "alive_cycle: detector");
	tap_is_u64(a.react, 0, "alive_cycle: react 0 (held back by tolerance=)");
	tap_is_u64(a.abort_reason, TLOB_ABORT_EXEC, "alive_cycle: abort_reason");
	tap_ok(!memcmp(a.comm, "heartbeat-loop01", 16),
	       "alive_cycle: 16-byte comm without NUL kept whole");
	tap_is_str(a.tag, "hb", "alive_cycle: tag");

	size = build(tep, "tlob", "alive_cycle_old", 521, old_f, 2, data);
	ev = event_of(tep, &rec, data, size);
	if (!tap_ok(ev != NULL, "alive_cycle: another layout"))
		return;
	tlob_decode_init(&d, TLOB_DEC_ALIVE, ev);
	memset(&a, 0xa5, sizeof(a));
	tlob_decode_alive(&d, &rec, &a);
	tap_ok(a.checkpoints == 11 && a.binding_id == 4 && a.react == 1 && !a.period_ns &&
	       !a.comm[0] && !a.tag[0],
	       "alive_cycle: fields by name wherever they are; react 1 when absent, the rest 0");
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();

	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	test_window(tep);
	test_violation_without_kind(tep);
	test_dropped(tep);
	test_detail_env(tep);
	test_transitions(tep);
	test_diag(tep);
	test_alive(tep);
	tap_is_u64(lookups, 0, "no field looked up by name while decoding a record");
	tep_free(tep);
	return tap_done();
}
