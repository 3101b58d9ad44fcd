// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs reading through libtracefs + libtraceevent, the way rtla and the
 * rv tool do it (private instance, events decoded by field), but reading
 * trace_pipe_raw pages ourselves: that lets us sleep in ppoll() on the
 * per-CPU files (woken on the first event: buffer_percent is 0 in our
 * instance) and keep a half-delivered page across calls, so a sink that
 * stops early (--stop-on-violation) loses nothing that the exit drain
 * would then print.
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

#include "decode.h"
#include "trace.h"
#include "utils.h"

struct cpu_reader {
	int cpu;
	int fd;
	void *page;
	struct kbuffer *kbuf;
	bool loaded;		/* kbuf holds a page not fully delivered */
};

struct tlob_trace {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct cpu_reader *cpus;
	struct pollfd *pfds;
	int nr_cpus;
	int page_size;
	/* Decoder per event id, for the few events we enabled. */
	struct {
		int id;
		enum tlob_decoder dec;
	} ids[8];
	int nr_ids;
	uint64_t missed;	/* from kbuffer_missed_events() */
};

static int enable_event(struct tlob_trace *t, const char *system, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, name);

	if (!ev)
		return -ENOENT;
	if (t->nr_ids == (int)(sizeof(t->ids) / sizeof(t->ids[0])))
		return -ENOSPC;
	if (tracefs_event_enable(t->inst, system, name))
		return -EIO;
	t->ids[t->nr_ids].id = ev->id;
	t->ids[t->nr_ids].dec = tlob_decoder_for(name);
	t->nr_ids++;
	return 0;
}

static enum tlob_decoder decoder_of(struct tlob_trace *t, int id)
{
	for (int i = 0; i < t->nr_ids; i++)
		if (t->ids[i].id == id)
			return t->ids[i].dec;
	return TLOB_DEC_NONE;
}

static int open_cpus(struct tlob_trace *t, char *err, size_t len)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	t->cpus = calloc((size_t)n, sizeof(*t->cpus));
	t->pfds = calloc((size_t)n, sizeof(*t->pfds));
	if (!t->cpus || !t->pfds) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < n; cpu++) {
		struct cpu_reader *c = &t->cpus[t->nr_cpus];
		char file[64];
		int fd;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		fd = tracefs_instance_file_open(t->inst, file, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			continue;	/* CPU not possible/online: no buffer */
		c->cpu = cpu;
		c->fd = fd;
		c->page = malloc((size_t)t->page_size);
		c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
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
	if (!t->nr_cpus) {
		snprintf(err, len, "cannot open any per_cpu/cpuN/trace_pipe_raw in the trace instance");
		return -ENOENT;
	}
	return 0;
}

/*
 * An instance tlob_PID of a tool that is gone (SIGKILL leaves it): its
 * enabled events would keep the module referenced and the instance's
 * buffer allocated. Removed by the next tlob command on the module.
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

struct tlob_trace *tlob_trace_open(const char *system, bool transitions,
				   unsigned int buffer_kb, char *err, size_t len)
{
	const char *systems[] = { system, NULL };
	struct tlob_trace *t;
	char name[32];
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	t->page_size = getpagesize();

	tlob_trace_sweep();
	snprintf(name, sizeof(name), "tlob_%d", (int)getpid());
	tlob_verbose("creating trace instance %s", name);
	t->inst = tracefs_instance_create(name);
	if (!t->inst) {
		snprintf(err, len, "cannot create trace instance %s: %s (is tracefs mounted?)",
			 name, strerror(errno));
		goto fail;
	}
	/* Nothing is recorded until every event is set up. */
	tracefs_trace_off(t->inst);
	/* Wake readers on the first event, not when half the buffer is full. */
	if (tracefs_file_exists(t->inst, "buffer_percent"))
		tracefs_instance_file_write(t->inst, "buffer_percent", "0");
	if (buffer_kb && tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1)) {
		snprintf(err, len, "cannot set the trace buffer to %u KiB per CPU", buffer_kb);
		goto fail;
	}
	/* Transition timestamps on the clock of struct tlob_record. */
	tracefs_instance_file_write(t->inst, "trace_clock", "mono");

	tlob_verbose("reading the %s event formats", system);
	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep) {
		snprintf(err, len, "cannot read the formats of the '%s' trace events", system);
		goto fail;
	}

	if (!strcmp(system, "rv")) {
		/* In-kernel RV tlob: a violation is error_env_tlob + detail_env_tlob. */
		ret = enable_event(t, system, "detail_env_tlob");
	} else {
		ret = enable_event(t, system, "window");
		if (!ret)
			ret = enable_event(t, system, "violation");
		if (!ret && enable_event(t, system, "dropped"))
			tlob_verbose("no %s:dropped event: this module does not report "
				     "STARTs that found no free window", system);
	}
	if (ret) {
		snprintf(err, len, "the %s trace events are missing in tracefs (events/%s/)",
			 system, system);
		goto fail;
	}
	if (transitions) {
		if (enable_event(t, system, "event_tlob") ||
		    enable_event(t, system, "error_tlob")) {
			snprintf(err, len, "-t: %s:event_tlob/error_tlob missing in tracefs",
				 system);
			goto fail;
		}
	}
	tlob_verbose("events enabled, opening the per-CPU buffers");
	if (open_cpus(t, err, len))
		goto fail;
	if (tracefs_trace_on(t->inst)) {
		snprintf(err, len, "cannot turn tracing on in instance %s", name);
		goto fail;
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
	struct tep_event *ev = tep_find_event_by_record(t->tep, rec);
	enum tlob_decoder dec = ev ? decoder_of(t, ev->id) : TLOB_DEC_NONE;
	struct tlob_transition tr;
	struct tlob_record r;
	int ret = 0;

	switch (dec) {
	case TLOB_DEC_WINDOW:
	case TLOB_DEC_VIOLATION:
	case TLOB_DEC_DROPPED:
	case TLOB_DEC_DETAIL_ENV:
		tlob_decode_record(dec, ev, rec, &r);
		(*delivered)++;
		if (sink->record)
			ret = sink->record(&r, sink->ctx);
		break;
	case TLOB_DEC_TRANSITION:
	case TLOB_DEC_ERROR:
		if (!sink->transition || tlob_decode_transition(dec, ev, rec, &tr))
			break;
		(*delivered)++;
		ret = sink->transition(&tr, sink->ctx);
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
 */
static int drain(struct tlob_trace *t, const struct tlob_sink *sink, int *delivered)
{
	for (;;) {
		struct cpu_reader *best = NULL;
		unsigned long long best_ts = 0, ts;
		struct tep_record rec;
		void *data;
		int ret;

		for (int i = 0; i < t->nr_cpus; i++) {
			struct cpu_reader *c = &t->cpus[i];

			ret = fill(t, c);
			if (ret < 0)
				return ret;
			if (!ret)
				continue;
			kbuffer_read_event(c->kbuf, &ts);
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
		ret = deliver(t, &rec, sink, delivered);
		if (ret)
			return ret;
	}
}

int tlob_trace_poll(struct tlob_trace *t, int timeout_ms, const struct tlob_sink *sink)
{
	struct timespec ts, *tsp = NULL;
	int delivered = 0, ret;

	ret = drain(t, sink, &delivered);
	if (ret || delivered || !timeout_ms)
		return ret ? ret : delivered;

	if (timeout_ms > 0) {
		ts.tv_sec = timeout_ms / 1000;
		ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
		tsp = &ts;
	}
	ret = ppoll(t->pfds, (nfds_t)t->nr_cpus, tsp, tlob_wait_sigmask());
	if (ret < 0)
		return errno == EINTR ? -EINTR : -errno;
	if (ret == 0)
		return 0;
	ret = drain(t, sink, &delivered);
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
		text = tracefs_instance_file_read(t->inst, file, NULL);
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
	tlob_verbose("closing the trace instance");
	if (t->inst)
		tracefs_trace_off(t->inst);
	for (int i = 0; i < t->nr_cpus; i++) {
		close(t->cpus[i].fd);
		free(t->cpus[i].page);
		kbuffer_free(t->cpus[i].kbuf);
	}
	free(t->cpus);
	free(t->pfds);
	if (t->inst) {
		/* The instance's files must be closed before rmdir. */
		tracefs_instance_destroy(t->inst);
		tlob_verbose("trace instance removed");
		tracefs_instance_free(t->inst);
		tlob_trace_sweep();
	}
	if (t->tep)
		tep_free(t->tep);
	free(t);
}
