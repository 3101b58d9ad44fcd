// SPDX-License-Identifier: GPL-2.0
/*
 * Directories root may trust. Root's tlob pins the BPF monitor under
 * /sys/fs/bpf, which a bpffs mounted without mode= leaves world-writable
 * (sticky): any user can make /sys/fs/bpf/tlob first. A directory another
 * user owns, or can write, or a symbolic link on the way, would let that
 * user remove or replace what root puts there, so every component is
 * opened without following links and checked on the fd, and the caller
 * works from the fd it gets, never from the path again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/bpf/safe_dir.h"

/*
 * Whether @fd (shown as @shown) is a directory nobody but root can
 * change: owned by root and not writable by group or others, or, unless
 * it is the @last one, sticky (the next component, owned by root, then
 * cannot be removed or renamed by others).
 */
static int check_dir(int fd, const char *shown, bool last, char *err, size_t len)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(err, len, "cannot stat %s: %s", shown, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, len, "%s is not a directory", shown);
		return -ENOTDIR;
	}
	if (st.st_uid != 0) {
		snprintf(err, len, "%s is owned by uid %u, not root: refusing to use it "
			 "(remove it)", shown, (unsigned int)st.st_uid);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX))) {
		snprintf(err, len, "%s is writable by group or others (mode %04o): "
			 "refusing to use it", shown, (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Open component @name of @dirfd, a directory and no link; @shown for messages. */
static int open_component(int dirfd, const char *name, const char *shown, char *err,
			  size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	fd = -errno;
	if (fd == -ELOOP || fd == -ENOTDIR)
		snprintf(err, len, "%s is a symbolic link or not a directory: refusing to "
			 "use it", shown);
	else
		snprintf(err, len, "cannot open %s: %s", shown, strerror(-fd));
	return fd;
}

int tb_safe_dir(const char *path, bool create, int *parent, char *err, size_t len)
{
	char shown[256], comp[256];
	const char *p = path, *end;
	int fd, next, ret;
	size_t n, at = 0;

	if (parent)
		*parent = -1;
	if (path[0] != '/' || strlen(path) >= sizeof(shown)) {
		snprintf(err, len, "%s: not an absolute path of a usable length", path);
		return -EINVAL;
	}
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "cannot open /: %s", strerror(errno));
		return -errno;
	}
	shown[0] = '\0';
	for (;;) {
		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		ret = check_dir(fd, at ? shown : "/", !n, err, len);
		if (ret || !n)
			break;
		memcpy(comp, p, n);
		comp[n] = '\0';
		at += (size_t)snprintf(shown + at, sizeof(shown) - at, "/%s", comp);
		p = end;
		while (*p == '/')
			p++;
		if (create && !*p && mkdirat(fd, comp, 0700) && errno != EEXIST) {
			ret = -errno;
			snprintf(err, len, "cannot create %s: %s", shown, strerror(-ret));
			break;
		}
		next = open_component(fd, comp, shown, err, len);
		if (next < 0) {
			ret = next;
			break;
		}
		if (parent && !*p)
			*parent = fd;
		else
			close(fd);
		fd = next;
	}
	if (!ret)
		return fd;
	close(fd);
	if (parent && *parent >= 0) {
		close(*parent);
		*parent = -1;
	}
	return ret;
}

int tb_run_dir(char *err, size_t len)
{
	return tb_safe_dir(TB_RUN_DIR, true, NULL, err, len);
}
