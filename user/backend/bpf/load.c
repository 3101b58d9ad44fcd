// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the BPF backend: checks that say in one sentence why BPF cannot
 * run (privileges, bpf(), BTF) instead of a verifier dump; the two
 * skeletons; the choice of the overrun detector; attaching.
 *
 * The detector is chosen when loading, never silently: tlob_timer.bpf.o
 * (bpf_timer) is tried first; the PREEMPT_RT 6.1 verifier refuses
 * bpf_timer ("bpf_timer cannot be used for PREEMPT_RT"), and then the
 * sampler of tlob.bpf.o runs instead and tb_describe() says so and why.
 * TLOB_BPF_DETECTOR=timer|sample forces one (sample also works on stock
 * kernels, which is how both paths are compared on one kernel), and
 * TLOB_BPF_SAMPLE_US sets the sampling period (default 1000 us).
 *
 * libbpf's messages (the verifier log among them) are collected, not
 * printed: on a failure they go to TLOB_BPF_LOG (default
 * TB_RUN_DIR/bpf.log, root's directory: a fixed name in a world-writable
 * one such as /tmp could be another user's symbolic link or file) and the
 * error names that file; TLOB_BPF_VERBOSE=1 prints them as they come.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/bpf/kernel_caps.h"
#include "backend/bpf/loader.h"
#include "backend/bpf/safe_dir.h"
#include "backend/bpf/sampler.h"
#include "lib/units.h"
#include "tlob.skel.h"
#include "tlob_abi.h"
#include "tlob_bpf.h"
#include "tlob_timer.skel.h"

static char *lb_log;
static size_t lb_len, lb_cap;
static bool lb_verbose;

static int lb_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	(void)level;
	/* One message can be a whole verifier log: size it first. */
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return 0;
	if (lb_len + n + 1 > lb_cap) {
		size_t cap = (lb_cap ? lb_cap * 2 : 65536) + n;
		char *p = realloc(lb_log, cap);

		if (!p)
			return 0;
		lb_log = p;
		lb_cap = cap;
	}
	vsnprintf(lb_log + lb_len, n + 1, fmt, ap);
	if (lb_verbose)
		fputs(lb_log + lb_len, stderr);
	lb_len += n;
	return 0;
}

static void lb_reset(void)
{
	static bool set;

	if (!set) {
		lb_verbose = getenv("TLOB_BPF_VERBOSE") && *getenv("TLOB_BPF_VERBOSE") == '1';
		libbpf_set_print(lb_print);
		set = true;
	}
	lb_len = 0;
	if (lb_log)
		lb_log[0] = '\0';
}

#define LB_NAME	"bpf.log"

/*
 * A fresh log file: in TB_RUN_DIR (checked, safe_dir.c) unless
 * TLOB_BPF_LOG names one. A named file is created anew, or reused only if
 * it is a regular file of this user with one link; no symbolic link is
 * followed. Its fd, or -1 with why in @why.
 */
static int lb_open(char *shown, size_t slen, char *why, size_t wlen)
{
	const char *p = getenv("TLOB_BPF_LOG");
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int dir = AT_FDCWD, fd;
	struct stat st;

	if (!p || !*p) {
		dir = tb_run_dir(why, wlen);
		if (dir < 0)
			return -1;
		snprintf(shown, slen, "%s/%s", TB_RUN_DIR, LB_NAME);
		p = LB_NAME;
		/* Root's own directory: the last log goes. */
		unlinkat(dir, p, 0);
	} else {
		snprintf(shown, slen, "%s", p);
	}
	fd = openat(dir, p, flags, 0600);
	if (fd < 0 && errno == EEXIST) {
		fd = openat(dir, p, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
				st.st_uid != geteuid() || st.st_nlink != 1 || ftruncate(fd, 0))) {
			close(fd);
			fd = -1;
			errno = EPERM;
		}
	}
	if (fd < 0)
		snprintf(why, wlen, "%.200s: %s", shown, strerror(errno));
	if (dir != AT_FDCWD)
		close(dir);
	return fd;
}

/* The whole log into its file; where it went, or why not, in @where. */
static void lb_save(char *where, size_t len)
{
	char shown[256], why[256];
	size_t off = 0;
	ssize_t n;
	int fd;

	fd = lb_open(shown, sizeof(shown), why, sizeof(why));
	if (fd < 0) {
		snprintf(where, len, "not kept (%s)", why);
		return;
	}
	while (lb_log && off < lb_len) {
		n = write(fd, lb_log + off, lb_len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	snprintf(where, len, "in %s", shown);
}

/* Keep the whole log in a file; return the line that says why. */
static void lb_fail(const char *what, int ret, char *err, size_t len)
{
	const char *why = NULL, *p;
	char reason[200] = "", where[400];

	/*
	 * The verifier's last word: the last line before its statistics and
	 * the END marker; without a verifier log, libbpf's last line.
	 */
	if (lb_log && (p = strstr(lb_log, "-- END PROG LOAD LOG --"))) {
		const char *l = p;

		while (l > lb_log) {
			for (l--; l > lb_log && l[-1] != '\n'; l--)
				;
			if (*l != '\n' && strncmp(l, "verification time", 17) &&
			    strncmp(l, "stack depth", 11) && strncmp(l, "processed ", 10)) {
				why = l;
				break;
			}
		}
	} else if (lb_log) {
		for (p = lb_log; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0))
			if (!strncmp(p, "libbpf:", 7))
				why = p;
	}
	if (why) {
		size_t n = strcspn(why, "\n");

		snprintf(reason, sizeof(reason), ": %.*s", (int)(n < 150 ? n : 150), why);
	}
	lb_save(where, sizeof(where));
	snprintf(err, len, "%s failed (%s)%s; libbpf and verifier log %s "
		 "(TLOB_BPF_VERBOSE=1 prints it)", what, strerror(-ret), reason, where);
}

static int cap_effective(int cap)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return !!(eff & (1ULL << cap));
}

int tb_probe(char *why, size_t len)
{
	int ret;

	/* CAP_SYS_ADMIN = 21, CAP_PERFMON = 38, CAP_BPF = 39 */
	if (!cap_effective(21) && !(cap_effective(38) && cap_effective(39))) {
		snprintf(why, len, "the BPF backend needs root (CAP_BPF and CAP_PERFMON)");
		return -EPERM;
	}
	lb_reset();
	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_KPROBE, NULL);
	if (ret == -ENOSYS || (ret < 0 && errno == ENOSYS)) {
		snprintf(why, len, "this kernel has no bpf() system call (CONFIG_BPF_SYSCALL)");
		return -ENOSYS;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "this kernel exposes no BTF (/sys/kernel/btf/vmlinux "
			 "is missing: CONFIG_DEBUG_INFO_BTF); the BPF programs need it");
		return -ENOENT;
	}
	if (ret <= 0) {
		snprintf(why, len, "this kernel cannot load BPF tracing programs%s%s",
			 ret < 0 ? ": " : "", ret < 0 ? strerror(-ret) : "");
		return ret < 0 ? ret : -EOPNOTSUPP;
	}
	return 0;
}

static const char *const map_names[TB_NR_MAPS] = {
	[TB_EVENTS] = "tlob_events",
	[TB_WINDOWS] = "tlob_windows",
	[TB_BINDINGS] = "tlob_bindings",
	[TB_STATS] = "tlob_stats",
	[TB_LOST] = "tlob_lost",
	[TB_META] = "tlob_meta",
	[TB_URGENT] = "tlob_urgent",
	[TB_READERS] = "tlob_readers",
	[TB_HISTORY] = "tlob_history",
	[TB_ALIVE_INSTS] = "tlob_alive_insts",
	[TB_ALIVE_STATS] = "tlob_alive_stats",
	[TB_LOGIC_TABLES] = "tlob_logic_tables",
	[TB_LOGIC_INSTS] = "tlob_logic_insts",
	[TB_LOGIC_STATS] = "tlob_logic_stats",
};

const char *tb_map_name(enum tlob_bpf_map i)
{
	return map_names[i];
}

/* Load the bpf_timer object on the maps of the main one. */
static int load_timer(struct bpf_mon *m)
{
	struct tlob_timer_bpf *t;
	struct bpf_map *map;
	int ret;

	t = tlob_timer_bpf__open();
	if (!t)
		return -errno;
	/* One timer per window that can be open (tlob_timer.bpf.c). */
	ret = bpf_map__set_max_entries(t->maps.tlob_timers, (m->tasks ? m->tasks :
				       TLOB_BPF_MAX_TASKS) * TLOB_BPF_NEST);
	if (ret)
		goto fail;
	bpf_object__for_each_map(map, t->obj) {
		struct bpf_map *mine;

		mine = bpf_object__find_map_by_name(m->skel->obj, bpf_map__name(map));
		/* Only the maps both objects define; .rodata & co stay per object. */
		if (!mine || bpf_map__is_internal(map))
			continue;
		ret = bpf_map__reuse_fd(map, bpf_map__fd(mine));
		if (ret)
			goto fail;
	}
	ret = bpf_program__set_attach_target(t->progs.tlob_arm_exit, m->prog_fd, "tlob_arm");
	if (!ret)
		ret = bpf_program__set_attach_target(t->progs.tlob_cancel_exit, m->prog_fd,
						     "tlob_cancel");
	if (!ret)
		ret = bpf_program__set_attach_target(t->progs.tlob_alive_arm_exit, m->prog_fd,
						     "tlob_alive_arm");
	if (!ret)
		ret = bpf_program__set_attach_target(t->progs.tlob_logic_arm_exit, m->prog_fd,
						     "tlob_logic_arm");
	bpf_program__set_autoload(t->progs.tlob_timer_exit_again, m->tp_again);
	if (!ret)
		ret = tlob_timer_bpf__load(t);
	if (ret)
		goto fail;
	m->tskel = t;
	return 0;
fail:
	tlob_timer_bpf__destroy(t);
	return ret;
}

/* The first line of the log that names why the timer object was refused. */
static void timer_refusal(char *buf, size_t len)
{
	const char *p = lb_log ? strstr(lb_log, "bpf_timer") : NULL;

	if (lb_log && strstr(lb_log, "PREEMPT_RT")) {
		snprintf(buf, len, "the verifier refuses bpf_timer on PREEMPT_RT");
		return;
	}
	if (p) {
		while (p > lb_log && p[-1] != '\n')
			p--;
		snprintf(buf, len, "the verifier said: %.*s", (int)strcspn(p, "\n"), p);
		return;
	}
	snprintf(buf, len, "loading the bpf_timer programs failed");
}

/*
 * Open the object, size its maps and load it, with one of its two START/
 * STOP programs: tlob_uprobe_np (not preemptible) where m->preempt_off,
 * else tlob_uprobe (tlob.bpf.c says why).
 */
static int open_and_load(struct bpf_mon *m, char *err, size_t len)
{
	int ret;

	lb_reset();
	m->skel = tlob_bpf__open();
	if (!m->skel) {
		ret = -errno;
		lb_fail("opening the BPF object", ret, err, len);
		return ret;
	}
	bpf_program__set_autoload(m->skel->progs.tlob_uprobe_np, m->preempt_off);
	bpf_program__set_autoload(m->skel->progs.tlob_uprobe, !m->preempt_off);
	bpf_program__set_autoload(m->skel->progs.tlob_exec_again, m->tp_again);
	/* One entry of waiters per CPU (tlob_diag.bpf.h). */
	ret = libbpf_num_possible_cpus();
	if (ret > 0)
		ret = bpf_map__set_max_entries(m->skel->maps.tlob_cpu_waits, ret);
	if (ret) {
		lb_fail("sizing the per-CPU waiters map", ret, err, len);
		goto fail;
	}
	if (m->tasks) {
		/* A task with an entry has an index for the sampler's walk. */
		ret = bpf_map__set_max_entries(m->skel->maps.tlob_windows, m->tasks);
		if (!ret)
			ret = bpf_map__set_max_entries(m->skel->maps.tlob_scan_tids, m->tasks);
		if (!ret)
			ret = bpf_map__set_max_entries(m->skel->maps.tlob_scan_below, m->tasks);
		if (ret) {
			lb_fail("sizing the windows map", ret, err, len);
			goto fail;
		}
	}
	ret = tlob_bpf__load(m->skel);
	if (ret) {
		lb_fail("loading the BPF programs", ret, err, len);
		goto fail;
	}
	return 0;
fail:
	tlob_bpf__destroy(m->skel);
	m->skel = NULL;
	return ret;
}

int tb_load(struct bpf_mon *m, char *err, size_t len)
{
	const char *force = getenv("TLOB_BPF_DETECTOR");
	struct tlob_bpf_meta meta = { 0 };
	struct tb_kernel_caps caps;
	uint64_t period_us = TB_SAMPLE_US_DEFAULT;
	__u32 zero = 0;
	int ret, i;

	if (force && *force && strcmp(force, "timer") && strcmp(force, "sample") &&
	    strcmp(force, "auto")) {
		snprintf(err, len, "TLOB_BPF_DETECTOR=%s: use timer, sample or auto", force);
		return -EINVAL;
	}
	if (tlob_env_u64("TLOB_BPF_SAMPLE_US", 10, 1000000, &period_us, err, len) < 0)
		return -EINVAL;
	tb_kernel_caps(&caps);
	/*
	 * 6.12 has the kfuncs but its verifier refused tlob_uprobe_np, and a
	 * refused load costs a second verification of the whole object
	 * (about 5 s a load on the emulated 6.12 lane): the private stacks
	 * that make tlob_uprobe unsafe come with 6.13 (kernel_caps.h).
	 */
	m->preempt_off = caps.preempt_kfuncs;
	m->tp_again = caps.tp_preemptible;
	ret = open_and_load(m, err, len);
	if (ret && m->preempt_off) {
		/* A verifier that takes the kfuncs but no global call inside them. */
		m->preempt_off = false;
		ret = open_and_load(m, err, len);
	}
	if (ret)
		return ret;
	m->prog_fd = bpf_program__fd(m->preempt_off ? m->skel->progs.tlob_uprobe_np :
				     m->skel->progs.tlob_uprobe);
	m->abort_fd = bpf_program__fd(m->skel->progs.tlob_abort);
	for (i = 0; i < TB_NR_MAPS; i++)
		m->fd[i] = bpf_map__fd(bpf_object__find_map_by_name(m->skel->obj,
								    map_names[i]));

	m->sample_period_ns = period_us * 1000;
	m->detector = TLOB_DETECT_SAMPLE;
	m->why_no_timer[0] = '\0';
	if (!force || !*force || strcmp(force, "sample")) {
		lb_reset();
		ret = load_timer(m);
		if (!ret) {
			m->detector = TLOB_DETECT_BPF_TIMER;
		} else if (force && !strcmp(force, "timer")) {
			lb_fail("loading the bpf_timer detector (TLOB_BPF_DETECTOR=timer)", ret,
				err, len);
			goto fail;
		} else {
			timer_refusal(m->why_no_timer, sizeof(m->why_no_timer));
		}
	} else {
		snprintf(m->why_no_timer, sizeof(m->why_no_timer),
			 "TLOB_BPF_DETECTOR=sample");
	}
	if (m->detector == TLOB_DETECT_SAMPLE)
		m->skel->bss->tlob_scan_ns = m->sample_period_ns;
	m->skel->bss->tlob_scan_cap = bpf_map__max_entries(m->skel->maps.tlob_scan_tids);
	meta.detector = m->detector;
	meta.sample_period_ns = m->sample_period_ns;
	ret = bpf_map_update_elem(m->fd[TB_META], &zero, &meta, BPF_ANY);
	if (ret) {
		snprintf(err, len, "cannot initialise the monitor's metadata: %s",
			 strerror(-ret));
		goto fail;
	}
	return 0;
fail:
	tb_close(m);
	return ret;
}

static int attach_prog(struct bpf_mon *m, struct bpf_program *p, char *err, size_t len)
{
	struct bpf_link *l;

	if (m->nr_links >= TB_MAX_LINKS)
		return -ENOSPC;
	l = bpf_program__attach(p);
	if (!l) {
		int ret = -errno;

		snprintf(err, len, "cannot attach %s: %s", bpf_program__name(p), strerror(-ret));
		return ret;
	}
	m->link_prog[m->nr_links] = bpf_program__name(p);
	m->links[m->nr_links++] = l;
	return 0;
}

/* The sampler's perf event (sampler.c), tlob_sample on it. */
static int attach_sampler(struct bpf_mon *m, char *err, size_t len)
{
	const char *what = "";
	int lfd;

	lfd = tb_sampler_attach(bpf_program__fd(m->skel->progs.tlob_sample),
				m->sample_period_ns, &m->sample_cpu, &what);
	if (lfd < 0) {
		snprintf(err, len, "%s: %s", what, strerror(-lfd));
		return lfd;
	}
	m->sample_link_fd = lfd;
	return 0;
}

/* Delete every element of the hash @fd (keys of at most 8 bytes). */
static void empty_map(int fd)
{
	__u64 key;

	while (!bpf_map_get_next_key(fd, NULL, &key))
		if (bpf_map_delete_elem(fd, &key))
			break;
}

/*
 * Windows left from an earlier enable of this monitor (open when it was
 * disabled: no scheduler event, exit or timer reached them since) would
 * be fed events out of order; they are dropped before the hooks attach.
 */
static void drop_stale_windows(struct bpf_mon *m)
{
	const struct bpf_map *waits = m->skel->maps.tlob_cpu_waits;
	void *zero = calloc(1, bpf_map__value_size(waits));
	__u32 key;

	empty_map(m->fd[TB_WINDOWS]);
	/* ... their slots' timers, which only a task's exit removes ... */
	if (m->tskel)
		empty_map(bpf_map__fd(m->tskel->maps.tlob_timers));
	/* ... and alive instances with their cycle timers, which nothing ended. */
	empty_map(m->fd[TB_ALIVE_INSTS]);
	if (m->tskel)
		empty_map(bpf_map__fd(m->tskel->maps.tlob_alive_timers));
	m->skel->bss->tlob_alive_nr = 0;
	m->skel->data->tlob_alive_next_due = ~0ULL;
	/* ... and logical instances with their invariants' timers. */
	empty_map(m->fd[TB_LOGIC_INSTS]);
	if (m->tskel) {
		empty_map(bpf_map__fd(m->tskel->maps.tlob_logic_timers));
		m->tskel->bss->tlob_logic_timers_nr = 0;
	}
	m->skel->bss->tlob_logic_nr = 0;
	m->skel->data->tlob_logic_next_due = ~0ULL;
	/* ... and so are the CPUs' entries of their waits (tlob_diag.bpf.h). */
	for (key = 0; zero && key < bpf_map__max_entries(waits); key++)
		bpf_map_update_elem(bpf_map__fd(waits), &key, zero, BPF_ANY);
	free(zero);
	m->skel->bss->tlob_nr_open = 0;
	memset(m->skel->bss->tlob_open_at, 0, sizeof(m->skel->bss->tlob_open_at));
	/* ... and the entries' indexes for the sampler's walk, all free again. */
	m->skel->bss->tlob_scan_hw = 0;
	m->skel->bss->tlob_scan_free = 0;
	m->skel->bss->tlob_scan_walking = 0;
	m->skel->bss->tlob_scan_busy = 0;
}

int tb_attach(struct bpf_mon *m, char *err, size_t len)
{
	struct tlob_bpf *s = m->skel;
	int ret;

	if (!s) {
		snprintf(err, len, "this process did not load the BPF programs");
		return -EINVAL;
	}
	if (m->attached)
		return 0;
	drop_stale_windows(m);
	ret = attach_prog(m, s->progs.tlob_switch, err, len);
	if (!ret)
		ret = attach_prog(m, s->progs.tlob_wakeup, err, len);
	if (!ret)
		ret = attach_prog(m, s->progs.tlob_waking, err, len);
	if (!ret)
		ret = attach_prog(m, s->progs.tlob_exit, err, len);
	if (!ret)
		ret = attach_prog(m, s->progs.tlob_exec, err, len);
	if (!ret && m->tp_again)
		ret = attach_prog(m, s->progs.tlob_exec_again, err, len);
	if (!ret && m->tskel)
		ret = attach_prog(m, m->tskel->progs.tlob_arm_exit, err, len);
	if (!ret && m->tskel)
		ret = attach_prog(m, m->tskel->progs.tlob_cancel_exit, err, len);
	if (!ret && m->tskel)
		ret = attach_prog(m, m->tskel->progs.tlob_alive_arm_exit, err, len);
	if (!ret && m->tskel)
		ret = attach_prog(m, m->tskel->progs.tlob_logic_arm_exit, err, len);
	if (!ret && m->tskel)
		ret = attach_prog(m, m->tskel->progs.tlob_timer_exit, err, len);
	if (!ret && m->tskel && m->tp_again)
		ret = attach_prog(m, m->tskel->progs.tlob_timer_exit_again, err, len);
	/* The timer's deadline stacks (tlob_diag.bpf.h): before any timer runs. */
	if (!ret && m->tskel)
		ret = attach_prog(m, m->tskel->progs.tlob_timer_done, err, len);
	if (!ret && m->detector == TLOB_DETECT_SAMPLE)
		ret = attach_sampler(m, err, len);
	if (ret) {
		tb_detach(m);
		return ret;
	}
	/* Last: only now may a START open a window (tlob.bpf.c, tlob_on). */
	__atomic_store_n(&s->bss->tlob_on, 1, __ATOMIC_RELEASE);
	m->attached = true;
	return 0;
}

int tb_abort(const struct bpf_mon *m, uint32_t binding_id, uint32_t reason)
{
	struct tlob_bpf_abort a = { .binding_id = binding_id, .reason = reason };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &a, .ctx_size_in = sizeof(a));

	if (m->abort_fd < 0)
		return -ENOENT;
	return bpf_prog_test_run_opts(m->abort_fd, &opts) ? -errno : 0;
}

void tb_detach(struct bpf_mon *m)
{
	/*
	 * First: no window opens while the hooks go away; then every open
	 * window ends with its record (aborted, disable), while the hooks are
	 * still there to keep the others exact. A pinned monitor's links only
	 * lose this process (tb_close() disconnected them): it stays on.
	 */
	if (m->skel && !m->pinned) {
		__atomic_store_n(&m->skel->bss->tlob_on, 0, __ATOMIC_RELEASE);
		if (m->attached)
			tb_abort(m, 0, TLOB_ABORT_DISABLE);
	}
	while (m->nr_links)
		bpf_link__destroy(m->links[--m->nr_links]);
	if (m->sample_link_fd >= 0)
		close(m->sample_link_fd);
	m->sample_link_fd = -1;
	m->attached = false;
}

void tb_close(struct bpf_mon *m)
{
	int i;

	if (m->pinned) {
		/* Pinned links live on: forget them without detaching. */
		for (i = 0; i < m->nr_links; i++)
			bpf_link__disconnect(m->links[i]);
	}
	tb_detach(m);
	if (m->tskel)
		tlob_timer_bpf__destroy(m->tskel);
	m->tskel = NULL;
	if (m->skel) {
		tlob_bpf__destroy(m->skel);
	} else {
		for (i = 0; i < TB_NR_MAPS; i++)
			if (m->fd[i] >= 0)
				close(m->fd[i]);
		if (m->prog_fd >= 0)
			close(m->prog_fd);
		if (m->abort_fd >= 0)
			close(m->abort_fd);
	}
	m->skel = NULL;
	for (i = 0; i < TB_NR_MAPS; i++)
		m->fd[i] = -1;
	m->prog_fd = -1;
	m->abort_fd = -1;
}

void tb_describe(const struct bpf_mon *m, char *buf, size_t len)
{
	if (m->detector == TLOB_DETECT_BPF_TIMER)
		snprintf(buf, len, "overruns detected by bpf_timer (soft timer armed once "
			 "at START), at scheduler events and at STOP");
	else
		snprintf(buf, len, "%s%soverruns detected by sampling every %llu us "
			 "(at most one period late), at context switches (any task, at "
			 "most once per period) and at STOP",
			 m->why_no_timer, m->why_no_timer[0] ? "; " : "",
			 (unsigned long long)m->sample_period_ns / 1000);
}
