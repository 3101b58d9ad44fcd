// SPDX-License-Identifier: GPL-2.0
/* Write a temporary file beside the target, then rename() it over the target. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/atomic.h"
#include "lib/utils.h"

int tlob_atomic_open(struct tlob_atomic *a, const char *path, char *err, size_t len)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int fd, n;

	memset(a, 0, sizeof(*a));
	a->path = path;
	/*
	 * A dot name: node_exporter's textfile collector reads only *.prom,
	 * so it never picks up the half-written file.
	 */
	n = snprintf(a->tmp, sizeof(a->tmp), "%.*s.%s.XXXXXX",
		     slash ? (int)(slash - path + 1) : 0, path, base);
	if (!*base || n < 0 || (size_t)n >= sizeof(a->tmp)) {
		snprintf(err, len, "cannot write '%s': not a file name", TLOB_SHOWN(path));
		return -EINVAL;
	}
	fd = mkostemp(a->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, len, "cannot create a file beside %s: %s", TLOB_SHOWN(path),
			 strerror(e));
		return -e;
	}
	/* mkstemp makes it 0600; readers (node_exporter) run as another user. */
	if (fchmod(fd, 0644) || !(a->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(a->tmp);
		snprintf(err, len, "cannot write %s: %s", TLOB_SHOWN(a->tmp), strerror(e));
		return -e;
	}
	return 0;
}

int tlob_atomic_commit(struct tlob_atomic *a, char *err, size_t len)
{
	int e = 0;

	/*
	 * No fsync: readers need the rename's atomicity, not durability (the
	 * metrics are rewritten, the state lives in /run, both die with a
	 * crash anyway).
	 */
	if (ferror(a->f) || fflush(a->f))
		e = errno ? errno : EIO;
	if (fclose(a->f) && !e)
		e = errno;
	a->f = NULL;
	if (!e && rename(a->tmp, a->path))
		e = errno;
	if (e) {
		unlink(a->tmp);
		snprintf(err, len, "cannot write %s: %s", TLOB_SHOWN(a->path), strerror(e));
		return -e;
	}
	return 0;
}

void tlob_atomic_abort(struct tlob_atomic *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	unlink(a->tmp);
}
