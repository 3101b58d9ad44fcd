/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF backend's loader (user/backend/bpf/backend_bpf.c is the backend interface on
 * top of it): loading and attaching the skeletons, choosing the overrun
 * detector, uprobes with attach cookies, and the pinned monitor under
 * TLOB_BPF_PIN_DIR that outlives the tool and that later tlob processes
 * (unbind, status, a second reader) open.
 *
 * All functions return 0 or -errno; on failure they leave a sentence in
 * the err buffer they are given.
 */
#ifndef TLOB_BPF_LOADER_H
#define TLOB_BPF_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tlob_bpf;
struct tlob_timer_bpf;
struct bpf_link;

/* The maps a tlob process talks to, by their names in tlob_common.bpf.h. */
enum tlob_bpf_map {
	TB_EVENTS,
	TB_WINDOWS,
	TB_BINDINGS,
	TB_STATS,
	TB_LOST,
	TB_META,
	TB_URGENT,
	TB_READERS,
	TB_HISTORY,
	TB_ALIVE_INSTS,
	TB_ALIVE_STATS,
	TB_LOGIC_TABLES,
	TB_LOGIC_INSTS,
	TB_LOGIC_STATS,
	TB_NR_MAPS,
};

#define TB_MAX_LINKS	16

const char *tb_map_name(enum tlob_bpf_map i);

/* A loaded (by us) or opened (pinned by someone) monitor. */
struct bpf_mon {
	struct tlob_bpf *skel;		/* loaded by this process, else NULL */
	struct tlob_timer_bpf *tskel;	/* the bpf_timer detector, if in use */
	int fd[TB_NR_MAPS];
	int prog_fd;			/* the uprobe program */
	int abort_fd;			/* tlob_abort (tb_abort()), -1: none */
	unsigned int tasks;		/* windows map size to load with; 0: default */
	/* START/STOP by tlob_uprobe_np, not preemptible (tlob.bpf.c) */
	bool preempt_off;
	/* tlob_exec_again and tlob_timer_exit_again loaded (kernel_caps.h) */
	bool tp_again;
	bool pinned;			/* lives under TLOB_BPF_PIN_DIR */
	bool attached;			/* scheduler hooks and detector on */
	unsigned int detector;		/* TLOB_DETECT_BPF_TIMER or _SAMPLE */
	uint64_t sample_period_ns;
	int sample_cpu;
	struct bpf_link *links[TB_MAX_LINKS];	/* tp_btf and fexit links */
	const char *link_prog[TB_MAX_LINKS];	/* their programs' names */
	int nr_links;
	int sample_link_fd;		/* -1: none */
	char why_no_timer[160];		/* why the sampler runs, "" if forced */
};

/* Can BPF run here: privileges, bpf(), BTF. 0 or -errno with why. */
int tb_probe(char *why, size_t len);

/*
 * Load both objects (the timer one only where the kernel takes it, see
 * tb_choose_detector), maps ready, nothing attached.
 */
int tb_load(struct bpf_mon *m, char *err, size_t len);
/* Attach the scheduler hooks and the detector. */
int tb_attach(struct bpf_mon *m, char *err, size_t len);
/* Detach what tb_attach attached (links this process holds). */
void tb_detach(struct bpf_mon *m);
/* Free everything this process holds; pinned objects stay. */
void tb_close(struct bpf_mon *m);
/*
 * End the open windows of binding @binding_id (0: of every binding) with
 * a record, aborted for @reason (enum tlob_abort_reason), as the module
 * does at unbind and disable. 0 or -errno.
 */
int tb_abort(const struct bpf_mon *m, uint32_t binding_id, uint32_t reason);

/* One line saying how overruns are detected, for the user. */
void tb_describe(const struct bpf_mon *m, char *buf, size_t len);

/* Pinning (pin.c). */
bool tb_pinned_exists(void);
/*
 * Whether the monitor @m opened is still the one pinned (a set torn down
 * by its last user, or replaced, while a tlob without a reader held it).
 */
bool tb_still_pinned(const struct bpf_mon *m);
/*
 * TLOB_BPF_PIN_DIR opened for the pins, made first if @create, on a BPF
 * file system and trusted only when root owns it and every directory
 * above it (safe_dir.h); 0, or -errno (-ENOENT: it does not exist).
 */
int tb_pin_dir_open(bool create, char *err, size_t len);
/* Whether /sys/fs/bpf is a BPF file system, where the monitor can be shared. */
bool tb_bpffs(void);
/* The pin name of binding @id's START (end 0) or STOP (end 1) uprobe link. */
void tb_link_name(char *buf, size_t len, uint32_t id, int end);
int tb_pin(struct bpf_mon *m, char *err, size_t len);
int tb_open_pinned(struct bpf_mon *m, char *err, size_t len);
int tb_pin_fd(int fd, const char *name, char *err, size_t len);
int tb_unpin(const char *name);
/* Remove every pinned object of the monitor; 0 or -errno. */
int tb_teardown(char *err, size_t len);

/*
 * A uprobe (ret: uretprobe) at path:offset running prog_fd with cookie;
 * returns the link fd (closing it, or unpinning it, detaches) or -errno.
 */
int tb_attach_uprobe(int prog_fd, const char *path, uint64_t offset, bool ret,
		     uint64_t cookie, char *err, size_t len);

/*
 * Sharing (share.c): one monitor for every tlob of the system, its lock,
 * its readers and the holders of its bindings.
 */
/*
 * The exclusive lock of the pinned set, waited for a bounded time, with
 * the pin directory checked and opened under it if it exists: an fd to
 * tb_unlock(), or -errno.
 */
int tb_lock(char *err, size_t len);
void tb_unlock(int fd);

/* A reader: its slot (-1: none) and its two rings (windows, urgent). */
struct tb_reader {
	int slot;
	int ring_fd[2];
};

/* Take a free slot with rings of its own; all: the records of every binding. */
int tb_reader_join(const struct bpf_mon *m, struct tb_reader *rd, bool all,
		   char *err, size_t len);
/* Free a slot: its references dropped (bindings freed with their last), its rings unhooked. */
void tb_reader_leave(const struct bpf_mon *m, int slot);
/* Free the slots of readers whose process is gone; how many were. */
int tb_sweep(const struct bpf_mon *m);
/* The mask of the slots in use. */
uint32_t tb_readers_live(const struct bpf_mon *m);
/* Append "PID:COMM" of each slot of @mask in use to buf, comma-separated. */
void tb_readers_name(const struct bpf_mon *m, uint32_t mask, char *buf, size_t len);
/*
 * Drop the references of the reader slots in @readers (and the persistent
 * holder's if @persist) from binding @id; *freed when that was the last
 * and the binding went (tb_binding_free(), @percpu_stats as there).
 * 0 or -errno.
 */
int tb_binding_drop(const struct bpf_mon *m, uint32_t id, uint32_t readers, bool persist,
		    void *percpu_stats, bool *freed);
/* The same for every binding. */
void tb_drop_holders(const struct bpf_mon *m, uint32_t readers, bool persist);
/*
 * Free binding @id: its probes off, its open windows ended (their records
 * to its readers), its map entries removed; its final per-CPU statistics
 * into @percpu_stats first (one struct tlob_stats per possible CPU) if
 * not NULL.
 */
int tb_binding_free(const struct bpf_mon *m, uint32_t id, void *percpu_stats);

#endif /* TLOB_BPF_LOADER_H */
