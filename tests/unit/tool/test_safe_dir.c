// SPDX-License-Identifier: GPL-2.0
/*
 * tb_safe_dir() (user/backend/bpf/safe_dir.c), the check root's tlob makes before
 * it pins the BPF monitor or takes its lock: on a tree made here, every
 * case of the rule (another owner, a link, writable by others, sticky
 * above or at the end, made when missing). Needs root (chown); skipped
 * otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/bpf/safe_dir.h"
#include "tap.h"

static char base[64], path[256], err[512];

/* @rel under the test's base directory, mode @mode, owner @uid. */
static void mk(const char *rel, mode_t mode, uid_t uid)
{
	snprintf(path, sizeof(path), "%s/%s", base, rel);
	if (mkdir(path, 0700) || chmod(path, mode) || chown(path, uid, uid))
		printf("# cannot make %s: %s\n", path, strerror(errno));
}

/* tb_safe_dir() on @rel: the fd closed, its value or -errno returned. */
static int check(const char *rel, bool create)
{
	int fd;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	err[0] = '\0';
	fd = tb_safe_dir(path, create, NULL, err, sizeof(err));
	if (fd >= 0)
		close(fd);
	else
		printf("# %s: %s\n", rel, err);
	return fd < 0 ? fd : 0;
}

int main(void)
{
	struct stat st;
	int parent, fd;

	if (geteuid()) {
		printf("1..0 # SKIP needs root to give directories to another owner\n");
		return 0;
	}
	snprintf(base, sizeof(base), "/tmp/tlob-safe-dir.XXXXXX");
	if (!mkdtemp(base)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	mk("root", 0700, 0);
	mk("root/ok", 0700, 0);
	mk("nobody", 0755, 65534);
	mk("root/nobodys", 0700, 65534);
	mk("open", 0777, 0);
	mk("open/ok", 0700, 0);
	mk("sticky", 01777, 0);
	mk("sticky/ok", 0700, 0);
	mk("sticky/nobodys", 0700, 65534);
	mk("group", 0770, 0);
	snprintf(path, sizeof(path), "%s/root/link", base);
	if (symlink("ok", path))
		printf("# symlink: %s\n", strerror(errno));

	tap_ok(check("root/ok", false) == 0, "root's directories: trusted");
	tap_ok(check("nobody", false) == -EPERM, "another user's directory: refused");
	tap_ok(strstr(err, "owned by uid 65534") != NULL, "... saying whose it is");
	tap_ok(check("root/nobodys", false) == -EPERM, "another user's, in root's: refused");
	tap_ok(check("root/link", false) < 0, "a symbolic link to root's directory: refused");
	tap_ok(strstr(err, "symbolic link") != NULL, "... saying it is a link");
	tap_ok(check("open/ok", false) == -EPERM,
	       "root's, under a world-writable directory that is not sticky: refused");
	tap_ok(strstr(err, "writable by group or others") != NULL, "... saying which is writable");
	tap_ok(check("group", false) == -EPERM, "group-writable: refused");
	tap_ok(check("sticky/ok", false) == 0,
	       "root's, under a sticky world-writable directory (/tmp, bpffs without mode=): trusted");
	tap_ok(check("sticky/nobodys", false) == -EPERM,
	       "another user's, under a sticky directory: refused");
	tap_ok(check("sticky", false) == -EPERM, "a sticky world-writable directory itself: refused");
	tap_ok(check("root/missing", false) == -ENOENT, "missing, not made: -ENOENT");
	tap_ok(check("root/made", true) == 0, "missing, made");
	snprintf(path, sizeof(path), "%s/root/made", base);
	tap_ok(!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == 0 &&
	       (st.st_mode & 07777) == 0700, "... a directory of root's, mode 0700");
	tap_ok(check("nobody/made", true) == -EPERM, "not made under another user's directory");
	snprintf(path, sizeof(path), "%s/nobody/made", base);
	tap_ok(lstat(path, &st) && errno == ENOENT, "... nothing made there");
	snprintf(path, sizeof(path), "%s/root/ok", base);
	fd = tb_safe_dir(path, false, &parent, err, sizeof(err));
	tap_ok(fd >= 0 && parent >= 0 && !fstatat(parent, "ok", &st, AT_SYMLINK_NOFOLLOW),
	       "the directory holding it is handed back too");
	if (fd >= 0)
		close(fd);
	if (parent >= 0)
		close(parent);
	snprintf(path, sizeof(path), "rm -rf %s", base);
	if (system(path))
		printf("# could not remove %s\n", base);
	return tap_done();
}
