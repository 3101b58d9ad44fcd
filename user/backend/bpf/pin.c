// SPDX-License-Identifier: GPL-2.0
/*
 * The pinned monitor: the maps, the uprobe program and every link are
 * pinned under TLOB_BPF_PIN_DIR by the first tlob that needs a monitor
 * (share.c: one per system), so it runs on after that tlob exits and
 * later tlob processes open it by path: other sessions, tlob bind and
 * unbind, status and stats.
 *
 *   tlob_events tlob_windows ...   the maps (tb_map_name()); the readers'
 *                                  rings are in tlob_events, tlob_urgent
 *   tlob_timers tlob_alive_timers  the bpf_timer object's own maps, where
 *   tlob_logic_timers              it runs (pin_timer_maps())
 *   prog_uprobe                    the program bindings attach to
 *   prog_abort                     tlob_abort, which ends open windows
 *   link_<program>                 scheduler hooks and the detector
 *   bind_<id>_start, bind_<id>_stop   the uprobes of binding <id> (an alive
 *                                  binding's checkpoint: start; a logical
 *                                  binding's events 0, 1, 2..: start, stop,
 *                                  event2..)
 *
 * Teardown unpins every entry and removes the directory: the kernel frees
 * a program, map or link when its last pin and fd are gone, so nothing is
 * left behind once the last tlob process holding an fd exits.
 *
 * The directory is used only when root owns it and every directory above
 * it, with no symbolic link on the way (safe_dir.c): another user who made
 * it first could otherwise unlink or replace the pins. It is opened once
 * checked, under the lock (share.c), and every pin is reached through
 * that fd (/proc/self/fd/N/NAME: BPF_OBJ_PIN and BPF_OBJ_GET take a path
 * only), never through its path again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/bpf/loader.h"
#include "backend/bpf/safe_dir.h"
#include "tlob.skel.h"
#include "tlob_abi.h"
#include "tlob_bpf.h"
#include "tlob_timer.skel.h"

#define BPF_FS_MAGIC	0xcafe4a11

/* The pin directory, checked (tb_pin_dir_open()); -1: not open. */
static int pin_fd = -1;

static void pin_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "/proc/self/fd/%d/%s", pin_fd, name);
}

/* What a message calls the pin @name. */
static void pin_shown(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", TLOB_BPF_PIN_DIR, name);
}

bool tb_pinned_exists(void)
{
	if (pin_fd >= 0)
		return !faccessat(pin_fd, "tlob_meta", F_OK, AT_SYMLINK_NOFOLLOW);
	/* Before the lock: tb_lock() checks the directory before any use. */
	return !faccessat(AT_FDCWD, TLOB_BPF_PIN_DIR "/tlob_meta", F_OK, AT_SYMLINK_NOFOLLOW);
}

bool tb_bpffs(void)
{
	struct statfs fs;

	return !statfs("/sys/fs/bpf", &fs) && fs.f_type == BPF_FS_MAGIC;
}

void tb_link_name(char *buf, size_t len, uint32_t id, int end)
{
	/* A section's START and STOP; past them, a logical binding's events. */
	if (end < 2)
		snprintf(buf, len, "bind_%u_%s", id, end ? "stop" : "start");
	else
		snprintf(buf, len, "bind_%u_event%d", id, end);
}

int tb_pin_dir_open(bool create, char *err, size_t len)
{
	struct statfs fs;
	int fd, ret;

	if (pin_fd >= 0)
		close(pin_fd);
	pin_fd = -1;
	if (!tb_bpffs()) {
		snprintf(err, len, "/sys/fs/bpf is not a BPF file system; pinning needs "
			 "`mount -t bpf -o mode=0700 bpf /sys/fs/bpf`");
		return -ENOENT;
	}
	fd = tb_safe_dir(TLOB_BPF_PIN_DIR, create, NULL, err, len);
	if (fd < 0) {
		if (fd != -ENOENT)
			snprintf(err + strlen(err), len - strlen(err), "; the BPF monitor is "
				 "pinned only where root owns every directory (mount bpffs with "
				 "`-o mode=0700`)");
		return fd;
	}
	if (fstatfs(fd, &fs) || fs.f_type != BPF_FS_MAGIC) {
		ret = fs.f_type != BPF_FS_MAGIC ? -EXDEV : -errno;
		snprintf(err, len, "%s is not on a BPF file system", TLOB_BPF_PIN_DIR);
		close(fd);
		return ret;
	}
	pin_fd = fd;
	return 0;
}

int tb_pin_fd(int fd, const char *name, char *err, size_t len)
{
	char p[256];
	int ret;

	if (pin_fd < 0) {
		ret = tb_pin_dir_open(true, err, len);
		if (ret)
			return ret;
	}
	pin_path(p, sizeof(p), name);
	ret = bpf_obj_pin(fd, p);
	if (ret) {
		ret = -errno;
		pin_shown(p, sizeof(p), name);
		snprintf(err, len, "cannot pin %s: %s", p, strerror(-ret));
	}
	return ret;
}

int tb_unpin(const char *name)
{
	if (pin_fd < 0)
		return -ENOENT;
	return unlinkat(pin_fd, name, 0) ? -errno : 0;
}

/*
 * The bpf_timer object's own maps (tlob_timers, tlob_alive_timers,
 * tlob_logic_timers; those it shares with the main object are pinned as
 * the main object's). The kernel sets up a timer (bpf_timer_init()) only
 * in a map user space holds, by an fd or a pin, and cancels and frees
 * every timer of a map when its last holder goes. Unpinned, the timers
 * lived as long as the tlob that loaded the monitor: once it exited
 * (tlob bind at once; a first session before the others), every START's
 * set-up failed (-EPERM, counted TLOB_LOST_NOTIMER) and an overrun was
 * found only at a switch or at STOP.
 */
static int pin_timer_maps(struct bpf_mon *m, char *err, size_t len)
{
	struct bpf_map *map;
	int ret;

	if (!m->tskel)
		return 0;
	bpf_object__for_each_map(map, m->tskel->obj) {
		if (bpf_map__is_internal(map) ||
		    bpf_object__find_map_by_name(m->skel->obj, bpf_map__name(map)))
			continue;
		ret = tb_pin_fd(bpf_map__fd(map), bpf_map__name(map), err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Pin the loaded monitor: maps, program, links. The metadata map goes
 * last: its presence is what tb_pinned_exists() tests.
 */
int tb_pin(struct bpf_mon *m, char *err, size_t len)
{
	char name[64];
	int ret = 0, i;

	for (i = 0; i < TB_NR_MAPS && !ret; i++)
		if (i != TB_META)
			ret = tb_pin_fd(m->fd[i], tb_map_name(i), err, len);
	if (!ret)
		ret = pin_timer_maps(m, err, len);
	if (!ret)
		ret = tb_pin_fd(m->prog_fd, "prog_uprobe", err, len);
	if (!ret)
		ret = tb_pin_fd(m->abort_fd, "prog_abort", err, len);
	for (i = 0; i < m->nr_links && !ret; i++) {
		snprintf(name, sizeof(name), "link_%s", m->link_prog[i]);
		ret = tb_pin_fd(bpf_link__fd(m->links[i]), name, err, len);
	}
	if (!ret && m->sample_link_fd >= 0)
		ret = tb_pin_fd(m->sample_link_fd, "link_tlob_sample", err, len);
	if (!ret)
		ret = tb_pin_fd(m->fd[TB_META], tb_map_name(TB_META), err, len);
	if (ret) {
		char ignore[64];

		tb_teardown(ignore, sizeof(ignore));
		return ret;
	}
	m->pinned = true;
	return 0;
}

int tb_open_pinned(struct bpf_mon *m, char *err, size_t len)
{
	struct bpf_map_info info = { 0 };
	struct tlob_bpf_meta meta;
	char p[256];
	__u32 zero = 0;
	const char *name;
	int i, fd;

	if (pin_fd < 0) {
		snprintf(err, len, "no monitor pinned in %s", TLOB_BPF_PIN_DIR);
		return -ENOENT;
	}
	for (i = 0; i < TB_NR_MAPS; i++) {
		name = tb_map_name(i);
		pin_path(p, sizeof(p), name);
		fd = bpf_obj_get(p);
		if (fd < 0)
			goto fail;
		m->fd[i] = fd;
	}
	/* A monitor of a tlob before shared readers: one ring, no reader slots. */
	if (!bpf_obj_get_info_by_fd(m->fd[TB_EVENTS], &info, &(__u32){ sizeof(info) }) &&
	    info.type != BPF_MAP_TYPE_ARRAY_OF_MAPS) {
		snprintf(err, len, "the monitor pinned in %s was loaded by an older tlob; "
			 "`tlob unbind -a --backend bpf` removes it", TLOB_BPF_PIN_DIR);
		tb_close(m);
		return -EPROTO;
	}
	name = "prog_uprobe";
	pin_path(p, sizeof(p), name);
	fd = bpf_obj_get(p);
	if (fd < 0)
		goto fail;
	m->prog_fd = fd;
	/* Optional: a monitor pinned by an older tlob has none. */
	pin_path(p, sizeof(p), "prog_abort");
	m->abort_fd = bpf_obj_get(p);
	if (!bpf_map_lookup_elem(m->fd[TB_META], &zero, &meta)) {
		m->detector = meta.detector;
		m->sample_period_ns = meta.sample_period_ns;
	}
	m->attached = !faccessat(pin_fd, "link_tlob_switch", F_OK, AT_SYMLINK_NOFOLLOW);
	m->pinned = true;
	return 0;
fail:
	fd = errno;
	pin_shown(p, sizeof(p), name);
	snprintf(err, len, "cannot open the pinned monitor (%s: %s); `tlob unbind -a "
		 "--backend bpf` removes what is left of it", p, strerror(fd));
	tb_close(m);
	return -ENOENT;
}

bool tb_still_pinned(const struct bpf_mon *m)
{
	struct bpf_map_info a = { 0 }, b = { 0 };
	__u32 la = sizeof(a), lb = sizeof(b);
	char p[256];
	int fd;
	bool same;

	if (!m->pinned || pin_fd < 0)
		return false;
	pin_path(p, sizeof(p), tb_map_name(TB_META));
	fd = bpf_obj_get(p);
	if (fd < 0)
		return false;
	same = !bpf_obj_get_info_by_fd(fd, &a, &la) &&
	       !bpf_obj_get_info_by_fd(m->fd[TB_META], &b, &lb) && a.id == b.id;
	close(fd);
	return same;
}

/* The pinned monitor's tlob_abort, for every window; nothing if it has none. */
static void abort_pinned(void)
{
	struct bpf_mon m = { .abort_fd = -1 };
	char p[256];

	pin_path(p, sizeof(p), "prog_abort");
	m.abort_fd = bpf_obj_get(p);
	if (m.abort_fd < 0)
		return;
	tb_abort(&m, 0, TLOB_ABORT_DISABLE);
	close(m.abort_fd);
}

int tb_teardown(char *err, size_t len)
{
	struct dirent *d;
	int ret = 0, parent, fd;
	DIR *dir;

	/* The directory checked again, with the one that holds it, to remove it. */
	fd = tb_safe_dir(TLOB_BPF_PIN_DIR, false, &parent, err, len);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	if (pin_fd >= 0)
		close(pin_fd);
	pin_fd = fd;
	dir = fdopendir(dup(pin_fd));
	if (!dir) {
		ret = -errno;
		snprintf(err, len, "cannot read %s: %s", TLOB_BPF_PIN_DIR, strerror(-ret));
		close(parent);
		return ret;
	}
	/* The metadata first: from then on nobody takes this for a monitor. */
	tb_unpin(tb_map_name(TB_META));
	/*
	 * Then the uprobes, so that no window opens any more, and every open
	 * window ends with its record (aborted, disable), as the module's do.
	 */
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "bind_", 5))
			tb_unpin(d->d_name);
	abort_pinned();
	rewinddir(dir);
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (tb_unpin(d->d_name) && !ret) {
			ret = -errno;
			snprintf(err, len, "cannot unpin %s/%s: %s", TLOB_BPF_PIN_DIR,
				 d->d_name, strerror(errno));
		}
	}
	closedir(dir);
	close(pin_fd);
	pin_fd = -1;
	if (unlinkat(parent, strrchr(TLOB_BPF_PIN_DIR, '/') + 1, AT_REMOVEDIR) && !ret) {
		ret = -errno;
		snprintf(err, len, "cannot remove %s: %s", TLOB_BPF_PIN_DIR, strerror(errno));
	}
	close(parent);
	return ret;
}
