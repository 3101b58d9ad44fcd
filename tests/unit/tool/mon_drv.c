// SPDX-License-Identifier: GPL-2.0
/*
 * tlob mon's session (tlob_mon_session()) on a fake backend, so the exit
 * status and what mon changes can be checked on the host:
 *
 *   mon_drv [-B BINDINGS] [-R REACTORS] [-V RECORDS] [-O OPEN] [-E 1] [-S 1]
 *           [-N NAME] [-T TRACEFS] [-F 1] [-K MS] [-U MS] [-G 1] [-H 1] -- MON-ARGS...
 *
 * BINDINGS persistent bindings exist already (default 0); REACTORS is the
 * backend's reactor list (default "[nop] printk panic signal", "-" none);
 * RECORDS the records poll() delivers, one letter each: o a window in
 * budget, v a violation, d a START dropped (no free window), x a window
 * of a binding this session did not make (another user's: bind() gives
 * id 1, x is id 2); g the diagnosis of the last violation (a user stack
 * of this driver's own functions, symbolized live: fake_poll+0x10,
 * main+0x20; sleeping in a kernel stack; woken by 77:waker; ran instead
 * hog-78 fifo/49 5ms); w the last violation's window ending (over
 * budget); a an alive cycle ok, f one with too few checkpoints, m too
 * many, h one with too few that its binding's tolerance= held back
 * (react 0), z an alive instance's end (aborted, exit), y an ok cycle of
 * another user's binding (id 2); r a logical binding's ORDER (event
 * frame_end refused in state idle of model frame_flow), i its INCOMPLETE
 * (exit in state in_frame), k an instance's ok end; s a pause of 60 ms, S of 1.1 s. Records are of this process (pid and tgid
 * getpid(), comm "fakeapp", tag "t1"), each violation a window of its own.
 * -G 1: SIGINT and SIGTERM stop the session, as they stop tlob mon.
 * NAME is the backend's name (default "fake"; "kmod" or "bpf" for what
 * mon does on those); TRACEFS a directory libtracefs takes as tracefs
 * (tracefs_set_tracing_dir()), for the triggers. -F 1: enabling fails. With -S 1 the backend is a session (backend.h):
 * enable is not its business, and its statistics are read after its
 * bindings are removed. OPEN windows
 * are still open when the session ends: like the real backends, switching
 * the monitor off ends them (aborted, disable), or with -E 1 (the monitor
 * was enabled before the session, which leaves it on) removing their
 * binding does (aborted, unbind); their records come at the next poll.
 * Every op that changes something is logged to stdout ("op: ..."), then
 * "exit N" with the session's status.
 *
 * -K MS: /proc/kallsyms takes MS to read (tlob_read_file() wrapped: the
 * emulated guests' 1.4 s), and names the diagnosis' kernel frame
 * fake_kernel_fn+0x1000; without -K the host's own file is read. -U MS:
 * reporting a process to libdwfl takes MS longer (dwfl_linux_proc_report()
 * wrapped: the emulated guests' 50 to 240 ms for a process seen first).
 * -W 1: with no record to deliver, poll() sleeps as the real backends do,
 * in ppoll() with tlob's wait mask until its timeout or a signal. After
 * MON-ARGS' "-- CMD", the driver runs the command as tlob mon does
 * (prints "command pid P, sections narrowed to tgid T") and prints tlob's
 * exit, the command's status.
 * -H 1: the statistics hold one binding (id 1), its windows in log2
 * buckets far apart (3, 9 and 21), for the summary's histogram.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include <elfutils/libdwfl.h>
#include <stdint.h>
#include <tracefs.h>
#include <unistd.h>

#include "cmd/tlob.h"
#include "lib/utils.h"
#include "lib/workload.h"
#include "tlob_model.h"

int main(int argc, char **argv);
char *__real_tlob_read_file(const char *path);
char *__wrap_tlob_read_file(const char *path);
int __real_dwfl_linux_proc_report(Dwfl *dwfl, pid_t pid);
int __wrap_dwfl_linux_proc_report(Dwfl *dwfl, pid_t pid);

static const char *reactors = "[nop] printk panic signal";
static const char *records = "";
static size_t persistent;
static unsigned int open_at_end;
static int enabled_before;
static int session;
/* -W 1: poll sleeps as the real backends do (ppoll with the wait mask). */
static int wait_as_backend;
static unsigned int fail_enable;
/* Records the session's own ends of windows produced (D, U), polled later. */
static char ended[64];
static const char *ended_next = ended;

/* The open windows end now, each with its record of this letter. */
static void end_open(char letter)
{
	size_t n = strlen(ended);

	for (; open_at_end && n + 1 < sizeof(ended); open_at_end--)
		ended[n++] = letter;
	ended[n] = '\0';
}

static int fake_get_enable(struct tlob_backend *be)
{
	(void)be;
	return enabled_before;
}

static int fake_set_enable(struct tlob_backend *be, bool on)
{
	(void)be;
	printf("op: enable %d\n", on);
	if (on && fail_enable)
		return -EIO;
	if (!on)
		end_open('D');
	return 0;
}

static int fake_get_reactor(struct tlob_backend *be, char *buf, size_t len)
{
	(void)be;
	snprintf(buf, len, "nop");
	return 0;
}

static int fake_set_reactor(struct tlob_backend *be, const char *name)
{
	(void)be;
	printf("op: reactor %s\n", name);
	return 0;
}

static int fake_list_reactors(struct tlob_backend *be, char *buf, size_t len)
{
	(void)be;
	snprintf(buf, len, "%s", reactors);
	return 0;
}

static int fake_bind(struct tlob_backend *be, const struct tlob_binding_spec *spec,
		     uint32_t *id)
{
	(void)be;
	printf("op: bind %s\n", spec->path);
	*id = 1;
	return 0;
}

static int fake_unbind(struct tlob_backend *be, const struct tlob_binding_spec *spec)
{
	(void)be;
	printf("op: unbind %s\n", spec->path);
	end_open('U');
	return 0;
}

static int fake_list(struct tlob_backend *be, struct tlob_binding_spec **specs, size_t *n)
{
	(void)be;
	*n = persistent;
	*specs = calloc(persistent + 1, sizeof(**specs));
	return *specs ? 0 : -ENOMEM;
}

static int hist_stats;

static int fake_stats(struct tlob_backend *be, struct tlob_binding_stats **st, size_t *n)
{
	(void)be;
	printf("read: stats\n");
	*st = NULL;
	*n = 0;
	if (!hist_stats)
		return 0;
	*st = calloc(1, sizeof(**st));
	if (!*st)
		return -ENOMEM;
	(*st)->spec.id = 1;
	snprintf((*st)->spec.path, sizeof((*st)->spec.path), "/opt/app");
	(*st)->stats.windows = 9;
	(*st)->stats.min_ns = 10;
	(*st)->stats.max_ns = 3000000;
	(*st)->mean_ns = 1000000;
	(*st)->stats.hist[3] = 1;
	(*st)->stats.hist[9] = 2;
	(*st)->stats.hist[21] = 6;
	*n = 1;
	return 0;
}

static long kallsyms_ms = -1;
static long report_ms;

int __wrap_dwfl_linux_proc_report(Dwfl *dwfl, pid_t pid)
{
	struct timespec ts = { report_ms / 1000, report_ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
	return __real_dwfl_linux_proc_report(dwfl, pid);
}

char *__wrap_tlob_read_file(const char *path)
{
	struct timespec ts = { kallsyms_ms / 1000, kallsyms_ms % 1000 * 1000000L };

	if (kallsyms_ms < 0 || strcmp(path, "/proc/kallsyms"))
		return __real_tlob_read_file(path);
	nanosleep(&ts, NULL);
	return strdup("ffffffff80fff000 T fake_kernel_fn\nffffffff81001000 T fake_next_fn\n");
}

static struct tlob_record last_violation;
static unsigned int seq;
static int fake_poll(struct tlob_backend *be, int timeout_ms, const struct tlob_sink *sink);

/* The diagnosis of the last violation ('g'). */
static int fake_diag(const struct tlob_sink *sink)
{
	struct tlob_diag d = {
		.start_ns = last_violation.start_ns, .pid = last_violation.pid,
		.tgid = last_violation.tgid, .binding_id = last_violation.binding_id,
		.cpu = 1, .migrations = 2, .waker_pid = 77, .waker_comm = "waker",
		.state = sleeping_tlob, .ustack_when = TLOB_STACK_DEADLINE,
		.nr_ustack = 2, .nr_kstack = 1, .nr_ran = 1,
		.ustack = { (__u64)(uintptr_t)fake_poll + 0x10, (__u64)(uintptr_t)main + 0x20 },
		.kstack = { 0xffffffff81000000ULL },
		.ran = { { .ns = 5000000, .pid = 78, .prio = 49, .policy = 1, .comm = "hog" } },
	};

	return sink->diag ? sink->diag(&d, sink->ctx) : 0;
}

/* A logical binding's record (r i k), delivered where the sink wants it. */
static int fake_logic(const struct tlob_sink *sink, char c)
{
	struct tlob_logic_record l = {
		.start_ns = 1000 + 7 * (__u64)seq++, .pid = (__u32)getpid(),
		.tgid = (__u32)getpid(), .binding_id = 1, .events = 5, .react = 1,
		.event = TLOB_LOGIC_NONE, .comm = "fakeapp", .tag = "fl",
	};
	struct tlob_logic_names n = { .model = "frame_flow", .state = "idle" };

	l.end_ns = l.start_ns + 100;
	if (c == 'r') {
		l.verdict = TLOB_VERDICT_ORDER;
		l.event = 1;
		snprintf(n.event, sizeof(n.event), "frame_end");
	} else if (c == 'i') {
		l.verdict = TLOB_VERDICT_INCOMPLETE;
		l.abort_reason = TLOB_ABORT_EXIT;
		l.state = 2;
		snprintf(n.state, sizeof(n.state), "in_frame");
	} else {
		l.verdict = TLOB_VERDICT_OK;
		l.abort_reason = TLOB_ABORT_EXIT;
		l.state = 1;
		snprintf(n.state, sizeof(n.state), "done");
	}
	return sink->logic ? sink->logic(&l, &n, sink->ctx) : 0;
}

/* An alive binding's cycle (a f m h z y), delivered where the sink wants it. */
static int fake_alive(const struct tlob_sink *sink, char c)
{
	struct tlob_alive_record a = {
		.start_ns = 1000 + 7 * (__u64)seq++, .period_ns = 100000000, .pid = (__u32)getpid(),
		.tgid = (__u32)getpid(), .binding_id = c == 'y' ? 2 : 1, .checkpoints = 10,
		.expect_min = 8, .expect_max = 12, .cycles = 1, .detector = TLOB_DETECT_HRTIMER,
		.react = 1, .comm = "fakeapp", .tag = "hb",
	};

	a.end_ns = a.start_ns + a.period_ns;
	if (c == 'f' || c == 'm' || c == 'h') {
		a.verdict = c == 'm' ? TLOB_VERDICT_TOO_MANY : TLOB_VERDICT_TOO_FEW;
		a.checkpoints = c == 'm' ? 20 : 2;
		a.react = c != 'h';
		a.detect_latency_ns = 400000;
	} else if (c == 'z') {
		a.verdict = TLOB_VERDICT_ABORTED;
		a.abort_reason = TLOB_ABORT_EXIT;
		a.checkpoints = 3;
	}
	return sink->alive ? sink->alive(&a, sink->ctx) : 0;
}

static int fake_poll(struct tlob_backend *be, int timeout_ms, const struct tlob_sink *sink)
{
	struct timespec ts = { 0, 5 * 1000000L }, pause = { 0, 60 * 1000000L };
	int delivered = 0;

	(void)be;
	while (*records || *ended_next) {
		const char **from = *records ? &records : &ended_next;
		struct tlob_record r = { .kind = TLOB_REC_WINDOW, .end_ns = 1, .binding_id = 1,
					 .pid = (__u32)getpid(), .tgid = (__u32)getpid(),
					 .start_ns = 1000 + 7 * (__u64)seq++,
					 .budget_ns = 5000, .elapsed_ns = 5100,
					 .comm = "fakeapp", .tag = "t1" };
		int ret;

		r.time_ns[running_tlob] = 100;
		r.time_ns[sleeping_tlob] = 5000;
		if (**from == 's' || **from == 'S') {
			struct timespec longer = { 1, 100 * 1000000L };

			nanosleep(**from == 's' ? &pause : &longer, NULL);
			(*from)++;
			continue;
		}
		if (strchr("afmhzy", **from)) {
			delivered++;
			ret = fake_alive(sink, *(*from)++);
			if (ret)
				return ret;
			continue;
		}
		if (strchr("rik", **from)) {
			delivered++;
			ret = fake_logic(sink, *(*from)++);
			if (ret)
				return ret;
			continue;
		}
		if (**from == 'g' || **from == 'w') {
			char c = *(*from)++;

			delivered++;
			ret = c == 'g' ? fake_diag(sink) : sink->record(&last_violation, sink->ctx);
			if (ret)
				return ret;
			continue;
		}
		if (**from == 'v' || **from == 't') {
			/* t: a violation its binding's tolerance= held back */
			r.kind = TLOB_REC_VIOLATION;
			r.verdict = TLOB_VERDICT_OVER_BUDGET;
			r.react = **from == 'v';
			last_violation = r;
			last_violation.kind = TLOB_REC_WINDOW;
		} else if (**from == 'd') {
			r.kind = TLOB_REC_DROPPED;
		} else if (**from == 'x') {
			r.binding_id = 2;
		} else if (**from == 'D' || **from == 'U') {
			r.verdict = TLOB_VERDICT_ABORTED;
			r.abort_reason = **from == 'D' ? TLOB_ABORT_DISABLE : TLOB_ABORT_UNBIND;
		}
		(*from)++;
		delivered++;
		ret = sink->record(&r, sink->ctx);
		if (ret)
			return ret;
	}
	if (!delivered && wait_as_backend) {
		struct timespec t = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

		/* As the real backends sleep: only a signal or the timeout ends it. */
		if (ppoll(NULL, 0, timeout_ms < 0 ? NULL : &t, tlob_wait_sigmask()) < 0)
			return -errno;
	} else if (!delivered && timeout_ms) {
		/* As the real backends wait: SIGINT/SIGTERM (-G 1) end the wait at once. */
		pselect(0, NULL, NULL, NULL, &ts, tlob_wait_sigmask());
	}
	return delivered;
}

static int fake_lost(struct tlob_backend *be, uint64_t *lost)
{
	(void)be;
	*lost = 0;
	return 0;
}

static bool fake_session(struct tlob_backend *be)
{
	(void)be;
	return session;
}

static struct tlob_backend_ops fake_ops = {
	.name = "fake",
	.get_enable = fake_get_enable,
	.set_enable = fake_set_enable,
	.get_reactor = fake_get_reactor,
	.set_reactor = fake_set_reactor,
	.list_reactors = fake_list_reactors,
	.bind = fake_bind,
	.unbind = fake_unbind,
	.list = fake_list,
	.stats = fake_stats,
	.poll = fake_poll,
	.lost = fake_lost,
	.session = fake_session,
};

int main(int argc, char **argv)
{
	struct tlob_backend be = { .ops = &fake_ops };
	struct tlob_params params;
	struct tlob_workload work = { 0 };
	struct tlob_mon_stop stop;
	FILE *out;
	int i, ret;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i += 2) {
		if (i + 1 >= argc)
			return 99;
		if (!strcmp(argv[i], "-B"))
			persistent = strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-R"))
			reactors = argv[i + 1];
		else if (!strcmp(argv[i], "-V"))
			records = argv[i + 1];
		else if (!strcmp(argv[i], "-O"))
			open_at_end = strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-E"))
			enabled_before = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-S"))
			session = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-F"))
			fail_enable = (unsigned int)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-U"))
			report_ms = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-K"))
			kallsyms_ms = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-W"))
			wait_as_backend = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-G") && atoi(argv[i + 1]))
			tlob_signals_setup();
		else if (!strcmp(argv[i], "-H"))
			hist_stats = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-N"))
			fake_ops.name = argv[i + 1];
		else if (!strcmp(argv[i], "-T") && tracefs_set_tracing_dir(argv[i + 1]))
			return 99;
	}
	if (!strcmp(reactors, "-")) {
		fake_ops.set_reactor = NULL;
		fake_ops.list_reactors = NULL;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* argv[i] is "--": the command's name for getopt's argv[0] */
	tlob_params_parse(&tlob_cmd_mon, argc - i, argv + i, &params);
	if (wait_as_backend || params.command)
		tlob_signals_setup();
	/* -o as tlob mon takes it; the ops and the status stay on stdout, line by line. */
	out = params.output ? tlob_mon_output(params.output) : stdout;
	if (!out) {
		printf("exit %d\n", TLOB_EXIT_ERROR);
		return 0;
	}
	if (params.command) {
		ret = tlob_mon_prepare_command(&params, &work, out == stdout);
		if (ret) {
			printf("exit %d\n", ret);
			return 0;
		}
		printf("command pid %d, sections narrowed to tgid %d\n", (int)work.pid,
		       (int)params.specs[0].tgid);
	}
	ret = tlob_mon_session(&be, &params, out, params.command ? &work : NULL, &stop);
	if (params.command)
		ret = tlob_mon_end_command(&params, &work, ret);
	if (tlob_mon_output_close(out, params.output))
		ret = TLOB_EXIT_ERROR;
	printf("exit %d\n", ret);
	tlob_params_free(&params);
	return 0;
}
