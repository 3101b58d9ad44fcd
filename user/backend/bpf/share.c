// SPDX-License-Identifier: GPL-2.0
/*
 * One BPF monitor per system, shared: the programs and maps pinned under
 * TLOB_BPF_PIN_DIR are loaded by the first tlob that needs them and serve
 * every later one, so the scheduler path costs the same whatever the
 * number of sessions. This file keeps the books of that sharing:
 *
 * - The lock. Every change of the set's bindings or readers, and its
 *   load and teardown, is made under an exclusive flock(2) of
 *   TB_RUN_DIR/bpf.lock, so two tlob processes never hand out the same id
 *   or slot, or free a binding the other is joining. The lock goes with
 *   the process, however it ends. It is root's file in root's directory
 *   (safe_dir.c), so no other user can hold it and stall root's tlob, and
 *   a tlob waits for it a bounded time, then says who holds it.
 * - Readers (tlob mon): a slot each in the tlob_readers map, with two
 *   rings of its own in tlob_events and tlob_urgent (tlob_bpf.h says why
 *   not one ring for all); it gets the records of the bindings that have
 *   its bit, or of all (struct tlob_bpf_meta.all_readers).
 * - Holders: a binding is held by the persistent holder (TLOB_BIND_PERSIST:
 *   tlob bind) and by readers (their bits); it is freed (probes off, open
 *   windows ended with their records, statistics removed) with its last
 *   holder, and the set is removed with its last binding and reader.
 * - A reader killed (SIGKILL) leaves its slot: the next tlob on the set
 *   finds its process gone (or its pid taken by a process started later)
 *   and frees the slot as the reader would have.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/bpf/loader.h"
#include "backend/bpf/safe_dir.h"
#include "lib/units.h"
#include "lib/utils.h"
#include "tlob_abi.h"
#include "tlob_bpf.h"

/* The lock file, in TB_RUN_DIR: root's alone, so no other user can hold it. */
#define TB_LOCK_NAME	"bpf.lock"
/* How long a tlob waits for the lock, unless TLOB_BPF_LOCK_WAIT says (seconds). */
#define TB_LOCK_WAIT_S	60
#define TB_LOCK_WAIT_MAX_S	3600

static unsigned int lock_wait_s(void)
{
	uint64_t v = TB_LOCK_WAIT_S;
	char err[160];

	if (tlob_env_u64("TLOB_BPF_LOCK_WAIT", 1, TB_LOCK_WAIT_MAX_S, &v, err, sizeof(err)) < 0) {
		fprintf(stderr, "tlob: bpf: %s seconds; waiting %d\n", err, TB_LOCK_WAIT_S);
		return TB_LOCK_WAIT_S;
	}
	return (unsigned int)v;
}

/*
 * "pid N (COMM)" of the process that holds the flock of @fd, as
 * /proc/locks lists it (its waiters are the lines with "->").
 */
static void lock_holder(int fd, char *buf, size_t len)
{
	unsigned int maj, min;
	char line[256], type[16], path[64], comm[32] = "?";
	unsigned long ino;
	struct stat st;
	int pid = 0;
	FILE *f;

	snprintf(buf, len, "another process");
	f = fopen("/proc/locks", "re");
	if (!f || fstat(fd, &st)) {
		if (f)
			fclose(f);
		return;
	}
	while (!pid && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", type, &pid, &maj, &min,
			   &ino) != 5 || strcmp(type, "FLOCK") || ino != st.st_ino ||
		    makedev(maj, min) != st.st_dev)
			pid = 0;
	fclose(f);
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(buf, len, "pid %d (%s)", pid, comm);
}

/*
 * The lock, waited for at most @wait_s seconds: 0 once held, -ETIMEDOUT
 * with who holds it in @err. Said once while waiting, so a slow load by
 * another tlob is no silent hang.
 */
static int lock_wait(int fd, unsigned int wait_s, char *err, size_t len)
{
	uint64_t t0 = tlob_now_ns(), said = 0;
	char who[64];
	int ret;

	for (;;) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK) {
			ret = -errno;
			snprintf(err, len, "cannot lock %s/%s: %s", TB_RUN_DIR, TB_LOCK_NAME,
				 strerror(-ret));
			return ret;
		}
		if (tlob_now_ns() - t0 >= (uint64_t)wait_s * 1000000000ULL) {
			lock_holder(fd, who, sizeof(who));
			snprintf(err, len, "the BPF monitor's lock (%s/%s) is still held by %s "
				 "after %u s: giving up (TLOB_BPF_LOCK_WAIT sets the wait)",
				 TB_RUN_DIR, TB_LOCK_NAME, who, wait_s);
			return -ETIMEDOUT;
		}
		if (!said++ && wait_s > 1) {
			lock_holder(fd, who, sizeof(who));
			fprintf(stderr, "tlob: bpf: waiting up to %u s for the BPF monitor's "
				"lock, held by %s\n", wait_s, who);
		}
		usleep(20000);
	}
}

int tb_lock(char *err, size_t len)
{
	struct stat st;
	int dir, fd, ret;

	dir = tb_run_dir(err, len);
	if (dir < 0)
		return dir;
	fd = openat(dir, TB_LOCK_NAME, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	close(dir);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, len, "cannot open %s/%s: %s", TB_RUN_DIR, TB_LOCK_NAME,
			 strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0) {
		snprintf(err, len, "%s/%s is not a regular file of root's", TB_RUN_DIR,
			 TB_LOCK_NAME);
		close(fd);
		return -EPERM;
	}
	ret = lock_wait(fd, lock_wait_s(), err, len);
	/* The pin directory checked (and kept open) under the lock. */
	if (!ret)
		ret = tb_pin_dir_open(false, err, len);
	if (ret == -ENOENT)
		ret = 0;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

void tb_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* and with it the lock */
}

/* Field 22 of /proc/PID/stat, the start time in clock ticks since boot; 0: no such process. */
static uint64_t start_time_of(pid_t pid)
{
	unsigned long long t = 0;
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* After the command's closing parenthesis (the command may hold any). */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d "
			 "%*d %*d %*d %*d %*d %llu", &t) != 1)
		return 0;
	return t;
}

static int read_reader(const struct bpf_mon *m, uint32_t slot, struct tlob_bpf_reader *r)
{
	memset(r, 0, sizeof(*r));
	return bpf_map_lookup_elem(m->fd[TB_READERS], &slot, r) ? -errno : 0;
}

static bool reader_alive(const struct tlob_bpf_reader *r)
{
	return r->pid && start_time_of((pid_t)r->pid) == r->start_time;
}

uint32_t tb_readers_live(const struct bpf_mon *m)
{
	struct tlob_bpf_reader r;
	uint32_t mask = 0;

	for (uint32_t s = 0; s < TLOB_BPF_READERS; s++)
		if (!read_reader(m, s, &r) && r.pid)
			mask |= 1U << s;
	return mask;
}

void tb_readers_name(const struct bpf_mon *m, uint32_t mask, char *buf, size_t len)
{
	struct tlob_bpf_reader r;
	size_t o = strlen(buf);

	for (uint32_t s = 0; s < TLOB_BPF_READERS && o + 1 < len; s++) {
		if (!(mask & (1U << s)) || read_reader(m, s, &r) || !r.pid)
			continue;
		r.comm[sizeof(r.comm) - 1] = '\0';
		o += snprintf(buf + o, len - o, "%s%u:%s", o ? "," : "", r.pid, r.comm);
	}
}

static int read_meta(const struct bpf_mon *m, struct tlob_bpf_meta *meta)
{
	return bpf_map_lookup_elem(m->fd[TB_META], &(uint32_t){ 0 }, meta) ? -errno : 0;
}

static int write_meta(const struct bpf_mon *m, const struct tlob_bpf_meta *meta)
{
	return bpf_map_update_elem(m->fd[TB_META], &(uint32_t){ 0 }, meta, BPF_ANY) ? -errno : 0;
}

int tb_binding_free(const struct bpf_mon *m, uint32_t id, void *percpu_stats)
{
	struct tlob_bpf_binding b;
	char name[64];
	int stats;

	/* An alive binding's statistics are its cycles' (tlob_alive.bpf.h). */
	stats = TB_STATS;
	if (!bpf_map_lookup_elem(m->fd[TB_BINDINGS], &id, &b))
		stats = b.flags & TLOB_BIND_ALIVE ? TB_ALIVE_STATS :
			b.flags & TLOB_BIND_LOGIC ? TB_LOGIC_STATS : TB_STATS;

	/* Probes first, so no window of the binding opens any more. */
	/* A logical binding has one per event. */
	for (int e = 0; e < TLOB_LOGIC_EVENTS_MAX; e++) {
		tb_link_name(name, sizeof(name), id, e);
		tb_unpin(name);
	}
	/*
	 * Its open windows end now (aborted, unbind), each with its record
	 * to the binding's readers (it is still in the map: that is how the
	 * programs find them). The statistics go last: the aborts are
	 * counted in them first.
	 */
	tb_abort(m, id, TLOB_ABORT_UNBIND);
	if (percpu_stats && bpf_map_lookup_elem(m->fd[stats], &id, percpu_stats))
		return -errno;
	bpf_map_delete_elem(m->fd[TB_BINDINGS], &id);
	bpf_map_delete_elem(m->fd[TB_STATS], &id);
	bpf_map_delete_elem(m->fd[TB_ALIVE_STATS], &id);
	bpf_map_delete_elem(m->fd[TB_LOGIC_STATS], &id);
	bpf_map_delete_elem(m->fd[TB_LOGIC_TABLES], &id);
	bpf_map_delete_elem(m->fd[TB_HISTORY], &id);
	/*
	 * Again, the binding gone: a START already past its lookup of it
	 * may have opened a window since (tlob.bpf.c, tlob_unbinds).
	 */
	tb_abort(m, id, TLOB_ABORT_UNBIND);
	return 0;
}

int tb_binding_drop(const struct bpf_mon *m, uint32_t id, uint32_t readers, bool persist,
		    void *percpu_stats, bool *freed)
{
	struct tlob_bpf_binding b;

	*freed = false;
	if (bpf_map_lookup_elem(m->fd[TB_BINDINGS], &id, &b))
		return -ENOENT;
	if (!(b.readers & ~readers) && (persist || !(b.flags & TLOB_BIND_PERSIST))) {
		*freed = true;
		return tb_binding_free(m, id, percpu_stats);
	}
	b.readers &= ~readers;
	if (persist)
		b.flags &= ~TLOB_BIND_PERSIST;
	return bpf_map_update_elem(m->fd[TB_BINDINGS], &id, &b, BPF_EXIST) ? -errno : 0;
}

/* Drop the references of the reader slots in @mask from every binding. */
void tb_drop_holders(const struct bpf_mon *m, uint32_t mask, bool persist)
{
	struct tlob_bpf_binding b;
	uint32_t key, next;
	void *prev = NULL;
	bool freed;

	while (!bpf_map_get_next_key(m->fd[TB_BINDINGS], prev, &next)) {
		key = next;
		if (!bpf_map_lookup_elem(m->fd[TB_BINDINGS], &key, &b) &&
		    ((b.readers & mask) || (persist && (b.flags & TLOB_BIND_PERSIST)))) {
			tb_binding_drop(m, key, mask, persist, NULL, &freed);
			/* A deleted key ends get_next_key's walk: start over. */
			if (freed) {
				prev = NULL;
				continue;
			}
		}
		prev = &key;
	}
}

void tb_reader_leave(const struct bpf_mon *m, int slot)
{
	struct tlob_bpf_reader none = { 0 };
	struct tlob_bpf_meta meta;
	uint32_t s = (uint32_t)slot;

	if (slot < 0 || slot >= TLOB_BPF_READERS)
		return;
	tb_drop_holders(m, 1U << s, false);
	if (!read_meta(m, &meta) && (meta.all_readers & (1U << s))) {
		meta.all_readers &= ~(1U << s);
		write_meta(m, &meta);
	}
	bpf_map_delete_elem(m->fd[TB_EVENTS], &s);
	bpf_map_delete_elem(m->fd[TB_URGENT], &s);
	bpf_map_update_elem(m->fd[TB_READERS], &s, &none, BPF_ANY);
}

int tb_sweep(const struct bpf_mon *m)
{
	struct tlob_bpf_reader r;
	int n = 0;

	for (int s = 0; s < TLOB_BPF_READERS; s++) {
		if (read_reader(m, (uint32_t)s, &r) || !r.pid || reader_alive(&r))
			continue;
		r.comm[sizeof(r.comm) - 1] = '\0';
		tlob_verbose("reader %u:%s is gone (slot %d): its references dropped",
			     r.pid, r.comm, s);
		tb_reader_leave(m, s);
		n++;
	}
	return n;
}

static int ring_create(const char *name, uint32_t size, char *err, size_t len)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, name, 0, 0, size, NULL);

	if (fd < 0) {
		fd = -errno;
		snprintf(err, len, "cannot create a %u-byte BPF ring buffer: %s", size,
			 strerror(-fd));
	}
	return fd;
}

int tb_reader_join(const struct bpf_mon *m, struct tb_reader *rd, bool all,
		   char *err, size_t len)
{
	struct tlob_bpf_reader me = { .pid = (uint32_t)getpid() };
	uint64_t *zeroes = NULL;
	struct tlob_bpf_meta meta;
	uint32_t s, lost;
	int ncpus, ret;
	FILE *f;

	rd->slot = -1;
	rd->ring_fd[0] = rd->ring_fd[1] = -1;
	for (s = 0; s < TLOB_BPF_READERS; s++) {
		struct tlob_bpf_reader r;

		if (!read_reader(m, s, &r) && !r.pid)
			break;
	}
	if (s == TLOB_BPF_READERS) {
		snprintf(err, len, "the BPF monitor has %d readers already (tlob status "
			 "--backend bpf lists them)", TLOB_BPF_READERS);
		return -EBUSY;
	}
	me.start_time = start_time_of(getpid());
	f = fopen("/proc/self/comm", "r");
	if (f) {
		if (fgets(me.comm, sizeof(me.comm), f))
			me.comm[strcspn(me.comm, "\n")] = '\0';
		fclose(f);
	}
	rd->ring_fd[0] = ring_create("tlob_rd_windows", TLOB_BPF_RINGBUF, err, len);
	if (rd->ring_fd[0] < 0)
		return rd->ring_fd[0];
	rd->ring_fd[1] = ring_create("tlob_rd_urgent", TLOB_BPF_RINGBUF_URGENT, err, len);
	if (rd->ring_fd[1] < 0) {
		ret = rd->ring_fd[1];
		goto fail;
	}
	/* A fresh count of the records this reader's rings had no room for. */
	ncpus = libbpf_num_possible_cpus();
	zeroes = ncpus > 0 ? calloc((size_t)ncpus, sizeof(*zeroes)) : NULL;
	lost = TLOB_LOST_READER(s);
	if (!zeroes || bpf_map_update_elem(m->fd[TB_LOST], &lost, zeroes, BPF_ANY)) {
		ret = zeroes ? -errno : -ENOMEM;
		snprintf(err, len, "cannot reset the reader's lost count: %s", strerror(-ret));
		goto fail;
	}
	if (bpf_map_update_elem(m->fd[TB_READERS], &s, &me, BPF_ANY) ||
	    bpf_map_update_elem(m->fd[TB_EVENTS], &s, &rd->ring_fd[0], BPF_ANY) ||
	    bpf_map_update_elem(m->fd[TB_URGENT], &s, &rd->ring_fd[1], BPF_ANY)) {
		ret = -errno;
		snprintf(err, len, "cannot add a reader to the BPF monitor: %s", strerror(-ret));
		goto fail_slot;
	}
	if (all) {
		ret = read_meta(m, &meta);
		if (!ret) {
			meta.all_readers |= 1U << s;
			ret = write_meta(m, &meta);
		}
		if (ret) {
			snprintf(err, len, "cannot update the monitor's metadata: %s",
				 strerror(-ret));
			goto fail_slot;
		}
	}
	free(zeroes);
	rd->slot = (int)s;
	tlob_verbose("reader slot %u%s", s, all ? " (every binding)" : "");
	return 0;
fail_slot:
	tb_reader_leave(m, (int)s);
fail:
	free(zeroes);
	for (int i = 0; i < 2; i++)
		if (rd->ring_fd[i] >= 0)
			close(rd->ring_fd[i]);
	rd->ring_fd[0] = rd->ring_fd[1] = -1;
	return ret;
}
