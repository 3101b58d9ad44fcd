/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface every tlob backend implements: the module (backend_kmod.c,
 * which also drives an in-kernel RV tlob) and BPF (backend_bpf.c). The
 * commands (tlob_*.c) only talk to a struct tlob_backend, so every command
 * works on every backend, and every record reaches them as the one
 * struct tlob_record of kernel/shared/tlob_abi.h, whoever produced it.
 *
 * Conventions:
 * - Every op returns 0 (or a count) on success and -errno on failure. On
 *   failure it may put a sentence a person understands into be->err
 *   (tlob_backend_err()); the caller prints be->err when set, strerror()
 *   otherwise.
 * - Ops a backend cannot do are NULL or return -EOPNOTSUPP with a reason.
 * - Nothing is silently faked: a backend that is not usable says why from
 *   probe(), and open() fails the same way.
 */
#ifndef TLOB_BACKEND_H
#define TLOB_BACKEND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tlob_abi.h"
#include "tlob_parse.h"

/* tlob mon --flush: its default and its largest value. */
#define TLOB_FLUSH_DEFAULT_NS	(100 * 1000000ULL)
#define TLOB_FLUSH_MAX_NS	(10 * 1000000000ULL)

/*
 * One binding: a code section, its budget, and whom it applies to; or,
 * with alive set, a checkpoint and how often it must be hit (an `a` line,
 * kernel/shared/tlob_parse.h).
 */
struct tlob_binding_spec {
	char path[PATH_MAX];	/* absolute path of the ELF file */
	uint64_t start;		/* ELF file offset of START (alive: of the checkpoint) */
	uint64_t stop;		/* ELF file offset of STOP (unused if stop_is_ret) */
	bool stop_is_ret;	/* STOP = return of the START function */
	uint64_t budget_ns;	/* TLOB_BUDGET_MIN_NS .. TLOB_BUDGET_MAX_NS */
	uint64_t min_ns;	/* min=: 0 none, else below budget_ns */
	/*
	 * tolerance=K/W (tlob_tolerance.h): react to a violation only when
	 * it makes K of the last W judged windows; W <= 1 (a zeroed spec's
	 * 0/0 too) is none, which the backends store as 1/1.
	 */
	uint8_t tol_k, tol_w;
	char tag[TLOB_TAG_LEN];	/* "" = none */
	/*
	 * Alive supervision (models/alive.dot): each reference cycle of
	 * period_ns must see the checkpoint at START expect - margin ..
	 * expect + margin times, per process or per task. An alive binding
	 * has no STOP, budget or minimum (stop, stop_is_ret, budget_ns and
	 * min_ns stay 0), a section none of these (all 0).
	 */
	bool alive;
	uint64_t period_ns;	/* TLOB_PERIOD_MIN_NS .. TLOB_BUDGET_MAX_NS */
	uint32_t expect;	/* 1 .. TLOB_EXPECT_MAX */
	uint32_t margin;	/* 0 .. expect */
	uint8_t per;		/* enum tlob_per (tlob_parse.h): TLOB_PER_PROCESS or _TASK */
	/*
	 * Logical supervision (an `l` line, a user's DOT model: user/kinds/logic.c):
	 * the automaton, its names and its events' ELF file offsets in path;
	 * start is event 0's offset (the binding's key, as a checkpoint's),
	 * per, tolerance, tag and pid/tgid as an alive binding's. No STOP,
	 * budget, minimum, period, expect or margin. A spec read from a stats
	 * line has the model's name only (table.model; nstates 0).
	 */
	bool logic;
	struct tlob_logic_table table;
	/*
	 * The files beyond path that its events lie in (table.file[e] 1..
	 * table.nfiles - 1: an `l` line's file1= ..), one after the other,
	 * each ended by a NUL: tlob_spec_file() reads them,
	 * tlob_spec_set_files() writes them. An `l` line holds every path
	 * in its one write, so they fit in PATH_MAX together.
	 */
	char files[PATH_MAX];
	pid_t pid;		/* only this thread; 0 = any */
	pid_t tgid;		/* only this process; 0 = any */
	uint32_t id;		/* backend's binding id, filled by bind()/list(); 0 unknown */
	/*
	 * Who holds the binding, as the backend lists it (kmod: "monitor"
	 * for the persistent holder, "PID:COMM" per session, comma-separated);
	 * "" unknown. Filled by list()/stats().
	 */
	char holders[256];
};

/* A spec's tolerance=K/W as the backends hold it: none is 1/1. */
static inline unsigned int tlob_spec_tol_k(const struct tlob_binding_spec *s)
{
	return s->tol_w > 1 ? s->tol_k : 1;
}

static inline unsigned int tlob_spec_tol_w(const struct tlob_binding_spec *s)
{
	return s->tol_w > 1 ? s->tol_w : 1;
}

/*
 * Per-binding statistics aggregated by the backend (kernel side): the
 * struct every backend keeps (tlob_abi.h), summed over the CPUs.
 */
struct tlob_binding_stats {
	struct tlob_binding_spec spec;	/* path/start/stop/stop_is_ret/tag/id */
	struct tlob_stats stats;
	uint64_t mean_ns;		/* stats.sum_ns / stats.windows, 0 for none */
	/* spec.alive: the checkpoint's cycles instead (stats and mean_ns stay 0). */
	struct tlob_alive_stats alive;
	/* spec.logic: the model's instances and violations instead. */
	struct tlob_logic_stats logic;
};

/* The names a logical record's indices stand for (the tlob:logic event's strings). */
struct tlob_logic_names {
	char model[TLOB_LOGIC_NAME_MAX + 1];
	char state[TLOB_LOGIC_NAME_MAX + 1];
	char event[TLOB_LOGIC_NAME_MAX + 1];	/* "": none */
};

/* A state transition of the model (tlob mon -t). */
struct tlob_transition {
	uint64_t ts_ns;		/* CLOCK_MONOTONIC if known, else the trace clock */
	int32_t id;		/* the monitored task's pid (upstream's "id") */
	int32_t cpu;		/* -1 unknown */
	uint8_t state;		/* enum states_tlob */
	uint8_t event;		/* enum events_tlob */
	uint8_t next_state;	/* enum states_tlob; INVALID_STATE_TLOB on an error */
	bool final;		/* next_state is final */
	bool error;		/* event not allowed in state (error_tlob) */
	char comm[TLOB_COMM_LEN];	/* task that emitted it, "" unknown */
};

/*
 * Where poll() delivers. A callback returning non-zero makes poll() return
 * at once with that value (e.g. --stop-on-violation); records not yet
 * delivered stay buffered for the next poll().
 */
struct tlob_sink {
	int (*record)(const struct tlob_record *rec, void *ctx);
	/* NULL: the caller does not want transitions (no -t). */
	int (*transition)(const struct tlob_transition *tr, void *ctx);
	/*
	 * Why a window overran (tlob_abi.h), after its violation record;
	 * NULL: the caller does not want it.
	 */
	int (*diag)(const struct tlob_diag *d, void *ctx);
	/*
	 * A judged (or aborted) reference cycle of an alive binding
	 * (tlob_abi.h); NULL: the caller does not want them.
	 */
	int (*alive)(const struct tlob_alive_record *r, void *ctx);
	/*
	 * A record of a logical binding (tlob_abi.h) and the names the
	 * module's tlob:logic event carries with it (model, state, event; ""
	 * for none); NULL: the caller does not want them.
	 */
	int (*logic)(const struct tlob_logic_record *r, const struct tlob_logic_names *names,
		     void *ctx);
	void *ctx;
};

struct tlob_backend_opts {
	/*
	 * kmod: the control directory (TLOB_SYSFS_DIR, or TLOB_RV_DIR for an
	 * in-kernel RV tlob). NULL: the backend's default. Unused by BPF.
	 */
	const char *control_root;
	/* Deliver state transitions (tlob mon -t). */
	bool transitions;
	/*
	 * The caller wants to read records (tlob mon). False for bind/unbind/
	 * status/stats/list, which must not set up a reader.
	 */
	bool reader;
	/*
	 * Size of the reader's buffer per CPU in KiB (tlob mon --buffer-size);
	 * 0: the backend's default. kmod: the trace instance's buffer_size_kb.
	 */
	unsigned int buffer_kb;
	/*
	 * BPF: how many tasks can be inside sections at once (the windows
	 * map's size; tlob mon --bpf-tasks); 0: TLOB_BPF_MAX_TASKS.
	 */
	unsigned int bpf_tasks;
	/*
	 * How long a record of a window may wait in the kernel before the
	 * reader reads it (tlob mon --flush): the reader wakes once per batch,
	 * not per record; violations and dropped STARTs wake it at once.
	 * 0: every record wakes it.
	 */
	uint64_t flush_ns;
	/*
	 * BPF: bindings must outlive this process (tlob bind): pin under
	 * TLOB_BPF_PIN_DIR. kmod bindings always persist.
	 */
	bool persist;
	/*
	 * BPF: the reader reads the records of every binding (tlob mon
	 * without -b), not only of those it binds.
	 */
	bool reader_all;
};

struct tlob_backend;

/* What a backend can do beyond the basics (tlob_backend_ops.caps). */
enum tlob_backend_cap {
	/* poll() delivers state transitions when opened with .transitions. */
	TLOB_CAP_TRANSITIONS = 1 << 0,
};

struct tlob_backend_ops {
	const char *name;	/* "kmod", "bpf" */
	const char *desc;	/* one line for tlob list */
	unsigned int caps;	/* enum tlob_backend_cap; the tool refuses what is missing */

	/*
	 * Can this backend run here? 0 yes; -errno with a reason in why
	 * (e.g. "tlob.ko is not loaded (/sys/kernel/tlob missing)"). Cheap,
	 * changes nothing.
	 */
	int (*probe)(const char *control_root, char *why, size_t len);

	/*
	 * The overrun detector this backend runs on this kernel: a short name
	 * in name ("hrtimer", "bpf_timer", "sampling") and one sentence in
	 * detail saying how, and why when it is not the first choice. May
	 * load programs to find out (and unload them); changes nothing.
	 */
	int (*detector)(struct tlob_backend *be, char *name, size_t nlen,
			char *detail, size_t dlen);

	/* Set up be->priv. Fails with the same reason as probe() if unusable. */
	int (*open)(struct tlob_backend *be, const struct tlob_backend_opts *opts);
	/* Free everything; does NOT restore settings (the tool does that). */
	void (*close)(struct tlob_backend *be);

	/* enable: 0/1 current state; set_enable writes it. */
	int (*get_enable)(struct tlob_backend *be);
	int (*set_enable)(struct tlob_backend *be, bool on);

	/* Current reactor name into buf; set_reactor selects one ("signal:N" ok). */
	int (*get_reactor)(struct tlob_backend *be, char *buf, size_t len);
	int (*set_reactor)(struct tlob_backend *be, const char *name);
	/* Available reactors, space-separated, current one in [brackets]. */
	int (*list_reactors)(struct tlob_backend *be, char *buf, size_t len);

	/*
	 * Add a binding; *id gets the binding id when the backend knows it
	 * (0 otherwise). -EEXIST duplicate (same file + START), -ERANGE
	 * budget (alive: period), -ENOSPC full, -EINVAL malformed, -ENOENT
	 * path, -EOPNOTSUPP an alive or logical binding where the backend
	 * runs no such supervision (BPF, in-kernel RV), with the reason in
	 * be->err.
	 */
	int (*bind)(struct tlob_backend *be, const struct tlob_binding_spec *spec,
		    uint32_t *id);
	/* Remove the binding of spec->path + spec->start; -ENOENT unknown. */
	int (*unbind)(struct tlob_backend *be, const struct tlob_binding_spec *spec);
	/* All current bindings; *specs is malloc'd (caller frees), never truncated. */
	int (*list)(struct tlob_backend *be, struct tlob_binding_spec **specs, size_t *n);
	/* Per-binding statistics; *st is malloc'd (caller frees). */
	int (*stats)(struct tlob_backend *be, struct tlob_binding_stats **st, size_t *n);

	/*
	 * Deliver what is buffered to sink, sleeping up to timeout_ms while
	 * nothing is (never busy-waits; -1 = until something arrives or a
	 * signal). timeout_ms == 0 drains everything buffered without sleeping
	 * (used at exit, so no record is lost). Returns the number delivered,
	 * a sink callback's non-zero value as is (positive), -EINTR when a
	 * signal interrupted the sleep, or -errno.
	 */
	int (*poll)(struct tlob_backend *be, int timeout_ms, const struct tlob_sink *sink);
	/* Records the backend knows were lost (ring buffer overruns) so far. */
	int (*lost)(struct tlob_backend *be, uint64_t *lost);
	/*
	 * Windows that got no overrun timer (BPF: the bpf_timer could not be
	 * set up, e.g. its map unpinned and unheld): their overruns are found
	 * only at a scheduler event or at STOP, so a session and tlob status
	 * must say so. since_open: those opened since open() (a session's),
	 * else since the monitor was loaded. Counted on the whole monitor, not
	 * per reader. NULL: the backend's detector cannot be missing (the
	 * module's hrtimer).
	 */
	int (*untimed)(struct tlob_backend *be, bool since_open, uint64_t *n);

	/*
	 * Whether this handle is a session (kmod: TLOB_SESSION_DEV open;
	 * BPF: a reader slot of the shared monitor in bpffs): its
	 * bind() takes a reference on a binding shared with every holder of
	 * the same binding, its unbind() drops only that reference (the
	 * binding goes with its last one), the bindings are monitored
	 * whatever enable says, and they go when the handle closes, however
	 * the process ends. stats() lists only the session's bindings, and
	 * after unbind() still the final statistics of those it freed (their
	 * windows ended by the unbind counted; BPF also those of the ones
	 * others still hold, as they were at the drop). NULL or false: bind() and
	 * unbind() change the bindings themselves.
	 */
	bool (*session)(struct tlob_backend *be);
};

struct tlob_backend {
	const struct tlob_backend_ops *ops;
	void *priv;
	char err[512];		/* human-readable reason of the last failure, or "" */
};

/* The registry: every backend compiled in, in auto-selection order. */
extern const struct tlob_backend_ops tlob_backend_kmod;
extern const struct tlob_backend_ops tlob_backend_bpf;
extern const struct tlob_backend_ops *const tlob_backends[];

/* "kmod", "bpf" -> ops; NULL if unknown. */
const struct tlob_backend_ops *tlob_backend_find(const char *name);

/*
 * Choose and open a backend: name is "kmod", "bpf" or "auto" (the module
 * when it is loaded, else BPF; the caller says which from be->ops->name).
 * On failure be->err says why (for auto: why neither is usable).
 */
int tlob_backend_open(struct tlob_backend *be, const char *name,
		      const struct tlob_backend_opts *opts);
void tlob_backend_close(struct tlob_backend *be);

/* printf into be->err; returns -err so ops can `return tlob_backend_err(...)`. */
int tlob_backend_err(struct tlob_backend *be, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* TLOB_BACKEND_H */
