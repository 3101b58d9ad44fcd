// SPDX-License-Identifier: GPL-2.0
/*
 * Regular files only, read with a bound: see fileio.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

int rv_open_regular(const char *path)
{
	struct stat st;
	int fd, flags, err;

	/* O_NONBLOCK: a FIFO with no writer would block open() itself. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -RV_ENOTREG;
		goto fail;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		err = -errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

/* Reads until the end or past max; a file that grows meanwhile stops at max + 1. */
int rv_read_bounded(int fd, size_t max, char **text, size_t *len)
{
	size_t used = 0, cap = 0;
	char *buf = NULL, *grown;
	ssize_t n;

	*text = NULL;
	*len = 0;
	for (;;) {
		if (cap - used < 2) {
			/* room for the one byte past max that tells "too large" */
			cap = cap ? cap * 2 : 4096;
			if (cap > max + 2)
				cap = max + 2;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
		}
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			free(buf);
			return (int)n;
		}
		if (!n)
			break;
		used += (size_t)n;
		if (used > max) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}

const char *rv_file_strerror(int err)
{
	return err == RV_ENOTREG ? "not a regular file" : strerror(err);
}
