// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs reading through libtracefs + libtraceevent, the way rtla and the
 * rv tool do it (private instances, events decoded by field), but reading
 * trace_pipe_raw pages ourselves: that lets us sleep in ppoll() on the
 * per-CPU files and keep a half-delivered page across calls, so a sink
 * that stops early (--stop-on-violation) loses nothing that the exit
 * drain would then print.
 *
 * Two instances, so that a violation wakes the reader at once while
 * windows are read in batches:
 * - "tlob_<pid>_now": violations, their details (violation_detail, the
 *   diagnosis), dropped STARTs (upstream's detail_env_tlob), tlob:notify
 *   (PREEMPT_RT: written on another CPU to wake us; skipped), alive cycles
 *   with too few or too many checkpoints, logical bindings' ORDER,
 *   INCOMPLETE and TIMING records (tlob:logic):
 *   buffer_percent 0, the first event wakes the reader, which then reads
 *   both instances.
 * - "tlob_<pid>": windows (and -t's transitions), and the alive cycles
 *   that are no violation (ok, aborted: one per period, which may be
 *   100 us; tlob:alive_cycle is in both instances, each with a filter on
 *   its verdict, enable_by_verdict()), and logical instances' ends (ok,
 *   aborted; tlob:logic likewise). While nothing is
 *   pending its buffer_percent is 0 too, so the first window after a quiet
 *   spell wakes the reader; the reader then leaves it for up to the flush
 *   interval (a batch), its buffer_percent set to a watermark (half the
 *   buffer) that wakes it sooner when windows come fast. It keeps reading
 *   every flush interval while windows come, and goes back to the first
 *   state when one finds none. A window thus waits at most the flush
 *   interval, the reader wakes about once per interval however many
 *   windows there are, and not at all while nothing happens.
 * Events of both are merged oldest first (both on the mono clock).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "backend/kmod/decode.h"
#include "backend/kmod/trace.h"
#include "lib/utils.h"

/* Which instance: the one that wakes the reader at once, the batched one. */
enum { TI_NOW, TI_BATCH, TI_NR };

/* buffer_percent of the batched instance while a batch is pending. */
#define WATERMARK_PERCENT	"50"

struct cpu_reader {
	int cpu;
	int fd;
	int ti;			/* TI_NOW or TI_BATCH */
	void *page;
	struct kbuffer *kbuf;
	bool loaded;		/* kbuf holds a page not fully delivered */
	bool done;		/* nothing more for the drain under way (drain()) */
};

struct tlob_trace {
	struct tracefs_instance *inst[TI_NR];	/* NULL: not needed (no such event) */
	struct tep_handle *tep;
	struct cpu_reader *cpus;
	struct pollfd *pfds;
	int nr_cpus;		/* readers: CPUs x instances */
	int page_size;
	bool mono;		/* every instance's trace clock is mono: drain() may stop at its start */
	/* The fields of the few events we enabled, looked up once. */
	struct {
		int id;
		struct tlob_decode d;
	} ids[10];
	int nr_ids;
	uint64_t missed;	/* from kbuffer_missed_events() */
	uint64_t flush_ns;	/* the flush interval; 0: every event at once */
	bool batching;		/* windows may be waiting: read by flush_due at the latest */
	uint64_t flush_due;	/* tlob_now_ns() */
	bool resume;		/* the sink stopped a drain: the rest is due now */
	int batch_seen;		/* events of the batched instance in the last drain */
};

/* The instance each event goes to: violations and dropped STARTs wake the reader. */
static int instance_of(enum tlob_decoder dec)
{
	switch (dec) {
	case TLOB_DEC_VIOLATION:
	case TLOB_DEC_DROPPED:
	case TLOB_DEC_DETAIL_ENV:
	case TLOB_DEC_DIAG:
		return TI_NOW;
	default:
		return TI_BATCH;
	}
}

static int make_instance(struct tlob_trace *t, int ti, unsigned int buffer_kb,
			 char *err, size_t len)
{
	char name[48];

	snprintf(name, sizeof(name), ti == TI_NOW ? "tlob_%d_now" : "tlob_%d", (int)getpid());
	tlob_verbose("creating trace instance %s", name);
	t->inst[ti] = tracefs_instance_create(name);
	if (!t->inst[ti]) {
		snprintf(err, len, "cannot create trace instance %s: %s (is tracefs mounted?)",
			 name, strerror(errno));
		return -EIO;
	}
	/* Nothing is recorded until every event is set up. */
	tracefs_trace_off(t->inst[ti]);
	/* Wake readers on the first event, not when half the buffer is full. */
	if (tracefs_file_exists(t->inst[ti], "buffer_percent"))
		tracefs_instance_file_write(t->inst[ti], "buffer_percent", "0");
	if (buffer_kb && tracefs_instance_set_buffer_size(t->inst[ti], buffer_kb, -1)) {
		snprintf(err, len, "cannot set the trace buffer to %u KiB per CPU", buffer_kb);
		return -EIO;
	}
	/* Transition timestamps on the clock of struct tlob_record, one clock for both. */
	if (tracefs_instance_file_write(t->inst[ti], "trace_clock", "mono") <= 0)
		t->mono = false;
	return 0;
}

/* No room for another event's decoder: checked before the event is enabled. */
static bool ids_full(const struct tlob_trace *t)
{
	return t->nr_ids == (int)(sizeof(t->ids) / sizeof(t->ids[0]));
}

/* The decoder of event @ev, its fields looked up once. */
static int add_decoder(struct tlob_trace *t, struct tep_event *ev, enum tlob_decoder dec)
{
	if (ids_full(t))
		return -ENOSPC;
	t->ids[t->nr_ids].id = ev->id;
	tlob_decode_init(&t->ids[t->nr_ids].d, dec, ev);
	t->nr_ids++;
	return 0;
}

/* Instance @ti, made when it is first needed. */
static int need_instance(struct tlob_trace *t, int ti, unsigned int buffer_kb,
			 char *err, size_t len)
{
	return t->inst[ti] ? 0 : make_instance(t, ti, buffer_kb, err, len);
}

static int enable_event(struct tlob_trace *t, const char *system, const char *name,
			unsigned int buffer_kb, char *err, size_t len)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, name);
	enum tlob_decoder dec = tlob_decoder_for(name);
	int ti = instance_of(dec), ret;

	if (!ev)
		return -ENOENT;
	if (ids_full(t))
		return -ENOSPC;
	ret = need_instance(t, ti, buffer_kb, err, len);
	if (ret)
		return ret;
	if (tracefs_event_enable(t->inst[ti], system, name))
		return -EIO;
	return add_decoder(t, ev, dec);
}

/*
 * tlob:alive_cycle and tlob:logic: one event for every verdict, but only
 * a violation (too few or too many checkpoints; an order, timing or
 * incomplete instance) must wake the reader at once; an ok cycle or an
 * instance's end comes once per period or instance and is read in
 * batches, like a window. So the event is enabled in both instances, each
 * with a filter on the verdict that keeps its share: verdicts @v1..@v2
 * (the kind's violations, numbered in a row) now, the rest in the batch. A kernel that takes neither filter gets the event whole
 * in the instance that wakes the reader: nothing is late, only more
 * wakeups.
 */
static int enable_by_verdict(struct tlob_trace *t, const char *system, const char *name,
			     int v1, int v2, unsigned int buffer_kb, char *err, size_t len)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, name);
	char now[64], batch[64];
	int ret;

	if (!ev)
		return -ENOENT;
	if (ids_full(t))
		return -ENOSPC;
	snprintf(now, sizeof(now), "verdict >= %d && verdict <= %d", v1, v2);
	snprintf(batch, sizeof(batch), "verdict < %d || verdict > %d", v1, v2);
	ret = need_instance(t, TI_NOW, buffer_kb, err, len);
	if (!ret)
		ret = need_instance(t, TI_BATCH, buffer_kb, err, len);
	if (ret)
		return ret;
	if (tracefs_event_file_write(t->inst[TI_NOW], system, name, "filter", now) < 0 ||
	    tracefs_event_file_write(t->inst[TI_BATCH], system, name, "filter", batch) < 0) {
		tlob_verbose("%s:%s takes no filter: every record wakes the reader", system,
			     name);
		tracefs_event_file_write(t->inst[TI_NOW], system, name, "filter", "0");
	} else if (tracefs_event_enable(t->inst[TI_BATCH], system, name)) {
		return -EIO;
	}
	if (tracefs_event_enable(t->inst[TI_NOW], system, name))
		return -EIO;
	return add_decoder(t, ev, tlob_decoder_for(name));
}

/*
 * tlob:logic, when the module has it and its fields are the ones this
 * tool reads: a missing number leaves it off (said on stderr: a logical
 * binding's records would be misread), a missing name is said once and
 * its index shown instead.
 */
static int enable_logic(struct tlob_trace *t, const char *system, unsigned int buffer_kb,
			char *err, size_t len)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, "logic");
	struct tlob_decode d;
	char why[256];
	int ret;

	if (!ev)
		return -ENOENT;
	tlob_decode_init(&d, TLOB_DEC_LOGIC, ev);
	ret = tlob_decode_logic_check(&d, why, sizeof(why));
	if (ret)
		fprintf(stderr, "tlob: %s\n", why);
	if (ret < 0)
		return ret;
	static_assert(TLOB_VERDICT_INCOMPLETE == TLOB_VERDICT_ORDER + 1 &&
		      TLOB_VERDICT_TIMING == TLOB_VERDICT_ORDER + 2, "logic's violations in a row");
	return enable_by_verdict(t, system, "logic", TLOB_VERDICT_ORDER, TLOB_VERDICT_TIMING,
				 buffer_kb, err, len);
}

/*
 * tlob:notify (PREEMPT_RT), in the instance that wakes the reader at once:
 * written on another CPU after a violation whose own CPU cannot wake us
 * (kernel/module/tlob_notify.c). No decoder: its records are skipped.
 * A module without it: violations wake the reader as before.
 */
static void enable_notify(struct tlob_trace *t, const char *system)
{
	if (!t->inst[TI_NOW] || !tep_find_event_by_name(t->tep, system, "notify"))
		return;
	if (tracefs_event_enable(t->inst[TI_NOW], system, "notify"))
		tlob_verbose("cannot enable %s:notify: a violation under a real-time hog "
			     "may wait for the next batch", system);
}

static const struct tlob_decode *decoder_of(struct tlob_trace *t, int id)
{
	for (int i = 0; i < t->nr_ids; i++)
		if (t->ids[i].id == id)
			return &t->ids[i].d;
	return NULL;
}

static int open_cpus(struct tlob_trace *t, char *err, size_t len)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	t->cpus = calloc((size_t)n * TI_NR, sizeof(*t->cpus));
	t->pfds = calloc((size_t)n * TI_NR, sizeof(*t->pfds));
	if (!t->cpus || !t->pfds) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (int ti = 0; ti < TI_NR; ti++) {
		for (int cpu = 0; t->inst[ti] && cpu < n; cpu++) {
			struct cpu_reader *c = &t->cpus[t->nr_cpus];
			char file[64];
			int fd;

			snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
			fd = tracefs_instance_file_open(t->inst[ti], file, O_RDONLY | O_NONBLOCK);
			if (fd < 0)
				continue;	/* CPU not possible/online: no buffer */
			c->cpu = cpu;
			c->fd = fd;
			c->ti = ti;
			c->page = malloc((size_t)t->page_size);
			c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
						KBUFFER_ENDIAN_SAME_AS_HOST);
			if (!c->page || !c->kbuf) {
				free(c->page);
				kbuffer_free(c->kbuf);
				close(fd);
				snprintf(err, len, "out of memory");
				return -ENOMEM;
			}
			t->pfds[t->nr_cpus].fd = fd;
			t->pfds[t->nr_cpus].events = POLLIN;
			t->nr_cpus++;
		}
	}
	if (!t->nr_cpus) {
		snprintf(err, len, "cannot open any per_cpu/cpuN/trace_pipe_raw in the trace instance");
		return -ENOENT;
	}
	return 0;
}

/*
 * The instances tlob_PID and tlob_PID_now of a tool that is gone (SIGKILL
 * leaves them): their enabled events would keep the module referenced and
 * their buffers allocated. Removed by the next tlob command on the module.
 */
static int sweep_one(const char *name, void *ctx)
{
	struct tracefs_instance *inst;
	char *end;
	long pid;

	(void)ctx;
	if (strncmp(name, "tlob_", 5))
		return 0;
	errno = 0;
	pid = strtol(name + 5, &end, 10);
	if (!strcmp(end, "_now"))
		end += 4;
	if (errno || *end || end == name + 5 || pid <= 0 || pid == getpid() ||
	    !kill((pid_t)pid, 0) || errno != ESRCH)
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return 0;
	if (!tracefs_instance_destroy(inst))
		tlob_verbose("removed trace instance %s (its tool is gone)", name);
	tracefs_instance_free(inst);
	return 0;
}

void tlob_trace_sweep(void)
{
	tracefs_instances_walk(sweep_one, NULL);
}

/*
 * The formats of @system's events, parsed by libtraceevent, and nothing
 * else: tracefs_local_events_system() also parses /proc/kallsyms,
 * saved_cmdlines and printk_formats, none of which the decoders use, and
 * /proc/kallsyms alone (200k lines) is most of the second or more that
 * parse costs each tlob mon's start under emulation. An event whose
 * format does not parse at all is left out, as
 * tracefs_local_events_system() leaves it: enabling it then fails as for
 * a missing event (one whose print format alone does not parse is kept:
 * the decoders read fields, never the format).
 */
static struct tep_handle *system_formats(const char *system)
{
	char **events = tracefs_system_events(NULL, system);
	struct tep_handle *tep = NULL;
	char *buf;
	int size;

	if (!events)
		return NULL;
	tep = tep_alloc();
	if (!tep)
		goto out;
	/* The ring buffer's page header: the tracefs way, long size and all. */
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (buf) {
		tep_parse_header_page(tep, buf, size, sizeof(long));
		free(buf);
	}
	for (char **e = events; *e; e++) {
		buf = tracefs_event_file_read(NULL, system, *e, "format", &size);
		if (!buf)
			continue;
		tep_parse_event(tep, buf, size, system);
		free(buf);
	}
out:
	tracefs_list_free(events);
	return tep;
}

/*
 * The events of tlob.ko: window and violation, which every version has,
 * then those a version may lack, each left out with a note when missing.
 */
static int enable_module_events(struct tlob_trace *t, const char *system,
				unsigned int buffer_kb, char *err, size_t len)
{
	int ret;

	ret = enable_event(t, system, "window", buffer_kb, err, len);
	if (!ret)
		ret = enable_event(t, system, "violation", buffer_kb, err, len);
	if (!ret && enable_event(t, system, "dropped", buffer_kb, err, len))
		tlob_verbose("no %s:dropped event: this module does not report "
			     "STARTs that found no free window", system);
	/* Read at once, beside the violation it follows. */
	if (!ret && enable_event(t, system, "violation_detail", buffer_kb, err, len))
		tlob_verbose("no %s:violation_detail event: this module does not "
			     "diagnose violations", system);
	/* Optional as the two above; a reason it left in err is no error of the open. */
	if (!ret && enable_by_verdict(t, system, "alive_cycle", TLOB_VERDICT_TOO_FEW,
				      TLOB_VERDICT_TOO_MANY, buffer_kb, err, len)) {
		tlob_verbose("no %s:alive_cycle event: this module has no alive "
			     "supervision", system);
		err[0] = '\0';
	}
	if (!ret && enable_logic(t, system, buffer_kb, err, len)) {
		tlob_verbose("no %s:logic event: this module has no logical "
			     "supervision", system);
		err[0] = '\0';
	}
	if (!ret)
		enable_notify(t, system);
	return ret;
}

struct tlob_trace *tlob_trace_open(const char *system, bool transitions,
				   unsigned int buffer_kb, uint64_t flush_ns,
				   char *err, size_t len)
{
	struct tlob_trace *t;
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	t->page_size = getpagesize();
	t->mono = true;
	t->flush_ns = flush_ns;
	tlob_trace_sweep();

	tlob_verbose("reading the %s event formats", system);
	t->tep = system_formats(system);
	if (!t->tep) {
		snprintf(err, len, "cannot read the formats of the '%s' trace events", system);
		goto fail;
	}

	err[0] = '\0';
	if (!strcmp(system, "rv")) {
		/* In-kernel RV tlob: a violation is error_env_tlob + detail_env_tlob. */
		ret = enable_event(t, system, "detail_env_tlob", buffer_kb, err, len);
	} else {
		ret = enable_module_events(t, system, buffer_kb, err, len);
	}
	if (ret) {
		if (!err[0])
			snprintf(err, len, "the %s trace events are missing in tracefs (events/%s/)",
				 system, system);
		goto fail;
	}
	if (transitions) {
		if (enable_event(t, system, "event_tlob", buffer_kb, err, len) ||
		    enable_event(t, system, "error_tlob", buffer_kb, err, len)) {
			if (!err[0])
				snprintf(err, len, "-t: %s:event_tlob/error_tlob missing in tracefs",
					 system);
			goto fail;
		}
	}
	tlob_verbose("events enabled, opening the per-CPU buffers");
	if (open_cpus(t, err, len))
		goto fail;
	for (int ti = 0; ti < TI_NR; ti++) {
		if (t->inst[ti] && tracefs_trace_on(t->inst[ti])) {
			snprintf(err, len, "cannot turn tracing on in instance %s",
				 tracefs_instance_get_name(t->inst[ti]));
			goto fail;
		}
	}
	return t;
fail:
	tlob_trace_close(t);
	return NULL;
}

/* Deliver one event; non-zero from the sink stops delivery. */
static int deliver(struct tlob_trace *t, struct tep_record *rec,
		   const struct tlob_sink *sink, int *delivered)
{
	const struct tlob_decode *d = decoder_of(t, tep_data_type(t->tep, rec));
	struct tlob_transition tr;
	struct tlob_record r;
	struct tlob_alive_record al;
	struct tlob_logic_record lr;
	struct tlob_logic_names ln;
	struct tlob_diag dg;
	int ret = 0;

	switch (d ? d->dec : TLOB_DEC_NONE) {
	case TLOB_DEC_WINDOW:
	case TLOB_DEC_VIOLATION:
	case TLOB_DEC_DROPPED:
	case TLOB_DEC_DETAIL_ENV:
		tlob_decode_record(d, rec, &r);
		(*delivered)++;
		if (sink->record)
			ret = sink->record(&r, sink->ctx);
		break;
	case TLOB_DEC_TRANSITION:
	case TLOB_DEC_ERROR:
		if (!sink->transition || tlob_decode_transition(d, rec, &tr))
			break;
		(*delivered)++;
		ret = sink->transition(&tr, sink->ctx);
		break;
	case TLOB_DEC_DIAG:
		/* After its violation: the kernel emits it later, the merge keeps the order. */
		if (!sink->diag)
			break;
		tlob_decode_diag(d, rec, &dg);
		(*delivered)++;
		ret = sink->diag(&dg, sink->ctx);
		break;
	case TLOB_DEC_ALIVE:
		if (!sink->alive)
			break;
		tlob_decode_alive(d, rec, &al);
		(*delivered)++;
		ret = sink->alive(&al, sink->ctx);
		break;
	case TLOB_DEC_LOGIC:
		if (!sink->logic)
			break;
		tlob_decode_logic(d, rec, &lr, &ln);
		(*delivered)++;
		ret = sink->logic(&lr, &ln, sink->ctx);
		break;
	case TLOB_DEC_NONE:
		break;
	}
	return ret;
}

/*
 * Make c's next event readable: load pages until one has an event left.
 * Returns 1 if c has an event, 0 if its buffer is empty, -errno.
 */
static int fill(struct tlob_trace *t, struct cpu_reader *c)
{
	unsigned long long ts;
	ssize_t n;

	while (!c->loaded || !kbuffer_read_event(c->kbuf, &ts)) {
		c->loaded = false;
		n = read(c->fd, c->page, (size_t)t->page_size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		if (kbuffer_load_subbuffer(c->kbuf, c->page) < 0)
			return -EINVAL;
		if (kbuffer_missed_events(c->kbuf) > 0)
			t->missed += (uint64_t)kbuffer_missed_events(c->kbuf);
		c->loaded = true;
	}
	return 1;
}

/*
 * Deliver everything buffered, oldest first across CPUs (a violation
 * from the timer on one CPU comes before the window its task closes on
 * another). Stops early, keeping the rest, when the sink says so.
 *
 * One pass over what was there when it began (@until, on the events'
 * mono clock): a CPU's file found empty is not read again in this drain,
 * nor one whose next event is stamped after @until (a CPU's events come
 * in time order). Reading on behind the writers cost a read() of every
 * empty file per event delivered (the instance of violations is empty
 * most of the time: one syscall per window record, about a third of the
 * reader's CPU at 1000 windows/s) and chased a writer that does not
 * stop; what comes meanwhile is stamped after @until, so the merge order
 * holds, and it wakes the next poll (or waits for the next batch).
 */
static int drain(struct tlob_trace *t, const struct tlob_sink *sink, int *delivered)
{
	uint64_t until = tlob_now_ns();

	for (int i = 0; i < t->nr_cpus; i++)
		t->cpus[i].done = false;
	for (;;) {
		struct cpu_reader *best = NULL;
		unsigned long long best_ts = 0, ts;
		struct tep_record rec;
		void *data;
		int ret;

		for (int i = 0; i < t->nr_cpus; i++) {
			struct cpu_reader *c = &t->cpus[i];

			if (c->done)
				continue;
			ret = fill(t, c);
			if (ret < 0)
				return ret;
			if (ret)
				kbuffer_read_event(c->kbuf, &ts);
			if (!ret || (t->mono && ts > until)) {
				c->done = true;
				continue;
			}
			if (!best || ts < best_ts) {
				best = c;
				best_ts = ts;
			}
		}
		if (!best)
			return 0;
		data = kbuffer_read_event(best->kbuf, &ts);
		memset(&rec, 0, sizeof(rec));
		rec.ts = ts;
		rec.data = data;
		rec.size = kbuffer_event_size(best->kbuf);
		rec.cpu = best->cpu;
		/* Advance first: a stopping sink must not see this event twice. */
		kbuffer_next_event(best->kbuf, NULL);
		t->batch_seen += best->ti == TI_BATCH;
		ret = deliver(t, &rec, sink, delivered);
		if (ret) {
			t->resume = true;
			return ret;
		}
	}
}

/* The batched instance wakes the reader at its first event (0) or at the watermark. */
static void set_watermark(struct tlob_trace *t, bool on)
{
	struct tracefs_instance *inst = t->inst[TI_BATCH];

	if (inst && tracefs_file_exists(inst, "buffer_percent"))
		tracefs_instance_file_write(inst, "buffer_percent", on ? WATERMARK_PERCENT : "0");
}

/*
 * Sleep until something is due: a violation (at once), a batch (its
 * flush interval passed, or the watermark), or the caller's timeout.
 * 1 when something is due, 0 on the timeout, -errno.
 */
static int wait_due(struct tlob_trace *t, int timeout_ms)
{
	uint64_t now = tlob_now_ns();
	uint64_t end = timeout_ms > 0 ? now + (uint64_t)timeout_ms * 1000000 : 0;

	for (;;) {
		struct timespec ts, *tsp = NULL;
		bool now_ev = false, batch_ev = false;
		int wait = end ? tlob_ms_until(end, now) : -1, ret;

		if (t->batching && (wait < 0 || tlob_ms_until(t->flush_due, now) < wait))
			wait = tlob_ms_until(t->flush_due, now);
		if (wait >= 0) {
			ts.tv_sec = wait / 1000;
			ts.tv_nsec = (long)(wait % 1000) * 1000000L;
			tsp = &ts;
		}
		ret = ppoll(t->pfds, (nfds_t)t->nr_cpus, tsp, tlob_wait_sigmask());
		if (ret < 0)
			return errno == EINTR ? -EINTR : -errno;
		now = tlob_now_ns();
		for (int i = 0; ret > 0 && i < t->nr_cpus; i++) {
			if (!t->pfds[i].revents)
				continue;
			if (t->cpus[i].ti == TI_NOW)
				now_ev = true;
			else
				batch_ev = true;
		}
		if (now_ev || (batch_ev && (t->batching || !t->flush_ns)))
			return 1;
		if (t->batching && now >= t->flush_due)
			return 1;
		if (batch_ev) {
			/* The first window of a batch: due in one flush interval. */
			t->batching = true;
			t->flush_due = now + t->flush_ns;
			set_watermark(t, true);
			continue;
		}
		if (end && now >= end)
			return 0;
	}
}

int tlob_trace_poll(struct tlob_trace *t, int timeout_ms, const struct tlob_sink *sink)
{
	int delivered = 0, ret;

	/* At exit (0), and the rest of a drain a sink stopped: now. */
	if (timeout_ms && !t->resume) {
		ret = wait_due(t, timeout_ms);
		if (ret <= 0)
			return ret;
	}
	t->resume = false;
	t->batch_seen = 0;
	ret = drain(t, sink, &delivered);
	if (!ret && t->flush_ns) {
		/*
		 * Windows came: the next batch is due one interval from now.
		 * None: quiet, the first window wakes the reader again.
		 */
		if (t->batch_seen) {
			t->flush_due = tlob_now_ns() + t->flush_ns;
			if (!t->batching)
				set_watermark(t, true);
			t->batching = true;
		} else if (t->batching) {
			t->batching = false;
			set_watermark(t, false);
		}
	}
	return ret ? ret : delivered;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

uint64_t tlob_trace_lost(struct tlob_trace *t)
{
	uint64_t lost = 0;

	for (int i = 0; i < t->nr_cpus; i++) {
		char file[64], *text;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", t->cpus[i].cpu);
		text = tracefs_instance_file_read(t->inst[t->cpus[i].ti], file, NULL);
		if (!text)
			continue;
		lost += stat_value(text, "overrun: ");
		lost += stat_value(text, "dropped events: ");
		free(text);
	}
	/* Page-level missed counts repeat what overrun says: take the larger. */
	return lost > t->missed ? lost : t->missed;
}

void tlob_trace_close(struct tlob_trace *t)
{
	if (!t)
		return;
	tlob_verbose("closing the trace instances");
	for (int ti = 0; ti < TI_NR; ti++)
		if (t->inst[ti])
			tracefs_trace_off(t->inst[ti]);
	for (int i = 0; i < t->nr_cpus; i++) {
		close(t->cpus[i].fd);
		free(t->cpus[i].page);
		kbuffer_free(t->cpus[i].kbuf);
	}
	free(t->cpus);
	free(t->pfds);
	for (int ti = 0; ti < TI_NR; ti++) {
		if (!t->inst[ti])
			continue;
		/* The instance's files must be closed before rmdir. */
		tracefs_instance_destroy(t->inst[ti]);
		tracefs_instance_free(t->inst[ti]);
	}
	tlob_verbose("trace instances removed");
	tlob_trace_sweep();
	if (t->tep)
		tep_free(t->tep);
	free(t);
}
