/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Directories root may trust (safe_dir.c): the BPF pin directory, and the
 * run directory that holds the lock of the pinned set and the verifier log.
 */
#ifndef TLOB_SAFE_DIR_H
#define TLOB_SAFE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The run directory: the lock of the pinned set, the verifier log. */
#define TB_RUN_DIR	"/run/tlob"

/*
 * Open the directory @path (absolute) with every component checked: a
 * directory, no symbolic link, owned by root, and writable by nobody else
 * (an ancestor may be world-writable if it is sticky, as /tmp and a bpffs
 * mounted without mode= are: others cannot then move what root owns in
 * it). @create: make the last component (mode 0700) if it is missing.
 * *@parent, if not NULL, gets an fd of the directory holding it (to
 * remove it). Returns an fd (O_RDONLY | O_DIRECTORY), or -errno with a
 * sentence in @err; -ENOENT when the last component is missing and not
 * @create.
 */
int tb_safe_dir(const char *path, bool create, int *parent, char *err, size_t len);

/*
 * Open TB_RUN_DIR, made if missing, checked as tb_safe_dir() does: an fd
 * or -errno with a sentence in @err.
 */
int tb_run_dir(char *err, size_t len);

#endif
