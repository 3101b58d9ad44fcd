/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replacing a file so that a reader sees the old or the new content, never
 * a part: node_exporter's textfile collector (tlob stats --output) and
 * tlob apply's state file.
 */
#ifndef TLOB_ATOMIC_H
#define TLOB_ATOMIC_H

#include <stdio.h>

struct tlob_atomic {
	FILE *f;		/* write the new content here */
	char tmp[4096];		/* the temporary file, in path's directory */
	const char *path;
};

/*
 * Start replacing path: a temporary file beside it (the same file system,
 * so rename() is atomic), mode 0644. 0 or -errno, with a sentence in err.
 */
int tlob_atomic_open(struct tlob_atomic *a, const char *path, char *err, size_t len);
/* Flush and rename over path; on any error the old file stays. 0 or -errno. */
int tlob_atomic_commit(struct tlob_atomic *a, char *err, size_t len);
/* Give up: remove the temporary file, path is untouched. */
void tlob_atomic_abort(struct tlob_atomic *a);

#endif /* TLOB_ATOMIC_H */
